"""A group's standings and statistics come from database aggregates, counting current versions only.

``two_evenings`` (tests/ledger/conftest.py) is a small group worked by hand: every number the tests expect
is written out there or here from the rules (RULES.md 12), not read back from the code.
"""

import json
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from ledger import periods, selectors, services, statistics
from ledger.figures import rebuild
from ledger.models import RoundVersion, VersionKind
from ledger.serializers import StatisticsSerializer, period_body
from tests.ledger.conftest import (
    DIRECT_KONG,
    DIRECT_KONG_NET,
    DRAW_WITH_PIG,
    DRAW_WITH_PIG_NET,
    EVENING_ONE,
    EVENING_TWO,
    KONG_THEN_GANG_SHANG_PAO,
    NAMES,
    NETS_ONE,
    NETS_TWO,
    ONE_DISCARD_TWO_WINNERS,
    SELF_DRAW_B,
    SELF_DRAW_B_NET,
    make_table,
    queries_as_the_group_grows,
)

STATISTICS_QUERIES = 6  # ledger/statistics.py: six queries of its figures, whatever the group has played


def by_name(records: Any) -> dict[str, Any]:
    return {record.name: record for record in records}


def column(records: dict[str, Any], key: str) -> list[Any]:
    """One figure for each player, in the first session's seat order (小王, 小李, 阿美, 老张)."""
    return [getattr(records[name], key) for name in NAMES]


def players_of(group: Any) -> dict[str, Any]:
    return by_name(statistics.group_statistics(group).players)


def test_the_hand_worked_evenings_balance(two_evenings):
    assert sum(NETS_ONE.values()) == sum(NETS_TWO.values()) == 0
    assert NETS_ONE == {"小王": -12, "小李": 15, "阿美": 3, "老张": -6}
    assert NETS_TWO == {"小王": -52, "小李": 3, "阿美": 13, "老张": 36}


def test_sessions_and_hands_played_leave_the_voided_hand_out(two_evenings):
    players = players_of(two_evenings)
    assert column(players, "sessions") == [2, 2, 2, 2]
    assert column(players, "hands") == [6, 6, 6, 6]  # 3 of 第一场 (the 4th is voided) and 3 of 第二场


def test_wins_self_draws_and_deal_ins_count_the_current_versions(two_evenings):
    players = players_of(two_evenings)
    # 小王: 第二场 2; 小李: 第一场 1 and 3; 阿美: 第一场 2 and 3; 老张: 第二场 2 and 3 (not the voided 4)
    assert column(players, "wins") == [1, 2, 2, 2]
    assert column(players, "self_draws") == [0, 1, 0, 1]
    # 小王 fed both winners of 第一场 3; 小李 fed 阿美 (第一场 2) and both winners of 第二场 2
    assert column(players, "deal_ins") == [2, 3, 0, 0]


def test_the_biggest_hand_is_the_current_versions_most_fan_with_its_pattern(two_evenings):
    players = players_of(two_evenings)
    biggest = {name: players[name].biggest for name in NAMES}
    assert [hand.fan for hand in biggest.values()] == [1, 3, 3, 3]  # 阿美's 4 was corrected, 老张's 5 voided
    where = [(hand.win.session.name, hand.position) for hand in biggest.values()]
    assert where == [("第二场", 2), ("第一场", 1), ("第一场", 3), ("第二场", 3)]
    assert [hand.pattern for hand in biggest.values()] == [None, None, None, "qing_yi_se"]
    assert biggest["老张"].seat == 1  # his seat in 第二场, where the score is found
    assert biggest["老张"].score["points"] == 4  # 3 fan x4 from each payer, before 自摸加底
    # what each took: 小王 1 from 小李; 小李 (4 + 1) x3; 阿美 4 from 小王; 老张 (4 + 1) x3
    assert [hand.win.points for hand in biggest.values()] == [1, 15, 4, 15]


def test_kong_money_is_the_net_of_every_kong_row(two_evenings):
    # 小王 paid 1 for 小李's 弯杠; 小李 took 3 and handed them over; 阿美 paid 1, took the 3, then fed 老张's
    # 直杠 (2); 老张 paid 1 and took 2. 老张's voided 暗杠 counts nowhere.
    assert column(players_of(two_evenings), "kong_points") == [-1, 3 - 3, -1 + 3 - 2, -1 + 2]


def test_flower_pigs_and_chajiao_are_counted_in_hands_paid(two_evenings):
    players = players_of(two_evenings)
    assert column(players, "huazhu") == [1, 0, 0, 0]  # 小王 paid three players, in one hand
    assert column(players, "chajiao") == [0, 1, 0, 0]  # 小李 paid two, in one hand


