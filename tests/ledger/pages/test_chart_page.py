"""走势: each player's running total hand by hand (a chart and the same numbers as a table) and the biggest
hands, from the ledger's sums: voided hands move nothing, corrected ones count as corrected; Chinese and
English; an empty session; the links to it; a bounded number of queries."""

import json
import re
import xml.etree.ElementTree as ET
from itertools import accumulate

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.scale_seed import CORRECTED, TEMPLATE_HANDS, VOIDED, add_group, add_sessions, record_template
from ledger import selectors, services
from ledger.models import LedgerEntry, Role, Round, RoundVersion, VersionKind
from tests.ledger.conftest import (
    DIRECT_KONG,
    DRAW_WITH_PIG,
    KONG_THEN_GANG_SHANG_PAO,
    SELF_DRAW_B,
    make_table,
    make_user,
    member_join,
)
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text
from web.charts import MAX_POINTS, sampled

SVG = "{http://www.w3.org/2000/svg}"
FULL_FLUSH_TILES = {  # 小李 self-draws 清一色 from tiles: 3 fan, 4 points from each
    "dealer": 0,
    "events": [
        {
            "type": "win",
            "from": None,
            "winners": [{"player": 1, "hand": {"concealed": "11s333s222s456s99s", "win_tile": "9s"}}],
        }
    ],
}
ROBBED = {  # 老张 robs 阿美's added kong: 对对胡 2 + 抢杠胡 1 = 3 fan, 4 points from 阿美
    "dealer": 0,
    "events": [{"type": "win", "from": 2, "robbing_kong": True, "winners": [{"player": 3, "fan": 3}]}],
}


@pytest.fixture
def client(owner):
    return logged_in(owner)


def chart(client, session, headers=None):
    return client.get(reverse("session-chart", args=[session.pk]), **(headers or {}))


def record(owner, session, *bodies):
    return [services.round_record(actor=owner, session=session, body=body)[0] for body in bodies]


def expected_rows(session):
    """The running totals straight from the ledger: each round's net summed in the database, added up."""
    nets = [
        tuple(int(getattr(row, f"net_{seat}") or 0) for seat in range(4))
        for row in selectors.round_net(session)
    ]
    return list(accumulate(nets, lambda total, net: tuple(map(sum, zip(total, net, strict=True)))))


def table_rows(page):
    return [row.values for row in page.context["rows"]]


def signed(points):
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def test_the_table_is_the_ledgers_running_totals_ending_at_the_session_totals(client, owner, session):
    record(owner, session, SELF_DRAW_B, DRAW_WITH_PIG, KONG_THEN_GANG_SHANG_PAO)
    page = chart(client, session)
    assert page.status_code == 200
    rows = table_rows(page)
    assert rows == expected_rows(session) == [(-5, 15, -5, -5), (-53, 32, 15, 6), (-54, 30, 19, 5)]
    assert rows[-1] == tuple(seat.points for seat in selectors.session_totals(session).seats)
    text = visible_text(page)
    for number, totals in enumerate(rows, start=1):
        assert f"{number} {' '.join(signed(points) for points in totals)}" in text


def test_the_chart_draws_one_line_per_player_from_zero(client, owner, session):
    record(owner, session, SELF_DRAW_B, DRAW_WITH_PIG)
    svg = ET.fromstring(str(chart(client, session).context["chart"]))
    assert svg.get("role") == "img" and svg.get("aria-label") == "每手累计走势"
    lines = list(svg.iter(f"{SVG}polyline"))
    assert len(lines) == 4 and all(len(line.get("points").split()) == 3 for line in lines)  # 0, 1, 2
    ends = ["".join(node.itertext()) for node in svg.iter(f"{SVG}text") if "chart-end" in node.get("class")]
    assert ends == ["−53", "+32", "+15", "+6"]
    legend = [
        "".join(node.itertext()) for node in svg.iter(f"{SVG}text") if node.get("class") == "chart-legend"
    ]
    assert legend == ["小王", "小李", "阿美", "老张"]


