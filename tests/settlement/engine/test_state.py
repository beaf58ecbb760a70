"""A round's state steps: each changes what its step names and keeps every other field. ``after_win`` builds
the state whole, field by field in order (the replay's most frequent step, cheaper than ``_replace``), so a
field added to ``RoundState`` or two fields swapped must show here, where the types would not."""

import pytest

from settlement.engine.state import (
    FirstWin,
    KongMade,
    KongPayment,
    PaymentState,
    Reason,
    RoundState,
    Transfer,
)

# Every field set, each to a value its step does not give it, and no two fields of one type alike where
# they could be swapped (the two flags a win keeps differ; a win sets the other two, to each pair of values).
KONG = KongMade(kong=0, maker=2, direct=True, feeder=1)
VALUES = {
    "dealer": 3,
    "winners_play_on": True,
    "winners": (0,),
    "escaped": (1,),
    "kong_payments": (KongPayment(0, 2, 1, 2, PaymentState.PAID),),
    "win_receipts": (Transfer(1, 2, 0, 4, Reason.WIN),),
    "previous_kong": KONG,
    "any_kong": False,
    "last_tile_won": False,
    "first_win": FirstWin(discarder=None, winners=(0,)),
    "finished": False,
}
STATE = RoundState(**VALUES)
RECEIPT = Transfer(2, 3, 2, 8, Reason.WIN)


def test_the_state_above_sets_every_field():
    """A field added to RoundState is added here too, to a value of its own: else a step may drop it."""
    assert set(VALUES) == set(RoundState._fields)


@pytest.mark.parametrize(("last_tile", "finished"), [(True, False), (False, True), (True, True)])
def test_after_a_win_only_what_a_win_changes_has_changed(last_tile, finished):
    first = FirstWin(discarder=3, winners=(2,))
    after = STATE.after_win((2,), (RECEIPT,), last_tile=last_tile, first_win=first, finished=finished)
    assert after == STATE._replace(
        winners=(0, 2),
        win_receipts=(*STATE.win_receipts, RECEIPT),
        previous_kong=None,
        last_tile_won=last_tile,
        first_win=first,
        finished=finished,
    )


def test_every_step_keeps_the_fields_it_does_not_name():
    made = KongMade(kong=3, maker=0, direct=False, feeder=None)
    payment = KongPayment(3, 0, 2, 2, PaymentState.PAID)
    assert STATE.after_kong((payment,), made) == STATE._replace(
        kong_payments=(*STATE.kong_payments, payment), previous_kong=made, any_kong=True
    )
    assert STATE.after_escape(2, finished=True) == STATE._replace(
        escaped=(1, 2), previous_kong=None, finished=True
    )
    assert STATE.ended() == STATE._replace(previous_kong=None, finished=True)
    assert STATE.but_payments(()) == STATE._replace(kong_payments=())
