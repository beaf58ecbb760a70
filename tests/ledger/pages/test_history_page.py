"""历史: every hand newest first, explained; 改过 with the earlier versions; a voided hand struck through;
correcting in the entry UI (draft kept across reloads, saved through round_correct); voiding after a
confirmation; roles, closed sessions, another group's session, and bad input that stores nothing."""

import gzip
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Role, Round, RoundVersion
from tests.ledger.conftest import DRAW_WITH_PIG, make_table, make_user
from tests.ledger.pages.helpers import ENGLISH, errors_of, logged_in, visible_text
from tests.ledger.test_hand import EVENING, KONG

NOTE = json.dumps({"1": {"pattern": "qing_yi_se", "gen": 1}})


@pytest.fixture
def client(owner):
    return logged_in(owner)


@pytest.fixture
def played(owner, session):
    """Two hands through the hand in progress: the 血战 evening (kong, 一炮多响, a self-draw) and a draw."""
    revision = 0
    for note, event in zip(("", "", NOTE), EVENING, strict=True):
        revision = services.hand_event_add(
            actor=owner, session=session, event=event, revision=revision, note=note
        ).hand.revision
    services.hand_event_add(actor=owner, session=session, event=DRAW_WITH_PIG["events"][0], revision=revision)
    return list(Round.objects.filter(session=session).order_by("position"))


def history(client, session, headers=None):
    return client.get(reverse("session-history", args=[session.pk]), **(headers or {}))


def correct_url(session, round_):
    return reverse("round-correct-page", args=[session.pk, round_.pk])


def test_every_hand_newest_first_each_explained(client, session, played):
    text = visible_text(history(client, session))
    assert text.index("第 2 手") < text.index("第 1 手")
    assert "清一色" in text and "1根" in text  # the quick picker's note explains 小李's self-draw
    assert "暗杠" in text and "花猪" in text
    english = visible_text(history(client, session, ENGLISH))
    assert "Hand 2" in english and "Full flush" in english
    for word in ("null", "None", "qing_yi_se", "{"):
        assert word not in text and word not in english


def test_a_corrected_hand_says_so_and_keeps_its_earlier_version(client, owner, session, played):
    first = played[0]
    services.round_correct(actor=owner, round_=first, body={"dealer": 0, "events": [KONG]})
    page = history(client, session)
    card = page.content.decode().split('id="hand-1"')[1]
    assert "改过" in card and "1 个更早的版本" in visible_text(page)


def test_a_voided_hand_is_struck_through_and_counts_nowhere(client, owner, session, played):
    response = client.post(reverse("round-void-page", args=[session.pk, played[1].pk]))
    assert response.status_code == 303
    card = history(client, session).content.decode().split('id="hand-2"')[1].split("</article>")[0]
    assert "作废" in card and "<del" in card
    assert [seat.points for seat in selectors.session_totals(session).seats] == list(
        RoundVersion.objects.get(round=played[0], version=1).result["net"]
    )


def test_a_viewer_sees_the_history_but_no_correct_or_void(session, played, member_factory):
    viewer = logged_in(member_factory("viewer", Role.VIEWER))
    page = history(viewer, session)
    assert page.status_code == 200 and "更正" not in visible_text(page)
    assert viewer.get(correct_url(session, played[0])).status_code == 403
    assert viewer.post(reverse("round-void-page", args=[session.pk, played[0].pk])).status_code == 400
    assert not Round.objects.filter(voided=True).exists()


def test_another_groups_session_is_not_found(session, played):
    stranger = make_user("stranger")
    make_table(stranger, group_name="隔壁桌")
    client = logged_in(stranger)
    assert history(client, session).status_code == 404
    assert client.get(correct_url(session, played[0])).status_code == 404
    assert client.post(reverse("round-void-page", args=[session.pk, played[0].pk])).status_code == 404


def test_correcting_opens_the_hand_filled_in_and_saves_a_new_version(client, owner, session, played):
    url = correct_url(session, played[0])
    page = client.get(url)
    assert page.status_code == 200
    text = visible_text(page)
    assert "第 1 手" in text and "暗杠" in text and "保存更正" in text  # filled in with its events
    revision = int(re.search(r'name="revision" value="(\d+)"', page.content.decode())[1])
    undone = client.post(url, {"action": "undo", "revision": revision})  # take back the self-draw
    assert undone.status_code == 303
    again = client.get(url)  # a reload keeps the draft
    revision = int(re.search(r'name="revision" value="(\d+)"', again.content.decode())[1])
    assert revision == 1
    # 小李 self-draws a 清一色 with 2 根 this time, by the quick picker
    recorded = client.post(
        url,
        {
            "action": "record",
            "revision": revision,
            "ev_type": "win",
            "winner_1": "on",
            "win_how": "self_draw",
            "pattern_1": "qing_yi_se",
            "gen_1": "2",
        },
    )
    assert recorded.status_code == 303
    assert Round.objects.get(pk=played[0].pk).version == 1  # nothing stored before saving
    saved = client.post(url, {"action": "save"})
    assert saved.status_code == 303 and saved["Location"].endswith("#hand-1")
    round_ = Round.objects.get(pk=played[0].pk)
    assert round_.version == 2
    version = round_.versions.get(version=2)
    assert version.kind == "corrected" and json.loads(version.notes[2])["1"]["gen"] == 2
    assert version.result["net"] != RoundVersion.objects.get(round=round_, version=1).result["net"]


