"""要是…: a session or a month replayed under other rules, read-only. The demo evening under 自摸加番 is
checked against settle_round of the same events under those rules, replayed here independently; a
quick-picker win is scored again under the other rules; nothing is stored; a month adds up by person;
100 hands in under a second of CPU."""

import json
import time

import pytest
from django.core.management import call_command
from django.urls import reverse

from calculator.engine import OPTIONS, PATTERNS, OptionKind
from ledger import demo, selectors, services
from ledger.models import LedgerEntry, Role, RoundVersion, Session
from settlement.engine import settle_round
from tests.ledger.conftest import make_table, make_user
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text

JIA_FAN_RULES = {"zimo_bonus": "jia_fan"}
JIA_FAN = {"rule_zimo_bonus": "jia_fan"}  # the form's field for it


@pytest.fixture
def demo_session(db, settings):
    settings.DEBUG = True  # the demo loads only in development
    call_command("load_demo")
    return Session.objects.get(group__name=demo.GROUP, name=demo.SESSION)


def owner_of(session):
    return session.group.memberships.get(role=Role.OWNER).user


def what_if(client, session, **choice):
    return client.get(reverse("session-what-if", args=[session.pk]), choice)


def demo_rounds_as_played():
    """The demo evening's rounds as they stand: round 4 corrected (demo.CORRECTION)."""
    rounds = list(demo.ROUNDS)
    position, corrected = demo.CORRECTION
    rounds[position - 1] = corrected
    return rounds


def nets_replayed(rules):
    """The demo evening's nets by seat under ``rules``: settle_round of its rounds as they stand."""
    expected = [0, 0, 0, 0]
    for body in demo_rounds_as_played():
        result = settle_round(
            dealer=body["dealer"], events=body["events"], rules=rules, void_suits=body.get("void_suits")
        )
        expected = [total + net for total, net in zip(expected, result.to_dict()["net"], strict=True)]
    return expected


def test_the_demo_evening_under_zimo_jia_fan_equals_settle_round_of_the_same_events(demo_session):
    expected = nets_replayed({"preset": "chengdu", **JIA_FAN_RULES})
    page = what_if(logged_in(owner_of(demo_session)), demo_session, **JIA_FAN)
    assert page.status_code == 200
    nets = {player.name: player.other for player in page.context["players"]}
    assert [nets[name] for name in demo.PLAYERS] == expected
    played = {seat.player_name: seat.points for seat in selectors.session_totals(demo_session).seats}
    assert {player.name: player.played for player in page.context["players"]} == played
    assert expected != [played[name] for name in demo.PLAYERS]  # the rule changes something


def test_nothing_is_stored(demo_session):
    before = (LedgerEntry.objects.count(), RoundVersion.objects.count())
    what_if(logged_in(owner_of(demo_session)), demo_session, preset="qq", rule_cap_multiplier="16")
    assert (LedgerEntry.objects.count(), RoundVersion.objects.count()) == before


def test_the_hands_that_moved_most_come_first_each_explained_under_the_other_rules(demo_session):
    page = what_if(logged_in(owner_of(demo_session)), demo_session, **JIA_FAN)
    explained = page.context["explained"]
    moved = [sum(abs(change) for *_, change in hand["rows"]) for hand in explained]
    assert moved == sorted(moved, reverse=True) and moved[0] > 0 and len(explained) <= 5
    assert all(hand["events"] for hand in explained)
    text = visible_text(page)
    assert "差别主要出在这几手" in text and "换规则后" in text


def test_a_quick_picker_win_is_scored_again_under_the_other_rules(owner):
    _, session = make_table(owner)
    note = json.dumps({"1": {"pattern": "qing_yi_se", "gen": 0}})  # 清一色 3 fan, by the chips
    event = {"type": "win", "from": None, "winners": [{"player": 1, "fan": 3}]}
    services.hand_event_add(
        actor=owner,
        session=session,
        event=event,
        revision=selectors.session_hand_revision(session),
        note=note,
    )
    finish = {"type": "draw", "players": [{"player": seat, "status": "not_ready"} for seat in (0, 2, 3)]}
    services.hand_event_add(
        actor=owner, session=session, event=finish, revision=selectors.session_hand_revision(session)
    )
    page = what_if(logged_in(owner), session, **JIA_FAN)
    nets = {player.name: player.other for player in page.context["players"]}
    # 清一色 3 + 自摸加番 1 = 4 fan, x8 from each of three; nobody is ready, so no 查叫 money moves
    assert nets["小李"] == 24 and nets["小王"] == -8


def test_a_month_adds_up_by_person_across_sessions(two_evenings, owner):
    group = two_evenings
    page = logged_in(owner).get(reverse("group-what-if", args=[group.pk]), {"preset": "chengdu"})
    assert page.status_code == 200
    totals = {name: 0 for name in ("小王", "小李", "阿美", "老张")}
    for session in group.sessions.all():
        for seat in selectors.session_totals(session).seats:
            totals[seat.player_name] += seat.points
    assert {player.name: player.played for player in page.context["players"]} == totals
    assert sum(player.other for player in page.context["players"]) == 0


def test_as_played_everywhere_replays_nothing(demo_session):
    page = what_if(logged_in(owner_of(demo_session)), demo_session)
    assert page.context.get("players") is None and "按什么规则算" in visible_text(page)


