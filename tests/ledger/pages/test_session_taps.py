"""What one tap on the session page costs and does (issue 15 points 3 to 5): one settlement by the engine,
a bounded number of SQL queries, the robbed kong replaced in one write, and 撤销 on the end card taking a
finished hand back."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.counting import settled
from ledger import integrity, services
from ledger.models import HandInProgress, Round
from ledger.services import hand as hand_service
from tests.ledger.conftest import make_table, make_user
from tests.ledger.pages.test_session_page import Phone, text_of, totals

pytestmark = pytest.mark.django_db

KONG = {"ev_type": "kong", "kong_player": "1", "kong_kind": "concealed"}
ADDED_KONG = {"ev_type": "kong", "kong_player": "2", "kong_kind": "added"}
ROBS = {"ev_type": "win", "winner_0": "on", "win_how": "robbing:2", "pattern_0": "ping_hu"}
NOBODY_READY = {"ev_type": "draw", **{f"draw_{seat}": "not_ready" for seat in range(4)}}
# Measured before (main at 43911c3, `python -m bench session_page`): 3 settlements and 19 queries for an
# ordinary event, 4 and 34 for the finishing 流局; the issue asks at most 6 and 15, one settlement each.
# Counted as a server runs them (transaction=True: the write's transaction is the outermost), on either
# database. The ordinary tap's four: the login, the user, the table (the session, its group, the role, the
# seats' players, names and points, the hand: selectors.table_of), the hand's conditional UPDATE (no lock,
# no transaction: services/hand.py). The finishing tap's fifteen: those first three, BEGIN, the locked
# session, the last position with the key's clash and the hand's revision, the round, the session's head
# moved, the version (sealed before it is stored), its rows, the session's figures and the group's
# (ledger/figures.py: two upserts, the group's kept for its standings and statistics), the group's debts
# revision moved (ledger/debts.py, ``moved``), the hand's UPDATE, COMMIT.
ORDINARY_QUERIES = 4
FINISHING_QUERIES = 15


@pytest.fixture
def phone():
    owner = make_user("owner")
    _group, session = make_table(owner)
    services.round_record(
        actor=owner,
        session=session,
        body={"dealer": 0, "events": [{"type": "kong", "player": 3, "kind": "concealed"}]},
    )
    return Phone(owner, session)


@pytest.mark.django_db(transaction=True)
def test_an_ordinary_tap_settles_once_in_four_queries(phone):
    phone.record(**KONG)  # warm: the first write creates the hand's row
    revision = phone.revision()
    with settled() as settlements, CaptureQueriesContext(connection) as queries:
        response = phone.tap(
            revision=revision, action="record", ev_type="kong", kong_player="2", kong_kind="concealed"
        )
    assert response.status_code == 200
    assert settlements.value == 1
    assert len(queries) <= ORDINARY_QUERIES, "\n".join(query["sql"][:50] for query in queries)


def test_undo_and_redo_settle_once(phone):
    phone.record(**KONG)
    for action in ("undo", "redo"):
        with settled() as settlements:
            phone.tap(action=action)
        assert settlements.value == 1, action


@pytest.mark.django_db(transaction=True)
def test_the_finishing_tap_settles_once_in_at_most_fifteen_queries(phone):
    """A 流局 lists the seats the entry answered for (the engine names one still in play left out), so
    the hand is settled once, by the write."""
    phone.record(**KONG)
    revision = phone.revision()
    with settled() as settlements, CaptureQueriesContext(connection) as queries:
        response = phone.tap(revision=revision, action="record", **NOBODY_READY)
    assert response.status_code == 200 and Round.objects.count() == 2
    assert settlements.value == 1
    assert len(queries) <= FINISHING_QUERIES, "\n".join(query["sql"][:50] for query in queries)


def test_the_live_poll_stays_one_query(phone):
    page = phone.client.get(phone.url)
    url = re.search(r'hx-get="([^"]+)"', page.content.decode()).group(1).replace("&amp;", "&")
    live_pass = re.search(r'"X-Live-Pass": "([^"]+)"', page.content.decode()).group(1)
    with CaptureQueriesContext(connection) as queries:
        answer = phone.client.get(url, HTTP_X_LIVE_PASS=live_pass, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204 and len(queries) == 1


class Watcher:
    """A second phone of the table polling the live endpoint from its own thread (its own connection, as
    another process would), from the revision the first phone showed before the tap: what it would see."""

    def __init__(self, phone: Phone, revision: int):
        self.client = Phone(phone.session.group.memberships.get().user, phone.session).client
        page = self.client.get(phone.url).content.decode()
        self.url = re.search(r'hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
        self.url = re.sub(r"revision=\d+", f"revision={revision}", self.url)
        self.headers = {
            "HTTP_X_LIVE_PASS": re.search(r'"X-Live-Pass": "([^"]+)"', page).group(1),
            "HTTP_HX_REQUEST": "true",
        }
        self.seen: list[str] = []

    def poll(self) -> None:
        with ThreadPoolExecutor(max_workers=1) as pool:
            self.seen.append(pool.submit(self._poll).result(timeout=30))

    def _poll(self) -> str:
        try:
            answer = self.client.get(self.url, **self.headers)
        finally:
            connection.close()
        if answer.status_code == 204:
            return "kong standing"  # the revision it showed: the 弯杠 alone, as before the tap
        events = text_of(answer).split("本手", 1)[-1]
        return {(True, False): "kong standing", (False, True): "won"}.get(
            ("弯杠" in events, "抢杠" in events), f"between: {events[:200]}"
        )


@pytest.mark.django_db(transaction=True)
def test_no_poll_ever_sees_the_robbed_kong_between_the_two_halves_of_the_old_path(monkeypatch):
    """Before, the page undid the 弯杠 and then recorded the robbing win: two writes, and a poll between
    them saw the kong undone with no win, or the other way round both. The tap is one write now: a second
    phone polls where the old path's two writes met (before the write, and right after the hand's row is
    stored: one UPDATE, services/hand.py step 6) and after it; it finds the kong standing or the win,
    never anything between."""
    owner = make_user("owner")
    _group, session = make_table(owner)
    phone = Phone(owner, session)
    phone.record(**ADDED_KONG)
    watcher = Watcher(phone, phone.revision())
    write, store = services.hand_write, hand_service._store
    writes = []

    def watched_write(**arguments):
        writes.append(arguments["asked"])
        watcher.poll()
        return write(**arguments)

    def watched_store(hand, seen):
        store(hand, seen)
        watcher.poll()

    monkeypatch.setattr(services, "hand_write", watched_write)
    monkeypatch.setattr(hand_service, "_store", watched_store)
    assert phone.record(**ROBS).status_code == 200
    monkeypatch.undo()
    watcher.poll()
    assert [seen for seen in watcher.seen if seen not in ("kong standing", "won")] == []
    assert watcher.seen == ["kong standing", "won", "won"] and len(writes) == 1


def test_undo_on_the_end_card_takes_the_finished_hand_back(phone):
    phone.record(**KONG)
    finished = phone.record(**NOBODY_READY)
    assert "第 2 手结束" in text_of(finished) and "撤销" in text_of(finished)
    before = totals(finished)
    with settled() as settlements:
        reopened = phone.tap(action="undo")
    assert settlements.value == 1
    round_ = Round.objects.get(session=phone.session, position=2)
    assert round_.voided
    hand = HandInProgress.objects.get(session=phone.session)
    assert (hand.number, len(hand.events), len(hand.undone)) == (2, 1, 1)
    assert "第 2 手" in text_of(reopened) and totals(reopened) != before
    again = phone.tap(action="redo")
    round_.refresh_from_db()
    assert not round_.voided and totals(again) == before
    phone.session.refresh_from_db()
    assert list(integrity.verify_session(phone.session)) == []


def test_a_fine_entered_between_the_kong_and_its_robbing_is_kept_and_the_kong_dropped(phone):
    """RULES.md 4.8: an adjustment is invisible to the adjacency rules, so the 抢杠 still finds the 弯杠
    entered before the fine, and only that kong goes."""
    phone.record(**ADDED_KONG)
    fine = {"ev_type": "adjust", "adjust_from": "3", "adjust_to": "0", "adjust_amount": "1"}
    assert phone.record(**fine).status_code == 200
    assert phone.record(**ROBS).status_code == 200
    events = HandInProgress.objects.get(session=phone.session).events
    assert [event["type"] for event in events] == ["adjust", "win"] and events[1]["robbing_kong"]


def test_a_draw_that_leaves_a_seat_in_play_unanswered_names_it_and_stores_nothing(phone):
    """The write lists the seats the entry answered for; the engine names the one still in play left
    out (docs/pages.md, 血流成河 and 罚分 on the entry), in the page's words, and nothing changes."""
    phone.record(**KONG)
    before = HandInProgress.objects.get(session=phone.session).events
    three = {key: value for key, value in NOBODY_READY.items() if key != "draw_3"}
    response = phone.record(**three)
    assert response.status_code == 200 and "老张仍在牌局中，必须列出" in text_of(response)
    assert HandInProgress.objects.get(session=phone.session).events == before
    assert Round.objects.count() == 1
