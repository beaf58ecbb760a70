"""Debts that carry over (ledger/debts.py, services.payment_mark / payment_undo): what a settle-up asks,
what was marked paid, what is still owed per pair and across sessions, and a correction's difference."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import debts, selectors, services
from ledger.errors import Forbidden, LedgerError, LedgerRefusal
from ledger.models import Group, KeptDebts, KeptTransfers, PaymentMark, Player, Role, Session
from tests.ledger.conftest import KONG_THEN_GANG_SHANG_PAO, SELF_DRAW_B, queries_as_the_group_grows

ONE_FAN_SELF_DRAW = {
    "dealer": 0,
    "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 1}]}],
}


def by_name(group):
    return {player.name: player for player in Player.objects.filter(group=group)}


def accounts(session):
    """Each pair's account as (payer, payee, asked, paid, left)."""
    return {
        (debt.payer.name, debt.payee.name, debt.asked, debt.paid, debt.left)
        for debt in debts.session_debts(session)
    }


@pytest.fixture
def played(owner, session):
    """小李 self-draws 3 fan: 小王, 阿美 and 老张 each owe 小李 5."""
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    return session


def mark(actor, session, payer, payee, amount):
    players = by_name(session.group)
    return services.payment_mark(
        actor=actor, session=session, payer_id=players[payer].pk, payee_id=players[payee].pk, amount=amount
    )


def test_a_transfer_marked_in_full_and_one_in_part_leave_the_rest_owed(owner, played):
    mark(owner, played, "小王", "小李", 5)
    mark(owner, played, "阿美", "小李", 2)
    assert accounts(played) == {
        ("小王", "小李", 5, 5, 0),
        ("阿美", "小李", 5, 2, 3),
        ("老张", "小李", 5, 0, 5),
    }
    owed = {(o.payer.name, o.payee.name, o.amount, o.unit) for o in debts.group_still_owed(played.group)}
    assert owed == {("阿美", "小李", 3, "points"), ("老张", "小李", 5, "points")}


def test_the_next_session_carries_what_is_unpaid_apart_from_its_own(owner, played):
    mark(owner, played, "阿美", "小李", 2)
    services.session_close(actor=owner, session=played)
    players = by_name(played.group)
    tonight = services.session_start(
        actor=owner,
        group=played.group,
        name="第二场",
        player_ids=[players[n].pk for n in ("小王", "小李", "阿美", "老张")],
    )
    carried = {(d.session_id, d.payer.name, d.left) for d in debts.tonight_and_carried(tonight)[1]}
    assert carried == {(played.pk, "小王", 5), (played.pk, "阿美", 3), (played.pk, "老张", 5)}
    assert debts.session_debts(tonight) == ()
    # a carried debt is paid toward the session it comes from
    mark(owner, played, "老张", "小李", 5)
    assert {d.payer.name for d in debts.tonight_and_carried(tonight)[1]} == {"小王", "阿美"}


def test_a_correction_after_payments_shows_the_difference_to_return(owner, played):
    mark(owner, played, "小王", "小李", 5)
    assert not debts.corrected_after_marks(played, debts.session_marks(played))
    round_ = played.rounds.get()
    services.round_correct(actor=owner, round_=round_, body=ONE_FAN_SELF_DRAW)
    assert debts.corrected_after_marks(played, debts.session_marks(played))
    # 1 fan self-drawn: each pays 2; 小王 paid 5, so 小李 has 3 to give back
    assert accounts(played) == {
        ("小王", "小李", 2, 5, -3),
        ("阿美", "小李", 2, 0, 2),
        ("老张", "小李", 2, 0, 2),
    }
    # the return is a mark read the other way, at most the surplus
    with pytest.raises(LedgerError) as refused:
        mark(owner, played, "小李", "小王", 4)
    assert refused.value.field == "amount"
    mark(owner, played, "小李", "小王", 3)
    assert ("小王", "小李", 2, 2, 0) in accounts(played)


def test_a_void_leaves_the_payments_to_be_returned(owner, played):
    mark(owner, played, "小王", "小李", 5)
    services.round_void(actor=owner, round_=played.rounds.get())
    assert accounts(played) == {("小王", "小李", 0, 5, -5)}
    owed = debts.group_still_owed(played.group)
    assert [(o.payer.name, o.payee.name, o.amount) for o in owed] == [("小李", "小王", 5)]


