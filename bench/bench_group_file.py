"""Moving a group on SQLite: the export and the import of a group of 100 sessions of 20 hands (2,000 rounds).

The sessions are recorded through ``services.round_record`` (the demo's twelve hands in turn, the four
players moving one seat each evening, every session closed), then ``group_file.group_export`` and
``group_file.group_import`` are each run once: their SQL queries and their wall and CPU time. Issue 16's
targets: the export in a bounded number of queries (not one per round, nor one per session), the import at
most 5 s and 500 queries.

    .venv/bin/python -m bench group_file
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from .child import measure_in_child

SESSIONS = 100
HANDS = 20
EXPORT_QUERIES = 15
IMPORT_QUERIES = 500
IMPORT_MAX_S = 5.0


def run() -> tuple[str, list[tuple[str, str, str, str]]]:
    figures = measure_in_child("bench_group_file")
    return f"Moving a group: {SESSIONS} sessions of {HANDS} hands", rows(figures)


def rows(f: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    return [
        (
            "export: SQL queries",
            str(f["export_queries"]),
            f"<= {EXPORT_QUERIES}",
            verdict(f["export_queries"] <= EXPORT_QUERIES),
        ),
        ("export: wall time", f"{f['export_s']:.2f} s", "(for people)", ""),
        ("export: CPU time", f"{f['export_cpu_s']:.2f} s", "-", ""),
        (
            "import: SQL queries",
            f"{f['import_queries']:,}",
            f"<= {IMPORT_QUERIES}",
            verdict(f["import_queries"] <= IMPORT_QUERIES),
        ),
        (
            "import: wall time",
            f"{f['import_s']:.1f} s",
            f"<= {IMPORT_MAX_S:.0f} s",
            verdict(f["import_s"] <= IMPORT_MAX_S),
        ),
        ("import: CPU time", f"{f['import_cpu_s']:.1f} s", "-", ""),
    ]


def _once(call: Any) -> tuple[Any, int, float, float]:
    """What ``call`` returns, its SQL queries, its wall and CPU seconds."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        started, started_cpu = time.perf_counter(), time.process_time()
        value = call()
        wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    return value, len(captured), wall, cpu


def measure() -> dict[str, Any]:
    """The child process: the group's evenings through the services, then its file out and in again."""
    import django

    django.setup()
    from django.core.management import call_command

    from ledger import demo, group_file, services

    call_command("migrate", verbosity=0)
    owner = services.account_create(username="bench-group-file", password=secrets.token_urlsafe(16))
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

    file, export_queries, export_s, export_cpu_s = _once(
        lambda: group_file.group_export(actor=owner, group=group)
    )
    file = json.loads(json.dumps(file))  # as the file travels
    _, import_queries, import_s, import_cpu_s = _once(lambda: group_file.group_import(actor=owner, data=file))
    return {
        "export_queries": export_queries,
        "export_s": export_s,
        "export_cpu_s": export_cpu_s,
        "import_queries": import_queries,
        "import_s": import_s,
        "import_cpu_s": import_cpu_s,
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
