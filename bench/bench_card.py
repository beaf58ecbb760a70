"""The settle-up picture (issue 19): ``/sessions/<id>/card.png`` for a 30-hand session, in CPU time and
bytes, against its targets: under 300 ms of CPU, under 300 KB, at least 1080 px wide.

Runs in a child process on a throwaway SQLite file: the demo's four players and a session of 30 hands
(the demo evening's rounds, recorded again in turn), then the picture fetched through Django's test client
once to make the fonts and tile faces (once per process), and ``TIMES`` more times, each timed in CPU
(``time.process_time``: the queries, the drawing and the PNG encoding, the database's work included, as
SQLite runs in the process). The figure is the median; the first fetch is reported beside it.

    .venv/bin/python -m bench card
"""

from __future__ import annotations

import io
import json
import secrets
import statistics
import time
from typing import Any

from .child import measure_in_child, seed_table

HANDS = 30
TIMES = 7
MAX_CPU_MS = 300
MAX_KB = 300
MIN_WIDTH = 1080

Row = tuple[str, str, str, str]


def run() -> tuple[str, list[Row]]:
    figures = measure_in_child("bench_card")
    median, size, width = figures["median_ms"], figures["bytes"] / 1024, figures["width"]
    return f"The settle-up picture of a {HANDS}-hand session", [
        ("CPU per picture, median", f"{median:.0f} ms", f"< {MAX_CPU_MS} ms", _verdict(median < MAX_CPU_MS)),
        ("CPU of the first (fonts, faces)", f"{figures['first_ms']:.0f} ms", "", ""),
        ("PNG size", f"{size:.0f} KB", f"< {MAX_KB} KB", _verdict(size < MAX_KB)),
        ("width", f"{width} px", f">= {MIN_WIDTH} px", _verdict(width >= MIN_WIDTH)),
    ]


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def measure() -> dict[str, Any]:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from PIL import Image

    from ledger import demo, services

    call_command("migrate", verbosity=0)
    owner = services.account_create(username="bench-card", password=secrets.token_urlsafe(16))
    session = seed_table(owner, name=demo.GROUP, coins=demo.COINS)
    for index in range(HANDS):
        services.round_record(actor=owner, session=session, body=demo.ROUNDS[index % len(demo.ROUNDS)])
    client = Client()
    client.force_login(owner)
    url = f"/sessions/{session.pk}/card.png"
    spent = []
    for _ in range(TIMES + 1):
        started = time.process_time()
        response = client.get(url)
        spent.append((time.process_time() - started) * 1000)
        assert response.status_code == 200, response.status_code
    width = Image.open(io.BytesIO(response.content)).width
    return {
        "first_ms": spent[0],
        "median_ms": statistics.median(spent[1:]),
        "bytes": len(response.content),
        "width": width,
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
