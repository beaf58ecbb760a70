"""The database's statistics for its query planner, refreshed after migrations and on a schedule.

SQLite plans without statistics until ``ANALYZE`` has run: it then guesses from the indexes alone, and a
guess once sent the 走势 page through the wrong index of the whole ledger (issue 16; the index that fits
that query now exists, ledger/models.py). So the statistics are gathered after every ``migrate`` (Django's
``post_migrate``, once per run) and by ``manage.py refresh_statistics``, which a deployment runs daily
(docs/performance.md, "The planner's statistics"). ``analysis_limit`` bounds SQLite's work to a sample of
each index, so a refresh of a large database takes well under a second. PostgreSQL's autovacuum keeps its
own statistics; an ``ANALYZE`` here only brings the next one forward.
"""

from __future__ import annotations

from typing import Any

from django.db import connections

ANALYSIS_LIMIT = 1000  # rows sampled per index (SQLite's PRAGMA analysis_limit)
STATEMENTS = {
    "sqlite": (f"PRAGMA analysis_limit={ANALYSIS_LIMIT}", "ANALYZE", "PRAGMA optimize"),
    "postgresql": ("ANALYZE",),
}


def refresh_statistics(using: str = "default") -> None:
    connection = connections[using]
    with connection.cursor() as cursor:
        for statement in STATEMENTS.get(connection.vendor, ()):
            cursor.execute(statement)


def after_migrate(sender: Any, using: str = "default", plan: Any = None, **kwargs: Any) -> None:
    """``post_migrate`` of the ledger app: when migrations ran, the tables and indexes may have changed, so
    their statistics too. A ``flush`` (between transactional tests) sends the signal with no plan: nothing
    was migrated, and nothing is gathered."""
    if plan:
        refresh_statistics(using)
