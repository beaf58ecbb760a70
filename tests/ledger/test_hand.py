"""The hand in progress (services and selector): events kept on the server one by one, two writers, the
event that finishes the hand recording its round exactly once, undo/redo, closed sessions and roles."""

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from calculator.engine import EngineError
from ledger import integrity, selectors, services
from ledger.errors import (
    HandRefusedError,
    IdempotencyKeyReusedError,
    SessionClosedError,
    StaleHandError,
)
from ledger.models import HandInProgress, LedgerEntry, Role, Round
from settlement.engine import settle_round
from tests.ledger.conftest import DRAW_WITH_PIG, SELF_DRAW_B, make_table
from tests.ledger.pages.helpers import logged_in

KONG = {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}
TWO_ON_ONE_DISCARD = {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 2}, {"player": 3, "fan": 1}]}
SELF_DRAW = {"type": "win", "from": None, "winners": [{"player": 1, "fan": 3}]}
# 小李's concealed kong, a discard of 小王 won by 阿美 and 老张 (一炮多响), 小李's self-draw: three have
# won, so in 血战到底 the third win finishes the hand; 阿美 won first, so 阿美 deals next.
EVENING = (KONG, TWO_ON_ONE_DISCARD, SELF_DRAW)


def hand(session: Any) -> selectors.HandState:
    return selectors.session_hand(session)


def add(actor: Any, session: Any, event: Any, **kwargs: Any) -> services.HandOutcome:
    revision = kwargs.pop("revision", None)
    if revision is None:
        revision = hand(session).revision
    return services.hand_event_add(actor=actor, session=session, event=event, revision=revision, **kwargs)


def test_a_new_session_starts_its_first_hand_with_the_dealer_chosen(owner):
    _, session = make_table(owner, dealer=2)
    state = hand(session)
    assert (state.number, state.dealer, state.events, state.revision) == (1, 2, (), 0)
    assert not state.can_undo and not state.can_redo
    assert state.preview["transfers"] == [] and state.preview["finished"] is False


def test_each_event_is_kept_with_its_note_and_moves_the_revision_on(owner, session):
    first = add(owner, session, KONG, note="小李 暗杠")
    assert first.round is None and not first.replayed
    state = hand(session)
    assert state.events == (KONG,)
    assert state.notes == ("小李 暗杠",)
    assert state.revision == 1
    assert state.preview["net"] == [-2, 6, -2, -2]
    assert not LedgerEntry.objects.exists()  # not money yet: the hand is a working area


def test_the_preview_is_the_engines_settlement_of_the_events_so_far(owner, session):
    for event in EVENING[:2]:
        add(owner, session, event)
    expected = settle_round(dealer=0, events=list(EVENING[:2]), rules=session.rules)
    assert hand(session).preview == expected.to_dict()


def test_two_writers_the_stale_one_is_refused_and_nothing_is_lost(owner, session, member_factory):
    other = member_factory("second", Role.SCOREKEEPER)
    seen = hand(session).revision
    add(owner, session, KONG, revision=seen)
    with pytest.raises(StaleHandError):
        add(other, session, TWO_ON_ONE_DISCARD, revision=seen)
    assert hand(session).events == (KONG,)  # the first writer's event is kept, the second's not applied
    add(other, session, TWO_ON_ONE_DISCARD, revision=hand(session).revision)  # after reading the hand again
    assert hand(session).events == (KONG, TWO_ON_ONE_DISCARD)


def test_an_event_the_engine_refuses_names_its_index_and_changes_nothing(owner, session):
    add(owner, session, KONG)
    before = hand(session)
    wins_twice = {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}  # a fifth 2m
    with pytest.raises(EngineError) as refused:
        add(owner, session, wins_twice)
    assert refused.value.field.startswith("events[1]")
    after = hand(session)
    assert (after.events, after.revision) == (before.events, before.revision)


