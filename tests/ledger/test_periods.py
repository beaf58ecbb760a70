"""A group's figures over a period and the pairwise ones, against two evenings worked by hand.

Seats in both: 0 小王, 1 小李, 2 阿美, 3 老张 (Chengdu defaults, base 1; RULES.md 12 for each round's money).

Last month (A):
  A1 小王 feeds 小李 2 fan: 小王 → 小李 2.
  A2 小李 self-draws 3 fan (x4 + 1 自摸加底): each of the others → 小李 5.
  A3 a draw: 小王 花猪 pays 16 to each of the three; 老张 not ready pays 查叫 to 小李 (1 fan: 1) and
     阿美 (3 fan: 4).
  nets: 小王 −2−5−48 = −55, 小李 2+15+17 = +34, 阿美 −5+20 = +15, 老张 −5+11 = +6.
  between: 小王/小李 −23 (2+5+16), 小王/阿美 −16, 小王/老张 −16, 小李/阿美 +5, 小李/老张 +6 (5+1),
     阿美/老张 +4. 点炮: 小王 fed 小李 once. 花猪王 小王 (1 hand). No kong money.
This month (B):
  B1 老张 feeds 阿美 1 fan: 老张 → 阿美 1.
  B2 小李 弯杠 (1 from each), then 阿美 wins 2 fan on his next discard (杠上炮: 小李 → 阿美 2) and takes
     the kong's 3 over (呼叫转移: 小李 → 阿美 3).
  B3 小李 self-draws, then voided: counts for nothing.
  nets: 小王 −1, 小李 +3−2−3 = −2, 阿美 1−1+2+3 = +5, 老张 −1−1 = −2.
  between: 小王/小李 −1, 小李/阿美 −4 (1 − 5), 小李/老张 +1, 阿美/老张 +1. 点炮: 老张 fed 阿美, 小李 fed
     阿美. Kong money: 小李 +3−3 = 0, 阿美 −1+3 = +2, the others −1: 杠王 阿美.
Both: the longest run of sessions ended ahead is 阿美's 2 (A +15, B +5).
"""

from datetime import datetime, time, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.errors import LedgerError
from ledger.periods import period_figures, period_of, period_statistics
from ledger.statistics import group_statistics
from tests.ledger.conftest import (
    DRAW_WITH_PIG,
    KONG_THEN_GANG_SHANG_PAO,
    SELF_DRAW_B,
    make_table,
)
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text

FEED = {"dealer": 0, "events": [{"type": "win", "from": 0, "winners": [{"player": 1, "fan": 2}]}]}
ZHANG_FEEDS_MEI = {"dealer": 0, "events": [{"type": "win", "from": 3, "winners": [{"player": 2, "fan": 1}]}]}


def _at(session, day):
    type(session).objects.filter(pk=session.pk).update(
        created=timezone.make_aware(datetime.combine(day, time(20, 0)))
    )


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def evenings(owner, today):
    group, last = make_table(owner)
    for body in (FEED, SELF_DRAW_B, DRAW_WITH_PIG):
        services.round_record(actor=owner, session=last, body=body)
    services.session_close(actor=owner, session=last)
    _at(last, today.replace(day=1) - timedelta(days=20))
    players = list(group.players.order_by("id"))
    this = services.session_start(actor=owner, group=group, name="第二场", player_ids=[p.pk for p in players])
    for body in (ZHANG_FEEDS_MEI, KONG_THEN_GANG_SHANG_PAO):
        services.round_record(actor=owner, session=this, body=body)
    voided, _ = services.round_record(actor=owner, session=this, body=SELF_DRAW_B)
    services.round_void(actor=owner, round_=voided)
    _at(this, today)
    return group, {player.name: player.pk for player in players}


