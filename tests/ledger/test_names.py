"""ledger.names: a name is what the table sees (issue 18, point 15): NFKC, trimmed of spaces and invisible
characters, refused with a clear message when one hides inside, and compared so in the services, the API
and the start page."""

import pytest
from django.urls import reverse

from calculator.engine import EngineError
from ledger import services
from ledger.models import Player, Session
from ledger.names import InvisibleCharacter, normal_name
from tests.ledger.conftest import client_for
from tests.ledger.pages.helpers import ENGLISH, errors_of, logged_in


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        pytest.param("小王\u200b", "小王", id="zero-width-space-after"),
        pytest.param("\ufeff小王", "小王", id="byte-order-mark-before"),
        pytest.param(" 小王\u202c ", "小王", id="pop-direction-and-spaces"),
        pytest.param("ＡＢ", "AB", id="full-width-letters"),
        pytest.param("Old   Zhang", "Old Zhang", id="a-run-of-spaces"),
        pytest.param("\u200b\u200b", "", id="nothing-visible"),
    ],
)
def test_issue_18_15_a_name_is_kept_as_it_is_seen(typed, kept):
    assert normal_name(typed) == kept


@pytest.mark.parametrize("inside", ["\u202e", "\u200b", "\x07"], ids=["rtl-override", "zero-width", "bell"])
def test_issue_18_15_an_invisible_character_inside_a_name_is_refused(inside):
    with pytest.raises(InvisibleCharacter) as refused:
        normal_name(f"小{inside}王")
    assert refused.value.code == f"U+{ord(inside):04X}"


@pytest.fixture
def group(owner):
    return services.group_create(actor=owner, name="周五麻将")


def test_issue_18_15_names_that_look_alike_are_one_player_in_the_services_and_the_api(owner, group):
    services.player_add(actor=owner, group=group, name="小王")
    with pytest.raises(EngineError) as taken:
        services.player_add(actor=owner, group=group, name="小王\u200b")
    assert taken.value.code == "player_name_taken"
    session = services.session_start_by_names(
        actor=owner, group=group, name="周五", player_names=["\ufeff小王", "小李", "阿美", "老张"]
    )
    assert session.seats.get(seat=0).player.name == "小王"
    assert Player.objects.filter(group=group, name__startswith="小王").count() == 1
    api = client_for(owner)
    players = reverse("ledger:player-list", kwargs={"group_id": group.pk})
    twin = api.post(players, {"name": "小王\ufeff"}, format="json")
    assert twin.status_code == 400 and twin.json()["code"] == "player_name_taken"
    hidden = api.post(players, {"name": "小\u202e王"}, format="json")
    assert hidden.status_code == 400
    assert (hidden.json()["code"], hidden.json()["field"]) == ("name_invisible", "name")
    assert "U+202E" in hidden.json()["detail"] and "看不见" in hidden.json()["detail_zh"]


def test_issue_18_15_the_start_page_compares_names_as_the_ledger_does(owner, group):
    client = logged_in(owner)
    data = {"name": "周五", "dealer": "0", "preset": "chengdu", "seat_0": "小王", "seat_1": "小王\u200b"}
    data |= {"seat_2": "阿美", "seat_3": "老张"}
    twice = client.post(reverse("session-start", args=[group.pk]), data)
    assert twice.status_code == 400 and any("小王 已经坐在另一个座位" in e for e in errors_of(twice))
    data["seat_1"] = "小\u202e李"
    for headers, words in (({}, "看不见的字符（U+202E）"), (ENGLISH, "nobody sees (U+202E)")):
        hidden = client.post(reverse("session-start", args=[group.pk]), data, **headers)
        assert hidden.status_code == 400 and any(words in e for e in errors_of(hidden)), errors_of(hidden)
    assert not Session.objects.exists() and not Player.objects.exists()
