"""A group's statistics on SQLite: a year of weekly evenings, 50 closed sessions of 20 hands (1,000 rounds).

The sessions are recorded through ``services.round_record`` (the demo's twelve hands in turn, the four
players moving one seat each evening), then ``ledger.statistics.group_statistics`` is measured: its SQL
queries (a fixed number, whatever the group has played) and the median CPU time of 20 calls, and the same
for the API's answer ``GET /api/v1/groups/{id}/statistics/`` (its serializer included). Targets are on
CPU time, as in the ledger bench: SQLite runs in this process; the wall time is printed for people.

    .venv/bin/python -m bench stats
"""

from __future__ import annotations

import json
import secrets
import statistics
import time
from typing import Any

from .child import measure_in_child

SESSIONS = 50
HANDS = 20
QUERIES = 6  # ledger/statistics.py: the figures (ledger/figures.py), never the ledger
SELECTOR_MAX_MS = 200.0
API_MAX_MS = 300.0


def run() -> tuple[str, list[tuple[str, str, str, str]]]:
    figures = measure_in_child("bench_stats")
    return f"A group's statistics: {SESSIONS} sessions of {HANDS} hands", rows(figures)


def rows(f: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    return [
        ("ledger rows of the group", f"{f['entries']:,}", "-", ""),
        (
            "statistics: SQL queries",
            str(f["selector_queries"]),
            f"= {QUERIES}",
            verdict(f["selector_queries"] == QUERIES),
        ),
        (
            "statistics: CPU time (median of 20)",
            f"{f['selector_cpu_ms']:.1f} ms",
            f"<= {SELECTOR_MAX_MS:.0f} ms",
            verdict(f["selector_cpu_ms"] <= SELECTOR_MAX_MS),
        ),
        ("  the same in wall time", f"{f['selector_ms']:.1f} ms", "(for people)", ""),
        ("the API's answer: SQL queries", str(f["api_queries"]), "-", ""),
        (
            "the API's answer: CPU time (median of 20)",
            f"{f['api_cpu_ms']:.1f} ms",
            f"<= {API_MAX_MS:.0f} ms",
            verdict(f["api_cpu_ms"] <= API_MAX_MS),
        ),
        ("  the same in wall time", f"{f['api_ms']:.1f} ms", "(for people)", ""),
    ]


def _timed(call: Any) -> tuple[float, float]:
    """Median wall and CPU milliseconds of 20 calls."""
    wall, cpu = [], []
    for _ in range(20):
        started, started_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def measure() -> dict[str, Any]:
    """The child process: the group's evenings through the services, then its statistics read."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ledger import demo, services
    from ledger import statistics as group_stats
    from ledger.models import LedgerEntry

    call_command("migrate", verbosity=0)
    owner = services.account_create(username="bench-stats", password=secrets.token_urlsafe(16))
    group = services.group_create(actor=owner, name=demo.GROUP)
    players = [services.player_add(actor=owner, group=group, name=name) for name in demo.PLAYERS]
    for evening in range(SESSIONS):
        seating = players[evening % 4 :] + players[: evening % 4]
        session = services.session_start(
            actor=owner, group=group, name=f"第{evening + 1}场", player_ids=[p.pk for p in seating]
        )
        for hand in range(HANDS):
            body = demo.ROUNDS[(evening + hand) % len(demo.ROUNDS)]
            services.round_record(actor=owner, session=session, body=body)
        services.session_close(actor=owner, session=session)

    client = Client()
    client.force_login(owner)
    url = f"/api/v1/groups/{group.pk}/statistics/"
    assert client.get(url).status_code == 200
    # Counted at once: a capture reads the connection's log when asked, and later requests change it.
    with CaptureQueriesContext(connection) as captured:
        group_stats.group_statistics(group)
    selector_queries = len(captured)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    api_queries = len(captured)
    selector_ms, selector_cpu_ms = _timed(lambda: group_stats.group_statistics(group))
    api_ms, api_cpu_ms = _timed(lambda: client.get(url))
    return {
        "entries": LedgerEntry.objects.filter(session__group=group).count(),
        "selector_queries": selector_queries,
        "selector_ms": selector_ms,
        "selector_cpu_ms": selector_cpu_ms,
        "api_queries": api_queries,
        "api_ms": api_ms,
        "api_cpu_ms": api_cpu_ms,
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
