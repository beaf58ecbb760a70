"""统计: a group's standings and each player's record as tables, in Chinese and in English; another group's
statistics are a 404; the same queries however much the group has played."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import selectors, services
from tests.ledger.conftest import EVENING_ONE, SELF_DRAW_B, make_table, make_user, member_join
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text
from web.charts import sampled


def stats_url(group) -> str:
    return reverse("group-stats", args=[group.pk])


def between(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


@pytest.fixture
def client(owner):
    return logged_in(owner)


def test_the_standings_and_every_figure_in_chinese(client, two_evenings):
    text = visible_text(client.get(stats_url(two_evenings)))
    assert "统计 · 周五麻将" in text
    standings = between(text, "积分走势", "个人数据")
    # players best total first; each session's row: the totals after it, and below each its result
    assert "场次 老张 小李 阿美 小王" in standings
    assert "第一场" in standings and standings.index("第一场") < standings.index("第二场")
    assert "−6 −6 +15 +15 +3 +3 −12 −12" in standings  # the first session: its result is the total
    assert "+30 +36 +18 +3 +16 +13 −64 −52" in standings
    assert "3 手" in standings  # each session's counted hands (第一场's voided 4th is not one)
    record = between(text, "个人数据", "一炮多响时")
    for row in (
        "总分 +30 +18 +16 −64",
        "场均 +15.0 +9.0 +8.0 −32.0",
        "场数 2 2 2 2",
        "手数 6 6 6 6",
        "胡牌 2 2 2 1",
        "自摸 1 1 0 0",
        "点炮 0 3 0 2",
        "最大一手 3番 3番 3番 1番",
        "杠钱 +1 0 0 −1",
        "花猪 0 0 0 1",
        "查叫 0 1 0 0",
    ):
        assert row in record, row
    biggest = text[text.index("各人最大的一手") :]
    # as a session's trends word a big hand: who, how won, what he took, where, how it scored
    assert "老张 · 自摸 +15 第二场 · 第3手 · 清一色 3 = 3番 ×4" in biggest  # scored from its tiles
    assert "阿美 · 小王点炮 +4 第一场 · 第3手 · 3番 ×4" in biggest  # entered by its fan (as corrected)
    assert "小王 · 小李点炮 +1 第二场 · 第2手 · 1番 ×1" in biggest


def test_the_page_in_english(client, two_evenings):
    text = visible_text(client.get(stats_url(two_evenings), **ENGLISH))
    assert "Statistics · 周五麻将" in text
    assert "Standings over the sessions" in text
    assert "Session 老张 小李 阿美 小王" in text
    assert "Total points +30 +18 +16 −64" in text
    assert "Average per session +15.0 +9.0 +8.0 −32.0" in text
    assert "Deal-ins (点炮) 0 3 0 2" in text
    assert "Kong money (刮风下雨) +1 0 0 −1" in text
    assert "Biggest hand 3 fan 3 fan 3 fan 1 fan" in text
    assert "老张 · self-draw +15 第二场 · hand 3 · Full flush 3 = 3 fan ×4" in text


def test_the_biggest_hand_links_to_it_in_the_history(client, two_evenings):
    second = two_evenings.sessions.get(name="第二场")
    page = client.get(stats_url(two_evenings)).content.decode()
    assert f'href="/sessions/{second.pk}/history/?hand=3#hand-3"' in page


def test_a_hand_entered_by_the_quick_picker_is_explained_by_its_taps(owner, client):
    group, session = make_table(owner)
    note = json.dumps({"1": {"pattern": "qing_yi_se", "gen": 1}})  # 小李: 清一色 + 1根 = 4 fan
    for seat, fan in ((1, 4), (2, 1), (3, 1)):  # three self-draws finish the hand (血战到底)
        win = {"type": "win", "from": None, "winners": [{"player": seat, "fan": fan}]}
        revision = selectors.session_hand_revision(session)
        services.hand_event_add(
            actor=owner, session=session, event=win, revision=revision, note=note if seat == 1 else None
        )
    text = visible_text(client.get(stats_url(group)))
    assert "小李 · 自摸 +27 第一场 · 第1手 · 清一色 3 + 1根 = 4番 ×8" in text


def test_a_player_who_sat_out_a_session_says_so(owner, client, two_evenings):
    newcomer = services.player_add(actor=owner, group=two_evenings, name="阿强")
    ids = {player.name: player.pk for player in two_evenings.players.all()}
    third = services.session_start(
        actor=owner,
        group=two_evenings,
        name="第三场",
        player_ids=[newcomer.pk, ids["小李"], ids["阿美"], ids["老张"]],
    )
    services.round_record(actor=owner, session=third, body=SELF_DRAW_B)  # 小李 +15, the others −5
    standings = between(visible_text(client.get(stats_url(two_evenings))), "积分走势", "个人数据")
    assert "场次 小李 老张 阿美 阿强 小王" in standings
    assert "+18 +3 +30 +36 +16 +13 0 未上桌 −64 −52" in standings  # 阿强 had not joined yet
    assert "+33 +15 +25 −5 +11 −5 −5 −5 −64 未上桌" in standings


def test_a_group_without_a_hand_says_the_statistics_start_with_the_first(owner, client):
    group, _ = make_table(owner)
    text = visible_text(client.get(stats_url(group)))
    assert "本组还没有记录任何一手" in text and "个人数据" not in text


def test_another_groups_statistics_are_a_404_and_a_visitor_logs_in_first(owner, two_evenings):
    stranger = make_user("stranger")
    make_table(stranger, group_name="别人的组")
    assert logged_in(stranger).get(stats_url(two_evenings)).status_code == 404
    response = logged_in(stranger).get(reverse("group-stats", args=[10**17]))
    assert response.status_code == 404
    anonymous = logged_in(owner)
    anonymous.logout()
    assert anonymous.get(stats_url(two_evenings)).url.startswith("/login/")


def test_a_viewer_reads_the_statistics(owner, two_evenings):
    make_user("viewer")
    viewer = member_join(actor=owner, group=two_evenings, username="viewer", role="viewer").user
    assert logged_in(viewer).get(stats_url(two_evenings)).status_code == 200


def test_the_page_takes_the_same_queries_however_much_was_played(owner, client, two_evenings):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(stats_url(two_evenings)).status_code == 200
        return len(captured)

    before = queries()
    ids = [player.pk for player in two_evenings.players.order_by("id")]
    for name in ("第三场", "第四场", "第五场"):
        session = services.session_start(actor=owner, group=two_evenings, name=name, player_ids=ids)
        for body in EVENING_ONE:
            services.round_record(actor=owner, session=session, body=body)
    assert queries() == before


def test_the_group_page_and_home_lead_to_the_statistics(client, two_evenings):
    assert (
        f'href="{stats_url(two_evenings)}"'
        in client.get(reverse("group-page", args=[two_evenings.pk])).content.decode()
    )
    assert f'href="{stats_url(two_evenings)}"' in client.get(reverse("home")).content.decode()


def test_many_sessions_show_the_latest_in_the_table_and_some_in_the_chart(owner, client, monkeypatch):
    group, session = make_table(owner)
    ids = [seat.player_id for seat in session.seats.order_by("seat")]
    for number in range(4):
        services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
        services.session_close(actor=owner, session=session)
        session = services.session_start(actor=owner, group=group, name=f"第{number + 2}场", player_ids=ids)
    monkeypatch.setattr("ledger.pages.stats.STANDINGS_ROWS", 2)
    monkeypatch.setattr("ledger.pages.stats.MAX_POINTS", 3)
    monkeypatch.setattr("ledger.pages.stats.sampled", lambda count: sampled(count, 3))
    page = client.get(stats_url(group))
    assert [row.standing.name for row in page.context["standings"]] == ["第3场", "第4场"]
    assert "只列最近2场（共4场）" in visible_text(page)
    assert "共4场，折线均匀取其中一部分场次画出" in visible_text(page)
