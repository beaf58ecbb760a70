"""``manage.py import_group FILE --owner NAME``: a new group from a group file, owned by the account NAME,
every round replayed through the engine exactly as ``POST /api/v1/groups/import/`` does."""

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from calculator.engine import EngineError
from ledger import group_file


class Command(BaseCommand):
    help = "Create a new group from a group file (export_group), replaying every round through the engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="The group file; - reads standard input.")
        parser.add_argument("--owner", required=True, help="The account that will own the new group.")
        parser.add_argument(
            "--reseal",
            action="store_true",
            help="Import a file whose own chain does not hold, recorded as re-sealed by the owner.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        owner = get_user_model().objects.filter(username=options["owner"]).first()
        if owner is None:
            raise CommandError(f"No account is called {options['owner']!r} (create_account makes one).")
        try:
            data = json.loads(self._read(options["file"]))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CommandError(f"{options['file']}: {error}") from None
        try:
            group = group_file.group_import(actor=owner, data=data, reseal=options["reseal"])
        except EngineError as error:
            raise CommandError(f"{error.field}: {error.message}") from None
        self.stdout.write(
            f"Imported group {group.pk} ({group.name}): {group.sessions.count()} sessions, owned by {owner}."
        )

    def _read(self, path: Path) -> str:
        return sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
