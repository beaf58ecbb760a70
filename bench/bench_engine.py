"""The hand engine against the ``mahjong`` package (``Agari.is_agari``) on the same 10,000 seeded hands.

Figures are medians over the hands of each hand's mean time (each call repeated a few times, so a
sub-microsecond call is not lost in the timer's own cost). The tables' import time and memory are measured
in fresh subprocesses, so nothing already imported here counts.
"""

from __future__ import annotations

import gc
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from mahjong.agari import Agari

from calculator.engine import find_waits, score_hand
from calculator.engine.decompose import is_win
from calculator.engine.tiles import format_tiles, pack
from calculator.engine.waits import wait_tiles

HANDS = 10_000
SEED = 20260
SUIT_TILES = 9


@dataclass(frozen=True)
class Hand:
    concealed: tuple[int, ...]  # 13 tiles (fewer with melds), sorted
    win_tile: int
    melds: tuple[dict[str, str], ...]


def _sets(rng: random.Random, suits: list[int]) -> list[tuple[int, ...]] | None:
    counts = [0] * 27
    groups: list[tuple[int, ...]] = []
    for _ in range(4):
        suit = rng.choice(suits)
        rank = rng.randrange(9)
        group = (
            (9 * suit + rank,) * 3
            if rng.random() < 0.4 or rank > 6
            else tuple(9 * suit + rank + i for i in range(3))
        )
        groups.append(group)
    pair_tile = 9 * rng.choice(suits) + rng.randrange(9)
    groups.append((pair_tile, pair_tile))
    for group in groups:
        for tile in group:
            counts[tile] += 1
    return groups if max(counts) <= 4 else None


def _seven_pairs(rng: random.Random, suits: list[int]) -> list[tuple[int, ...]]:
    kinds = [9 * suit + rank for suit in suits for rank in range(9)]
    chosen = rng.sample(kinds, 6)
    chosen.append(rng.choice(chosen))  # sometimes a quad
    return [(tile, tile) for tile in chosen]


def make_hands(count: int = HANDS, seed: int = SEED) -> list[Hand]:
    """Seeded winning hands in one or two suits: standard shapes (a third with a pung meld), seven pairs."""
    rng = random.Random(seed)
    hands: list[Hand] = []
    while len(hands) < count:
        suits = rng.sample(range(3), rng.choice((1, 2, 2, 2)))
        groups = _seven_pairs(rng, suits) if rng.random() < 0.1 else _sets(rng, suits)
        if groups is None:
            continue
        melds: tuple[dict[str, str], ...] = ()
        pung = next((g for g in groups if len(g) == 3 and g[0] == g[1]), None)
        if pung is not None and rng.random() < 0.33:
            groups.remove(pung)
            melds = ({"kind": "pung", "tile": format_tiles(pung[:1])},)
        tiles = [tile for group in groups for tile in group]
        win = tiles.pop(rng.randrange(len(tiles)))
        hands.append(Hand(tuple(sorted(tiles)), win, melds))
    return hands


def median_us(calls: list[Callable[[], object]], repeat: int) -> float:
    """The median over the calls of each call's mean time in microseconds.

    The garbage collector is off while timing, as in ``timeit``: run after another bench has filled the
    heap (``make bench`` runs the API bench first), a collection landing inside a 1 µs call would time
    the other bench's objects, not ours.
    """
    times = []
    clock = time.perf_counter_ns
    gc.collect()
    gc.disable()
    try:
        for call in calls:
            started = clock()
            for _ in range(repeat):
                call()
            times.append((clock() - started) / repeat / 1000)
    finally:
        gc.enable()
    return statistics.median(times)


def _array_34(tiles: tuple[int, ...]) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return counts


def _agari_waits(counts: list[int]) -> list[int]:
    """The peer's way: try each of the 27 tiles with is_agari."""
    waits = []
    for tile in range(27):
        if counts[tile] < 4:
            counts[tile] += 1
            if Agari.is_agari(counts):
                waits.append(tile)
            counts[tile] -= 1
    return waits