def test_nets_and_the_average_per_session(two_evenings):
    players = players_of(two_evenings)
    totals = {name: NETS_ONE[name] + NETS_TWO[name] for name in NAMES}
    assert column(players, "net") == [totals[name] for name in NAMES] == [-64, 18, 16, 30]
    assert column(players, "average_net") == [
        Decimal("-32.0"),
        Decimal("9.0"),
        Decimal("8.0"),
        Decimal("15.0"),
    ]
    assert [(net.name, net.points) for net in players["老张"].session_nets] == [
        ("第一场", -6),
        ("第二场", 36),
    ]


def test_the_standings_add_up_session_by_session(two_evenings):
    figures = statistics.group_statistics(two_evenings)
    ids = {record.name: record.player_id for record in figures.players}
    assert [(standing.name, standing.hands) for standing in figures.sessions] == [
        ("第一场", 3),
        ("第二场", 3),
    ]
    first, second = figures.sessions
    assert {name: first.totals[ids[name]] for name in NAMES} == NETS_ONE
    assert {name: second.nets[ids[name]] for name in NAMES} == NETS_TWO
    assert [second.totals[ids[name]] for name in NAMES] == [-64, 18, 16, 30]


def test_a_player_who_sat_out_keeps_his_total_and_a_session_without_hands_is_left_out(owner, two_evenings):
    newcomer = services.player_add(actor=owner, group=two_evenings, name="阿强")
    ids = {player.name: player.pk for player in two_evenings.players.all()}
    third = services.session_start(
        actor=owner,
        group=two_evenings,
        name="第三场",
        player_ids=[newcomer.pk, ids["小李"], ids["阿美"], ids["老张"]],
    )
    services.session_start(actor=owner, group=two_evenings, name="第四场", player_ids=list(ids.values())[:4])
    services.round_record(actor=owner, session=third, body=SELF_DRAW_B)  # 小李 +15, the others -5
    figures = statistics.group_statistics(two_evenings)
    assert [standing.name for standing in figures.sessions] == ["第一场", "第二场", "第三场"]
    last = figures.sessions[-1]
    assert ids["小王"] not in last.nets and last.totals[ids["小王"]] == -64
    assert (last.nets[newcomer.pk], last.totals[newcomer.pk]) == (-5, -5)
    players = by_name(figures.players)
    assert (players["小王"].sessions, players["阿强"].sessions, players["小李"].sessions) == (2, 1, 3)
    assert players["阿强"].average_net == Decimal("-5.0")


def test_a_player_who_never_played_has_no_average_and_no_biggest_hand(owner, two_evenings):
    services.player_add(actor=owner, group=two_evenings, name="阿强")
    newcomer = players_of(two_evenings)["阿强"]
    assert (newcomer.sessions, newcomer.hands, newcomer.net, newcomer.wins) == (0, 0, 0, 0)
    assert (newcomer.average_net, newcomer.biggest, newcomer.session_nets) == (None, None, ())


def test_the_average_rounds_half_away_from_zero_to_one_decimal():
    record = statistics.PlayerRecord(1, "x", 4, 0, 0, 0, 0, 0, 0, 0, -1, None, ())
    assert record.average_net == Decimal("-0.3")  # -0.25
    assert statistics.PlayerRecord(1, "x", 3, 0, 0, 0, 0, 0, 0, 0, 5, None, ()).average_net == Decimal("1.7")


def test_the_group_standings_count_sessions_as_the_statistics_do(two_evenings):
    standings = {row["name"]: row for row in statistics.group_standings(two_evenings)}
    players = players_of(two_evenings)
    assert {name: row["points"] for name, row in standings.items()} == {n: players[n].net for n in NAMES}
    assert {name: row["sessions"] for name, row in standings.items()} == {
        n: players[n].sessions for n in NAMES
    }
    assert [row["name"] for row in statistics.group_standings(two_evenings)] == [
        "老张",
        "小李",
        "阿美",
        "小王",
    ]


def test_the_statistics_take_the_same_queries_however_much_was_played(
    owner, two_evenings, django_assert_num_queries
):
    with django_assert_num_queries(STATISTICS_QUERIES):
        statistics.group_statistics(two_evenings)
    ids = [player.pk for player in two_evenings.players.order_by("id")]
    for name in ("第三场", "第四场"):
        session = services.session_start(actor=owner, group=two_evenings, name=name, player_ids=ids)
        for body in (*EVENING_ONE, *EVENING_TWO[1:], ONE_DISCARD_TWO_WINNERS):
            services.round_record(actor=owner, session=session, body=body)
    with django_assert_num_queries(STATISTICS_QUERIES):
        figures = statistics.group_statistics(two_evenings)
    assert len(figures.sessions) == 4 and by_name(figures.players)["小王"].hands == 6 + 2 * 7