def test_a_correction_saved_after_someone_elses_is_refused_and_begins_again(client, owner, session, played):
    url = correct_url(session, played[0])
    client.get(url)
    client.post(url, {"action": "undo", "revision": 0})
    services.round_correct(
        actor=owner, round_=played[0], body={"dealer": 0, "events": [KONG]}
    )  # another phone
    response = client.post(url, {"action": "save"})
    assert response.status_code == 303 and response["Location"] == url
    assert Round.objects.get(pk=played[0].pk).version == 2  # theirs kept, ours not written
    page = client.get(url)
    assert "别人改过" in visible_text(page)


def test_an_event_the_engine_refuses_in_a_correction_is_a_message_and_stores_nothing(client, session, played):
    url = correct_url(session, played[0])
    client.get(url)
    client.post(url, {"action": "undo", "revision": 0})
    # 阿美 already won in this hand: she cannot win again
    response = client.post(
        url,
        {
            "action": "record",
            "revision": 1,
            "ev_type": "win",
            "winner_2": "on",
            "win_how": "self_draw",
            "pattern_2": "ping_hu",
            "gen_2": "0",
        },
    )
    assert response.status_code == 400
    assert errors_of(response)
    assert Round.objects.get(pk=played[0].pk).version == 1


def test_discarding_a_draft_leaves_the_hand_as_it_was(client, session, played):
    url = correct_url(session, played[0])
    client.get(url)
    client.post(url, {"action": "undo", "revision": 0})
    assert client.post(url, {"action": "discard"}).status_code == 303
    page = client.get(url)
    assert re.search(r'name="revision" value="0"', page.content.decode())
    assert Round.objects.get(pk=played[0].pk).version == 1


def test_a_closed_session_offers_no_correction(client, owner, session, played):
    services.session_close(actor=owner, session=session)
    assert "更正" not in visible_text(history(client, session))
    response = client.get(correct_url(session, played[0]))
    assert response.status_code == 403 and "已结束" in visible_text(response)
    assert client.post(reverse("round-void-page", args=[session.pk, played[0].pk])).status_code == 400
    assert not Round.objects.filter(voided=True).exists()


def test_a_voided_hand_cannot_be_corrected(client, owner, session, played):
    services.round_void(actor=owner, round_=played[0])
    assert client.get(correct_url(session, played[0])).status_code == 403


def test_a_round_of_another_session_is_not_found_under_this_one(client, owner, session, played):
    _, other = make_table(owner, group_name="第二桌")
    services.hand_event_add(actor=owner, session=other, event=DRAW_WITH_PIG["events"][0], revision=0)
    theirs = Round.objects.get(session=other)
    assert client.get(correct_url(session, theirs)).status_code == 404


def test_the_history_reads_its_hands_in_a_few_queries(client, session, played, django_assert_max_num_queries):
    with django_assert_max_num_queries(15):
        assert history(client, session).status_code == 200


DRAW_NOBODY_READY = {
    "action": "record",
    "ev_type": "draw",
    **{f"draw_{seat}": "not_ready" for seat in range(4)},
}


def test_the_end_card_of_a_correction_saves_it(client, session, played):
    url = correct_url(session, played[1])  # the draw: finished as it stands
    assert "保存更正" in visible_text(client.get(url))
    client.post(url, {"action": "undo", "revision": 0})
    assert client.post(url, {**DRAW_NOBODY_READY, "revision": 1}).status_code == 303
    assert client.post(url, {"action": "next", "revision": 2}).status_code == 303
    round_ = Round.objects.get(pk=played[1].pk)
    assert round_.version == 2
    assert round_.versions.get(version=2).result["net"] == [0, 0, 0, 0]


def test_saving_an_unchanged_draft_writes_nothing(client, session, played):
    url = correct_url(session, played[1])
    client.get(url)
    response = client.post(url, {"action": "save"})
    assert response.status_code == 303
    assert Round.objects.get(pk=played[1].pk).version == 1
    assert "没有改动" in visible_text(client.get(history_url_of(session)))


def history_url_of(session):
    return reverse("session-history", args=[session.pk])


