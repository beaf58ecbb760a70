"""ledger/memory.py: the cycle collector is off inside the block and as it was after, whatever happens."""

import gc

import pytest

from ledger.memory import cycles_uncollected


def test_the_collector_is_off_in_the_block_and_on_again_after() -> None:
    assert gc.isenabled()
    with cycles_uncollected():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_refusal() -> None:
    with pytest.raises(ValueError, match="refused"), cycles_uncollected():
        raise ValueError("refused")
    assert gc.isenabled()


def test_a_collector_turned_off_outside_stays_off() -> None:
    gc.disable()
    try:
        with cycles_uncollected():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
