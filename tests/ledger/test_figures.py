"""The figures the statistics read are kept by every round write, exactly as the ledger makes them
(ledger/figures.py, issue 16): after records, corrections, voids, a void taken back, coins settled again, an
adjustment and a group file's import, the stored rows equal ``figures.computed``; each write that moves
points keeps them in one query; a figure changed behind the ledger's back is named by ``verify_ledger``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import figures, group_file, services
from ledger.models import Figures, Session
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
    return sum("ledger_figures" in query["sql"] for query in captured)


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
    session.refresh_from_db()
    assert (session.counted_rounds, session.counted_hands) == (5, 4)  # hand 5 voided, the fine no hand


def test_a_write_keeps_the_figures_in_one_query_and_a_recoining_in_none(owner, evening):
    _, session, rounds = evening
    writes = (
        lambda: services.round_record(actor=owner, session=session, body=SELF_DRAW_B),
        lambda: services.round_void(actor=owner, round_=rounds[3]),
        # the correction of hand 1 re-coins the hands after it: their versions move no figure
        lambda: services.round_correct(actor=owner, round_=rounds[0], body=SELF_DRAW_B),
    )
    assert [figures_queries(write) for write in writes] == [1, 1, 1]


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


def test_verify_ledger_names_a_figure_that_drifted(owner, evening):
    _, session, _ = evening
    call_command("verify_ledger")
    row = Figures.objects.filter(session=session).order_by("id").first()
    assert row is not None
    Figures.objects.filter(pk=row.pk).update(net=row.net + 1)
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_ledger")
    assert drifted(session) == [
        f"session {session.pk}, player {row.player_id}"
        + ("" if row.player_id == row.other_id else f" against player {row.other_id}")
        + f": stored {figures._nonzero({**_values(row), 'net': row.net + 1})}, "
        f"the ledger makes {figures._nonzero(_values(row))}"
    ]
    figures.rebuild([session.pk])
    assert drifted(session) == []


def _values(row: Figures) -> dict[str, int]:
    return {name: getattr(row, name) for name in figures.COUNTS}