def by_name(figures, ids):
    names = {pk: name for name, pk in ids.items()}
    return {
        "nets": {record.name: record.net for record in figures.players},
        "kong": {record.name: record.kong_points for record in figures.players},
        "huazhu": {record.name: record.huazhu for record in figures.players},
        "run": {record.name: record.winning_run for record in figures.players},
        "fed": {(names[a], names[b]): n for (a, b), n in figures.fed.items()},
        "between": {(names[a], names[b]): n for (a, b), n in figures.between.items()},
        "kong_kings": [names[pk] for pk in figures.kong_kings],
        "huazhu_kings": [names[pk] for pk in figures.huazhu_kings],
        "longest_run": [names[pk] for pk in figures.longest_run],
    }


def test_last_month_as_worked_by_hand(evenings, today):
    group, ids = evenings
    figures = by_name(period_figures(group, period_of({"period": "last_month"}, today)), ids)
    assert figures["nets"] == {"小王": -55, "小李": 34, "阿美": 15, "老张": 6}
    assert figures["between"] == {
        ("小王", "小李"): -23,
        ("小王", "阿美"): -16,
        ("小王", "老张"): -16,
        ("小李", "阿美"): 5,
        ("小李", "老张"): 6,
        ("阿美", "老张"): 4,
    }
    assert figures["fed"] == {("小王", "小李"): 1}
    assert figures["huazhu_kings"] == ["小王"] and figures["kong_kings"] == []


def test_this_month_as_worked_by_hand_without_the_voided_hand(evenings, today):
    group, ids = evenings
    period = period_of({"period": "this_month"}, today)
    figures = period_figures(group, period)
    assert figures.sessions == 1
    named = by_name(figures, ids)
    assert named["nets"] == {"小王": -1, "小李": -2, "阿美": 5, "老张": -2}
    assert named["between"] == {
        ("小王", "小李"): -1,
        ("小李", "阿美"): -4,
        ("小李", "老张"): 1,
        ("阿美", "老张"): 1,
    }
    assert named["fed"] == {("老张", "阿美"): 1, ("小李", "阿美"): 1}
    assert named["kong"] == {"小王": -1, "小李": 0, "阿美": 2, "老张": -1} and named["kong_kings"] == ["阿美"]
    assert named["huazhu_kings"] == []


def test_both_months_add_up_and_the_longest_run_is_ameis(evenings, today):
    group, ids = evenings
    for data in ({"period": "all"}, {"period": "this_year"} if today.month > 1 else {"period": "all"}):
        named = by_name(period_figures(group, period_of(data, today)), ids)
        assert named["nets"] == {"小王": -56, "小李": 32, "阿美": 20, "老张": 4}
        assert named["run"] == {"小王": 0, "小李": 1, "阿美": 2, "老张": 1} and named["longest_run"] == [
            "阿美"
        ]
        assert named["between"][("小李", "阿美")] == 5 - 4


def test_a_date_range_counts_its_days_inclusive(evenings, today):
    group, ids = evenings
    first = today.replace(day=1) - timedelta(days=20)
    only_a = period_of({"period": "range", "from": first.isoformat(), "to": first.isoformat()}, today)
    assert by_name(period_figures(group, only_a), ids)["nets"]["小王"] == -55
    nothing = period_of(
        {
            "period": "range",
            "from": (first + timedelta(days=1)).isoformat(),
            "to": (first + timedelta(days=1)).isoformat(),
        },
        today,
    )
    assert period_figures(group, nothing).sessions == 0


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"period": "fortnight"}, "period"),
        ({"period": "range", "from": "2026-13-01", "to": "2026-12-01"}, "from"),
        ({"period": "range", "from": "2026-12-01"}, "to"),
        ({"period": "range", "from": "2026-12-02", "to": "2026-12-01"}, "to"),
        pytest.param(
            {"period": "range", "from": "2026-12-01", "to": "9999-12-31"}, "to", id="to-the-last-day"
        ),
        pytest.param(
            {"period": "range", "from": "0001-01-01", "to": "2026-12-01"}, "from", id="from-day-one"
        ),
    ],
)
def test_a_period_that_cannot_be_read_names_its_field(data, field, today):
    with pytest.raises(LedgerError) as refusal:
        period_of(data, today)
    assert refusal.value.field == field