@pytest.mark.parametrize(
    ("payer", "payee", "amount", "field"),
    [
        pytest.param("小王", "小李", 6, "amount", id="more-than-left"),
        pytest.param("小王", "小李", 0, "amount", id="nothing"),
        pytest.param("小王", "小李", "5", "amount", id="not-a-number"),
        pytest.param("小王", "小李", True, "amount", id="a-boolean"),
        pytest.param("小李", "小王", 1, "to_player", id="the-wrong-way"),
        pytest.param("小王", "阿美", 1, "to_player", id="a-pair-asked-nothing"),
    ],
)
def test_a_mark_beyond_what_is_owed_is_refused_and_stores_nothing(owner, played, payer, payee, amount, field):
    with pytest.raises(LedgerError) as refused:
        mark(owner, played, payer, payee, amount)
    assert refused.value.field == field
    assert not PaymentMark.objects.exists()


def test_a_viewer_cannot_mark_even_their_own_debt(played, member_factory):
    viewer = member_factory("wang", Role.VIEWER)
    Player.objects.filter(group=played.group, name="小王").update(user=viewer)
    with pytest.raises(Forbidden):
        mark(viewer, played, "小王", "小李", 5)


def test_a_scorekeeper_marks_their_own_or_for_a_player_without_an_account(played, member_factory):
    keeper = member_factory("li", Role.SCOREKEEPER)
    other = member_factory("mei", Role.SCOREKEEPER)
    Player.objects.filter(group=played.group, name="小李").update(user=keeper)
    Player.objects.filter(group=played.group, name="阿美").update(user=other)
    mark(keeper, played, "阿美", "小李", 1)  # the payee
    mark(other, played, "小王", "小李", 1)  # 小王 has no account: marked for him
    with pytest.raises(Forbidden):  # 阿美 and 小李 both have accounts, neither is the actor
        services.payment_mark(
            actor=member_factory("zhang", Role.SCOREKEEPER),
            session=played,
            payer_id=by_name(played.group)["阿美"].pk,
            payee_id=by_name(played.group)["小李"].pk,
            amount=1,
        )
    assert PaymentMark.objects.count() == 2


def test_only_its_maker_undoes_a_mark_once_by_a_reversal(owner, played, member_factory):
    first = mark(owner, played, "小王", "小李", 5)
    keeper = member_factory("li", Role.SCOREKEEPER)
    with pytest.raises(Forbidden):
        services.payment_undo(actor=keeper, mark=first)
    reversal = services.payment_undo(actor=owner, mark=first)
    assert (reversal.amount, reversal.reverses_id) == (-5, first.pk)
    assert ("小王", "小李", 5, 0, 5) in accounts(played)
    with pytest.raises(LedgerRefusal):
        services.payment_undo(actor=owner, mark=first)
    with pytest.raises(LedgerError):
        services.payment_undo(actor=owner, mark=reversal)
    assert PaymentMark.objects.count() == 2  # nothing was changed or removed: two rows appended


def test_a_group_with_many_sessions_reads_its_debts_in_a_few_queries(owner, played):
    players = by_name(played.group)
    ids = [players[n].pk for n in ("小王", "小李", "阿美", "老张")]
    for number in range(5):
        later = services.session_start(actor=owner, group=played.group, name=f"场{number}", player_ids=ids)
        services.round_record(actor=owner, session=later, body=SELF_DRAW_B)
    for _ in range(2):  # the first read settles the sessions and keeps their transfers, the second reads them
        with CaptureQueriesContext(connection) as queries:
            owed = debts.group_still_owed(played.group)
        assert {(o.payer.name, o.payee.name, o.amount) for o in owed} == {
            ("小王", "小李", 30),
            ("阿美", "小李", 30),
            ("老张", "小李", 30),
        }
    assert len(queries) <= 3


def owed_afresh(group):
    """谁还欠谁 as it was read before the transfers were kept: every session settled again."""
    sessions = list(debts.group_sessions_oldest_first(group))
    settled = debts.sessions_debts(sessions)
    return debts.still_owed(debt for session in sessions for debt in settled[session.pk])


def tonight_and_carried_afresh(session):
    sessions = list(debts.group_sessions_oldest_first(session.group))
    settled = debts.sessions_debts(sessions)
    every = [debt for each in sessions for debt in settled[each.pk]]
    tonight = tuple(debt for debt in every if debt.session_id == session.pk)
    return tonight, tuple(debt for debt in every if debt.session_id != session.pk and debt.left != 0)


def agrees(group, tonight=None):
    """The kept read equals settling afresh, on the read that keeps and on the one that takes the rows."""
    for _ in range(2):
        assert debts.group_still_owed(group) == owed_afresh(group)
        if tonight is not None:
            assert debts.tonight_and_carried(tonight) == tonight_and_carried_afresh(tonight)
    assert KeptTransfers.objects.filter(session__group=group).count() == group.sessions.count()


def start(owner, group, name, **more):
    players = by_name(group)
    ids = [players[n].pk for n in ("小王", "小李", "阿美", "老张")]
    return services.session_start(actor=owner, group=group, name=name, player_ids=ids, **more)


