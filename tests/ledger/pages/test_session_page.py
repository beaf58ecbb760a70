"""The session page: the shared entry bound to the stored hand in progress (issue 8 flow 5)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from ledger import selectors, services
from ledger.models import HandInProgress, Role, Round
from tests.ledger.conftest import make_table, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SOUTH_KONG = {"ev_type": "kong", "kong_player": "1", "kong_kind": "concealed"}
THREE_WINS = (
    {"ev_type": "win", "winner_1": "on", "winner_2": "on", "win_how": "discard:0"},
    {"ev_type": "win", "winner_3": "on", "win_how": "self_draw", "pattern_3": "qing_yi_se"},
)


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def totals(response) -> list[str]:
    return re.findall(
        r'class="seat__total"><span class="signed[^"]*">([^<]*)</span>', response.content.decode()
    )


class Phone:
    """One scorekeeper's phone on the session page."""

    def __init__(self, user, session, **headers):
        self.client = Client(**headers)
        self.client.force_login(user)
        self.session = session
        self.url = reverse("session-page", args=[session.pk])

    def revision(self) -> int:
        return selectors.session_hand_revision(self.session)

    def tap(self, revision=None, **fields):
        seen = self.revision() if revision is None else revision
        return self.client.post(self.url, {"revision": str(seen), **fields}, **HTMX)

    def record(self, **fields):
        return self.tap(action="record", **fields)


def join(owner, group, user, role):
    """A member by consent: invited by the owner, accepted by the user."""
    invitation = services.member_invite(actor=owner, group=group, username=user.username, role=role)
    services.invitation_accept(actor=user, invitation=invitation)


@pytest.fixture
def table():
    owner = make_user("owner")
    group, session = make_table(owner)
    return owner, group, session


def test_the_page_shows_the_seats_the_hand_and_the_header(table):
    owner, _group, session = table
    page = Phone(owner, session).client.get(reverse("session-page", args=[session.pk]))
    assert page.status_code == 200
    text = text_of(page)
    assert "第一场 · 第 1 手 · 庄 小王" in text
    for name in ("小王", "小李", "阿美", "老张"):
        assert name in text
    assert totals(page) == ["0", "0", "0", "0"]


def test_every_event_is_saved_as_it_is_recorded(table):
    owner, _group, session = table
    phone = Phone(owner, session)
    response = phone.record(**SOUTH_KONG)
    assert totals(response) == ["−2", "+6", "−2", "−2"], "kong money at once"
    assert HandInProgress.objects.get(session=session).events == [
        {"type": "kong", "player": 1, "kind": "concealed"}
    ]
    reloaded = phone.client.get(phone.url)
    assert totals(reloaded) == ["−2", "+6", "−2", "−2"]
    english = phone.client.get(phone.url, HTTP_ACCEPT_LANGUAGE="en")
    assert "小王, 阿美, 老张 each pay 小李 2" in text_of(english)


def test_a_second_phone_continues_the_same_hand(table):
    owner, group, session = table
    keeper = make_user("keeper")
    join(owner, group, keeper, Role.SCOREKEEPER)
    Phone(owner, session).record(**SOUTH_KONG)
    second = Phone(keeper, session)
    assert totals(second.client.get(second.url)) == ["−2", "+6", "−2", "−2"]
    second.record(ev_type="kong", kong_player="2", kong_kind="concealed")
    assert len(HandInProgress.objects.get(session=session).events) == 2


def test_a_stale_revision_is_refused_with_the_current_hand(table):
    owner, _group, session = table
    phone = Phone(owner, session)
    seen = phone.revision()
    phone.record(**SOUTH_KONG)
    response = phone.tap(
        revision=seen, action="record", ev_type="kong", kong_player="2", kong_kind="concealed"
    )
    assert "别人先改了这一手" in text_of(response)
    assert totals(response) == ["−2", "+6", "−2", "−2"], "the current hand, not the one the phone had"
    assert len(HandInProgress.objects.get(session=session).events) == 1


def test_undo_and_redo_work_on_the_stored_hand(table):
    owner, _group, session = table
    phone = Phone(owner, session)
    phone.record(**SOUTH_KONG)
    response = phone.tap(action="undo")
    assert totals(response) == ["0", "0", "0", "0"]
    assert 'value="redo"' in response.content.decode()
    response = phone.tap(action="redo")
    assert totals(response) == ["−2", "+6", "−2", "−2"]


def test_the_finishing_event_records_the_round_once_and_the_next_hand_starts(table):
    owner, _group, session = table
    phone = Phone(owner, session)
    phone.record(**THREE_WINS[0])
    seen = phone.revision()
    finishing = {"action": "record", **THREE_WINS[1]}
    first = phone.tap(revision=seen, **finishing)
    again = phone.tap(revision=seen, **finishing)  # a double tap: the same write at the same revision
    assert Round.objects.filter(session=session).count() == 1
    text = text_of(first)
    assert "第 1 手结束" in text and "三家已胡" in text
    assert "下一手 · 小李 坐庄" in text, "the first winner deals next"
    assert "别人" not in text_of(again)
    hand = HandInProgress.objects.get(session=session)
    assert (hand.number, hand.dealer, hand.events) == (2, 1, [])
    page = phone.tap(action="next")
    assert "第 2 手" in text_of(page) and "endcard" not in page.content.decode()
    assert totals(page) == totals(first), "the ledger's totals carry the finished hand"


