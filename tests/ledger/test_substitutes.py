"""Substitutes and swapped seats (docs/ledger.md, "Substitutes"): from the hand about to be played a seat's
player changes, each round keeps the players it was played by, and totals, settle-up, debts, statistics,
the CSV and a moved group follow the person. The figures are an evening worked by hand:

seats 小王 小李 阿美 老张.
1. 小李 self-draws 3 fan (SELF_DRAW_B): [-5, +15, -5, -5]
2. 阿美 直杠 off 小李 (DIRECT_KONG): [0, -2, +2, 0]; corrected after the changes to RULES.md example 13
   (KONG_THEN_GANG_SHANG_PAO): [-1, -2, +4, -1], still 老张's -1 at seat 3
老张 leaves: 小刘, a new name, takes seat 3 from hand 3.
3. 流局 (DRAW_WITH_PIG): [-48, +17, +20, +11], 小刘's +11
小王 and 小李 swap seats 0 and 1 from hand 4.
4. seat 1 self-draws 3 fan (SELF_DRAW_B): seat 1 is 小王 now: [-5 小李, +15 小王, -5 阿美, -5 小刘]

Each person: 小王 -5 -1 -48 +15 = -39; 小李 +15 -2 +17 -5 = +25; 阿美 -5 +4 +20 -5 = +14;
老张 -5 -1 = -6; 小刘 +11 -5 = +6 (sum 0). Hands: 小王, 小李, 阿美 4 each; 老张 2; 小刘 2.
"""

import csv
import io
import json
from typing import Any

import pytest
from django.db.models import F
from django.urls import reverse

from calculator.engine import Rules
from ledger import debts, figures, group_file, selectors, services
from ledger.errors import LedgerError, SeatChangeRefusedError, StaleHandError
from ledger.models import GroupFigures, LedgerEntry, Player, Role, RoundVersion, Session, Sitting, WinRecord
from ledger.pages import live
from ledger.services import seats as seats_module
from ledger.statistics import group_standings, group_statistics
from settlement.engine import settle_round
from tests.ledger.conftest import (
    DIRECT_KONG,
    DRAW_WITH_PIG,
    KONG_THEN_GANG_SHANG_PAO,
    SELF_DRAW_B,
    client_for,
    make_table,
    make_user,
    member_join,
)
from tests.ledger.pages.helpers import logged_in

NETS = {"小王": -39, "小李": 25, "阿美": 14, "老张": -6, "小刘": 6}
HANDS = {"小王": 4, "小李": 4, "阿美": 4, "老张": 2, "小刘": 2}
SEATED_FIRST = ("小王", "小李", "阿美", "老张")  # hands 1 and 2
SEATED_THIRD = ("小王", "小李", "阿美", "小刘")  # 小刘 in for 老张
SEATED_FOURTH = ("小李", "小王", "阿美", "小刘")  # 小王 and 小李 swapped


def change(owner: Any, session: Session, **asked: Any) -> Any:
    revision = selectors.session_hand(session).revision
    return services.session_seats_change(actor=owner, session=session, revision=revision, **asked)


def record(owner: Any, session: Session, body: dict[str, Any]) -> Any:
    return services.round_record(actor=owner, session=session, body=body)[0]


@pytest.fixture
def evening(owner: Any) -> tuple[Any, Session]:
    group, session = make_table(owner)
    record(owner, session, SELF_DRAW_B)
    second = record(owner, session, DIRECT_KONG)
    change(owner, session, seat=3, name="小刘")
    record(owner, session, DRAW_WITH_PIG)
    change(owner, session, seat=0, swap=1)
    record(owner, session, SELF_DRAW_B)
    services.round_correct(actor=owner, round_=second, body=KONG_THEN_GANG_SHANG_PAO)
    return group, session


def by_name(people: Any) -> dict[str, int]:
    return {person.player_name: person.points for person in people}