def test_kept_transfers_give_what_settling_afresh_gives(owner, played):
    """Corrections, a void, a fee, marks in part and an undone one, over three sessions."""
    group = played.group
    mark(owner, played, "阿美", "小李", 1)
    undone = mark(owner, played, "小王", "小李", 2)
    services.payment_undo(actor=owner, mark=undone)
    services.round_record(actor=owner, session=played, body=KONG_THEN_GANG_SHANG_PAO)
    services.round_correct(actor=owner, round_=played.rounds.get(position=1), body=ONE_FAN_SELF_DRAW)
    services.session_close(actor=owner, session=played)
    second = start(owner, group, "第二场")
    services.round_record(actor=owner, session=second, body=SELF_DRAW_B)
    mark(owner, second, "小王", "小李", 3)
    services.round_record(actor=owner, session=second, body=KONG_THEN_GANG_SHANG_PAO)
    services.round_void(actor=owner, round_=second.rounds.get(position=2))
    players = by_name(group)
    services.session_fee_set(actor=owner, session=second, amount=7, split="aa", paid_by=players["老张"].pk)
    services.session_close(actor=owner, session=second)
    tonight = start(owner, group, "第三场")
    services.round_record(actor=owner, session=tonight, body=SELF_DRAW_B)
    agrees(group, tonight)
    assert debts.group_still_owed(group)  # something is owed: the equality above is not of two empties


def test_kept_transfers_follow_every_input(owner, played):
    """Each thing the transfers are made from, changed after they were kept: the next read has it."""
    group = played.group
    agrees(group)
    services.round_record(actor=owner, session=played, body=KONG_THEN_GANG_SHANG_PAO)
    agrees(group)
    services.round_correct(actor=owner, round_=played.rounds.get(position=2), body=ONE_FAN_SELF_DRAW)
    agrees(group)
    services.round_void(actor=owner, round_=played.rounds.get(position=1))
    agrees(group)
    services.round_correct(
        actor=owner, round_=played.rounds.get(position=1), body=SELF_DRAW_B, reinstate=True
    )
    agrees(group)
    players = by_name(group)
    services.session_fee_set(actor=owner, session=played, amount=9, split="aa", paid_by=None)
    agrees(group)
    services.session_fee_set(actor=owner, session=played, amount=9, split="aa", paid_by=players["小王"].pk)
    agrees(group)
    services.session_fee_set(
        actor=owner, session=played, amount=9, split="winners", paid_by=players["小王"].pk
    )
    agrees(group)
    services.session_fee_set(actor=owner, session=played, amount=0, split="aa", paid_by=None)
    agrees(group)
    revision = selectors.session_hand(played).revision
    services.session_seats_change(actor=owner, session=played, revision=revision, seat=1, name="小刘")
    services.round_record(actor=owner, session=played, body=SELF_DRAW_B)
    agrees(group)
    first = mark(owner, played, "老张", "小李", 4)
    agrees(group)
    services.payment_undo(actor=owner, mark=first)
    agrees(group)
    renamed = players["小李"]
    renamed.name = "李哥"
    renamed.save(update_fields=["name"])
    agrees(group)
    assert "李哥" in {owing.payee.name for owing in debts.group_still_owed(group)}


def test_a_kept_row_whose_key_moved_is_never_taken(owner, played):
    """A row from before a write (here: its key made stale by hand) is settled again, never read. The
    group's revision is moved by hand too, as the write would, so that the group's kept result is not the
    answer."""
    debts.group_still_owed(played.group)
    players = by_name(played.group)
    wrong = [[players["小王"].pk, players["小李"].pk, 999]]
    KeptTransfers.objects.filter(session=played).update(transfers=wrong)
    debts.moved(played.group_id)
    assert debts.group_still_owed(played.group) != owed_afresh(
        played.group
    )  # the row is taken while it holds
    KeptTransfers.objects.filter(session=played).update(key="0" * 64)
    debts.moved(played.group_id)
    assert debts.group_still_owed(played.group) == owed_afresh(played.group)


def queries_at(owner, group, sessions):
    """The queries of 谁还欠谁 over ``sessions`` played sessions: settling all, none, and the one written."""
    return queries_as_the_group_grows(owner, group, sessions, lambda: debts.group_still_owed(group))


def test_the_group_reads_its_debts_in_the_same_queries_at_10_and_100_sessions(owner, played):
    at_ten = queries_at(owner, played.group, 10)
    assert queries_at(owner, played.group, 100) == at_ten
    assert at_ten[1] == 2  # the names, and the group's kept result


# --- the group's kept result and its revision (ledger/debts.py, ``kept_net``; KeptDebts) ------------------


def revision_of(group):
    return Group.objects.values_list("debts_revision", flat=True).get(pk=group.pk)


def kept_revision(group):
    return KeptDebts.objects.filter(group=group).values_list("revision", flat=True).first()