def test_text_no_database_stores_is_refused_at_its_event(owner, session):
    with pytest.raises(EngineError) as refused:
        add(owner, session, {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m\x00"})
    assert refused.value.field == "events[0].tile"
    with pytest.raises(EngineError) as refused:
        add(owner, session, KONG, note="x" * 1001)
    assert refused.value.field == "note"


@pytest.mark.parametrize("revision", [-1, "3", None, True, 1.5])
def test_a_revision_that_is_not_a_whole_number_is_a_400(owner, session, revision):
    with pytest.raises(EngineError) as refused:
        services.hand_event_add(actor=owner, session=session, event=KONG, revision=revision)
    assert refused.value.field == "revision"


def test_the_event_that_finishes_the_hand_records_the_round_and_starts_the_next(owner, session):
    for event in EVENING[:2]:
        assert add(owner, session, event).round is None
    finished = add(owner, session, SELF_DRAW)
    assert finished.round is not None
    expected = settle_round(dealer=0, events=list(EVENING), rules=session.rules)
    assert finished.round.position == 1
    assert finished.round.events == list(EVENING)
    assert [seat.points for seat in selectors.session_totals(session).seats] == list(expected.net)
    state = hand(session)
    assert (state.number, state.dealer, state.events, state.notes) == (2, expected.next_dealer, (), ())
    assert expected.next_dealer == 2  # 阿美 won first


def test_the_finishing_event_retried_records_one_round(owner, session):
    for event in EVENING[:2]:
        add(owner, session, event)
    seen = hand(session).revision
    first = add(owner, session, SELF_DRAW, revision=seen)
    again = add(
        owner, session, SELF_DRAW, revision=seen
    )  # a double tap: the same request at the same revision
    assert again.replayed and again.round is not None and again.round.pk == first.round.pk
    assert Round.objects.filter(session=session).count() == 1
    assert hand(session).number == 2 and hand(session).revision == seen + 1


def test_a_retry_under_the_clients_own_key_is_answered_once(owner, session):
    for event in EVENING[:2]:
        add(owner, session, event)
    seen = hand(session).revision
    first = add(owner, session, SELF_DRAW, revision=seen, idempotency_key="tap-1")
    again = add(owner, session, SELF_DRAW, revision=seen, idempotency_key="tap-1")
    assert again.replayed and again.round.pk == first.round.pk
    assert Round.objects.filter(session=session).count() == 1
    with pytest.raises(IdempotencyKeyReusedError):
        add(owner, session, KONG, revision=seen, idempotency_key="tap-1")


def test_a_double_tapped_undo_takes_back_one_event(owner, session):
    for event in EVENING[:2]:
        add(owner, session, event)
    seen = hand(session).revision
    services.hand_undo(actor=owner, session=session, revision=seen)
    replayed = services.hand_undo(actor=owner, session=session, revision=seen)
    assert replayed.replayed
    assert hand(session).events == (KONG,)


def test_another_writer_at_the_same_revision_is_stale_not_a_retry(owner, session, member_factory):
    other = member_factory("second", Role.SCOREKEEPER)
    add(owner, session, KONG, revision=0)
    with pytest.raises(StaleHandError):
        add(other, session, SELF_DRAW, revision=0)


def test_undo_and_redo_survive_a_reload(owner, session):
    add(owner, session, KONG, note="暗杠")
    add(owner, session, TWO_ON_ONE_DISCARD, note="一炮双响")
    services.hand_undo(actor=owner, session=session, revision=hand(session).revision)
    reloaded = hand(HandInProgress.objects.get(session=session).session)  # read back from the database
    assert reloaded.events == (KONG,) and reloaded.can_redo
    services.hand_redo(actor=owner, session=session, revision=reloaded.revision)
    state = hand(session)
    assert state.events == (KONG, TWO_ON_ONE_DISCARD)
    assert state.notes == ("暗杠", "一炮双响")
    assert not state.can_redo


def test_a_new_event_clears_what_was_undone(owner, session):
    add(owner, session, KONG)
    services.hand_undo(actor=owner, session=session, revision=hand(session).revision)
    add(owner, session, SELF_DRAW)
    assert not hand(session).can_redo
    with pytest.raises(HandRefusedError, match="no undone event"):
        services.hand_redo(actor=owner, session=session, revision=hand(session).revision)


def test_there_is_nothing_to_undo_in_a_hand_just_started(owner, session):
    with pytest.raises(HandRefusedError, match="no event to undo"):
        services.hand_undo(actor=owner, session=session, revision=0)


def test_undo_right_after_a_finished_hand_takes_it_back_and_redo_records_it_again(owner, session):
    add(owner, session, KONG, note="小李 暗杠")
    finished = add(owner, session, DRAW_WITH_PIG["events"][0], note="流局").round
    assert finished is not None and selectors.session_totals(session).seats[1].points != 0
    reopened = services.hand_undo(actor=owner, session=session, revision=hand(session).revision)
    assert reopened.reopened == finished and reopened.round is None
    state = hand(session)
    assert (state.number, state.events, state.notes, state.can_redo) == (1, (KONG,), ("小李 暗杠",), True)
    finished.refresh_from_db()
    assert finished.voided and finished.versions.count() == 2  # a reversal version: nothing is deleted
    kong_only = [points for points in (-2, 6, -2, -2)]
    assert [seat.points for seat in selectors.session_totals(session).seats] == [0, 0, 0, 0]
    assert state.preview["net"] == kong_only
    again = services.hand_redo(actor=owner, session=session, revision=state.revision)
    assert again.round == finished and Round.objects.count() == 1
    finished.refresh_from_db()
    assert (
        not finished.voided
        and finished.version == 3
        and finished.versions.last().notes == ["小李 暗杠", "流局"]
    )
    assert hand(session).number == 2
    session.refresh_from_db()
    assert list(integrity.verify_session(session)) == []


def test_undo_in_a_hand_just_started_with_nothing_before_it_has_nothing_to_undo(owner, session):
    with pytest.raises(HandRefusedError, match="no event to undo"):
        services.hand_undo(actor=owner, session=session, revision=0)


def test_undo_never_takes_back_a_round_recorded_through_post_rounds(owner, session):
    """Only a round this hand recorded is reopened: one ``POST rounds/`` recorded beside the hand is not
    the hand's to take back (the history corrects or voids it)."""
    beside, _created = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    with pytest.raises(HandRefusedError, match="no event to undo"):
        services.hand_undo(actor=owner, session=session, revision=hand(session).revision)
    beside.refresh_from_db()
    assert not beside.voided and hand(session).number == 2


def test_undo_after_a_finished_hand_and_a_round_recorded_beside_it_has_nothing_to_undo(owner, session):
    finished = add(owner, session, DRAW_WITH_PIG["events"][0]).round
    assert finished is not None
    beside, _created = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    with pytest.raises(HandRefusedError, match="no event to undo"):
        services.hand_undo(actor=owner, session=session, revision=hand(session).revision)
    for round_ in (finished, beside):
        round_.refresh_from_db()
        assert not round_.voided


def test_the_dealer_and_void_suits_are_set_before_the_first_event(owner, session):
    services.hand_setup(actor=owner, session=session, revision=0, dealer=3, void_suits=["m", "p", "s", None])
    state = hand(session)
    assert (state.dealer, state.void_suits) == (3, ["m", "p", "s", None])
    add(owner, session, KONG)
    with pytest.raises(HandRefusedError, match="before the hand's first event"):
        services.hand_setup(actor=owner, session=session, revision=hand(session).revision, dealer=1)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"dealer": 4}, "dealer", id="dealer-off-the-table"),
        pytest.param({"void_suits": ["m", "p"]}, "void_suits", id="two-void-suits"),
        pytest.param({"void_suits": ["m", "x", "s", "p"]}, "void_suits[1]", id="unknown-suit"),
    ],
)
def test_a_bad_setup_names_its_field_and_changes_nothing(owner, session, changes, field):
    with pytest.raises(EngineError) as refused:
        services.hand_setup(actor=owner, session=session, revision=0, **changes)
    assert refused.value.field.startswith(field)
    assert hand(session).dealer == 0 and hand(session).revision == 0