def test_htmx_writes_are_answered_with_a_redirect_header(client, session, played):
    url = correct_url(session, played[1])
    client.get(url)
    client.post(url, {"action": "undo", "revision": 0})
    client.post(url, {**DRAW_NOBODY_READY, "revision": 1})
    response = client.post(url, {"action": "save"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"].endswith("#hand-2")


def seed_hands(session, count):
    """``count`` more hands at the end of the session, each a copy of its first (the 血战 evening: a kong,
    一炮多响, a self-draw, explained in full), written in bulk: a long session in a second."""
    model = Round.objects.get(session=session, position=1)
    version = model.versions.get(version=model.version)
    start = selectors.session_last_position(session) + 1
    rounds = Round.objects.bulk_create(
        Round(
            session=session,
            position=position,
            dealer=model.dealer,
            events=model.events,
            request_fingerprint=model.request_fingerprint,
        )
        for position in range(start, start + count)
    )
    if not all(round_.pk for round_ in rounds):  # a database that returns no ids from a bulk insert
        rounds = list(Round.objects.filter(session=session, position__gte=start))
    RoundVersion.objects.bulk_create(
        RoundVersion(
            round=round_,
            version=1,
            kind=version.kind,
            dealer=version.dealer,
            events=version.events,
            notes=version.notes,
            result=version.result,
            created_by=version.created_by,
        )
        for round_ in rounds
    )


@pytest.fixture
def long_evening(owner, session, played):
    """The two hands played, then 38 copies of the first: 40 hands."""
    seed_hands(session, 38)
    return session


def test_issue_18_12_the_history_shows_a_page_of_hands_newest_first_each_one_line_that_opens(
    client, long_evening
):
    html = history(client, long_evening).content.decode()
    shown = [int(n) for n in re.findall(r'id="hand-(\d+)"', html)]
    assert shown == list(range(40, 20, -1))  # the newest twenty
    assert html.count('<details class="histhand__fold">') == 20  # every hand closed, none open
    line = re.search(r'id="hand-40".*?<summary class="histhand__line">(.*?)</summary>', html, re.S)[1]
    line_text = re.sub(r"<[^>]+>|\s+", " ", line)
    assert "第 40 手" in line_text and "自摸" in line_text and "+" in line_text  # who, how, the points
    older = client.get(history_url_of(long_evening), {"page": 2}).content.decode()
    assert [int(n) for n in re.findall(r'id="hand-(\d+)"', older)] == list(range(20, 0, -1))
    assert "较新的几手" in visible_text(client.get(history_url_of(long_evening), {"page": 2}))


@pytest.mark.parametrize(("query", "page_of"), [({"hand": "7"}, 7), ({"hand": "33"}, 33)])
def test_a_jump_to_a_hand_shows_its_page_with_it_open(client, long_evening, query, page_of):
    html = client.get(history_url_of(long_evening), query).content.decode()
    assert f'id="hand-{page_of}"' in html
    opened = re.findall(r'id="hand-(\d+)">\s*<details class="histhand__fold" open>', html)
    assert opened == [str(page_of)]


@pytest.mark.parametrize(
    "query", [{"page": "99"}, {"page": "-1"}, {"page": "x" * 50}, {"hand": "0"}, {"hand": "9" * 30}]
)
def test_a_page_or_hand_out_of_range_is_a_page_of_the_history_not_an_error(client, long_evening, query):
    response = client.get(history_url_of(long_evening), query)
    assert response.status_code == 200
    assert re.search(r'id="hand-\d+"', response.content.decode())


def test_a_voided_hand_lands_on_its_own_page_open(client, long_evening):
    round_ = Round.objects.get(session=long_evening, position=3)
    response = client.post(reverse("round-void-page", args=[long_evening.pk, round_.pk]))
    assert response["Location"].endswith("?hand=3#hand-3")
    html = client.get(response["Location"]).content.decode()
    assert re.search(r'id="hand-3">\s*<details class="histhand__fold" open>', html)
    assert 'class="badge badge--voided"' in html.split('id="hand-3"')[1].split("</summary>")[0]


def test_the_first_load_is_the_same_size_and_queries_whatever_the_sessions_length(client, session, played):
    """Before, the page held every hand: 52 KB gzip at 200 hands, 1.1 MB at 10,000, 1.8 ms a hand."""
    sizes, queries = [], []
    for more in (30, 600):
        seed_hands(session, more)
        with CaptureQueriesContext(connection) as captured:
            response = history(client, session)
        queries.append(len(captured))
        sizes.append(len(gzip.compress(response.content)))
    assert queries[0] == queries[1]
    assert sizes[1] <= sizes[0] * 1.02  # the numbers on the page grow by a digit, nothing else
    assert sizes[1] <= 50 * 1024