def test_the_queries_stay_the_same_whatever_the_number_of_hands(owner, today):
    counts = []
    group, session = make_table(owner)
    for hands in (2, 12):
        while session.rounds.count() < hands:
            services.round_record(actor=owner, session=session, body=FEED)
        with CaptureQueriesContext(connection) as queries:
            period_figures(group, period_of({"period": "this_month"}, today))
        counts.append(len(queries))
    assert counts[0] == counts[1] == 5, counts


def test_the_statistics_api_takes_a_period(evenings, api):
    group, ids = evenings
    url = reverse("ledger:group-statistics", args=[group.pk])
    body = api.get(url, {"period": "last_month"}).json()
    period = body["period"]
    assert period["key"] == "last_month" and period["sessions"] == 1
    nets = {row["name"]: row["net"] for row in period["players"]}
    assert nets == {"小王": -55, "小李": 34, "阿美": 15, "老张": 6}
    assert {"from": ids["小王"], "to": ids["小李"], "count": 1} in period["fed"]
    refused = api.get(url, {"period": "range", "from": "yesterday"})
    assert refused.status_code == 400 and refused.json()["field"] == "from"
    for edge in ({"from": "2026-01-01", "to": "9999-12-31"}, {"from": "0001-01-01", "to": "2026-01-01"}):
        refused = api.get(url, {"period": "range", **edge})
        assert refused.status_code == 400 and refused.json()["code"] == "period_out_of_range", refused.content


def test_the_statistics_page_shows_the_period_with_its_pairwise_figures(evenings, owner):
    group, _ = evenings
    client = logged_in(owner)
    page = client.get(reverse("group-stats", args=[group.pk]), {"period": "this_month"})
    text = visible_text(page)
    assert "按时段" in text and "本月" in text and "1 场" in text
    assert "杠王 阿美 (2)" in text and "谁给谁点炮" in text and "小李 对 阿美 −4" in text
    last = visible_text(client.get(reverse("group-stats", args=[group.pk]), {"period": "last_month"}))
    assert "花猪王 小王 (1)" in last and "小王 对 小李 −23" in last
    everything = visible_text(client.get(reverse("group-stats", args=[group.pk]), {"period": "nonsense"}))
    assert "最长连赢（场） 阿美 (2)" in everything


def test_a_corrected_hand_counts_as_corrected_between_the_pairs(owner, today):
    """The correction's version holds, at the same places, the reversals of the rows it replaced."""
    group, session = make_table(owner)
    recorded, _ = services.round_record(actor=owner, session=session, body=FEED)
    services.round_correct(actor=owner, round_=recorded, body=ZHANG_FEEDS_MEI)
    ids = {player.name: player.pk for player in group.players.all()}
    named = by_name(period_figures(group, period_of({}, today)), ids)
    assert named["between"] == {("阿美", "老张"): 1}
    assert named["fed"] == {("老张", "阿美"): 1}


def records_by_name(statistics):
    return {
        record.name: (
            record.sessions,
            record.hands,
            record.wins,
            record.self_draws,
            record.deal_ins,
            record.kong_points,
            record.huazhu,
            record.chajiao,
            record.net,
            record.biggest.fan if record.biggest else None,
        )
        for record in statistics.players
    }


# (sessions, hands, wins, self-draws, deal-ins, kong money, 花猪, 查叫, net, biggest fan), from the module's
# docstring: last month A1-A3 (小李 wins A1 fed by 小王 and self-draws A2; A3 小王 花猪, 老张 not ready),
# this month B1-B2 (阿美 wins both, fed by 老张 then 小李; the kong's money; B3 voided counts nowhere).
LAST_MONTH = {
    "小王": (1, 3, 0, 0, 1, 0, 1, 0, -55, None),
    "小李": (1, 3, 2, 1, 0, 0, 0, 0, 34, 3),
    "阿美": (1, 3, 0, 0, 0, 0, 0, 0, 15, None),
    "老张": (1, 3, 0, 0, 0, 0, 0, 1, 6, None),
}
THIS_MONTH = {
    "小王": (1, 2, 0, 0, 0, -1, 0, 0, -1, None),
    "小李": (1, 2, 0, 0, 1, 0, 0, 0, -2, None),
    "阿美": (1, 2, 2, 0, 0, 2, 0, 0, 5, 2),
    "老张": (1, 2, 0, 0, 1, -1, 0, 0, -2, None),
}


