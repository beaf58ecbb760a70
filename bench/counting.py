"""Counting what one request costs: settlements of a round by the engine, and SQL queries.

``settled()`` counts the calls of the engine's one settle entry point (``settle_round``: every settlement,
the JSON door ``settle_from_payload`` and a ``HandDraft`` transition included, reads the round's events
through ``parse_events`` once). The tests of the session page and this bench use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from settlement.engine import settle as settle_module


class Count:
    def __init__(self) -> None:
        self.value = 0


@contextmanager
def settled() -> Iterator[Count]:
    """How many rounds the engine settled inside the block."""
    count = Count()
    # settle's own name for it (imported there), so the patch below counts what settle calls
    parse = settle_module.parse_events  # type: ignore[attr-defined]

    def counted(events: object) -> object:
        count.value += 1
        return parse(events)

    with mock.patch.object(settle_module, "parse_events", counted):
        yield count
