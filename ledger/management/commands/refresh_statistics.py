"""``manage.py refresh_statistics``: refresh the statistics of the query planner (ledger/planner.py).

Run it daily (a cron line or a systemd timer, docs/performance.md) and after a large import; ``migrate``
runs it by itself.
"""

from typing import Any

from django.core.management.base import BaseCommand

from ledger.planner import refresh_statistics


class Command(BaseCommand):
    help = "Gather the database's statistics for its query planner (SQLite: ANALYZE; PostgreSQL: ANALYZE)."

    def handle(self, *args: Any, **options: Any) -> None:
        refresh_statistics()
        self.stdout.write("The planner's statistics are up to date.")
