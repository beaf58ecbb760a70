"""The figures the statistics read are kept by every round write, exactly as the ledger makes them
(ledger/figures.py, issue 16): after records, corrections, voids, a void taken back, coins settled again, an
adjustment and a group file's import, the stored rows equal ``figures.computed`` and the group's rows what
they add up to, as a rebuild makes them (migration 0027 too); each write that moves points keeps them in
two queries (the session's rows, the group's); a figure changed behind the ledger's back is named by
``verify_ledger``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from ledger import figures, group_file, services
from ledger.models import Figures, GroupFigures, Session
from tests.ledger.conftest import (
    DIRECT_KONG,
    DRAW_WITH_PIG,
    KONG_THEN_GANG_SHANG_PAO,
    ONE_DISCARD_TWO_WINNERS,
    SELF_DRAW_B,
    make_table,
)
from tests.ledger.test_group_file import export

COINS = {"room_coefficient": 10, "starting_balances": [300, 100, 60, 0]}
FINE = {"dealer": 0, "events": [{"type": "adjust", "from": 3, "to": "each", "amount": 2, "reason": "诈胡"}]}


def drifted(*sessions: Any) -> list[str]:
    return figures.drift(session.pk for session in sessions)


def figures_queries(write: Any) -> int:
    """The queries of ``write`` that touch the figures (the session's counters ride on the seal's)."""
    with CaptureQueriesContext(connection) as captured:
        write()
    return sum("figures" in query["sql"] for query in captured)


def group_rows(group: Any) -> dict[tuple[int, int], dict[str, int]]:
    """The group's kept rows by (player, other), a row of zeros the same as none."""
    names = ("sessions", *figures.COUNTS)
    rows = {
        (row.player_id, row.other_id): figures._nonzero({name: getattr(row, name) for name in names})
        for row in GroupFigures.objects.filter(group=group)
    }
    return {key: values for key, values in rows.items() if values}


def as_rebuilt(group: Any) -> dict[tuple[int, int], dict[str, int]]:
    """The group's rows as a rebuild from the ledger makes them (its sessions' rows, then its own)."""
    figures.rebuild(group.sessions.values_list("pk", flat=True))
    return group_rows(group)


@pytest.fixture
def evening(owner: Any) -> tuple[Any, Any, list[Any]]:
    group, session = make_table(owner, coins=COINS)
    rounds = [
        services.round_record(actor=owner, session=session, body=body)[0]
        for body in (
            DIRECT_KONG,
            SELF_DRAW_B,
            KONG_THEN_GANG_SHANG_PAO,
            DRAW_WITH_PIG,
            ONE_DISCARD_TWO_WINNERS,
        )
    ]
    return group, session, rounds


def test_every_write_keeps_the_figures_as_the_ledger_makes_them(owner, evening):
    _, session, rounds = evening
    assert drifted(session) == []
    steps = (
        lambda: services.round_correct(actor=owner, round_=rounds[1], body=KONG_THEN_GANG_SHANG_PAO),
        lambda: services.round_void(actor=owner, round_=rounds[2]),
        lambda: services.round_correct(actor=owner, round_=rounds[2], body=SELF_DRAW_B, reinstate=True),
        lambda: services.round_correct(actor=owner, round_=rounds[0], body=ONE_DISCARD_TWO_WINNERS),
        lambda: services.round_record(actor=owner, session=session, body=FINE),
        lambda: services.round_void(actor=owner, round_=rounds[4]),
    )
    for step in steps:
        step()
        assert drifted(session) == []
        kept = group_rows(session.group)
        assert kept and as_rebuilt(session.group) == kept
    session.refresh_from_db()
    assert (session.counted_rounds, session.counted_hands) == (5, 4)  # hand 5 voided, the fine no hand


def test_a_players_sessions_move_when_his_only_round_there_is_voided_and_taken_back(owner, evening):
    group, _, _ = evening
    players = list(group.players.order_by("id").values_list("pk", flat=True))
    second = services.session_start(actor=owner, group=group, name="第二场", player_ids=players)
    hand = services.round_record(actor=owner, session=second, body=SELF_DRAW_B)[0]
    played = {
        player: kept["sessions"] for (player, other), kept in group_rows(group).items() if player == other
    }
    assert played == dict.fromkeys(players, 2)
    services.round_void(actor=owner, round_=hand)
    assert {player: group_rows(group)[player, player]["sessions"] for player in players} == dict.fromkeys(
        players, 1
    )
    services.round_correct(actor=owner, round_=hand, body=DIRECT_KONG, reinstate=True)
    assert {player: group_rows(group)[player, player]["sessions"] for player in players} == dict.fromkeys(
        players, 2
    )
    assert drifted(second) == [] and as_rebuilt(group) == group_rows(group)


