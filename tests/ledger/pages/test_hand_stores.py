"""One suite of transitions run against each of the three homes of a hand in progress: the stored session
(``SessionHandStore``, through the ledger's hand services), ``/round/``'s evening (``EveningStore``, in the
Django session) and a correction (``CorrectionStore``). Each store only keeps the engine's ``HandDraft``:
the same transitions leave the same hand, and a refusal is the same code and the same words.

Every store starts from one hand: 阿美's 弯杠 entered, then a 流局 that ended the hand, taken back by 撤销
(the session's store reopens its recorded round for that; the correction begins from that round).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from calculator.engine import EngineError
from ledger import selectors, services
from ledger import urls as _converters  # noqa: F401 (the pages' routes need the ledger's path converter)
from ledger.models import Round
from ledger.pages.history import CorrectionStore
from ledger.pages.session import SessionHandStore
from settlement.engine import Undone
from tests.ledger.conftest import make_table
from web.entry.evening import EveningStore
from web.entry.store import Change, StaleHand

ADDED_C = {"type": "kong", "player": 2, "kind": "added", "tile": "5p"}
NOBODY_READY = {"type": "draw", "players": [{"player": seat, "status": "not_ready"} for seat in range(4)]}
ROBS_C = {"type": "win", "from": 2, "robbing_kong": True, "winners": [{"player": 0, "fan": 2}]}
KONG_D = {"type": "kong", "player": 3, "kind": "concealed", "tile": "2m"}
FIFTH_2M = {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}
RULES = {"preset": "chengdu"}


def change(name: str, transition: Callable[..., Any]) -> Change:
    return Change({"test": name}, transition)


KONG_B = {"type": "kong", "player": 1, "kind": "concealed", "tile": "9s"}
RECORD = change("record", lambda d, s: d.record(KONG_B, "小李 暗杠", settle=s))
UNDO = change("undo", lambda d, s: d.undo(settle=s))
REDO = change("redo", lambda d, s: d.redo(settle=s))


def _session_store(owner: Any) -> Any:
    _group, session = make_table(owner, rules=RULES)
    store = SessionHandStore(actor=owner, session=session)
    for event in (ADDED_C, NOBODY_READY):
        store.write(
            change("start", lambda d, s, e=event: d.record(e, "entered", settle=s)),
            revision=store.load().revision,
        )
    store.write(UNDO, revision=store.load().revision)  # right after the finished hand: reopens its round
    return store


def _evening_store(owner: Any) -> Any:
    store = EveningStore({})
    for event in (ADDED_C, NOBODY_READY):
        store.write(
            change("start", lambda d, s, e=event: d.record(e, "entered", settle=s)),
            revision=store.load().revision,
        )
    store.write(UNDO, revision=store.load().revision)
    return store


def _correction_store(owner: Any) -> Any:
    _group, session = make_table(owner, rules=RULES)
    round_, _created = services.round_record(
        actor=owner, session=session, body={"dealer": 0, "events": [ADDED_C, NOBODY_READY]}
    )
    round_ = selectors.session_rounds(session).get(pk=round_.pk)
    store = CorrectionStore({}, round_, ["小王", "小李", "阿美", "老张"], [0, 0, 0, 0])
    store.draft["notes"] = ["entered", "entered"]
    store.write(UNDO, revision=store.load().revision)
    return store


STORES = {"session": _session_store, "evening": _evening_store, "correction": _correction_store}


@pytest.fixture(params=list(STORES))
def store(request: Any, owner: Any) -> Any:
    return STORES[request.param](owner)


def test_every_store_starts_from_the_same_hand(store):
    hand = store.load()
    assert (hand.events, hand.notes, hand.draft.undone) == (
        (ADDED_C,),
        ("entered",),
        (Undone(NOBODY_READY, "entered"),),
    )


# (the changes, in order; the events, notes and undone events they leave; whether the last one finished)
TRANSITIONS = [
    pytest.param([REDO], (ADDED_C, NOBODY_READY), (), True, id="redo-finishes-the-hand-again"),
    pytest.param([UNDO], (), (NOBODY_READY, ADDED_C), False, id="undo-takes-back-the-kong-too"),
    pytest.param([RECORD], (ADDED_C, KONG_B), (), False, id="record-forgets-the-undone"),
    pytest.param(
        [change("rob", lambda d, s: d.replace_robbed_kong(ROBS_C, "抢杠", settle=s))],
        (ROBS_C,),
        (),
        False,
        id="the-robbing-win-replaces-the-kong-in-one-write",
    ),
    pytest.param(
        [change("edit", lambda d, s: d.edit(0, KONG_D, "老张 暗杠", settle=s))],
        (KONG_D,),
        (NOBODY_READY,),
        False,
        id="edit-in-place-keeps-the-undone",
    ),
    pytest.param([REDO, UNDO], (ADDED_C,), (NOBODY_READY,), False, id="redo-then-undo"),
]


@pytest.mark.parametrize(("changes", "events", "undone", "finished"), TRANSITIONS)
def test_the_same_transitions_leave_the_same_hand(store, changes, events, undone, finished):
    for step in changes:
        done = store.write(step, revision=store.load().revision)
    hand = done.finished if finished and done.finished is not None else store.load()
    if finished:
        assert (
            done.finished is not None and done.finished_result is not None and done.finished_result.finished
        )
    else:
        assert done.finished is None
        assert (hand.events, tuple(entry.event for entry in hand.draft.undone)) == (events, undone)
        assert store.load().revision == done.hand.revision
    assert hand.events == events


# (the changes before, the refused change; its code)
REFUSALS = [
    pytest.param([UNDO], UNDO, "nothing_to_undo", id="nothing-to-undo"),
    pytest.param([RECORD], REDO, "nothing_to_redo", id="nothing-to-redo"),
    pytest.param(
        [], change("edit", lambda d, s: d.edit(3, KONG_D, None, settle=s)), "no_such_event", id="no-event-3"
    ),
    pytest.param(
        [],
        change("fifth", lambda d, s: d.record(FIFTH_2M, None, settle=s).draft.record(KONG_D, None, settle=s)),
        "round_fifth_copy",
        id="a-fifth-2m",
    ),
    pytest.param(
        [], change("set-up", lambda d, s: d.set_up(dealer=2, settle=s)), "hand_started", id="setup-late"
    ),
]


@pytest.mark.parametrize(("before", "refused", "code"), REFUSALS)
def test_the_same_refusals_with_the_same_words(store, before, refused, code):
    for step in before:
        store.write(step, revision=store.load().revision)
    kept = store.load()
    with pytest.raises(EngineError) as error:
        store.write(refused, revision=kept.revision)
    assert error.value.code == code
    assert error.value.localized("zh-hans") == type(error.value)(
        code, field="", **error.value.params
    ).localized("zh-hans")
    assert store.load() == kept, "a refusal changes nothing"


def test_a_stale_revision_is_refused_with_the_current_hand(store):
    seen = store.load().revision
    store.write(REDO, revision=seen)
    with pytest.raises(StaleHand) as stale:
        store.write(UNDO, revision=seen)
    assert stale.value.current.revision != seen


def test_the_session_store_took_back_its_recorded_round(owner):
    store = _session_store(owner)
    round_ = Round.objects.get(session=store.session)
    assert round_.voided and store.load().number == round_.position