def seat_change(owner, session):
    revision = selectors.session_hand(session).revision
    services.session_seats_change(actor=owner, session=session, revision=revision, seat=1, name="小刘")


def started_with_fee(owner, session):
    start(
        owner,
        session.group,
        "第二场",
        fee={"amount": 12, "split": "aa", "paid_by": by_name(session.group)["小王"].pk},
    )


def admin_fee(owner, session):
    session.fee_amount, session.fee_paid_by_id = 8, by_name(session.group)["阿美"].pk
    admin.site._registry[Session].save_model(None, session, None, True)


def admin_delete(owner, session):
    """A session with no round (one with rounds is protected by them) whose fee 小王 paid: he is owed it."""
    started_with_fee(owner, session)
    debts.group_still_owed(session.group)  # kept with the second session's fee
    admin.site._registry[Session].delete_model(None, session.group.sessions.get(name="第二场"))


def undone(owner, session):
    services.payment_undo(actor=owner, mark=mark(owner, session, "小王", "小李", 2))


# Every write that can change a session's transfers or the group's marks (the hand's paths finish, take
# back and finish anew through the same three round writes).
WRITES = {
    "a round recorded": lambda owner, s: services.round_record(
        actor=owner, session=s, body=KONG_THEN_GANG_SHANG_PAO
    ),
    "a round corrected": lambda owner, s: services.round_correct(
        actor=owner, round_=s.rounds.get(position=1), body=ONE_FAN_SELF_DRAW
    ),
    "a round voided": lambda owner, s: services.round_void(actor=owner, round_=s.rounds.get(position=1)),
    "the table fee": lambda owner, s: services.session_fee_set(
        actor=owner, session=s, amount=9, split="aa", paid_by=by_name(s.group)["老张"].pk
    ),
    "a session started with a fee": started_with_fee,
    "a seat changed": seat_change,
    "a payment marked": lambda owner, s: mark(owner, s, "阿美", "小李", 3),
    "a mark undone": undone,
    "the admin's fee": admin_fee,
    "the admin's deletion": admin_delete,
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_moves_the_revision_and_the_next_read_has_it(owner, played, write):
    """The bug to guard against is a write that forgets the revision: each moves it, and the read after it
    answers what settling every session afresh gives (and keeps that at the new revision)."""
    group = played.group
    debts.group_still_owed(group)
    before = revision_of(group)
    assert kept_revision(group) == before
    write(owner, played)
    assert revision_of(group) > before
    assert debts.group_still_owed(group) == owed_afresh(group)
    assert kept_revision(group) == revision_of(group)
    assert debts.group_still_owed(group) == owed_afresh(group)  # taken from the row
    assert debts.drift([group.pk]) == []


def test_the_kept_result_is_read_in_one_query_and_answers_as_settling_afresh(owner, played):
    group = played.group
    mark(owner, played, "阿美", "小李", 2)
    names = selectors.player_names(group)
    first = debts.group_still_owed(group, names=names)
    with CaptureQueriesContext(connection) as queries:
        again = debts.group_still_owed(group, names=names)
    assert len(queries) == 1
    assert again == first == owed_afresh(group)


def test_a_read_never_puts_an_older_result_over_a_newer_one(owner, played):
    """Two reads netting at once: the one that read the older revision stores last, and the newer stays."""
    group = played.group
    older = revision_of(group)
    stale_net = debts.group_net(group)
    services.round_record(actor=owner, session=played, body=KONG_THEN_GANG_SHANG_PAO)
    debts.group_still_owed(group)  # the newer read keeps its result first
    debts._keep_net(group, older, stale_net)
    assert kept_revision(group) == revision_of(group) > older
    assert debts.group_still_owed(group) == owed_afresh(group) != debts.still_owed([])
    debts._keep_net(group, revision_of(group), stale_net)  # at the same revision: the kept one stays too
    assert debts.group_still_owed(group) == owed_afresh(group)


def test_a_result_kept_under_another_form_is_netted_again(owner, played):
    group = played.group
    debts.group_still_owed(group)
    KeptDebts.objects.filter(group=group).update(form=debts.TRANSFERS_FORM - 1, net=[])
    assert debts.group_still_owed(group) == owed_afresh(group) != ()
    assert KeptDebts.objects.get(group=group).form == debts.TRANSFERS_FORM


def test_verify_ledger_names_kept_debts_that_drifted(owner, played):
    group = played.group
    debts.group_still_owed(group)
    call_command("verify_ledger")
    KeptDebts.objects.filter(group=group).update(net=[])  # as a write that forgot the revision leaves it
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_ledger")
    assert debts.drift([group.pk]) == [
        f"group {group.pk}: its kept debts at revision {revision_of(group)} are not its sessions'"
    ]