def test_the_standings_and_the_statistics_ask_the_same_queries_at_10_and_100_sessions(owner, group, session):
    """All time, their sums are the group's kept rows (``GroupFigures``), a few a player: the same
    queries however many sessions, and the same answers as the rows rebuilt from the ledger."""
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    reads = (lambda: statistics.group_standings(group), lambda: statistics.group_statistics(group))

    def queries_at(sessions: int) -> list[list[int]]:
        return [queries_as_the_group_grows(owner, group, sessions, read) for read in reads]

    at_ten = queries_at(10)
    assert at_ten == [[2, 2, 2], [STATISTICS_QUERIES] * 3]
    assert queries_at(100) == at_ten
    kept = [read() for read in reads]
    rebuild(group.sessions.values_list("pk", flat=True))
    assert [read() for read in reads] == kept
    assert kept[0][0]["sessions"] == 100 and kept[1].players[1].sessions == 100


def test_another_groups_rounds_count_nowhere(owner, two_evenings):
    before = statistics.group_statistics(two_evenings)
    _, elsewhere = make_table(owner, group_name="别的群")
    for body in (*EVENING_ONE, *EVENING_TWO):
        services.round_record(actor=owner, session=elsewhere, body=body)
    assert statistics.group_statistics(two_evenings) == before


# --- single rules, each on its own -----------------------------------------------------------------------


def test_a_discard_won_by_three_is_three_deal_ins(owner, group, session):
    three = {
        "dealer": 0,
        "events": [{"type": "win", "from": 0, "winners": [{"player": p, "fan": 1} for p in (1, 2, 3)]}],
    }
    services.round_record(actor=owner, session=session, body=three)
    players = players_of(group)
    assert column(players, "deal_ins") == [3, 0, 0, 0]
    assert column(players, "wins") == [0, 1, 1, 1]


def test_a_correction_moves_the_wins_and_a_void_removes_them(owner, group, session):
    recorded = [
        services.round_record(actor=owner, session=session, body=body)[0]
        for body in (SELF_DRAW_B, KONG_THEN_GANG_SHANG_PAO, ONE_DISCARD_TWO_WINNERS)
    ]
    services.round_correct(actor=owner, round_=recorded[2], body=DIRECT_KONG)
    services.round_void(actor=owner, round_=recorded[0])
    players = players_of(group)
    assert column(players, "wins") == [0, 0, 1, 0]
    assert players["小王"].deal_ins == 0
    assert players["阿美"].biggest.fan == 2


def test_coins_settled_again_leave_the_counts_alone(owner):
    """A re-coining writes a version whose wins are written again but whose points rows stay the earlier
    version's: neither is counted twice, nor lost."""
    group, session = make_table(
        owner, coins={"room_coefficient": 10, "starting_balances": [100, 10**6, 10**6, 10**6]}
    )
    first = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)[0]  # 小王 pays 50 coins
    services.round_record(actor=owner, session=session, body=DRAW_WITH_PIG)  # 小王 owes 480, holds 50
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    services.round_correct(actor=owner, round_=first, body=DIRECT_KONG)  # 小王 keeps his 100 coins now
    # the draw is settled again (小王 has 100 coins to lose, not 50); hand 3 is not (he has none left
    # either way)
    recoined = RoundVersion.objects.filter(round__session=session, kind=VersionKind.RECOINED)
    assert list(recoined.values_list("round__position", flat=True)) == [2]
    players = players_of(group)
    assert column(players, "huazhu") == [1, 0, 0, 0]
    assert column(players, "chajiao") == [0, 0, 0, 1]
    assert column(players, "wins") == [0, 1, 0, 0]
    assert column(players, "net") == [
        a + b + c for a, b, c in zip(DIRECT_KONG_NET, DRAW_WITH_PIG_NET, SELF_DRAW_B_NET, strict=True)
    ]