def test_a_write_keeps_the_figures_in_two_queries_and_a_recoining_in_none(owner, evening):
    _, session, rounds = evening
    writes = (
        lambda: services.round_record(actor=owner, session=session, body=SELF_DRAW_B),
        lambda: services.round_void(actor=owner, round_=rounds[3]),
        # the correction of hand 1 re-coins the hands after it: their versions move no figure
        lambda: services.round_correct(actor=owner, round_=rounds[0], body=SELF_DRAW_B),
    )
    assert [figures_queries(write) for write in writes] == [2, 2, 2]


def test_the_statistics_follow_the_player_of_each_row_not_the_seat(owner, evening):
    """A seat's rows carry their player (``LedgerEntry.player``, ``WinRecord.winner``): the figures are
    keyed by him, so a seat taken by another player from some hand on counts for whoever sat."""
    _, session, _ = evening
    rows = Figures.objects.filter(session=session)
    seated = set(session.seats.values_list("player_id", flat=True))
    assert {row.player_id for row in rows} == seated
    assert all(row.other_id in seated for row in rows)


def test_an_imported_group_has_the_figures_its_ledger_makes(owner, evening):
    group, session, rounds = evening
    services.round_void(actor=owner, round_=rounds[1])
    moved = group_file.group_import(actor=owner, data=json.loads(json.dumps(export(owner, group))))
    imported = list(Session.objects.filter(group=moved))
    assert drifted(*imported) == []
    assert (
        Figures.objects.filter(session__in=imported).count()
        == Figures.objects.filter(session=session).count()
    )
    assert by_names(moved, group_rows(moved)) == by_names(group, group_rows(group)) != {}
    assert as_rebuilt(moved) == group_rows(moved)


def by_names(group: Any, rows: dict[tuple[int, int], Any]) -> dict[tuple[str, str], Any]:
    names = dict(group.players.values_list("pk", "name"))
    return {(names[player], names[other]): values for (player, other), values in rows.items()}


def test_verify_ledger_names_a_figure_that_drifted(owner, evening):
    """A session row changed alone is named against its ledger, and its group's row against it."""
    group, session, _ = evening
    call_command("verify_ledger")
    row = Figures.objects.filter(session=session).order_by("id").first()
    assert row is not None
    Figures.objects.filter(pk=row.pk).update(net=row.net + 1)
    with pytest.raises(CommandError, match="2 problem"):
        call_command("verify_ledger")
    assert drifted(session)[0] == (
        f"session {session.pk}, player {row.player_id}"
        + ("" if row.player_id == row.other_id else f" against player {row.other_id}")
        + f": stored {figures._nonzero({**_values(row), 'net': row.net + 1})}, "
        f"the ledger makes {figures._nonzero(_values(row))}"
    )
    assert drifted(session)[1].startswith(f"group {group.pk}, player {row.player_id}")
    figures.rebuild([session.pk])
    assert drifted(session) == []


def _values(row: Figures) -> dict[str, int]:
    return {name: getattr(row, name) for name in figures.COUNTS}


def test_verify_ledger_names_a_group_figure_that_drifted(owner, evening):
    group, session, _ = evening
    row = GroupFigures.objects.filter(group=group).exclude(player=F("other")).order_by("id").first()
    assert row is not None and row.paid
    GroupFigures.objects.filter(pk=row.pk).update(paid=row.paid - 1)
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_ledger")
    assert drifted(session) == [
        f"group {group.pk}, player {row.player_id} against player {row.other_id}: "
        f"stored {figures._nonzero({'paid': row.paid - 1, 'fed': row.fed})}, "
        f"its sessions add up to {figures._nonzero({'paid': row.paid, 'fed': row.fed})}"
    ]
    figures.regroup([group.pk])
    assert drifted(session) == []


@pytest.mark.django_db(transaction=True)
def test_migration_0027_fills_the_group_rows_from_the_sessions_stored(owner, evening):
    group, _, rounds = evening
    services.round_void(actor=owner, round_=rounds[1])
    kept = group_rows(group)
    executor = MigrationExecutor(connection)
    executor.migrate([("ledger", "0026_group_debts")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("ledger"))
    assert group_rows(group) == kept != {}
