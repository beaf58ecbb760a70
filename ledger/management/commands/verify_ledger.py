"""``manage.py verify_ledger [--group ID]``: check the ledger the way an auditor would.

Every version sums to zero, the hash chain of every session holds, and the totals equal a replay of the
stored events through the engine (ledger/integrity.py); the figures the statistics read equal what the
ledger makes (ledger/figures.py); each group's kept 谁还欠谁 equals its sessions settled afresh
(ledger/debts.py). Exits 0 saying what it checked, or 1 naming each thing it found.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger import debts, figures
from ledger.integrity import verify_session
from ledger.models import Group, RoundVersion, Session


class Command(BaseCommand):
    help = (
        "Check every round version's balance and seal and replay every session's rounds through the engine."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--group", type=int, help="Check only this group (its id).")

    def handle(self, *args: Any, **options: Any) -> None:
        sessions = Session.objects.select_related("group").order_by("group_id", "id")
        if options["group"] is not None:
            if not Group.objects.filter(pk=options["group"]).exists():
                raise CommandError(f"There is no group {options['group']}.")
            sessions = sessions.filter(group_id=options["group"])
        findings = 0
        for session in sessions.iterator(chunk_size=100):
            for finding in verify_session(session):
                self.stderr.write(str(finding))
                findings += 1
        for drifted in figures.drift(sessions.values_list("pk", flat=True)):
            self.stderr.write(f"the figures drifted from the ledger: {drifted}")
            findings += 1
        for drifted in debts.drift(sessions.values_list("group_id", flat=True).distinct()):
            self.stderr.write(f"the kept debts drifted from the ledger: {drifted}")
            findings += 1
        checked = sessions.count()
        versions = RoundVersion.objects.filter(round__session__in=sessions).count()
        if findings:
            raise CommandError(f"{findings} problem(s) found in the ledger ({checked} sessions checked).")
        self.stdout.write(
            f"The ledger holds: {checked} sessions, {versions} round versions; every version sums to zero, "
            "every hash chain holds, every total equals a replay of the stored events, every figure the "
            "statistics read equals the ledger's, every group's kept debts equal its sessions'."
        )
