"""Standings, statistics and running totals come from database aggregates, counting current versions only."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from tests.ledger.conftest import (
    DIRECT_KONG,
    KONG_THEN_GANG_SHANG_PAO,
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
    assert {name: stats[name]["hands_won"] for name in stats} == {"小王": 0, "小李": 2, "阿美": 2, "老张": 0}
    assert {name: stats[name]["self_draws"] for name in stats} == {"小王": 0, "小李": 1, "阿美": 0, "老张": 0}
    assert {name: stats[name]["dealt_in"] for name in stats} == {"小王": 2, "小李": 1, "阿美": 0, "老张": 0}
    assert {name: stats[name]["biggest_fan"] for name in stats} == {"小王": None, "小李": 3, "阿美": 4, "老张": None}
    # the added kong: each pays 1 to 小李, who hands the 3 on to 阿美 (呼叫转移)
    assert {name: stats[name]["kong_points"] for name in stats} == {"小王": -1, "小李": 0, "阿美": 2, "老张": -1}


def test_statistics_follow_corrections_and_voids(owner, group, played):
    services.round_correct(actor=owner, round_=played["multi"], body=DIRECT_KONG)
    services.round_void(actor=owner, round_=played["self_draw"])
    stats = by_name(selectors.group_statistics(group))
    assert {name: stats[name]["hands_won"] for name in stats} == {"小王": 0, "小李": 0, "阿美": 1, "老张": 0}
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
    assert {name: row["points"] for name, row in standings.items()} == {"小王": -10, "小李": 10, "阿美": -10, "老张": 10}
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