def test_a_voided_hand_moves_nothing_and_a_corrected_one_counts_as_corrected(client, owner, session):
    first, second, _third = record(owner, session, SELF_DRAW_B, DRAW_WITH_PIG, DIRECT_KONG)
    services.round_void(actor=owner, round_=second)
    services.round_correct(actor=owner, round_=first, body=KONG_THEN_GANG_SHANG_PAO)
    page = chart(client, session)
    rows = page.context["rows"]
    assert [(row.number, row.voided, row.corrected) for row in rows] == [
        (1, False, True),
        (2, True, False),
        (3, False, False),
    ]
    assert table_rows(page) == expected_rows(session) == [(-1, -2, 4, -1), (-1, -2, 4, -1), (-1, -4, 6, -1)]
    text = visible_text(page)
    assert "1 改过 −1 −2 +4 −1" in text and "2 作废 −1 −2 +4 −1" in text
    # the corrected hand's win only (its points, not the kong money handed over with it: 呼叫转移), and
    # nothing of the voided hand
    assert [(hand.number, hand.winner, hand.points) for hand in page.context["big_hands"]] == [(1, "阿美", 2)]


def test_the_biggest_hands_are_the_top_five_by_points_won(client, owner, session):
    bodies = [
        {"dealer": 0, "events": [{"type": "win", "from": 2, "winners": [{"player": 0, "fan": fan}]}]}
        for fan in (1, 2, 3, 4)
    ]
    record(owner, session, SELF_DRAW_B, *bodies, FULL_FLUSH_TILES, ROBBED)
    hands = chart(client, session).context["big_hands"]
    assert [(hand.number, hand.winner, hand.points) for hand in hands] == [
        (1, "小李", 15),  # 3 fan self-drawn: 4 + 1 from each of three
        (6, "小李", 15),
        (5, "小王", 8),
        (4, "小王", 4),
        (7, "老张", 4),
    ]
    assert [hand.how for hand in hands] == ["自摸", "自摸", "阿美点炮", "阿美点炮", "抢阿美的杠"]
    assert hands[1].score == "清一色 3 = 3番 ×4"  # scored from its tiles
    assert hands[2].score == "4番 ×8"  # entered by its fan


def test_a_robbed_kong_and_the_quick_pickers_pattern_are_said(client, owner, session):
    (robbed,) = record(owner, session, ROBBED)
    note = json.dumps({"3": {"pattern": "dui_dui_hu", "gen": 0}})
    services.round_correct(actor=owner, round_=robbed, body=ROBBED, notes=[note])
    (hand,) = chart(client, session).context["big_hands"]
    assert hand.how == "抢阿美的杠"
    assert hand.score == "对对胡 2 + 抢杠胡 +1 = 3番 ×4"
    english = chart(client, session, ENGLISH).context["big_hands"][0]
    assert english.how == "robbed 阿美's kong" and english.score.endswith("fan ×4")


def test_the_page_reads_in_chinese_by_default_and_in_english(client, owner, session):
    record(owner, session, SELF_DRAW_B, KONG_THEN_GANG_SHANG_PAO)
    text = visible_text(chart(client, session))
    for words in (
        "走势 · 第一场",
        "每手累计走势",
        "最大的几手",
        "每手之后的累计",
        "小李 · 自摸 +15",
        "第 1 手",
        "小李点炮",
    ):
        assert words in text
    english = visible_text(chart(client, session, ENGLISH))
    for words in (
        "Trends · 第一场",
        "Running totals, hand by hand",
        "The biggest hands",
        "Totals after each hand",
    ):
        assert words in english
    assert "小李 · self-draw +15" in english and "小李 dealt in" in english and "Hand 1" in english


def test_a_session_with_no_hands_says_so_plainly(client, session):
    page = chart(client, session)
    assert page.status_code == 200
    assert "还没有记录任何一手：打完第一手，这里就会画出走势。" in visible_text(page)
    assert b"<svg" not in page.content and b"<table" not in page.content
    english = visible_text(chart(client, session, ENGLISH))
    assert "No hand has been recorded yet: the trends appear after the first one." in english


def test_hands_with_no_win_have_no_biggest_hand(client, owner, session):
    record(owner, session, DRAW_WITH_PIG)
    assert "还没有人胡过。" in visible_text(chart(client, session))