def test_each_round_keeps_the_players_it_was_played_by(evening):
    _, session = evening
    sat = {
        position: [name for _player, name in selectors.seated_at(session.pk, position)]
        for position in range(1, 5)
    }
    assert sat == {
        1: ["小王", "小李", "阿美", "老张"],
        2: ["小王", "小李", "阿美", "老张"],
        3: ["小王", "小李", "阿美", "小刘"],
        4: ["小李", "小王", "阿美", "小刘"],
    }
    # the correction of hand 2, made after both changes, paid 老张 (seat 3 then), not 小刘
    live = LedgerEntry.objects.filter(round__position=2, reverses__isnull=True, reversed_by__isnull=True)
    assert {(row.seat, row.player.name) for row in live} >= {(3, "老张"), (0, "小王")}
    assert "小刘" not in {row.player.name for row in live}
    winners = WinRecord.objects.filter(session=session).order_by("round__position")
    assert [(win.round.position, win.winner.name) for win in winners] == [
        (1, "小李"),
        (2, "阿美"),
        (4, "小王"),
    ]


def test_totals_follow_the_person_and_the_seats_show_who_sits_now(evening):
    _, session = evening
    totals = selectors.session_totals(session)
    assert [(seat.seat, seat.player_name, seat.points) for seat in totals.seats] == [
        (0, "小李", 25),
        (1, "小王", -39),
        (2, "阿美", 14),
        (3, "小刘", 6),
    ]
    assert [(seat.seat, seat.player_name, seat.points) for seat in totals.away] == [(3, "老张", -6)]
    assert by_name(totals.players) == NETS and totals.house == 0
    assert selectors.seat_points(session) == (25, -39, 14, 6)
    assert selectors.ledger_points(session)[0] == [-5 - 1 - 48 - 5, 15 - 2 + 17 + 15, 14, -6 + 6]  # by seat


def test_the_settle_up_includes_everyone_who_played_in_the_fewest_transfers(evening, owner):
    _, session = evening
    settle = client_for(owner).get(reverse("ledger:session-settle-up", args=[session.pk])).json()
    assert settle["balances"] == [25, -39, 14, 6, -6]
    moved = dict.fromkeys(NETS, 0)
    for payment in settle["payments"]:
        moved[payment["from_name"]] -= payment["amount"]
        moved[payment["to_name"]] += payment["amount"]
        assert Player.objects.get(pk=payment["from_player"]).name == payment["from_name"]
    assert moved == NETS  # each loser pays what he lost, each winner receives what he won
    assert len(settle["payments"]) <= len(NETS) - 1
    assert "老张" in {payment["from_name"] for payment in settle["payments"]}
    totals = client_for(owner).get(reverse("ledger:session-totals", args=[session.pk])).json()
    assert [(row["name"], row["points"]) for row in totals["away"]] == [("老张", -6)]


def test_debts_and_a_table_fee_count_the_substitute_and_who_left(evening, owner):
    _, session = evening
    lao_zhang = Player.objects.get(name="老张")
    services.session_fee_set(actor=owner, session=session, amount=10, split="aa", paid_by=lao_zhang.pk)
    session.refresh_from_db()
    settle = selectors.session_settle_up(session)
    assert settle["fee"]["shares"] == [2, 2, 2, 2, 2]  # five people bore it alike
    assert settle["fee"]["paid_by_seat"] == 4  # 老张's place: after the four seats
    pairs = debts.session_debts(session)
    owed = {(debt.payer.name, debt.payee.name): debt.left for debt in pairs}
    assert sum(owed.values()) == sum(max(0, -balance) for balance in settle["balances"])
    payer = next(debt for debt in pairs if debt.payer.name == "小王")
    mark = services.payment_mark(
        actor=owner,
        session=session,
        payer_id=payer.payer.player_id,
        payee_id=payer.payee.player_id,
        amount=payer.left,
    )
    assert mark.amount == payer.left


def test_statistics_count_each_persons_hands_and_points(evening):
    group, session = evening
    assert figures.drift([session.pk]) == []  # kept hand by hand as the ledger makes them again
    records = {record.name: record for record in group_statistics(group).players}
    assert {name: record.hands for name, record in records.items()} == HANDS
    assert {name: record.net for name, record in records.items()} == NETS
    assert {name: record.sessions for name, record in records.items()} == dict.fromkeys(NETS, 1)
    assert {name: record.wins for name, record in records.items() if record.wins} == {
        "小李": 1,
        "阿美": 1,
        "小王": 1,
    }
    assert records["小王"].biggest.seat == 1  # his seat for hand 4, not the one he began at
    standing = group_statistics(group).sessions[0]
    assert standing.nets == {player: NETS[Player.objects.get(pk=player).name] for player in standing.nets}


