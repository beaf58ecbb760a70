"""The hand in progress as one value (``HandDraft``): each transition settles once and returns the new
draft with its settlement; a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from settlement.engine import (
    KEPT,
    DraftRefusal,
    EngineError,
    HandDraft,
    RoundResult,
    StaleDraft,
    Undone,
    settler,
)

from .rounds import adjust, by_fan, draw, kong, status, win

A, B, C, D = 0, 1, 2, 3
CHENGDU = {"preset": "chengdu"}
CONCEALED_B = kong(B, "concealed", "2m")  # 小李 暗杠: 2 from each
ADDED_C = kong(C, "added", "5p")  # 阿美 弯杠 5p: 1 from each
ROBS_C = win(C, by_fan(A, 2), robbing_kong=True)  # 小王 robs 阿美's 弯杠
SELF_DRAW_D = win(None, by_fan(D, 1))
DISCARD_A_TO_B = win(A, by_fan(B, 3))
FINE_D = adjust(D, A, 1, "诈胡")  # 老张 fined 1 to 小王 (RULES.md 4.8): no play event
NOBODY_READY = draw(*[status(seat, "not_ready") for seat in (A, B, C, D)])  # 流局: ends any hand


def counting() -> tuple[Callable[[HandDraft], RoundResult], list[HandDraft]]:
    """The chengdu table's ``settle``, remembering every draft it settled."""
    settle = settler(CHENGDU)
    settled: list[HandDraft] = []

    def counted(draft: HandDraft) -> RoundResult:
        settled.append(draft)
        return settle(draft)

    return counted, settled


def draft(*events: Any, undone: tuple[Undone, ...] = (), revision: int = 4) -> HandDraft:
    notes = tuple(f"note {index}" for index in range(len(events)))
    return HandDraft.of(dealer=A, events=events, notes=notes, undone=undone, revision=revision)


# (start, transition, events after, notes after, undone after, net after)
TRANSITIONS = [
    pytest.param(
        draft(),
        lambda d, s: d.record(CONCEALED_B, "小李 暗杠", settle=s),
        (CONCEALED_B,),
        ("小李 暗杠",),
        (),
        (-2, 6, -2, -2),
        id="record-the-first-event",
    ),
    pytest.param(
        draft(CONCEALED_B, undone=(Undone(SELF_DRAW_D, "d"),)),
        lambda d, s: d.record(ADDED_C, None, settle=s),
        (CONCEALED_B, ADDED_C),
        ("note 0", None),
        (),
        (-3, 5, 1, -3),
        id="record-forgets-what-was-undone",
    ),
    pytest.param(
        draft(CONCEALED_B, ADDED_C),
        lambda d, s: d.undo(settle=s),
        (CONCEALED_B,),
        ("note 0",),
        (Undone(ADDED_C, "note 1"),),
        (-2, 6, -2, -2),
        id="undo-takes-the-last-event-onto-the-redo-list",
    ),
    pytest.param(
        draft(CONCEALED_B, undone=(Undone(SELF_DRAW_D, "old"), Undone(ADDED_C, "new"))),
        lambda d, s: d.redo(settle=s),
        (CONCEALED_B, ADDED_C),
        ("note 0", "new"),
        (Undone(SELF_DRAW_D, "old"),),
        (-3, 5, 1, -3),
        id="redo-replays-the-event-undone-last",
    ),
    pytest.param(
        draft(CONCEALED_B, ADDED_C),
        lambda d, s: d.replace_robbed_kong(ROBS_C, "抢杠", settle=s),
        (CONCEALED_B, ROBS_C),
        ("note 0", "抢杠"),
        (),
        (0, 6, -4, -2),
        id="the-robbing-win-replaces-the-robbed-kong-in-one-step",
    ),
    pytest.param(
        draft(CONCEALED_B, ADDED_C, FINE_D),
        lambda d, s: d.replace_robbed_kong(ROBS_C, "抢杠", settle=s),
        (CONCEALED_B, FINE_D, ROBS_C),
        ("note 0", "note 2", "抢杠"),
        (),
        (1, 6, -4, -3),
        id="an-adjustment-between-the-kong-and-its-robbing-is-looked-past-and-kept",
    ),
    pytest.param(
        draft(CONCEALED_B),
        lambda d, s: d.replace_robbed_kong(DISCARD_A_TO_B, "点炮", settle=s),
        (CONCEALED_B, DISCARD_A_TO_B),
        ("note 0", "点炮"),
        (),
        (-6, 10, -2, -2),
        id="a-win-that-robs-no-kong-is-recorded",
    ),
    pytest.param(
        draft(CONCEALED_B, ADDED_C, undone=(Undone(SELF_DRAW_D),)),
        lambda d, s: d.edit(0, kong(D, "concealed", "2m"), "老张 暗杠", settle=s),
        (kong(D, "concealed", "2m"), ADDED_C),
        ("老张 暗杠", "note 1"),
        (Undone(SELF_DRAW_D),),
        (-3, -3, 1, 5),
        id="edit-replaces-an-early-event-and-keeps-the-later-ones",
    ),
    pytest.param(
        draft(CONCEALED_B, ADDED_C),
        lambda d, s: d.remove(0, settle=s),
        (ADDED_C,),
        ("note 1",),
        (),
        (-1, -1, 3, -1),
        id="remove-takes-out-one-event-and-keeps-the-later-ones",
    ),
    pytest.param(
        draft(undone=(Undone(SELF_DRAW_D),)),
        lambda d, s: d.set_up(dealer=C, void_suits=["m", "p", "s", "m"], settle=s),
        (),
        (),
        (),
        (0, 0, 0, 0),
        id="set-up-before-the-first-event-forgets-the-undone",
    ),
]