def test_every_table_over_a_period_as_worked_by_hand(evenings, today):
    group, ids = evenings
    for key, expected in (("last_month", LAST_MONTH), ("this_month", THIS_MONTH)):
        statistics = period_statistics(group, period_of({"period": key}, today))
        assert records_by_name(statistics) == expected, key
        (standing,) = statistics.sessions  # one evening each; its totals start from 0
        nets = {name: row[8] for name, row in expected.items()}
        assert {name: standing.nets[pk] for name, pk in ids.items()} == nets
        assert {name: standing.totals[pk] for name, pk in ids.items()} == nets
    everything = records_by_name(period_statistics(group, period_of({}, today)))
    assert everything == records_by_name(group_statistics(group))
    assert everything["阿美"][:3] == (2, 5, 2) and everything["阿美"][8] == 20


def test_a_periods_tables_take_six_queries_whatever_the_number_of_hands(owner, today):
    counts = []
    group, session = make_table(owner)
    for hands in (2, 12):
        while session.rounds.count() < hands:
            services.round_record(actor=owner, session=session, body=FEED)
        with CaptureQueriesContext(connection) as queries:
            statistics = period_statistics(group, period_of({"period": "this_month"}, today))
        assert sum(record.hands for record in statistics.players) == 4 * hands
        counts.append(len(queries))
    assert counts[0] == counts[1] == 6, counts


def test_the_statistics_api_gives_the_records_and_standings_of_the_period_beside_the_all_time_ones(
    evenings, api
):
    group, ids = evenings
    body = api.get(reverse("ledger:group-statistics", args=[group.pk]), {"period": "last_month"}).json()
    records = {row["name"]: row for row in body["period"]["records"]}
    assert {name: row["net"] for name, row in records.items()} == {
        "小王": -55,
        "小李": 34,
        "阿美": 15,
        "老张": 6,
    }
    assert records["小李"]["hands_won"] == 2 and records["小王"]["dealt_in"] == 1
    assert records["老张"]["chajiao"] == 1
    (standing,) = body["period"]["standings"]
    assert {row["player"]: row["points"] for row in standing["totals"]}[ids["小王"]] == -55
    # the top-level fields answer as before: all time
    assert {row["name"]: row["net"] for row in body["players"]}["小王"] == -56 and len(body["sessions"]) == 2


def test_the_statistics_page_shows_every_table_over_the_period_and_a_range_it_cannot_read(
    evenings, owner, today
):
    group, _ = evenings
    client = logged_in(owner)
    url = reverse("group-stats", args=[group.pk])
    this_month = client.get(url, {"period": "this_month"})
    rows = dict(this_month.context["figures"])
    names = [record.name for record in this_month.context["players"]]
    assert [cell.text for cell in rows["手数"]] == ["2"] * 4 and len(this_month.context["standings"]) == 1
    assert dict(zip(names, (cell.sign for cell in rows["总分"]), strict=True)) == {
        "小王": -1,
        "小李": -2,
        "阿美": 5,
        "老张": -2,
    }
    first = today.replace(day=1) - timedelta(days=20)
    day = {"period": "range", "from": first.isoformat(), "to": first.isoformat()}
    ranged = client.get(url, day)
    assert len(ranged.context["standings"]) == 1 and f'value="{first.isoformat()}"' in ranged.content.decode()
    assert ranged.context["last_day"] == first  # the days said are those counted, the last one included
    backwards = client.get(url, {"period": "range", "from": "2026-12-02", "to": "2026-12-01"})
    assert "时段的结束早于开始。" in visible_text(backwards) and len(backwards.context["standings"]) == 2
    english = visible_text(client.get(url, {"period": "range", "from": "x", "to": "y"}, **ENGLISH))
    assert "Every table of this page counts the sessions of the period chosen here." in english
