"""Standings, statistics and running totals come from database aggregates, counting current versions only."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from tests.ledger.conftest import (
    DIRECT_KONG,
    KONG_THEN_GANG_SHANG_PAO,
    NAMES,
    SELF_DRAW_B,
    SELF_DRAW_B_NET,
    make_table,
)

ONE_DISCARD_TWO_WINNERS = {  # 一炮多响: 小王 (seat 0) feeds 小李 2 fan and 阿美 4 fan
    "dealer": 0,
    "events": [{"type": "win", "from": 0, "winners": [{"player": 1, "fan": 2}, {"player": 2, "fan": 4}]}],
}


def by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in rows}


def column(rows: dict[str, dict[str, Any]], key: str) -> list[Any]:
    """One figure for each player, in seat order (小王, 小李, 阿美, 老张)."""
    return [rows[name][key] for name in NAMES]


@pytest.fixture
def played(owner: Any, session: Any) -> dict[str, Any]:
    rounds = {
        name: services.round_record(actor=owner, session=session, body=body)[0]
        for name, body in (
            ("self_draw", SELF_DRAW_B),
            ("gang_shang_pao", KONG_THEN_GANG_SHANG_PAO),
            ("multi", ONE_DISCARD_TWO_WINNERS),
        )
    }
    return rounds


def test_statistics_count_wins_self_draws_deal_ins_and_the_biggest_hand(group, played):
    stats = by_name(selectors.group_statistics(group))
    assert column(stats, "hands_won") == [0, 2, 2, 0]
    assert column(stats, "self_draws") == [0, 1, 0, 0]
    assert column(stats, "dealt_in") == [2, 1, 0, 0]
    assert column(stats, "biggest_fan") == [None, 3, 4, None]
    # the added kong: each pays 1 to 小李, who hands the 3 on to 阿美 (呼叫转移)
    assert column(stats, "kong_points") == [-1, 0, 2, -1]


def test_a_discard_won_by_three_is_three_deal_ins(owner, group, session):
    three = {
        "dealer": 0,
        "events": [{"type": "win", "from": 0, "winners": [{"player": p, "fan": 1} for p in (1, 2, 3)]}],
    }
    services.round_record(actor=owner, session=session, body=three)
    stats = by_name(selectors.group_statistics(group))
    assert column(stats, "dealt_in") == [3, 0, 0, 0]
    assert column(stats, "hands_won") == [0, 1, 1, 1]


def test_statistics_follow_corrections_and_voids(owner, group, played):
    services.round_correct(actor=owner, round_=played["multi"], body=DIRECT_KONG)
    services.round_void(actor=owner, round_=played["self_draw"])
    stats = by_name(selectors.group_statistics(group))
    assert column(stats, "hands_won") == [0, 0, 1, 0]
    assert stats["小王"]["dealt_in"] == 0
    assert stats["阿美"]["biggest_fan"] == 2


def test_standings_sum_each_players_points_across_sessions(owner, group, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    players = list(group.players.order_by("id").values_list("id", flat=True))
    # the second session seats them in another order: 老张 sits where 小李 sat
    second = services.session_start(
        actor=owner, group=group, name="第二场", player_ids=[players[0], players[3], players[2], players[1]]
    )
    services.round_record(actor=owner, session=second, body=SELF_DRAW_B)
    standings = by_name(selectors.group_standings(group))
    assert column(standings, "points") == [-10, 10, -10, 10]
    assert {row["sessions"] for row in standings.values()} == {2}
    assert [row["name"] for row in selectors.group_standings(group)][:2] == ["小李", "老张"]


def test_per_session_net_is_listed_for_each_player(owner, group, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    stats = by_name(selectors.group_statistics(group))
    assert [(s["name"], s["points"]) for s in stats["小李"]["sessions"]] == [("第一场", SELF_DRAW_B_NET[1])]


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
