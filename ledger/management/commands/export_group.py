"""``manage.py export_group ID [--output FILE]``: the group file of API.md, as ``GET …/export/`` gives it."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger import group_file
from ledger.models import Group, Membership, Role


class Command(BaseCommand):
    help = "Write a group (players, sessions, every round and version) as one JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("group", type=int, help="The group's id.")
        parser.add_argument("--output", type=Path, help="Write to this file instead of standard output.")

    def handle(self, *args: Any, **options: Any) -> None:
        group = Group.objects.filter(pk=options["group"]).first()
        if group is None:
            raise CommandError(f"There is no group {options['group']}.")
        # The shell is the operator: export as one of the group's owners.
        owner = Membership.objects.filter(group=group, role=Role.OWNER).select_related("user").first()
        if owner is None:
            raise CommandError(f"Group {group.pk} has no owner to export it as.")
        text = json.dumps(
            group_file.group_export(actor=owner.user, group=group), ensure_ascii=False, indent=1
        )
        if options["output"] is None:
            self.stdout.write(text)
        else:
            options["output"].write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"Wrote group {group.pk} ({group.name}) to {options['output']}.")