def test_the_groups_kept_figures_follow_the_person_as_a_rebuild_does(evening):
    """The group's rows (``GroupFigures``) add up each person's rounds through his sittings: 小刘 played
    the session from hand 3, 老张 until hand 2, each one session."""
    group, session = evening
    assert figures.drift([session.pk]) == []
    standings = {row["name"]: (row["points"], row["sessions"]) for row in group_standings(group)}
    assert standings == {name: (points, 1) for name, points in NETS.items()}
    columns = ("player", "other", "sessions", *figures.COUNTS)
    kept = list(GroupFigures.objects.filter(group=group).order_by("player", "other").values_list(*columns))
    figures.rebuild([session.pk])
    assert (
        list(GroupFigures.objects.filter(group=group).order_by("player", "other").values_list(*columns))
        == kept
    )


def test_the_csv_has_a_column_for_each_person_and_names_each_hands_dealer(evening, owner):
    _, session = evening
    response = client_for(owner).get(reverse("ledger:session-export", args=[session.pk]))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0][4:10] == ["小李", "小王", "阿美", "小刘", "老张", "房间 house"]
    assert [row[3] for row in rows[1:5]] == ["小王", "小王", "小王", "小李"]  # seat 0 dealt each hand
    assert rows[5][4:9] == ["25", "-39", "14", "6", "-6"]


def test_a_moved_group_keeps_who_sat_where_when(evening, owner):
    group, _ = evening
    file = json.loads(json.dumps(group_file.group_export(actor=owner, group=group)))
    assert file["version"] == 2
    session = file["sessions"][0]
    players = {player["id"]: player["name"] for player in file["players"]}
    assert [players[file_id] for file_id in session["seats"]] == ["小王", "小李", "阿美", "老张"]
    assert [(players[s["player"]], s["seat"], s["first"], s["last"]) for s in session["sittings"]] == [
        ("小王", 0, 1, 3),
        ("小李", 1, 1, 3),
        ("阿美", 2, 1, None),
        ("老张", 3, 1, 2),
        ("小刘", 3, 3, None),
        ("小李", 0, 4, None),
        ("小王", 1, 4, None),
    ]
    moved = group_file.group_import(actor=make_user("mover"), data=file)
    there = Session.objects.get(group=moved)
    assert by_name(selectors.session_totals(there).players) == NETS
    assert {record.name: record.hands for record in group_statistics(moved).players} == HANDS
    assert not moved.resealed


@pytest.mark.parametrize(
    "breaks",
    [
        lambda s: s["sittings"][3].update(last=1),  # a hand nobody sat at seat 3
        lambda s: s["sittings"][4].update(player=s["sittings"][0]["player"]),  # 小王 at two seats
        lambda s: s["sittings"][0].update(last=None),  # two open at seat 0
        lambda s: s["sittings"][0].update(seat=7),
    ],
    ids=["a-gap", "one-player-two-seats", "two-open", "no-such-seat"],
)
def test_a_file_whose_seating_cannot_have_been_is_refused(evening, owner, breaks):
    group, _ = evening
    file = json.loads(json.dumps(group_file.group_export(actor=owner, group=group)))
    breaks(file["sessions"][0])
    before = Session.objects.count()
    with pytest.raises(LedgerError) as refused:
        group_file.group_import(actor=make_user("mover"), data=file)
    assert refused.value.code == "file_sittings"
    assert refused.value.field.startswith("sessions[0].sittings[")
    assert Session.objects.count() == before


def test_a_file_without_a_change_of_seats_is_still_version_1(owner):
    group, session = make_table(owner)
    record(owner, session, SELF_DRAW_B)
    file = group_file.group_export(actor=owner, group=group)
    assert file["version"] == 1 and "sittings" not in file["sessions"][0]


# --- refusals ------------------------------------------------------------------------------------------


