"""``flush``, which empties every table (Django's test cases run it after each transactional test), with
the ledger's SQLite triggers out of its way.

The triggers refuse every DELETE of a ledger row, and SQLite's flush is a DELETE per table. For the length
of the flush, in its one transaction, they are dropped and then recreated from the very SQL SQLite stored
for them. PostgreSQL's flush is a TRUNCATE, which row triggers do not see: nothing to do there.
"""

from typing import Any

from django.core.management.commands import flush
from django.db import connections, transaction

GUARD_TRIGGERS = (
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'ledger_append_only_%'"
)


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "sqlite":
            super().handle(**options)
            return
        with transaction.atomic(using=options["database"]):
            with connection.cursor() as cursor:
                triggers = cursor.execute(GUARD_TRIGGERS).fetchall()
                for name, _ in triggers:
                    cursor.execute(f'DROP TRIGGER "{name}"')
            super().handle(**options)
            with connection.cursor() as cursor:
                for _, sql in triggers:
                    cursor.execute(sql)