def test_a_closed_session_refuses_every_hand_write(owner, session):
    add(owner, session, KONG)
    services.session_close(actor=owner, session=session)
    revision = hand(session).revision
    writes = [
        lambda: add(owner, session, SELF_DRAW, revision=revision),
        lambda: services.hand_undo(actor=owner, session=session, revision=revision),
        lambda: services.hand_redo(actor=owner, session=session, revision=revision),
        lambda: services.hand_setup(actor=owner, session=session, revision=revision, dealer=1),
    ]
    for write in writes:
        with pytest.raises(SessionClosedError):
            write()
    assert hand(session).events == (KONG,)


def test_viewers_read_the_hand_but_cannot_write_it(owner, session, member_factory):
    viewer = member_factory("viewer", Role.VIEWER)
    add(owner, session, KONG)
    assert selectors.session_hand(selectors.session_get(user=viewer, session_id=session.pk)).events == (KONG,)
    writes = [
        lambda: add(viewer, session, SELF_DRAW),
        lambda: services.hand_undo(actor=viewer, session=session, revision=1),
        lambda: services.hand_redo(actor=viewer, session=session, revision=1),
        lambda: services.hand_setup(actor=viewer, session=session, revision=1, dealer=1),
    ]
    for write in writes:
        with pytest.raises(PermissionDenied):
            write()
    assert hand(session).events == (KONG,)


