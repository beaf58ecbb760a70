"""A 血流成河 evening with an adjustment round between its hands, worked by hand: the statistics count
every win (two in one hand for 小李), no hand for the adjustment round, and its points in every total.

Seats 小王 小李 阿美 老张 = A B C D (``make_table``), base 1, ``mode`` = ``xueliu``.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services, statistics
from tests.ledger.conftest import NAMES, make_table

A, B, C, D = 0, 1, 2, 3


def _win(discarder: int | None, player: int, fan: int, **flags: Any) -> dict[str, Any]:
    return {"type": "win", "from": discarder, "winners": [{"player": player, "fan": fan}], **flags}


HAND_ONE = {  # RULES.md 12 example 18: [-8, +10, -2, 0]
    "dealer": A,
    "events": [
        _win(None, B, 1),  # A, C, D pay 1 + 1
        _win(B, C, 2),  # B pays 2
        _win(None, B, 1),  # A, C, D pay 2
        {
            "type": "draw",
            "players": [{"player": A, "status": "not_ready"}, {"player": D, "status": "ready", "fan": 3}],
        },
    ],
}
FINE = {  # 老张's 诈胡, alone between the hands: [+2, +2, +2, -6]
    "dealer": B,
    "events": [{"type": "adjust", "from": D, "to": "each", "amount": 2, "reason": "诈胡"}],
}
HAND_THREE = {  # example 19, then the wall runs out with 小王 and 老张 not ready: [-3, -1, +6, -2]
    "dealer": B,
    "events": [
        _win(A, B, 1),  # A pays 1
        {"type": "kong", "player": B, "kind": "concealed"},  # A, C, D pay 2
        _win(B, C, 2, after_kong=True),  # B pays 2 and hands over 6
        {
            "type": "draw",
            "players": [{"player": A, "status": "not_ready"}, {"player": D, "status": "not_ready"}],
        },
    ],
}
NETS = {"小王": -8 + 2 - 3, "小李": 10 + 2 - 1, "阿美": -2 + 2 + 6, "老张": 0 - 6 - 2}


@pytest.fixture
def xueliu_evening(owner: Any) -> Any:
    group, session = make_table(owner, rules={"preset": "chengdu", "mode": "xueliu"})
    rounds = [
        services.round_record(actor=owner, session=session, body=body)[0]
        for body in (HAND_ONE, FINE, HAND_THREE)
    ]
    return group, session, rounds


def test_the_adjustment_round_is_stored_as_one_and_keeps_the_dealer(xueliu_evening):
    _group, _session, rounds = xueliu_evening
    assert [round_.adjustment for round_ in rounds] == [False, True, False]
    assert rounds[1].versions.get().result["next_dealer"] == B


def test_the_totals_count_the_adjustments_points(xueliu_evening):
    group, session, _rounds = xueliu_evening
    assert sum(NETS.values()) == 0
    assert NETS == {"小王": -9, "小李": 11, "阿美": 6, "老张": -8}
    players = {record.name: record for record in statistics.group_statistics(group).players}
    assert {name: players[name].net for name in NAMES} == NETS
    totals = selectors.session_totals(session)
    assert [seat.points for seat in totals.seats] == [NETS[name] for name in NAMES]


def test_every_win_counts_and_the_adjustment_round_is_no_hand(xueliu_evening):
    group, _session, _rounds = xueliu_evening
    players = {record.name: record for record in statistics.group_statistics(group).players}

    def column(key: str) -> list[Any]:
        return [getattr(players[name], key) for name in NAMES]

    assert column("hands") == [2, 2, 2, 2]  # hands 1 and 3; the fine is no hand
    assert column("sessions") == [1, 1, 1, 1]
    assert column("wins") == [0, 3, 2, 0]  # 小李 twice in hand 1 and once in hand 3; 阿美 once in each
    assert column("self_draws") == [0, 2, 0, 0]
    assert column("deal_ins") == [1, 2, 0, 0]  # 小王 fed 小李 (hand 3); 小李 fed 阿美 in both hands
    (standing,) = statistics.group_statistics(group).sessions
    assert standing.hands == 2


def test_the_group_file_carries_the_evening_and_an_old_reader_needs_no_new_version(owner, xueliu_evening):
    from ledger.models import Group
    from tests.ledger.test_group_file import export, import_file, story

    group, _session, _rounds = xueliu_evening
    file = export(owner, group)
    assert file["version"] == 1  # the new fields live inside rules and events: read the same
    assert file["sessions"][0]["rules"]["mode"] == "xueliu"
    response = import_file(owner, file)
    assert response.status_code == 201, response.content
    moved = Group.objects.get(pk=response.json()["id"])
    assert story(export(owner, moved)) == story(file)
    assert [round_.adjustment for round_ in moved.sessions.get().rounds.order_by("position")] == [
        False,
        True,
        False,
    ]
    players = {record.name: record for record in statistics.group_statistics(moved).players}
    assert {name: (players[name].net, players[name].hands, players[name].wins) for name in NAMES} == {
        "小王": (-9, 2, 0),
        "小李": (11, 2, 3),
        "阿美": (6, 2, 2),
        "老张": (-8, 2, 0),
    }


def test_the_chart_names_the_adjustment_round_and_its_totals_count_it(owner, xueliu_evening):
    from django.urls import reverse

    from tests.ledger.pages.helpers import logged_in, visible_text

    _group, session, _rounds = xueliu_evening
    text = visible_text(logged_in(owner).get(reverse("session-chart", args=[session.pk])))
    assert "2 罚分" in text  # the fine is a row of its own, named so
    # running totals after it: [-8 + 2, 10 + 2, -2 + 2, 0 - 6]
    assert "−6 +12 0 −6" in text
