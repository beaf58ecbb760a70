"""session_start_by_names: four names in seat order, a new one becoming a player, all or nothing."""

import pytest

from calculator.engine import EngineError
from ledger import services
from ledger.models import Player, Session


@pytest.fixture
def group(owner):
    return services.group_create(actor=owner, name="周五麻将")


def test_known_names_are_reused_and_new_ones_become_players(owner, group):
    services.player_add(actor=owner, group=group, name="小王")
    session = services.session_start_by_names(
        actor=owner, group=group, name="周五", player_names=[" 小王", "小李", "阿美", "老张 "]
    )
    assert [seat.player.name for seat in session.seats.order_by("seat")] == ["小王", "小李", "阿美", "老张"]
    assert Player.objects.filter(group=group).count() == 4


@pytest.mark.parametrize(
    ("names", "rules", "field"),
    [
        pytest.param(["小王", "小李", "阿美"], None, "players", id="three-names"),
        pytest.param(["小王", "小李", "阿美", "小王"], None, "players", id="twice"),
        pytest.param(["小王", "小李", "阿美", " "], None, "players[3]", id="blank"),
        pytest.param(list("东南西北"), {"base_points": 0}, "rules.base_points", id="bad-rules"),
        pytest.param("小王小李阿美老张", None, "players", id="one-string"),
    ],
)
def test_a_refused_session_leaves_no_new_player_behind(owner, group, names, rules, field):
    with pytest.raises(EngineError) as refused:
        services.session_start_by_names(
            actor=owner, group=group, name="周五", player_names=names, rules=rules
        )
    assert refused.value.field == field
    assert not Player.objects.exists() and not Session.objects.exists()
