"""Both engines against the ``mahjong`` package, as ratios measured in the same run.

The targets (issue 11) are ratios of instructions counted by callgrind (``bench.instructions``), which the
machine's load does not move:

- ``score_hand`` at most 3x the instructions of one ``Agari.is_agari`` of the same hand;
- ``find_waits`` at least 8x fewer instructions than the 27-call ``is_agari`` search of the same position;
- ``settle_round`` of the bench round at most 2x that search (the mean search of the measured positions).

Beside each, for people, the same ratio in time (``paired_us``): each side's mean over the hands of each
call's fastest of three passes. Every hand measured is one the
engine has not seen in the process (its parse cache helps none), the bench round excepted: it is settled
again and again, as a session's hand in progress is.

    .venv/bin/python -m bench engine
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time

from bench import instructions
from bench.workload import WARM_HANDS, Call, calls

TIMED_HANDS = 10_000  # more than the engine's parse cache holds, so no timed hand is a cache hit
PASSES = 3
SCORE_MAX_RATIO = 3.0
WAITS_MIN_RATIO = 8.0
SETTLE_MAX_RATIO = 2.0
IMPORT_MAX_CPU_SECONDS = 0.5
IMPORT_MAX_MIB = 40

Row = tuple[str, str, str, str]
Target = tuple[str, float]  # ("<=" or ">=", the ratio)


def paired_us(ours: list[Call], peer: list[Call], passes: int = PASSES) -> tuple[float, float]:
    """The mean microseconds of each side over the calls, each call's fastest of ``passes`` passes.

    The two calls of a pair are timed back to back, so load that comes and goes hits both alike; the
    fastest of a few passes drops the calls a busy machine preempted, and a mean (not a median) keeps
    what the counts keep: the search costs far more on a few positions than on most. The garbage collector
    is off while timing, as in ``timeit``: a collection landing inside a call would time the other
    benches' objects, not ours.
    """
    clock = time.perf_counter_ns
    mine = [float("inf")] * len(ours)
    theirs = [float("inf")] * len(peer)
    gc.collect()
    gc.disable()
    try:
        for _ in range(passes):
            for index, (our_call, peer_call) in enumerate(zip(ours, peer, strict=True)):
                started = clock()
                peer_call()
                between = clock()
                our_call()
                ended = clock()
                theirs[index] = min(theirs[index], between - started)
                mine[index] = min(mine[index], ended - between)
    finally:
        gc.enable()
    return statistics.fmean(mine) / 1000, statistics.fmean(theirs) / 1000


def _subprocess(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


_IMPORT_CPU = (
    "import time; cpu = time.process_time(); import calculator.engine; print(time.process_time() - cpu)"
)
_IMPORT_MEMORY = (
    "import tracemalloc; tracemalloc.start(); import calculator.engine; "
    "print(tracemalloc.get_traced_memory()[0] / 2 ** 20)"
)


def _import_figures() -> tuple[float, float]:
    """CPU seconds (best of 5 fresh processes: CPU time, so waiting for a busy CPU does not count) and MiB
    to import the engine and build its tables."""
    cpu = min(float(_subprocess(_IMPORT_CPU)) for _ in range(5))
    return cpu, float(_subprocess(_IMPORT_MEMORY))


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def ratio_rows(what: str, top: tuple[float, float], bottom: tuple[float, float], target: Target) -> list[Row]:
    """The target row (a ratio of instructions per call) and the same ratio in time, for people.

    ``top`` and ``bottom`` are (instructions per call, mean microseconds) of the ratio's two sides.
    """
    (top_count, top_us), (bottom_count, bottom_us) = top, bottom
    ratio = top_count / bottom_count
    return [
        (
            f"{what}, instructions",
            f"{ratio:.2f}x ({top_count:,.0f} / {bottom_count:,.0f})",
            f"{target[0]} {target[1]:g}x",
            _verdict(ratio <= target[1] if target[0] == "<=" else ratio >= target[1]),
        ),
        (
            "  the same in time (means)",
            f"{top_us / bottom_us:.2f}x ({top_us:.1f} / {bottom_us:.1f} us)",
            "(for people)",
            "",
        ),
    ]


def run() -> tuple[str, list[Row]]:
    counted = instructions.counts()
    warm = calls(WARM_HANDS)
    for name, batch in warm.items():
        for call in batch[:20] if name == "settle_round" else batch:
            call()
    timed = calls(TIMED_HANDS, skip=2 * WARM_HANDS)
    score_us, agari_us = paired_us(timed["score_hand"], timed["is_agari"])
    waits_us, search_us = paired_us(timed["find_waits"], timed["search"])
    rounds = len(timed["settle_round"]) // 5
    settle_us, search_beside_us = paired_us(timed["settle_round"][:rounds], timed["search"][:rounds])
    cpu_seconds, mib = _import_figures()

    rows = [
        *ratio_rows(
            "score_hand / one is_agari of the same hand",
            (counted["score_hand"], score_us),
            (counted["is_agari"], agari_us),
            ("<=", SCORE_MAX_RATIO),
        ),
        *ratio_rows(
            "27 x is_agari search / find_waits (13 tiles)",
            (counted["search"], search_us),
            (counted["find_waits"], waits_us),
            (">=", WAITS_MIN_RATIO),
        ),
        *ratio_rows(
            "settle_round (bench round) / one 27-call search",
            (counted["settle_round"], settle_us),
            (counted["search"], search_beside_us),
            ("<=", SETTLE_MAX_RATIO),
        ),
        (
            "instructions per call of an empty call (subtracted)",
            f"{counted['empty_floor']:,.0f}",
            "(the floor)",
            "",
        ),
        (
            "engine imported, tables built: CPU time (best of 5)",
            f"{cpu_seconds:.2f} s",
            f"< {IMPORT_MAX_CPU_SECONDS} s",
            _verdict(cpu_seconds < IMPORT_MAX_CPU_SECONDS),
        ),
        (
            "  memory it holds (tracemalloc)",
            f"{mib:.1f} MiB",
            f"< {IMPORT_MAX_MIB} MiB",
            _verdict(mib < IMPORT_MAX_MIB),
        ),
    ]
    title = (
        f"Engines vs mahjong (is_agari): callgrind over {instructions.HANDS} hands and "
        f"{instructions.ROUNDS} rounds, times over {TIMED_HANDS:,} hands"
    )
    return title, rows
