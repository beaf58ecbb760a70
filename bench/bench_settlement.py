"""The settlement engine: one seven-event round settled by ``settle_round``.

Four kongs, two wins scored from tiles (a 杠上炮-free discard win and a self-draw), then a 流局 that checks
two hands given as tiles (find_waits for 花猪 / ready / best fan). Target: median <= 300 microseconds.
Run it alone with ``.venv/bin/python -m bench settlement``.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from calculator.engine.rules import Rules
from settlement.engine import settle_round

TARGET_MICROSECONDS = 300
RUNS = 3000

ROUND: dict[str, Any] = {
    "dealer": 0,
    "void_suits": ["p", "s", "m", "s"],
    "events": [
        {"type": "kong", "player": 0, "kind": "concealed", "tile": "2m"},
        {"type": "kong", "player": 1, "kind": "direct", "tile": "5p", "from": 2},
        {"type": "kong", "player": 2, "kind": "added", "tile": "8s"},
        {"type": "kong", "player": 3, "kind": "concealed", "tile": "9m"},
        {
            "type": "win",
            "from": 0,
            "winners": [
                {
                    "player": 3,
                    "hand": {
                        "concealed": "123p234p678p4m",
                        "win_tile": "4m",
                        "melds": [{"kind": "kong_concealed", "tile": "9m"}],
                    },
                }
            ],
        },
        {
            "type": "win",
            "from": None,
            "winners": [
                {
                    "player": 1,
                    "hand": {
                        "concealed": "345m567m678m1m",
                        "win_tile": "1m",
                        "melds": [{"kind": "kong_direct", "tile": "5p"}],
                    },
                }
            ],
        },
        {
            "type": "draw",
            "players": [
                {
                    "player": 0,
                    "hand": {
                        "concealed": "123s456s33m77s",
                        "melds": [{"kind": "kong_concealed", "tile": "2m"}],
                    },
                },
                {
                    "player": 2,
                    "hand": {"concealed": "555s666s7s9s22p", "melds": [{"kind": "kong_added", "tile": "8s"}]},
                },
            ],
        },
    ],
}


def run() -> tuple[str, list[tuple[str, str, str, str]]]:
    rules = Rules.from_dict({"preset": "chengdu"})
    settle_round(rules=rules, **ROUND)  # warm the calculator's tables
    timings = []
    for _ in range(RUNS):
        started = time.perf_counter_ns()
        settle_round(rules=rules, **ROUND)
        timings.append(time.perf_counter_ns() - started)
    median = statistics.median(timings) / 1000
    verdict = "ok" if median <= TARGET_MICROSECONDS else "MISSED"
    return "Settlement engine (settle_round, 7 events: 4 kongs, 2 wins from tiles, a draw with 2 hands)", [
        ("median settle_round", f"{median:.0f} µs", f"<= {TARGET_MICROSECONDS} µs", verdict),
        (
            "rounds per second (1 / median)",
            f"{1e6 / median:,.0f}",
            f">= {1e6 / TARGET_MICROSECONDS:,.0f}",
            verdict,
        ),
    ]


if __name__ == "__main__":
    title, rows = run()
    print(title)
    for row in rows:
        print("  ".join(row))
