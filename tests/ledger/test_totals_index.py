"""The running totals are read from an index alone (issue 16).

Since substitutes the totals sum each session's ledger by player. Without an index covering (session,
player, points) SQLite found a 10,000-hand session's rows through the per-seat index and then read each
from the table: 200 ms of every totals read, the settle-up's and a viewer's board's (docs/performance.md,
"The per-person totals' index"). The plan is asked of SQLite, whose planner is the one that needed it;
PostgreSQL chooses its plan by the table's statistics, which a test's few rows do not represent.
"""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="the plan asked is SQLite's")


def test_the_totals_sum_of_points_reads_a_covering_index(session: Any) -> None:
    with CaptureQueriesContext(connection) as queries:
        selectors.session_totals(session)
    sums = [q["sql"] for q in queries if "ledger_ledgerentry" in q["sql"] and "SUM(" in q["sql"].upper()]
    assert len(sums) == 1, sums
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sums[0]}")
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "COVERING INDEX ledger_session_player_points" in plan, plan