def test_player_names_are_escaped_in_the_chart_and_the_table(client, owner):
    group = services.group_create(actor=owner, name="g")
    names = ['<b>"x"</b>', "b", "c", "d"]
    players = [services.player_add(actor=owner, group=group, name=name) for name in names]
    session = services.session_start(
        actor=owner, group=group, name="s", player_ids=[player.pk for player in players]
    )
    record(owner, session, SELF_DRAW_B)
    html = chart(client, session).content.decode()
    assert "<b>" not in html and "&lt;b&gt;" in html


def test_the_session_page_and_the_settle_up_page_link_to_it(client, session):
    url = reverse("session-chart", args=[session.pk])
    for page in ("session-page", "session-settle"):
        assert f'href="{url}"' in client.get(reverse(page, args=[session.pk])).content.decode()


def test_a_viewer_sees_it_another_group_gets_a_404_and_a_stranger_logs_in(owner, session):
    viewer = make_user("viewer")
    member_join(actor=owner, group=session.group, username="viewer", role=Role.VIEWER)
    assert chart(logged_in(viewer), session).status_code == 200
    _group, theirs = make_table(make_user("other"), group_name="别人的")
    assert chart(logged_in(owner), theirs).status_code == 404
    anonymous = chart(logged_in(owner).__class__(), session)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]


def test_the_viewer_links_live_board_draws_the_chart_too(client, owner, session):
    record(owner, session, SELF_DRAW_B, DRAW_WITH_PIG)
    link = services.invite_create(actor=owner, session=session, role="viewer")
    board = client.get(f"/join/{link.token}/").content.decode()
    assert 'class="chart"' in board and 'aria-label="每手累计走势"' in board


def hand_table(html):
    """The hand-by-hand table of a page: its header and, per row, its class, its label and its numbers."""
    root = ET.fromstring(re.search(r'<table class="handtable">.*?</table>', html, re.S).group(0))
    header = ["".join(cell.itertext()) for cell in root.iter("th") if cell.get("scope") == "col"]
    rows = [
        (
            row.get("class"),
            " ".join("".join(row.find("th").itertext()).split()),
            ["".join(c.itertext()) for c in row.iter("td")],
        )
        for row in root.find("tbody")
    ]
    return header, rows


def test_the_live_board_lists_the_hands_in_the_chart_pages_table(client, owner, session):
    """One table, two readings: 走势's running totals, oldest first; the board's nets, newest first."""
    first, second, _third = record(owner, session, SELF_DRAW_B, DRAW_WITH_PIG, DIRECT_KONG)
    services.round_void(actor=owner, round_=second)
    services.round_correct(actor=owner, round_=first, body=KONG_THEN_GANG_SHANG_PAO)
    link = services.invite_create(actor=owner, session=session, role="viewer")
    header, totals = hand_table(chart(client, session).content.decode())
    board_header, nets = hand_table(client.get(f"/join/{link.token}/").content.decode())
    assert header == board_header == ["手", "小王", "小李", "阿美", "老张"]
    assert totals == [
        (None, "1 改过", ["−1", "−2", "+4", "−1"]),
        ("handtable__voided", "2 作废", ["−1", "−2", "+4", "−1"]),
        (None, "3", ["−1", "−4", "+6", "−1"]),
    ]
    assert nets == [
        (None, "3", ["0", "−2", "+2", "0"]),
        ("handtable__voided", "2 作废", ["0", "0", "0", "0"]),
        (None, "1 改过", ["−1", "−2", "+4", "−1"]),
    ]


