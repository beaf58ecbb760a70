"""Start a session: four names in seat order (a new one becomes a player), the dealer, a preset, any
option in players' words, optional coins; prefilled from the group's last session; every refusal a
message beside its field and nothing stored."""

import re

import pytest
from django.urls import reverse

from calculator.engine import OPTIONS, PATTERNS, OptionKind, Rules
from ledger import services
from ledger.models import Player, Role, Session
from tests.ledger.conftest import NAMES, make_table, make_user, member_join
from tests.ledger.pages.helpers import ENGLISH, errors_of, logged_in, visible_text


@pytest.fixture
def group(owner):
    return services.group_create(actor=owner, name="周五麻将")


@pytest.fixture
def client(owner):
    return logged_in(owner)


def start(client, group, headers=None, **fields):
    data = {
        "name": "周五",
        "dealer": "0",
        "preset": "chengdu",
        **{f"seat_{seat}": name for seat, name in enumerate(NAMES)},
        **fields,
    }
    return client.post(reverse("session-start", args=[group.pk]), data, **(headers or {}))


def test_every_option_is_shown_in_players_words_never_as_a_key(client, group):
    keys = {option.key for option in OPTIONS} | {value for option in OPTIONS for value in option.choices}
    pinyin = {"dingque", "xuezhan", "chengbao", "zimo", "dianpao", "bao", "qq"}
    for headers, zh in (({}, True), (ENGLISH, False)):
        text = visible_text(client.get(reverse("session-start", args=[group.pk]), **headers))
        for option in OPTIONS:
            assert (option.label_zh if zh else option.label) in text
            assert (option.explanation_zh if zh else option.explanation) in text
        for pattern in PATTERNS:
            assert (pattern.name if zh else pattern.name_en) in text
        # In Chinese no key or value name may show at all; in English none that is not an English word.
        words = set(re.findall(r"[A-Za-z_0-9]+", text))
        shown = {key for key in keys if key in words and (zh or "_" in key or key in pinyin)}
        assert shown == set()
        assert "null" not in words and "None" not in words and "true" not in words and "{" not in text


def test_four_new_names_become_players_and_the_session_starts(client, group):
    response = start(client, group, rule_base_points="2", rule_zimo_bonus="jia_fan", pattern_long_qi_dui="4")
    assert response.status_code == 302
    session = Session.objects.get(group=group)
    assert [seat.player.name for seat in session.seats.order_by("seat")] == list(NAMES)
    rules = Rules.from_dict(session.rules)
    assert (rules.base_points, rules.zimo_bonus.value, rules.pattern_value("long_qi_dui")) == (
        2,
        "jia_fan",
        4,
    )
    assert rules.cap_multiplier is None  # left "as the preset"
    assert not session.coins_enabled


def test_the_dealer_chosen_deals_the_first_hand(client, group):
    assert start(client, group, dealer="2").status_code == 302
    assert Session.objects.get(group=group).hand.dealer == 2


def test_known_names_are_the_groups_players_and_coins_are_kept(owner, client):
    group, _ = make_table(owner)
    response = start(
        client,
        group,
        coins="on",
        room_coefficient="100",
        balance_0="1000",
        balance_1="1000",
        balance_2="500",
        balance_3="0",
    )
    assert response.status_code == 302
    assert Player.objects.filter(group=group).count() == 4
    session = Session.objects.filter(group=group).first()
    assert (session.room_coefficient, session.starting_balances) == (100, [1000, 1000, 500, 0])


def test_the_last_session_prefills_seating_rules_and_coins(owner, client):
    group, _ = make_table(
        owner,
        rules={"preset": "casual", "base_points": 5},
        coins={"room_coefficient": 10, "starting_balances": [1, 2, 3, 4]},
    )
    page = client.get(reverse("session-start", args=[group.pk])).content.decode()
    for seat, name in enumerate(NAMES):
        assert f'name="seat_{seat}" value="{name}"' in page
    assert 'value="casual" checked' in page
    assert 'name="rule_base_points" value="5"' in page
    assert 'name="room_coefficient" value="10"' in page
    assert 'name="coins" checked' in page
    # one tap: the prefilled form as it stands starts tonight's session with the same table
    response = client.post(reverse("session-start", args=[group.pk]), _prefilled(page))
    assert response.status_code == 302
    tonight = Session.objects.filter(group=group).first()
    assert Rules.from_dict(tonight.rules).base_points == 5
    assert tonight.starting_balances == [1, 2, 3, 4]


def test_a_session_starts_with_its_table_fee_and_the_next_one_offers_it_again(owner, client):
    group, _ = make_table(owner)
    response = start(client, group, fee_amount="40", fee_split="winners")
    assert response.status_code == 302
    tonight = Session.objects.filter(group=group).first()
    assert (tonight.fee_amount, tonight.fee_split, tonight.fee_paid_by_id) == (40, "winners", None)
    page = client.get(reverse("session-start", args=[group.pk])).content.decode()
    assert 'name="fee_amount" value="40"' in page
    assert 'name="fee_split" value="winners" checked' in page
    assert "台费（可选） · 40" in visible_text(client.get(reverse("session-start", args=[group.pk])))
    # one tap again: the fee comes with the prefilled form
    assert client.post(reverse("session-start", args=[group.pk]), _prefilled(page)).status_code == 302
    assert Session.objects.filter(group=group).first().fee_amount == 40


