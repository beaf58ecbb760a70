"""Python's cycle collector paused while a whole history is built or read in memory.

The collector runs each time allocations outnumber deallocations by a few hundred, and each older
generation's run walks every object still alive. Replaying a group file or reading a long session back
keeps hundreds of thousands of objects alive at once (model rows, decoded JSON, the engine's results),
none of them in a cycle, so the collector walks them again and again and finds nothing: a third of
``verify_ledger``'s time for a session of 10,000 rounds (7 s of CPU, 4.8 s without it), a fifth of an
import's. Reference counting frees them all the same; anything cyclic left behind is collected once the
collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycles_uncollected() -> Iterator[None]:
    """The cycle collector off for the block (and on again after, if it was on)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