@pytest.mark.parametrize(("start", "transition", "events", "notes", "undone", "net"), TRANSITIONS)
def test_a_transition_settles_once_and_returns_the_new_draft(start, transition, events, notes, undone, net):
    settle, settled = counting()
    after, result = transition(start, settle)
    assert (after.events, after.notes, after.undone) == (events, notes, undone)
    assert result.net == net
    assert after.revision == start.revision + 1
    assert settled == [after], "settled exactly once, and what it settled is the draft returned"


# (start, transition, code, field)
REFUSALS = [
    pytest.param(draft(), lambda d, s: d.undo(settle=s), "nothing_to_undo", "events", id="undo-nothing"),
    pytest.param(
        draft(CONCEALED_B), lambda d, s: d.redo(settle=s), "nothing_to_redo", "undone", id="redo-none"
    ),
    pytest.param(
        draft(CONCEALED_B),
        lambda d, s: d.set_up(dealer=B, settle=s),
        "hand_started",
        "events",
        id="set-up-after-the-first-event",
    ),
    pytest.param(
        draft(CONCEALED_B),
        lambda d, s: d.edit(1, ADDED_C, None, settle=s),
        "no_such_event",
        "event",
        id="edit-past-the-end",
    ),
    pytest.param(
        draft(CONCEALED_B),
        lambda d, s: d.remove(-1, settle=s),
        "no_such_event",
        "event",
        id="remove-a-negative-index",
    ),
    pytest.param(
        draft(CONCEALED_B),
        lambda d, s: d.edit(True, ADDED_C, None, settle=s),
        "no_such_event",
        "event",
        id="edit-a-boolean-index",
    ),
    pytest.param(
        draft(DISCARD_A_TO_B),
        lambda d, s: d.record(CONCEALED_B, None, settle=s),
        "player_has_won",
        "events[1].player",
        id="record-for-a-player-who-has-won",
    ),
    pytest.param(
        draft(CONCEALED_B, ADDED_C),
        lambda d, s: d.record(ROBS_C, None, settle=s),
        "robbed_kong_recorded",
        "events[2].robbing_kong",
        id="record-keeps-refusing-a-robbed-kong-left-standing",
    ),
    pytest.param(
        draft(CONCEALED_B, SELF_DRAW_D),
        lambda d, s: d.edit(0, win(None, by_fan(D, 1)), None, settle=s),
        "player_has_won",
        "events[1].winners[0].player",
        id="an-edit-that-breaks-a-later-event-is-refused-as-a-whole",
    ),
    pytest.param(
        draft(CONCEALED_B, undone=(Undone(kong(B, "concealed", "2m")),)),
        lambda d, s: d.redo(settle=s),
        "round_fifth_copy",
        "events[1]",
        id="redo-is-checked-again",
    ),
]


@pytest.mark.parametrize(("start", "transition", "code", "field"), REFUSALS)
def test_a_refused_transition_names_its_code_and_field(start, transition, code, field):
    with pytest.raises(EngineError) as refused:
        transition(start, settler(CHENGDU))
    assert (refused.value.code, refused.value.field) == (code, field)


@pytest.mark.parametrize("code", ["nothing_to_undo", "nothing_to_redo", "hand_started", "no_such_event"])
def test_the_drafts_own_refusals_are_draft_refusals(code):
    assert DraftRefusal(code, field="events", index=0, count=0).localized("zh-hans")


def test_a_stale_revision_is_refused_with_the_current_draft():
    current = draft(CONCEALED_B, revision=7)
    assert current.at(7) is current
    with pytest.raises(StaleDraft) as stale:
        current.at(6)
    assert stale.value.current is current


def test_a_finished_hand_reopens_with_its_last_event_undone_and_redoable():
    settle = settler(CHENGDU)
    reopened, result = HandDraft.reopened(
        dealer=A,
        void_suits=None,
        events=[CONCEALED_B, NOBODY_READY],
        notes=["k", "w"],
        revision=9,
        settle=settle,
    )
    assert (reopened.events, reopened.undone, result.finished) == (
        (CONCEALED_B,),
        (Undone(NOBODY_READY, "w"),),
        False,
    )
    redone, again = reopened.redo(settle=settle)
    assert redone.events == (CONCEALED_B, NOBODY_READY) and again.finished


def test_set_up_keeps_what_it_is_not_given():
    start = HandDraft.of(dealer=B, void_suits=["m", "p", "s", "m"])
    after, _ = start.set_up(dealer=C, void_suits=KEPT, settle=settler(CHENGDU))
    assert (after.dealer, after.void_suits) == (C, ("m", "p", "s", "m"))


def test_of_gives_one_note_per_event():
    assert HandDraft.of(dealer=A, events=[CONCEALED_B, ADDED_C], notes=["only one"]).notes == (
        "only one",
        None,
    )
    assert HandDraft.of(dealer=A, events=[CONCEALED_B], notes=["a", "b"]).notes == ("a",)


def test_the_body_is_the_round_as_post_rounds_takes_it():
    assert draft(CONCEALED_B).body() == {"dealer": A, "void_suits": None, "events": [CONCEALED_B]}


def test_the_summaries_are_typed_and_to_dict_is_the_settle_response():
    result = settler(CHENGDU)(draft(CONCEALED_B, DISCARD_A_TO_B))
    kong_summary, win_summary = result.events
    assert (kong_summary.player, kong_summary.points) == (B, 6)
    assert win_summary.winners == (B,) and win_summary.discarder == A
    assert [entry["type"] for entry in result.to_dict()["events"]] == ["kong", "win"]