def test_no_fee_left_blank_or_0(client, group):
    assert start(client, group, fee_amount="").status_code == 302
    assert start(client, group, fee_amount="0", fee_split="top_winner").status_code == 302
    assert [session.fee_amount for session in Session.objects.all()] == [0, 0]
    assert "Table fee (optional)" in visible_text(
        client.get(reverse("session-start", args=[group.pk]), **ENGLISH)
    )


def _prefilled(page):
    """What the browser posts for the page as served: every box's value, every checked choice."""
    data = dict(re.findall(r'<input type="text" name="(\w+)"[^>]*? value="([^"]*)"', page))
    data |= dict(re.findall(r'<input type="radio" name="(\w+)" value="([^"]*)" checked', page))
    data |= {name: "on" for name in re.findall(r'<input type="checkbox" name="(\w+)" checked', page)}
    data |= dict(re.findall(r'<select name="(\w+)"[^>]*>.*?<option value="([^"]*)" selected', page, re.S))
    data["csrfmiddlewaretoken"] = "x"
    return data


BAD = [
    pytest.param({"seat_2": ""}, "seat_2", "必填", "required", id="a-seat-empty"),
    pytest.param({"seat_3": "小王"}, "seat_3", "另一个座位", "another seat", id="twice-at-the-table"),
    pytest.param({"seat_1": "李" * 51}, "seat_1", "50", "50", id="name-too-long"),
    pytest.param({"dealer": "4"}, "dealer", "有效", "valid choice", id="dealer-off-the-table"),
    pytest.param({"preset": "tokyo"}, "preset", "有效", "valid choice", id="unknown-preset"),
    pytest.param({"rule_base_points": "0"}, "rule_base_points", "1", "1", id="base-points-zero"),
    pytest.param(
        {"rule_base_points": "abc"}, "rule_base_points", "整数", "whole number", id="base-points-text"
    ),
    pytest.param({"rule_base_points": "99999"}, "rule_base_points", "10000", "10000", id="base-points-huge"),
    pytest.param({"rule_tax_rate": "1"}, "rule_tax_rate", "小于 1", "Less than 1", id="tax-all-of-it"),
    pytest.param(
        {"rule_cap_multiplier": "3"}, "rule_cap_multiplier", "有效", "valid choice", id="cap-not-a-power"
    ),
    pytest.param({"rule_mode": "chess"}, "rule_mode", "有效", "valid choice", id="unknown-mode"),
    pytest.param({"pattern_qi_dui": "99"}, "pattern_qi_dui", "有效", "valid choice", id="pattern-fan-huge"),
    pytest.param({"coins": "on"}, "room_coefficient", "游戏币", "coins", id="coins-without-numbers"),
    pytest.param(
        {
            "coins": "on",
            "room_coefficient": "1",
            "balance_0": "-5",
            "balance_1": "1",
            "balance_2": "1",
            "balance_3": "1",
        },
        "balance_0",
        "0",
        "0",
        id="negative-coins",
    ),
    pytest.param({"name": "周" * 101}, "name", "100", "100", id="session-name-too-long"),
    pytest.param({"fee_amount": "-5"}, "fee_amount", "0", "0", id="fee-below-zero"),
    pytest.param({"fee_amount": "十"}, "fee_amount", "整数", "whole number", id="fee-not-a-number"),
    pytest.param(
        {"fee_amount": "40", "fee_split": "dealer"}, "fee_split", "有效", "valid choice", id="fee-split"
    ),
]


@pytest.mark.parametrize(("fields", "field", "chinese", "english"), BAD)
def test_a_refused_start_says_why_beside_the_field_and_stores_nothing(
    client, group, fields, field, chinese, english
):
    for headers, words in (({}, chinese), (ENGLISH, english)):
        response = start(client, group, headers, **fields)
        assert response.status_code == 400
        assert any(words in error for error in errors_of(response)), (field, errors_of(response))
        assert 'class="field__error"' in response.content.decode()
    assert not Session.objects.exists()
    assert not Player.objects.exists()  # the four new names were not kept either


def test_a_viewer_cannot_start_a_session(owner, group):
    guest = make_user("guest")
    member_join(actor=owner, group=group, username="guest", role=Role.VIEWER)
    client = logged_in(guest)
    page = client.get(reverse("session-start", args=[group.pk]))
    assert 'id="start-session"' not in page.content.decode()
    assert "你在本组的角色无权执行此操作。" in visible_text(page)  # the ledger's catalogue (role_forbids)
    english = client.get(reverse("session-start", args=[group.pk]), **ENGLISH)
    assert "Your role in this group does not allow this." in visible_text(english)
    response = start(client, group)
    assert response.status_code == 400
    assert any("角色" in error for error in errors_of(response))
    assert not Session.objects.exists() and not Player.objects.exists()


def test_every_option_kind_has_a_field(client, group):
    page = client.get(reverse("session-start", args=[group.pk])).content.decode()
    for option in OPTIONS:
        if option.kind is not OptionKind.PATTERN_FAN:
            assert f'name="rule_{option.key}"' in page
