"""The table fee (services.session_fee_set, selectors' settle-up): the shares enter the transfers, to
whoever paid the room or to the house, the nets stay as they were; set through the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import debts, selectors, services
from ledger.errors import Forbidden, LedgerError
from ledger.models import Player, Role
from tests.ledger.conftest import SELF_DRAW_B


@pytest.fixture
def played(owner, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # nets [-5, 15, -5, -5]
    return session


def player(session, name):
    return Player.objects.get(group=session.group, name=name).pk


def payments(session):
    return {
        (p["from_name"], p["to_name"], p["amount"])
        for p in selectors.session_money_settle_up(session)["payments"]
    }


def test_a_fee_borne_by_the_biggest_winner_and_owed_to_the_house_makes_the_house_a_party(owner, played):
    played = services.session_fee_set(actor=owner, session=played, amount=6, split="top_winner", paid_by=None)
    answer = selectors.session_money_settle_up(played)
    assert answer["fee"]["shares"] == [0, 6, 0, 0] and answer["balances"] == [-5, 9, -5, -5]
    assert answer["house"] == 6
    moved = [0, 0, 0, 0, 0]  # the fewest transfers square every balance, the house's 6 included
    for payment in answer["payments"]:
        moved[4 if payment["from"] == "house" else payment["from"]] -= payment["amount"]
        moved[4 if payment["to"] == "house" else payment["to"]] += payment["amount"]
    assert moved == [-5, 9, -5, -5, 6] and len(answer["payments"]) == 4
    assert [seat.points for seat in selectors.session_totals(played).seats] == [-5, 15, -5, -5]  # nets stay


def test_a_fee_paid_aa_to_the_one_who_paid_the_room_comes_off_what_he_is_owed(owner, played):
    played = services.session_fee_set(
        actor=owner, session=played, amount=40, split="aa", paid_by=player(played, "小李")
    )
    answer = selectors.session_money_settle_up(played)
    assert answer["fee"]["shares"] == [10, 10, 10, 10] and answer["fee"]["paid_by_seat"] == 1
    assert answer["balances"] == [-15, 45, -15, -15]
    assert payments(played) == {("小王", "小李", 15), ("阿美", "小李", 15), ("老张", "小李", 15)}
    # debts follow the settle-up
    assert {(d.payer.name, d.asked) for d in debts.session_debts(played)} == {
        ("小王", 15),
        ("阿美", 15),
        ("老张", 15),
    }


def test_a_fee_borne_by_the_winners_in_proportion_with_coins_is_in_coins(owner, group):
    ids = [p.pk for p in Player.objects.filter(group=group)]
    coins = {"room_coefficient": 10, "starting_balances": [1000] * 4}
    session = services.session_start(actor=owner, group=group, name="带币", player_ids=ids, coins=coins)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    session = services.session_fee_set(
        actor=owner, session=session, amount=30, split="winners", paid_by=ids[0]
    )
    answer = selectors.session_money_settle_up(session)
    assert answer["fee"]["shares"] == [0, 30, 0, 0]
    assert sum(answer["balances"]) + answer["house"] == 0
    assert selectors.session_settle_up(session)["fee"] is None  # the points' settle-up is only the score


@pytest.mark.parametrize(
    ("amount", "split", "paid_by", "field"),
    [
        pytest.param(-1, "aa", None, "amount", id="negative"),
        pytest.param("40", "aa", None, "amount", id="text"),
        pytest.param(10**13, "aa", None, "amount", id="too-much"),
        pytest.param(40, "everyone", None, "split", id="unknown-split"),
        pytest.param(40, "aa", 10**9, "paid_by", id="not-a-player-of-the-session"),
        pytest.param(40, "aa", "小李", "paid_by", id="a-name"),
        pytest.param(40, ["aa"], None, "split", id="a-list-for-a-split"),
        pytest.param(40, "aa", [1], "paid_by", id="a-list-for-a-player"),
    ],
)
def test_a_bad_fee_is_refused_naming_the_field_and_changes_nothing(
    owner, played, amount, split, paid_by, field
):
    with pytest.raises(LedgerError) as refused:
        services.session_fee_set(actor=owner, session=played, amount=amount, split=split, paid_by=paid_by)
    assert refused.value.field == field
    played.refresh_from_db()
    assert played.fee_amount == 0


def test_a_viewer_cannot_set_the_fee(played, member_factory):
    with pytest.raises(Forbidden):
        services.session_fee_set(
            actor=member_factory("v", Role.VIEWER), session=played, amount=1, split="aa", paid_by=None
        )


def test_the_api_sets_the_fee_and_the_settle_up_answers_it(api, played):
    response = api.post(
        reverse("ledger:session-fee", args=[played.pk]),
        {"amount": 40, "split": "aa", "paid_by": player(played, "小李")},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["fee"] == {"amount": 40, "split": "aa", "paid_by": player(played, "小李")}
    settle = api.get(reverse("ledger:session-settle-up", args=[played.pk])).json()
    assert settle["fee"]["shares"] == [10, 10, 10, 10] and settle["balances"] == [-15, 45, -15, -15]
    bad = api.post(
        reverse("ledger:session-fee", args=[played.pk]), {"amount": 1, "split": "x"}, format="json"
    )
    assert (bad.status_code, bad.json()["field"]) == (400, "split")


def _start(api, session, fee):
    ids = list(session.seats.order_by("seat").values_list("player_id", flat=True))
    body = {"players": ids, "rules": {"preset": "chengdu"}, "fee": fee}
    return api.post(reverse("ledger:session-list", args=[session.group_id]), body, format="json")


def test_a_session_starts_with_its_table_fee_through_the_api(api, played):
    paid_by = player(played, "小李")
    response = _start(api, played, {"amount": 40, "split": "winners", "paid_by": paid_by})
    assert response.status_code == 201, response.content
    assert response.json()["fee"] == {"amount": 40, "split": "winners", "paid_by": paid_by}
    plain = _start(api, played, None)
    assert plain.status_code == 201 and plain.json()["fee"]["amount"] == 0


@pytest.mark.parametrize(
    ("fee", "field"),
    [
        ({"amount": -1}, "fee.amount"),
        ({"amount": 40, "split": "everyone"}, "fee.split"),
        ({"amount": 40, "split": "aa", "paid_by": 10**9}, "fee.paid_by"),
        ("40", "fee"),
    ],
)
def test_a_session_started_with_a_bad_fee_is_refused_and_nothing_is_stored(api, played, fee, field):
    before = played.group.sessions.count()
    response = _start(api, played, fee)
    assert (response.status_code, response.json()["field"]) == (400, field), response.content
    assert played.group.sessions.count() == before
