"""The ledger on SQLite: recording rounds, running totals and the CSV export of a 2,000-round session.

Runs in a child process against a throwaway SQLite file (never the dev database), so Django there is
configured for that file from the start. Every round goes through ``services.round_record`` (the demo's
twelve varied hands, coins on), which is also how the recording time is measured: the median over all
2,000 recordings as the session grows. Totals: queries counted and the median of 20 calls. The targets
are on CPU time (SQLite runs in this process, so that is the whole cost but waiting for the disk): on a
shared machine the wall time of the same run moves with everyone else's load (issue 11), and is printed
beside it for people. The export:
peak traced memory while streaming every line of a 500-round and of a 2,000-round session; constant
memory means the two peaks are about the same.

    .venv/bin/python -m bench ledger
"""

from __future__ import annotations

import json
import statistics
import time
import tracemalloc
from typing import Any

from .child import measure_in_child, seed_table

ROUNDS = 2_000
SMALL_ROUNDS = 500
TOTALS_MAX_QUERIES = 5
TOTALS_MAX_MS = 50.0
RECORD_MAX_MEDIAN_MS = 20.0
EXPORT_MAX_GROWTH = 1.5  # peak(2,000 rounds) / peak(500 rounds)


def run() -> tuple[str, list[tuple[str, str, str, str]]]:
    figures = measure_in_child("bench_ledger")
    return f"Ledger on SQLite: a session of {ROUNDS:,} rounds", rows(figures)


def rows(f: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    growth = f["export_peak_big"] / f["export_peak_small"]
    return [
        (
            "record a round: median CPU time of all",
            f"{f['record_cpu_median_ms']:.1f} ms",
            f"<= {RECORD_MAX_MEDIAN_MS:.0f} ms",
            verdict(f["record_cpu_median_ms"] <= RECORD_MAX_MEDIAN_MS),
        ),
        (
            "  the same in wall time: median / p95",
            f"{f['record_median_ms']:.1f} / {f['record_p95_ms']:.1f} ms",
            "(for people)",
            "",
        ),
        (
            "running totals: SQL queries",
            str(f["totals_queries"]),
            f"<= {TOTALS_MAX_QUERIES}",
            verdict(f["totals_queries"] <= TOTALS_MAX_QUERIES),
        ),
        (
            "running totals: CPU time (median of 20)",
            f"{f['totals_cpu_ms']:.1f} ms",
            f"<= {TOTALS_MAX_MS:.0f} ms",
            verdict(f["totals_cpu_ms"] <= TOTALS_MAX_MS),
        ),
        ("  the same in wall time", f"{f['totals_ms']:.1f} ms", "(for people)", ""),
        ("ledger rows in the session", f"{f['entries']:,}", "-", "ok"),
        (
            f"CSV export of {SMALL_ROUNDS} rounds: peak memory",
            f"{f['export_peak_small'] / 1024:.0f} KiB",
            "-",
            "ok",
        ),
        (
            f"CSV export of {ROUNDS:,} rounds: peak memory",
            f"{f['export_peak_big'] / 1024:.0f} KiB",
            f"<= {EXPORT_MAX_GROWTH} x the {SMALL_ROUNDS}-round peak",
            verdict(growth <= EXPORT_MAX_GROWTH),
        ),
        (f"CSV export of {ROUNDS:,} rounds: time", f"{f['export_ms']:.0f} ms", "-", "ok"),
    ]


def measure() -> dict[str, Any]:
    """The child process: build the sessions through the services and time the reads."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ledger import demo, selectors, services
    from ledger.api import export_lines
    from ledger.models import LedgerEntry

    call_command("migrate", verbosity=0)
    owner = services.account_create(username="bench", password="bench-ledger-2000")

    def session_of(rounds: int, name: str) -> tuple[Any, list[float], list[float]]:
        session = seed_table(owner, name=name, coins=demo.COINS)
        wall, cpu = [], []
        for index in range(rounds):
            started, started_cpu = time.perf_counter(), time.process_time()
            services.round_record(actor=owner, session=session, body=demo.ROUNDS[index % len(demo.ROUNDS)])
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        return session, wall, cpu

    big, record_ms, record_cpu_ms = session_of(ROUNDS, "big")
    small, _, _ = session_of(SMALL_ROUNDS, "small")

    with CaptureQueriesContext(connection) as queries:
        selectors.session_totals(big)
    totals_ms, totals_cpu_ms = [], []
    for _ in range(20):
        started, started_cpu = time.perf_counter(), time.process_time()
        selectors.session_totals(big)
        totals_ms.append((time.perf_counter() - started) * 1000)
        totals_cpu_ms.append((time.process_time() - started_cpu) * 1000)

    def export_peak(session: Any) -> tuple[int, float]:
        tracemalloc.start()
        started = time.perf_counter()
        size = sum(len(line.encode()) for line in export_lines(session))
        elapsed = (time.perf_counter() - started) * 1000
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert size > 0
        return peak, elapsed

    for _ in export_lines(small):  # warm up: first-use caches are not what the export costs per round
        pass
    peak_small, _ = export_peak(small)
    peak_big, export_ms = export_peak(big)
    return {
        "record_median_ms": statistics.median(record_ms),
        "record_p95_ms": statistics.quantiles(record_ms, n=20)[-1],
        "record_cpu_median_ms": statistics.median(record_cpu_ms),
        "totals_queries": len(queries),
        "totals_ms": statistics.median(totals_ms),
        "totals_cpu_ms": statistics.median(totals_cpu_ms),
        "entries": LedgerEntry.objects.filter(session=big).count(),
        "export_peak_small": peak_small,
        "export_peak_big": peak_big,
        "export_ms": export_ms,
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
