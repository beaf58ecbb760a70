"""Debts on the pages (ledger/pages/debts.py): 结算 marks a transfer paid in full or in part, shows what is
left and the marks with 撤销, carries what is unpaid into the next session apart from tonight's, says when a
correction left a difference; the group page says who still owes whom."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.api.csv_export import export_rows
from ledger.models import PaymentMark, Player, Role
from ledger.pages.card import session_card
from tests.ledger.conftest import SELF_DRAW_B
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text

ONE_FAN = {"dealer": 0, "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 1}]}]}


@pytest.fixture
def played(owner, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # three pay 小李 5 each
    return session


def ids(group):
    return {player.name: player.pk for player in Player.objects.filter(group=group)}


def pay(client, session, payer, payee, amount, back=None):
    players = ids(session.group)
    return client.post(
        reverse("session-payment-mark", args=[session.pk]),
        {
            "from_player": players[payer],
            "to_player": players[payee],
            "amount": amount,
            "back": back or session.pk,
        },
    )


def settle(client, session, **query):
    return client.get(reverse("session-settle", args=[session.pk]), query)


def test_one_paid_in_full_and_one_in_part_show_what_is_left_here_and_on_the_group_page(owner, played):
    client = logged_in(owner)
    assert pay(client, played, "小王", "小李", "5").status_code == 303
    answer = pay(client, played, "阿美", "小李", "2")
    assert answer["Location"] == reverse("session-settle", args=[played.pk])
    text = visible_text(settle(client, played))
    assert "已付清" in text and "已付 2，还差 3" in text
    assert "2 笔付款已标记" in text and "撤销" in text
    group = visible_text(client.get(reverse("group-page", args=[played.group_id])))
    assert "谁还欠谁" in group and "阿美 → 付给 小李 3" in group and "老张 → 付给 小李 5" in group
    english = visible_text(client.get(reverse("session-settle", args=[played.pk]), **ENGLISH))
    assert "Paid in full" in english and "Paid 2, 3 left" in english


def test_a_bad_amount_is_said_in_the_pages_language_and_stores_nothing(owner, played):
    client = logged_in(owner)
    response = pay(client, played, "小王", "小李", "6")
    assert response.status_code == 303
    assert "金额须为 1 到 5 之间的整数" in visible_text(client.get(response["Location"]))
    assert "须为" not in visible_text(client.get(response["Location"]))  # said once
    pay(client, played, "小王", "小李", "五")
    assert not PaymentMark.objects.exists()


def test_the_next_settle_up_carries_what_is_unpaid_apart_and_includes_it_on_request(owner, played):
    client = logged_in(owner)
    pay(client, played, "阿美", "小李", "2")
    services.session_close(actor=owner, session=played)
    players = ids(played.group)
    tonight = services.session_start(
        actor=owner,
        group=played.group,
        name="第二场",
        player_ids=[players[n] for n in ("小王", "小李", "阿美", "老张")],
    )
    services.round_record(actor=owner, session=tonight, body=SELF_DRAW_B)
    page = visible_text(settle(client, tonight))
    assert "之前欠的" in page and "第一场 阿美 → 付给 小李 3" in page
    assert "之前欠的" not in settle(client, tonight).context["summary"]
    included = settle(client, tonight, carried="1")
    assert "阿美 → 小李 8" in included.context["summary"]  # 3 carried + 5 tonight
    assert "第一场: 阿美 → 小李 3" in included.context["summary"]
    # marking a carried debt from tonight's page pays the earlier session and comes back here
    answer = pay(client, played, "阿美", "小李", "3", back=tonight.pk)
    assert answer["Location"] == reverse("session-settle", args=[tonight.pk])
    assert "第一场 阿美" not in visible_text(settle(client, tonight))


def test_a_correction_after_payments_says_so_and_offers_the_return(owner, played):
    client = logged_in(owner)
    pay(client, played, "小王", "小李", "5")
    services.round_correct(actor=owner, round_=played.rounds.get(), body=ONE_FAN)
    page = settle(client, played)
    text = visible_text(page)
    assert "标记付款之后改过" in text and "小李 退还 3" in text and "标记已退" in text
    pay(client, played, "小李", "小王", "3")
    assert "小李 退还" not in visible_text(settle(client, played))


def test_a_viewer_sees_the_accounts_without_a_form_and_only_the_maker_undoes(owner, played, member_factory):
    pay(logged_in(owner), played, "小王", "小李", "5")
    viewer = logged_in(member_factory("viewer", Role.VIEWER))
    page = settle(viewer, played).content.decode()
    assert "已付清" in page and "session-payment" not in page and 'name="amount"' not in page
    assert "撤销</button>" not in page
    keeper = logged_in(member_factory("keeper", Role.SCOREKEEPER))
    mark = PaymentMark.objects.get()
    keeper.post(reverse("payment-undo-page", args=[mark.pk]))
    assert PaymentMark.objects.count() == 1
    logged_in(owner).post(reverse("payment-undo-page", args=[mark.pk]))
    assert PaymentMark.objects.count() == 2


def test_a_table_fee_set_on_the_settle_page_enters_the_transfers_summary_picture_and_csv(owner, played):
    client = logged_in(owner)
    answer = client.post(
        reverse("session-fee-page", args=[played.pk]),
        {"amount": "40", "split": "aa", "paid_by": str(ids(played.group)["小李"])},
    )
    assert answer.status_code == 303
    page = settle(client, played)
    text = visible_text(page)
    line = "台费 40 · 均摊（AA） · 小李 垫付: 小王 10 · 小李 10 · 阿美 10 · 老张 10"
    assert line in text and line in page.context["summary"]
    assert "小王 → 小李 15" in page.context["summary"]
    link = page.context["summary_url"].removeprefix("http://testserver")
    assert line in visible_text(Client().get(link))
    played.refresh_from_db()
    assert line in session_card(page.wsgi_request, played).notes
    rows = list(export_rows(played))
    assert rows[-1] == ["台费 fee", 40, "aa", "小李", -10, 30, -10, -10, 0]
    english = visible_text(client.get(reverse("session-settle", args=[played.pk]), **ENGLISH))
    assert "Table fee 40 · everyone alike (AA) · paid by 小李" in english


def test_a_bad_fee_is_said_on_the_page_and_a_viewer_has_no_form(owner, played, member_factory):
    client = logged_in(owner)
    answer = client.post(
        reverse("session-fee-page", args=[played.pk]), {"amount": "-3", "split": "aa", "paid_by": ""}
    )
    assert "台费须为 0（不收）到" in visible_text(client.get(answer["Location"]))
    played.refresh_from_db()
    assert played.fee_amount == 0
    viewer = logged_in(member_factory("viewer", Role.VIEWER))
    assert "加台费" not in visible_text(settle(viewer, played))
    viewer.post(reverse("session-fee-page", args=[played.pk]), {"amount": "5", "split": "aa", "paid_by": ""})
    played.refresh_from_db()
    assert played.fee_amount == 0