def test_per_session_net_is_listed_for_each_player(owner, group, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    players = players_of(group)
    assert [(s.name, s.points) for s in players["小李"].session_nets] == [("第一场", SELF_DRAW_B_NET[1])]


def test_running_totals_take_a_constant_number_of_queries(owner):
    _, session = make_table(owner, coins={"room_coefficient": 10, "starting_balances": [10**6] * 4})
    counts = []
    for _ in range(2):
        for _ in range(5):
            services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
        with CaptureQueriesContext(connection) as queries:
            totals = selectors.session_totals(session)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 5
    assert [seat.points for seat in totals.seats] == [n * 10 for n in SELF_DRAW_B_NET]


# --- the API: the same selector, its earlier fields unchanged -------------------------------------------


def test_the_api_answers_the_statistics_of_the_selector(api, two_evenings):
    body = api.get(f"/api/v1/groups/{two_evenings.pk}/statistics/").json()
    first, second = two_evenings.sessions.order_by("id").values_list("id", flat=True)
    ids = {player.name: player.pk for player in two_evenings.players.all()}
    players = {row["name"]: row for row in body["players"]}
    assert players["老张"] == {
        # the fields the API had before the statistics page, as they were
        "player": ids["老张"],
        "name": "老张",
        "hands_won": 2,
        "self_draws": 1,
        "dealt_in": 0,
        "biggest_fan": 3,
        "kong_points": 1,
        "sessions": [
            {"session": first, "name": "第一场", "points": -6},
            {"session": second, "name": "第二场", "points": 36},
        ],
        # the additions (docs/ledger.md)
        "sessions_played": 2,
        "hands_played": 6,
        "huazhu": 0,
        "chajiao": 0,
        "net": 30,
        "average_net": 15.0,
        "biggest_hand": {"fan": 3, "pattern": "qing_yi_se", "points": 15, "session": second, "position": 3},
    }
    assert (players["小王"]["huazhu"], players["小李"]["chajiao"], players["小王"]["average_net"]) == (
        1,
        1,
        -32.0,
    )
    assert [row["player"] for row in body["players"]] == sorted(ids.values())  # by id, as before
    assert [(row["session"], row["name"], row["hands"]) for row in body["sessions"]] == [
        (first, "第一场", 3),
        (second, "第二场", 3),
    ]
    totals = {row["player"]: row["points"] for row in body["sessions"][1]["totals"]}
    assert totals == {ids[name]: NETS_ONE[name] + NETS_TWO[name] for name in NAMES}
    nets = {row["player"]: row["points"] for row in body["sessions"][0]["nets"]}
    assert nets == {ids[name]: NETS_ONE[name] for name in NAMES}


def test_a_player_who_never_won_has_a_null_biggest_hand_in_the_api(api, owner, group):
    body = api.get(f"/api/v1/groups/{group.pk}/statistics/").json()
    assert {row["biggest_hand"] for row in body["players"]} == {None}
    assert {row["average_net"] for row in body["players"]} == {None}
    assert {row["biggest_fan"] for row in body["players"]} == {None}
    assert body["sessions"] == []


def declared_walk(serializer: Any, instance: Any) -> Any:
    """What DRF writes from the fields ``serializer`` declares, field by field, bypassing the written-out
    ``to_representation`` of the per-session rows (ledger/serializers.py): the answer as it was."""
    if isinstance(serializer, serializers.ListSerializer):
        return [declared_walk(serializer.child, item) for item in instance]
    if not isinstance(serializer, serializers.Serializer):
        return serializer.to_representation(instance)
    answer = {}
    for field in serializer._readable_fields:
        attribute = field.get_attribute(instance)
        answer[field.field_name] = None if attribute is None else declared_walk(field, attribute)
    return answer


@pytest.mark.parametrize("indent", [None, 2], ids=["compact", "indented"])
@pytest.mark.parametrize("asked", ["all", "range", "this_month", "last_month"])
def test_the_api_writes_byte_for_byte_what_the_declared_fields_write(api, two_evenings, asked, indent):
    today = timezone.localdate()
    query = {"period": asked}
    if asked == "range":  # bounded, though it holds both evenings: read again, not given again
        query.update({"from": str(today - timedelta(days=1)), "to": str(today + timedelta(days=1))})
    period = periods.period_of(query, today)
    every = periods.period_report(two_evenings, periods.ALL_TIME)
    body = {
        "group": two_evenings.pk,
        "players": every[1].players,
        "sessions": every[1].sessions,
        "period": period_body(*periods.period_report(two_evenings, period)),
    }
    media_type = "application/json" + (f"; indent={indent}" if indent else "")
    expected = JSONRenderer().render(declared_walk(StatisticsSerializer(body), body), media_type)
    answer = api.get(f"/api/v1/groups/{two_evenings.pk}/statistics/", query, HTTP_ACCEPT=media_type)
    assert answer.status_code == 200
    assert answer.content == expected
    assert len(json.loads(expected)["period"]["standings"]) == (0 if asked == "last_month" else 2)