def test_any_change_of_the_ledger_moves_the_revision(owner, session):
    recorded, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    assert (hand(session).revision, hand(session).number) == (1, 2)  # a round recorded beside the hand
    services.round_correct(actor=owner, round_=recorded, body=DRAW_WITH_PIG)
    assert hand(session).revision == 2
    services.round_void(actor=owner, round_=recorded)
    assert hand(session).revision == 3
    services.session_close(actor=owner, session=session)
    assert hand(session).revision == 4
    assert selectors.session_hand_revision(session) == 4


def test_a_session_stored_before_hands_existed_gets_the_hand_its_last_round_suggests(owner, session):
    finished = {"dealer": 1, "events": list(EVENING)}
    services.round_record(actor=owner, session=session, body=finished)
    HandInProgress.objects.filter(session=session).delete()  # as a session started before this release
    state = hand(session)
    assert (state.number, state.dealer, state.revision) == (2, 2, 0)
    add(owner, session, KONG, revision=0)
    assert hand(session).events == (KONG,)


def test_the_start_page_deals_the_first_hand_to_the_dealer_chosen(owner):
    group = services.group_create(actor=owner, name="周五麻将")
    data = {"name": "周五", "dealer": "2", "preset": "chengdu"}
    data |= {f"seat_{seat}": name for seat, name in enumerate(("小王", "小李", "阿美", "老张"))}
    assert logged_in(owner).post(reverse("session-start", args=[group.pk]), data).status_code == 302
    assert hand(group.sessions.get()).dealer == 2


def test_the_notes_of_a_finished_hand_stay_with_its_round_through_correction_and_void(owner, session):
    for note, event in zip(("杠", "一炮双响", "自摸"), EVENING, strict=True):
        finished = add(owner, session, event, note=note)
    round_ = finished.round
    assert round_.versions.get(version=1).notes == ["杠", "一炮双响", "自摸"]
    corrected = services.round_correct(
        actor=owner, round_=round_, body={"dealer": 0, "events": list(EVENING)}, notes=["暗杠"]
    )
    assert corrected.versions.get(version=2).notes == ["暗杠", None, None]
    services.round_void(actor=owner, round_=corrected)
    assert corrected.versions.get(version=3).notes == ["暗杠", None, None]
    with pytest.raises(EngineError) as refused:
        services.round_correct(actor=owner, round_=round_, body={"dealer": 0, "events": []}, notes=["x"])
    assert refused.value.field == "notes"  # more notes than events
