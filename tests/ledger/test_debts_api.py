"""The debts API (ledger/api/debts.py): a session's accounts, marking, undoing, the group's debts."""

from __future__ import annotations

from django.urls import reverse

from ledger import services
from ledger.models import PaymentMark, Player, Role
from tests.ledger.conftest import SELF_DRAW_B, client_for, queries_as_the_group_grows


def ids(group):
    return {player.name: player.pk for player in Player.objects.filter(group=group)}


def test_marking_one_in_full_and_one_in_part_answers_what_is_left(api, owner, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    players = ids(session.group)
    payments = reverse("ledger:session-payments", args=[session.pk])
    full = api.post(
        payments, {"from_player": players["小王"], "to_player": players["小李"], "amount": 5}, format="json"
    )
    part = api.post(
        payments, {"from_player": players["阿美"], "to_player": players["小李"], "amount": 2}, format="json"
    )
    assert (full.status_code, part.status_code) == (201, 201)
    assert full.json() | {"created": None} == {
        "id": full.json()["id"],
        "session": session.pk,
        "from_player": players["小王"],
        "from_name": "小王",
        "to_player": players["小李"],
        "to_name": "小李",
        "amount": 5,
        "marked_by": "owner",
        "created": None,
        "reverses": None,
        "undone": False,
    }
    answer = api.get(reverse("ledger:session-debts", args=[session.pk])).json()
    assert answer["unit"] == "points" and answer["carried"] == [] and not answer["corrected_after_marks"]
    assert {(pair["from_name"], pair["asked"], pair["paid"], pair["left"]) for pair in answer["pairs"]} == {
        ("小王", 5, 5, 0),
        ("阿美", 5, 2, 3),
        ("老张", 5, 0, 5),
    }
    owed = api.get(reverse("ledger:group-debts", args=[session.group_id])).json()["owed"]
    assert {(o["from_name"], o["to_name"], o["amount"], o["unit"]) for o in owed} == {
        ("阿美", "小李", 3, "points"),
        ("老张", "小李", 5, "points"),
    }
    undone = api.post(reverse("ledger:payment-undo", args=[part.json()["id"]]))
    assert (
        undone.status_code == 201
        and undone.json()["amount"] == -2
        and undone.json()["reverses"] == part.json()["id"]
    )
    again = api.post(reverse("ledger:payment-undo", args=[part.json()["id"]]))
    assert again.status_code == 409 and again.json()["code"] == "payment_already_undone"
    marks = api.get(reverse("ledger:session-debts", args=[session.pk])).json()["marks"]
    assert [(m["amount"], m["undone"]) for m in marks] == [(-2, False), (2, True), (5, False)]


def test_a_bad_payment_is_a_400_naming_the_field_and_stores_nothing(api, owner, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    players = ids(session.group)
    payments = reverse("ledger:session-payments", args=[session.pk])
    for body, field in (
        ({"from_player": players["小王"], "to_player": players["小李"], "amount": 6}, "amount"),
        ({"from_player": players["小王"], "to_player": players["小李"], "amount": "all"}, "amount"),
        ({"from_player": "小王", "to_player": players["小李"], "amount": 1}, "from_player"),
        ({"from_player": players["小王"], "amount": 1}, "to_player"),
        ({"from_player": players["小李"], "to_player": players["小王"], "amount": 1}, "to_player"),
    ):
        response = api.post(payments, body, format="json")
        assert (response.status_code, response.json()["field"]) == (400, field), body
    assert api.post(payments, [1, 2], format="json").status_code == 400
    assert not PaymentMark.objects.exists()


def test_only_the_maker_undoes_and_a_viewer_marks_nothing(api, owner, session, member_factory):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    players = ids(session.group)
    body = {"from_player": players["小王"], "to_player": players["小李"], "amount": 1}
    payments = reverse("ledger:session-payments", args=[session.pk])
    mark = api.post(payments, body, format="json").json()
    keeper = client_for(member_factory("keeper", Role.SCOREKEEPER))
    refused = keeper.post(reverse("ledger:payment-undo", args=[mark["id"]]))
    assert refused.status_code == 403 and "Only whoever marked" in refused.json()["detail"]
    viewer = client_for(member_factory("viewer", Role.VIEWER))
    assert viewer.post(payments, body, format="json").status_code == 403
    assert viewer.get(reverse("ledger:session-debts", args=[session.pk])).status_code == 200
    assert PaymentMark.objects.count() == 1


def test_the_groups_debts_answer_in_the_same_queries_at_10_and_100_sessions(api, owner, session):
    """Each session's transfers are kept (ledger/debts.py), so the answer does not settle the whole history
    again: a read costs the same whatever the number of sessions, and so does one after a write."""
    url = reverse("ledger:group-debts", args=[session.group_id])
    api.get(url)  # the token's first use of the minute renews it: a write no later read repeats

    def read():
        assert api.get(url).status_code == 200

    at_ten = queries_as_the_group_grows(owner, session.group, 10, read)
    owed = api.get(url).json()["owed"]
    assert {(o["from_name"], o["to_name"], o["amount"]) for o in owed} == {
        ("小王", "小李", 50),
        ("阿美", "小李", 50),
        ("老张", "小李", 50),
    }
    assert queries_as_the_group_grows(owner, session.group, 100, read) == at_ten