def test_seats_never_change_mid_hand(owner):
    _, session = make_table(owner)
    hand = selectors.session_hand(session)
    services.hand_event_add(
        actor=owner,
        session=session,
        event={"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"},
        revision=hand.revision,
    )
    api = client_for(owner)
    url = reverse("ledger:session-seats", args=[session.pk])
    revision = selectors.session_hand(session).revision
    answer = api.post(url, {"seat": 3, "name": "小刘", "revision": revision}, format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "seat_change_mid_hand" and answer.json()["hand"]["events"]
    assert "换人" in answer.json()["detail_zh"]
    assert not Player.objects.filter(name="小刘").exists()
    assert Sitting.objects.filter(session=session).count() == 4


@pytest.mark.parametrize(
    ("asked", "field", "code"),
    [
        ({"seat": 4, "name": "小刘"}, "seat", "seat_change_seat"),
        ({"seat": 0}, "player", "seat_change_one"),
        ({"seat": 0, "name": "小刘", "swap": 1}, "player", "seat_change_one"),
        ({"seat": 0, "swap": 0}, "swap", "seat_change_swap_itself"),
        ({"seat": 0, "name": "阿美"}, "name", "seat_change_seated"),
        ({"seat": 0, "player": 10**6}, "player", "no_such_player"),
        ({"seat": 0, "player": "小刘"}, "player", "not_a_player_id"),
        ({"seat": 0, "name": ""}, "name", None),
    ],
    ids=[
        "no-such-seat",
        "nobody",
        "two-at-once",
        "swap-itself",
        "already-seated",
        "unknown",
        "not-an-id",
        "blank",
    ],
)
def test_a_bad_change_is_a_400_naming_the_field_and_nothing_changes(owner, asked, field, code):
    _, session = make_table(owner)
    url = reverse("ledger:session-seats", args=[session.pk])
    revision = selectors.session_hand(session).revision
    answer = client_for(owner).post(url, {**asked, "revision": revision}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["field"] == field
    if code:
        assert answer.json()["code"] == code
    assert [seat.player.name for seat in selectors.session_seats(session)] == ["小王", "小李", "阿美", "老张"]
    assert selectors.session_hand(session).revision == revision


def test_a_coin_session_a_stale_revision_a_viewer_and_a_closed_session_are_refused(owner):
    _, coins = make_table(owner, coins={"room_coefficient": 10, "starting_balances": [100] * 4})
    with pytest.raises(SeatChangeRefusedError) as refused:
        change(owner, coins, seat=0, name="小刘")
    assert refused.value.error.code == "seat_change_coins"
    group, session = make_table(owner, group_name="周六")
    api = client_for(owner)
    url = reverse("ledger:session-seats", args=[session.pk])
    stale = api.post(url, {"seat": 0, "name": "小刘", "revision": 99}, format="json")
    assert (stale.status_code, stale.json()["code"]) == (409, "hand_changed")
    viewer = make_user("guest")
    member_join(actor=owner, group=group, username="guest", role=Role.VIEWER)
    assert (
        client_for(viewer).post(url, {"seat": 0, "name": "小刘", "revision": 0}, format="json").status_code
        == 403
    )
    services.session_close(actor=owner, session=session)
    closed = api.post(url, {"seat": 0, "name": "小刘", "revision": 1}, format="json")
    assert closed.status_code == 409 and closed.json()["code"] == "session_closed"


def test_a_change_answers_the_table_and_is_applied_once_when_retried(owner):
    _, session = make_table(owner)
    api = client_for(owner)
    url = reverse("ledger:session-seats", args=[session.pk])
    asked = {"seat": 2, "swap": 3, "revision": 0}
    first = api.post(url, asked, format="json", HTTP_IDEMPOTENCY_KEY="swap-1")
    assert first.status_code == 200, first.content
    assert [seat["name"] for seat in first.json()["seats"]] == ["小王", "小李", "老张", "阿美"]
    assert first.json()["from_hand"] == 1 and first.json()["hand"]["revision"] == 1
    again = api.post(url, asked, format="json", HTTP_IDEMPOTENCY_KEY="swap-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert [seat["name"] for seat in again.json()["seats"]] == ["小王", "小李", "老张", "阿美"]
    # before the first hand nothing was played: the sittings are simply the table's
    assert sorted((s.seat, s.player.name, s.first) for s in Sitting.objects.filter(session=session)) == [
        (0, "小王", 1),
        (1, "小李", 1),
        (2, "老张", 1),
        (3, "阿美", 1),
    ]


def test_an_event_tapped_on_another_phone_meanwhile_wins_and_the_change_keeps_nothing(owner, monkeypatch):
    """The change reads the hand without a lock, as every hand write: an event stored between that read and
    the change's own write makes the change stale, never the event lost nor a half-made seating."""
    _, session = make_table(owner)
    read = seats_module._read

    def read_then_another_phone_taps(*args: Any) -> Any:
        found = read(*args)
        kong = {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}
        services.hand_event_add(actor=owner, session=session, event=kong, revision=0)
        return found

    monkeypatch.setattr(seats_module, "_read", read_then_another_phone_taps)
    with pytest.raises(StaleHandError):
        services.session_seats_change(actor=owner, session=session, revision=0, seat=3, name="小刘")
    assert len(selectors.session_hand(session).events) == 1
    assert not Player.objects.filter(name="小刘").exists()
    assert Sitting.objects.filter(session=session).count() == 4
    assert selectors.session_seats(session)[3].player.name == "老张"


def test_what_if_counts_each_hand_for_who_played_it(evening, owner):
    """要是… under 自摸加番: each person's net as played is his, and under the other rules it is the sum of
    settle_round of the hands he sat at, replayed here by the seating worked out above."""
    _, session = evening
    page = logged_in(owner).get(reverse("session-what-if", args=[session.pk]), {"rule_zimo_bonus": "jia_fan"})
    answered = {person.name: (person.played, person.other) for person in page.context["players"]}
    assert {name: played for name, (played, _other) in answered.items()} == NETS
    seating = {1: SEATED_FIRST, 2: SEATED_FIRST, 3: SEATED_THIRD, 4: SEATED_FOURTH}
    jia_fan = Rules.from_dict({**session.rules, "zimo_bonus": "jia_fan"})
    expected = dict.fromkeys(NETS, 0)
    for version in RoundVersion.objects.filter(round__session=session, version=F("round__version")):
        net = settle_round(dealer=version.dealer, events=version.events, rules=jia_fan).net
        for name, points in zip(seating[version.round.position], net, strict=True):
            expected[name] += points
    assert {name: other for name, (_played, other) in answered.items()} == expected
    assert expected != NETS  # the two self-draws pay more under 自摸加番


def test_the_chart_draws_a_line_per_person_and_words_each_big_hand_by_the_seat_he_held(evening, owner):
    """走势: the seats now, then who left, each line the hands he sat at; hand 1's 自摸 was 小李's at seat 1,
    where 小王 sits now."""
    _, session = evening
    page = logged_in(owner).get(reverse("session-chart", args=[session.pk]))
    assert page.status_code == 200
    names = page.context["names"]
    assert names == ["小李", "小王", "阿美", "小刘", "老张"]
    assert dict(zip(names, page.context["rows"][-1].values, strict=True)) == NETS
    assert dict(zip(names, page.context["rows"][1].values, strict=True)) == {  # after hand 2, corrected
        "小李": 15 - 2,
        "小王": -5 - 1,
        "阿美": -5 + 4,
        "小刘": 0,
        "老张": -5 - 1,
    }
    assert [(hand.number, hand.winner) for hand in page.context["big_hands"]][:1] == [(1, "小李")]


def test_a_viewers_board_counts_the_hands_for_who_played_them(evening):
    _, session = evening
    board = live.board_context(session)
    assert board["names"] == ["小李", "小王", "阿美", "小刘", "老张"]
    newest = {row.number: dict(zip(board["names"], row.values, strict=True)) for row in board["rounds"]}
    assert newest[4] == {"小李": -5, "小王": 15, "阿美": -5, "小刘": -5, "老张": 0}
    assert newest[3] == {"小李": 17, "小王": -48, "阿美": 20, "小刘": 11, "老张": 0}
    assert [seat["name"] for seat in board["seats"]] == ["小李", "小王", "阿美", "小刘"]