def test_the_quick_picker_s_taps_are_kept_with_the_round(table):
    owner, _group, session = table
    phone = Phone(owner, session)
    phone.record(**THREE_WINS[0])
    phone.record(**THREE_WINS[1])
    round_ = Round.objects.get(session=session)
    notes = round_.versions.get().notes
    assert '"pattern": "qing_yi_se"' in notes[1]


def test_a_viewer_sees_the_table_but_no_entry(table):
    owner, group, session = table
    viewer_user = make_user("viewer")
    join(owner, group, viewer_user, Role.VIEWER)
    viewer = Phone(viewer_user, session)
    page = viewer.client.get(viewer.url)
    assert page.status_code == 200 and 'id="entry-seats"' in page.content.decode()
    assert 'id="entry-form"' not in page.content.decode()
    refused = viewer.record(**SOUTH_KONG)
    assert "没有记录" in text_of(refused)
    assert not HandInProgress.objects.filter(session=session).exclude(events=[]).exists()


def footer_of(response) -> str:
    footer = re.search(r'<footer class="footer">(.*?)</footer>', response.content.decode(), re.S)
    assert footer is not None
    return re.sub(r"\s+", " ", footer[1]).strip()


def test_the_footer_says_what_this_phone_can_do_with_the_table(table):
    """A scorekeeper can continue the hand; a viewer member watches it; a closed session is looked back at."""
    owner, group, session = table
    viewer_user = make_user("viewer")
    join(owner, group, viewer_user, Role.VIEWER)
    keeper, viewer = Phone(owner, session), Phone(viewer_user, session)
    english = Phone(viewer_user, session, HTTP_ACCEPT_LANGUAGE="en")
    records = "每记一笔都马上存到服务器：同桌任何一部手机都能接着记这一手。"
    assert footer_of(keeper.client.get(keeper.url)) == records
    watches = "你正在观看：记分员每记一笔，这里都会自动显示；只有记分员可以记录。"
    assert footer_of(viewer.client.get(viewer.url)) == watches
    assert footer_of(english.client.get(english.url)) == (
        "You are watching: each event a scorekeeper records shows here by itself; "
        "only scorekeepers can record."
    )
    services.session_close(actor=owner, session=session)
    for phone in (keeper, viewer):
        assert footer_of(phone.client.get(phone.url)) == "本场已结束：记录都保留，不能再记新的一手。"


def test_another_group_s_session_is_a_404(table):
    _owner, _group, session = table
    stranger = Phone(make_user("stranger"), session)
    assert stranger.client.get(stranger.url).status_code == 404
    assert stranger.record(**SOUTH_KONG).status_code == 404


def test_a_closed_session_refuses_writes_with_a_message(table):
    owner, _group, session = table
    services.session_close(actor=owner, session=session)
    phone = Phone(owner, session)
    assert 'id="entry-form"' not in phone.client.get(phone.url).content.decode()
    assert "没有记录" in text_of(phone.record(**SOUTH_KONG))


def test_the_live_fragment_is_keyed_by_the_revision(table):
    owner, _group, session = table
    phone = Phone(owner, session)
    live = reverse("session-live", args=[session.pk])
    assert phone.client.get(live, {"revision": phone.revision()}).status_code == 204
    seen = phone.revision()
    phone.record(**SOUTH_KONG)
    changed = phone.client.get(live, {"revision": seen})
    assert changed.status_code == 200
    assert 'id="entry-seats"' in changed.content.decode() and 'hx-swap-oob="true"' in changed.content.decode()
    assert len(changed.content) <= 15_000


def test_a_tap_answers_with_at_most_15_kb(table):
    owner, _group, session = table
    phone = Phone(owner, session)
    for event in (SOUTH_KONG, *THREE_WINS):
        response = phone.record(**event)
        assert len(response.content) <= 15_000, len(response.content)
    preview = phone.tap(action="preview", ev_type="win", winner_1="on", win_how="self_draw")
    assert len(preview.content) <= 15_000


def test_the_start_page_and_home_lead_to_the_session_page(table):
    _owner, _group, session = table
    from ledger.pages.links import session_url

    assert session_url(session) == reverse("session-page", args=[session.pk])


def test_issue_18_5_a_message_names_the_seat_by_its_player_on_the_page_and_by_number_in_the_api(table):
    """杠上花 with no kong of 阿美 (seat 2) just before: the page says 阿美, the API keeps ``player 2``."""
    owner, _group, session = table
    win = {"ev_type": "win", "winner_2": "on", "win_how": "self_draw", "after_kong": "on"}
    zh = text_of(Phone(owner, session).record(**win))
    assert "杠上花/杠上炮要求上一个事件是阿美的杠。" in zh and "玩家 2" not in zh
    en = text_of(Phone(owner, session, HTTP_ACCEPT_LANGUAGE="en").record(**win))
    assert "after_kong needs a kong by 阿美 as the event just before this win." in en
    assert not selectors.hand_row(session).events
    api = Client()
    api.force_login(owner)
    body = {"type": "win", "winners": [{"player": 2, "fan": 1}], "after_kong": True}
    answer = api.post(
        reverse("ledger:session-hand-events", kwargs={"session_id": session.pk}),
        {"event": body, "revision": 0},
        content_type="application/json",
    ).json()
    assert answer["detail_zh"] == "杠上花/杠上炮要求上一个事件是玩家 2 的杠。"