@pytest.mark.parametrize("hands", [2, 12])
def test_the_queries_do_not_grow_with_the_hands(client, owner, django_assert_num_queries, hands):
    _group, session = make_table(
        owner, group_name=f"g{hands}", coins={"room_coefficient": 1, "starting_balances": [1000] * 4}
    )
    record(owner, session, *[SELF_DRAW_B, KONG_THEN_GANG_SHANG_PAO] * (hands // 2))
    # the Django session and the user, the session with its seats and players, who sat where when (a line
    # per person), how many hands, the drawn hands' running totals and marks, which wins are the biggest
    # and those wins
    with django_assert_num_queries(10):
        page = chart(client, session)
    assert len(page.context["rows"]) == hands


def test_every_hand_is_summed_in_the_database_and_none_is_built(client, owner, session, monkeypatch):
    """Only the hands' numbers come back from the database: a model built for each hand, and 改过 asked of
    each, took 355 of the page's 578 ms at 10,000 hands (issue 16). No hand here is won, so no
    biggest hand builds its round either."""
    record(owner, session, *[DRAW_WITH_PIG] * 12)
    built = []
    from_db = Round.from_db
    monkeypatch.setattr(
        Round, "from_db", classmethod(lambda cls, *row, **how: built.append(row) or from_db(*row, **how))
    )
    page = chart(client, session)
    assert built == []
    assert len(page.context["rows"]) == 12 and table_rows(page) == expected_rows(session)


def test_a_hand_whose_coins_were_settled_again_keeps_its_points(client, owner):
    """Correcting hand 1 re-settles the coins of hand 2 (a new version, its points rows untouched): hand 2's
    win still counts, with the points its winner took."""
    coins = {"room_coefficient": 100, "starting_balances": [1000] * 4}
    _group, session = make_table(owner, group_name="coins", coins=coins)
    first, second = record(owner, session, SELF_DRAW_B, KONG_THEN_GANG_SHANG_PAO)
    services.round_correct(actor=owner, round_=first, body=DRAW_WITH_PIG)
    second.refresh_from_db()
    assert second.version == 2 and not second.voided  # the re-coined version
    page = chart(client, session)
    assert [(hand.number, hand.winner, hand.points) for hand in page.context["big_hands"]] == [(2, "阿美", 2)]
    assert table_rows(page) == expected_rows(session)
    assert [row.corrected for row in page.context["rows"]] == [True, False]  # re-coined is not 改过


def test_a_long_session_is_drawn_through_some_hands_ending_on_the_exact_totals(
    client, owner, session, monkeypatch
):
    record(owner, session, SELF_DRAW_B, DRAW_WITH_PIG, KONG_THEN_GANG_SHANG_PAO, DIRECT_KONG, SELF_DRAW_B)
    monkeypatch.setattr("ledger.pages.chart.sampled", lambda count: sampled(count, 3))
    page = chart(client, session)
    rows = page.context["rows"]
    assert [row.number for row in rows] == [1, 3, 5]
    every = expected_rows(session)
    assert [row.values for row in rows] == [every[0], every[2], every[4]]
    assert rows[-1].values == tuple(seat.points for seat in selectors.session_totals(session).seats)
    line = next(ET.fromstring(str(page.context["chart"])).iter(f"{SVG}polyline"))
    assert len(line.get("points").split()) == 4  # 0 before the first hand, then the three drawn
    assert "共5手，折线和下表均匀取其中3手" in visible_text(page)


def test_a_short_session_says_nothing_of_sampling(client, owner, session):
    record(owner, session, SELF_DRAW_B)
    assert "均匀取" not in visible_text(chart(client, session))


@pytest.fixture
def long_sessions(owner):
    """Sessions of 200 and 2,000 hands, the bench's copies of a recorded 20-hand evening (its hand 4
    corrected, its hand 7 voided: bench/scale_seed.py), by their hands."""
    group, players = add_group(owner, "长场")
    template = record_template(owner, group, players, coins=None)
    return {hands: add_sessions(template, group, players, 1, hands=hands)[0] for hands in (200, 2000)}


def test_a_long_session_draws_the_exact_running_totals_and_marks_of_the_hands_drawn(client, long_sessions):
    """The database adds the hands up and returns the drawn ones only: each is the ledger's running total
    at that hand (every hand summed, hand by hand), with that hand's own marks."""
    session = long_sessions[2000]
    page = chart(client, session)
    rows = page.context["rows"]
    drawn = [index + 1 for index in sampled(2000)]
    assert [row.number for row in rows] == drawn and len(rows) <= MAX_POINTS
    every = expected_rows(session)
    assert [row.values for row in rows] == [every[position - 1] for position in drawn]
    assert rows[-1].values == tuple(seat.points for seat in selectors.session_totals(session).seats)
    voided = set(Round.objects.filter(session=session, voided=True).values_list("position", flat=True))
    corrected = set(
        RoundVersion.objects.filter(round__session=session, kind=VersionKind.CORRECTED).values_list(
            "round__position", flat=True
        )
    )
    assert [(row.voided, row.corrected) for row in rows] == [
        (position in voided, position in corrected) for position in drawn
    ]
    copies = {position % TEMPLATE_HANDS for position in drawn}
    assert {VOIDED % TEMPLATE_HANDS, CORRECTED % TEMPLATE_HANDS} <= copies  # both marks are among them
    assert any(row.voided for row in rows) and any(row.corrected for row in rows)
    assert page.context["hands"] == 2000
    assert f"共2000手，折线和下表均匀取其中{len(rows)}手" in visible_text(page)


def test_the_running_totals_come_back_for_the_hands_asked_only(owner, session):
    """The selector returns the positions asked for, each at the ledger's running total there: not one
    row per hand of the session (10,000 of them, converted and added up in Python, were a third of the
    page's time at 10,000 hands)."""
    hands = (SELF_DRAW_B, DRAW_WITH_PIG, KONG_THEN_GANG_SHANG_PAO, DIRECT_KONG)
    first, second, *_ = record(owner, session, *hands)
    services.round_void(actor=owner, round_=second)
    services.round_correct(actor=owner, round_=first, body=KONG_THEN_GANG_SHANG_PAO)
    people = [seat.player_id for seat in session.seats.order_by("seat")]
    spells = selectors.sittings([session])[session.pk]
    every = expected_rows(session)
    totals = selectors.session_running_totals(session, people, [1, 2, 4], spells=spells)
    assert [(hand.position, hand.totals) for hand in totals] == [(1, every[0]), (2, every[1]), (4, every[3])]
    assert [hand.mark for hand in totals] == [
        selectors.HandMark(voided=False, corrected=True, adjustment=False),
        selectors.HandMark(voided=True, corrected=False, adjustment=False),
        selectors.HandMark(voided=False, corrected=False, adjustment=False),
    ]
    assert selectors.session_running_totals(session, people, [], spells=spells) == []


def test_a_session_of_ordinary_length_draws_every_hand(client, owner, session, monkeypatch):
    """Up to the chart's points every hand is drawn and tabled, each at its running total."""
    record(owner, session, SELF_DRAW_B, DRAW_WITH_PIG, KONG_THEN_GANG_SHANG_PAO, DIRECT_KONG)
    monkeypatch.setattr("ledger.pages.chart.sampled", lambda count: sampled(count, 4))
    page = chart(client, session)
    assert [row.number for row in page.context["rows"]] == [1, 2, 3, 4]
    assert table_rows(page) == expected_rows(session)
    assert "均匀取" not in visible_text(page)


def test_the_queries_are_as_many_at_2000_hands_as_at_200(client, long_sessions, django_assert_num_queries):
    for session in long_sessions.values():
        with django_assert_num_queries(10):
            page = chart(client, session)
        assert len(page.context["rows"]) == MAX_POINTS


def test_the_running_totals_read_each_rounds_kept_nets_and_no_ledger_row(owner, session):
    """One narrow row a hand, down the rounds' (session, position) index: summing the ledger's 16 rows a
    hand grew 2.7x from 2,000 to 10,000 hands, and SQLite without statistics (the test database's ledger
    has none), told the rows were the session's, read its whole ledger once per round."""
    record(owner, session, SELF_DRAW_B)
    people = [seat.player_id for seat in session.seats.order_by("seat")]
    spells = selectors.sittings([session])[session.pk]
    with CaptureQueriesContext(connection) as captured:
        selectors.session_running_totals(session, people, [1], spells=spells)
    (query,) = captured.captured_queries
    plan = query_plan(query["sql"])
    assert LedgerEntry._meta.db_table not in query["sql"] and "entry" not in plan, plan
    if connection.vendor == "sqlite":
        # the unique (session, position) index, whose order is the window's: no sort, no join
        assert "SEARCH round USING INDEX sqlite_autoindex_ledger_round_1 (session_id=?)" in plan, plan
        assert "TEMP B-TREE" not in plan and "SEARCH hand" not in plan, plan


def query_plan(sql: str) -> str:
    explain = "EXPLAIN QUERY PLAN" if connection.vendor == "sqlite" else "EXPLAIN"
    with connection.cursor() as cursor:
        cursor.execute(f"{explain} {sql}")
        return "\n".join(str(row[-1]) for row in cursor.fetchall())