def _subprocess(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


_IMPORT_TIMES = (
    "import time; wall, cpu = time.perf_counter(), time.process_time(); import calculator.engine; "
    "print(time.perf_counter() - wall, time.process_time() - cpu)"
)
_IMPORT_MEMORY = (
    "import tracemalloc; tracemalloc.start(); import calculator.engine; "
    "print(tracemalloc.get_traced_memory()[0] / 2 ** 20)"
)


def _import_figures() -> tuple[float, float, float]:
    """Seconds (wall, CPU: best of 5 fresh processes) and MiB to import the engine and build its tables."""
    runs = [tuple(map(float, _subprocess(_IMPORT_TIMES).split())) for _ in range(5)]
    return min(wall for wall, _ in runs), min(cpu for _, cpu in runs), float(_subprocess(_IMPORT_MEMORY))


def _row(what: str, figure: float, unit: str, target: str, ok: bool) -> tuple[str, str, str, str]:
    return what, f"{figure:.2f} {unit}", target, "ok" if ok else "MISSED"


def run() -> tuple[str, list[tuple[str, str, str, str]]]:
    hands = make_hands()
    # The concealed part of every hand (with melds, is_agari checks the concealed part alone as well).
    no_melds = [not hand.melds for hand in hands]
    full = [(*hand.concealed, hand.win_tile) for hand in hands]
    full_packed = [pack(tiles) for tiles in full]
    full_34 = [_array_34(tiles) for tiles in full]
    positions_packed = [pack(hand.concealed) for hand in hands]
    positions_34 = [_array_34(hand.concealed) for hand in hands]

    ours_win = median_us(
        [lambda p=p, n=n: is_win(p, n) for p, n in zip(full_packed, no_melds, strict=True)], 50
    )
    peer_win = median_us([lambda c=c: Agari.is_agari(c) for c in full_34], 10)
    ours_waits = median_us(
        [lambda p=p, n=n: wait_tiles(p, n) for p, n in zip(positions_packed, no_melds, strict=True)], 20
    )
    peer_waits = median_us([lambda c=c: _agari_waits(c) for c in positions_34], 1)

    notation = [(format_tiles(h.concealed), format_tiles((h.win_tile,)), h.melds) for h in hands]
    score_calls = [lambda c=c, w=w, m=m: score_hand(c, w, m) for c, w, m in notation]
    score = median_us(score_calls, 3)
    waits_calls = [lambda c=c, m=m: find_waits(c, m) for c, _, m in notation]
    waits = median_us(waits_calls, 3)
    seconds, cpu_seconds, mib = _import_figures()

    rows = [
        _row("engine imported, tables built (fresh process)", seconds, "s", "< 0.5 s", seconds < 0.5),
        _row("  the same in CPU time (machine load aside)", cpu_seconds, "s", "", True),
        _row("  memory it holds (tracemalloc)", mib, "MiB", "< 40 MiB", mib < 40),
        _row("win check: ours (packed counts)", ours_win, "us", "", True),
        _row("win check: mahjong Agari.is_agari (34-array)", peer_win, "us", "", True),
        _row("win check: speed-up", peer_win / ours_win, "x", ">= 10x", peer_win / ours_win >= 10),
        _row("waits (13 tiles less melds): ours (tables)", ours_waits, "us", "", True),
        _row("waits (13 tiles less melds): 27 x is_agari", peer_waits, "us", "", True),
        _row("waits: speed-up", peer_waits / ours_waits, "x", ">= 50x", peer_waits / ours_waits >= 50),
        _row("score_hand from a tile string (public API)", score, "us", "<= 20 us", score <= 20),
        _row("find_waits (13 tiles), waits + best fan of each", waits, "us", "<= 30 us", waits <= 30),
        _row(
            "find_waits vs the 27 x is_agari search alone",
            peer_waits / waits,
            "x",
            ">= 5x",
            peer_waits / waits >= 5,
        ),
    ]
    return f"Hand engine vs mahjong (is_agari), {HANDS} seeded hands, seed {SEED}", rows