REFUSED = (  # a value the form cannot take, and the field that says so
    ({"preset": "nonsense"}, "preset"),
    ({"rule_cap_multiplier": "7"}, "rule_cap_multiplier"),
    ({"rule_zimo_bonus": "x" * 5000}, "rule_zimo_bonus"),
    ({"rule_base_points": "abc"}, "rule_base_points"),
    ({"rule_base_points": "0"}, "rule_base_points"),
    ({"pattern_qing_yi_se": "99"}, "pattern_qing_yi_se"),
    ({"cap": "7"}, "rule_cap_multiplier"),  # a link's old name is read, and checked, as the new
)


def test_a_value_it_cannot_take_is_said_beside_its_field_and_nothing_is_replayed(demo_session):
    client = logged_in(owner_of(demo_session))
    for choice, field in REFUSED:  # one demo evening for all (loading it is most of a test's time)
        page = what_if(client, demo_session, **choice)
        assert page.status_code == 400 and page.context.get("players") is None, choice
        assert list(page.context["form"].errors) == [field], choice
        assert 'class="field__error" role="alert"' in page.content.decode()


def test_every_option_and_every_pattern_of_the_engine_is_offered(demo_session):
    form = what_if(logged_in(owner_of(demo_session)), demo_session).context["form"]
    options = {option.key for option in OPTIONS if option.kind is not OptionKind.PATTERN_FAN}
    assert {name.removeprefix("rule_") for name in form.fields if name.startswith("rule_")} == options
    assert {name.removeprefix("pattern_") for name in form.fields if name.startswith("pattern_")} == {
        pattern.key for pattern in PATTERNS
    }


BEYOND_THE_FIRST_THREE = (  # the form's choice, and the rules settle_round is given for it
    ({"rule_direct_kong": "jia_jia_you"}, {"direct_kong": "jia_jia_you"}),  # 家家有
    ({"rule_base_points": "2"}, {"base_points": 2}),
    ({"rule_hai_di": "off"}, {"hai_di": False}),
    ({"pattern_qing_yi_se": "5"}, {"pattern_fan": {"qing_yi_se": 5}}),
    (
        {"preset": "qq", "rule_cap_multiplier": "16", "rule_gen_counts_kongs": "off"},
        {"preset": "qq", "cap_multiplier": 16, "gen_counts_kongs": False},
    ),
)


def test_an_option_beyond_the_first_three_replays_as_settle_round_does(demo_session):
    client = logged_in(owner_of(demo_session))
    for choice, rules in BEYOND_THE_FIRST_THREE:
        page = what_if(client, demo_session, **choice)
        assert page.status_code == 200, page.context["form"].errors
        nets = {player.name: player.other for player in page.context["players"]}
        assert [nets[name] for name in demo.PLAYERS] == nets_replayed({"preset": "chengdu", **rules}), choice


def test_a_link_of_the_old_names_asks_the_same(demo_session):
    client = logged_in(owner_of(demo_session))
    old = what_if(client, demo_session, zimo_bonus="jia_fan", cap="16")
    new = what_if(client, demo_session, rule_zimo_bonus="jia_fan", rule_cap_multiplier="16")
    assert old.context["players"] == new.context["players"]


def test_english_and_another_groups_session(demo_session):
    client = logged_in(owner_of(demo_session))
    text = visible_text(client.get(reverse("session-what-if", args=[demo_session.pk]), JIA_FAN, **ENGLISH))
    assert "The hands that made the difference" in text and "Under these rules" in text
    stranger = make_user("stranger")
    make_table(stranger, group_name="隔壁桌")
    assert what_if(logged_in(stranger), demo_session, **JIA_FAN).status_code == 404


def test_the_settle_page_and_the_group_page_lead_to_it(demo_session):
    client = logged_in(owner_of(demo_session))
    settle = client.get(reverse("session-settle", args=[demo_session.pk])).content.decode()
    assert f'href="{reverse("session-what-if", args=[demo_session.pk])}?rule_zimo_bonus=jia_fan"' in settle
    group = client.get(reverse("group-page", args=[demo_session.group.pk])).content.decode()
    assert f'href="{reverse("group-what-if", args=[demo_session.group.pk])}?rule_zimo_bonus=jia_fan"' in group


def test_a_hundred_hands_replay_in_under_a_second_of_cpu(demo_session):
    owner = owner_of(demo_session)
    rounds = demo_rounds_as_played()
    index = 0
    while selectors.session_totals(demo_session).rounds < 100:
        services.round_record(actor=owner, session=demo_session, body=rounds[index % len(rounds)])
        index += 1
    client = logged_in(owner)
    start = time.process_time()
    page = what_if(client, demo_session, preset="casual", **JIA_FAN)
    spent = time.process_time() - start
    assert page.context["hands"] == 100
    assert spent < 1.0, spent


@pytest.mark.parametrize("month", ["9999-12", "0001-01", "2026-13"])
def test_a_month_past_the_days_a_table_can_have_played_reads_as_this_month(two_evenings, owner, month):
    group = two_evenings
    page = logged_in(owner).get(reverse("group-what-if", args=[group.pk]), {"month": month})
    assert page.status_code == 200


def test_the_answer_says_which_rules_it_is_under(demo_session):
    client = logged_in(owner_of(demo_session))
    page = what_if(client, demo_session, preset="casual", rule_zimo_bonus="jia_fan", pattern_qing_yi_se="5")
    assert page.context["form"].asked_words() == "家庭休闲（封顶） · 自摸奖励 自摸加番 · 清一色 5 番"
    assert "换规则后 家庭休闲（封顶） · 自摸奖励 自摸加番 · 清一色 5 番" in visible_text(page)
