"""The running totals come from the kept figures, not the ledger (issue 16).

Every totals read (the settle-up, the viewer's board, the session page's seats, home's open sessions)
once summed the session's ledger: a 10,000-hand session's 90,000 rows on each read. They now read each
person's kept figure (``models.Figures``, moved by every round write in its transaction) and the
session's counted rounds. These tests hold the two readings equal through records, a correction, a void
and a substitute, and hold the read to the same queries, none of them the ledger's, at any length.
"""

from typing import Any

from django.db import connection
from django.db.models import Count, Sum
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from ledger.models import LedgerEntry, Round

from .conftest import DIRECT_KONG, KONG_THEN_GANG_SHANG_PAO, ONE_DISCARD_TWO_WINNERS, SELF_DRAW_B


def summed_from_the_ledger(session: Any) -> tuple[dict[int | None, int], int]:
    """What the totals once were: each person's (and the house's) ledger sum, and the rounds not voided."""
    sums = dict(
        LedgerEntry.objects.filter(session=session)
        .values("player")
        .annotate(total=Sum("points"))
        .values_list("player", "total")
        .order_by()
    )
    rounds = Round.objects.filter(session=session, voided=False).aggregate(n=Count("id"))["n"]
    return {None: 0, **{player: int(total) for player, total in sums.items()}}, rounds


def read_totals(session: Any) -> tuple[dict[int | None, int], int]:
    """The totals as read, in the same shape (the house under None)."""
    totals = selectors.session_totals(session)
    points: dict[int | None, int] = {person.player_id: person.points for person in totals.players}
    return {**points, None: totals.house}, totals.rounds


def test_the_kept_totals_equal_the_ledgers_sums_through_corrections_voids_and_a_substitute(
    owner: Any, session: Any
) -> None:
    record = [
        services.round_record(actor=owner, session=session, body=body)[0]
        for body in (SELF_DRAW_B, KONG_THEN_GANG_SHANG_PAO, ONE_DISCARD_TWO_WINNERS, DIRECT_KONG)
    ]
    assert read_totals(session) == summed_from_the_ledger(session)
    services.round_correct(actor=owner, round_=record[2], body=SELF_DRAW_B)
    services.round_void(actor=owner, round_=record[1])
    assert read_totals(session) == summed_from_the_ledger(session)
    revision = selectors.session_hand(session).revision
    services.session_seats_change(actor=owner, session=session, revision=revision, seat=1, name="新来的")
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # seat 1 is the newcomer's now
    assert read_totals(session) == summed_from_the_ledger(session)
    assert selectors.session_totals(session).rounds == 4


def test_a_totals_read_asks_the_same_queries_at_any_length_and_never_the_ledgers_rows(
    owner: Any, session: Any
) -> None:
    def queries() -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            selectors.session_totals(session)
            selectors.seat_points(session)
            selectors.table_of(user=owner, session_id=session.pk)
        return [query["sql"] for query in captured]

    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    short = queries()
    for _ in range(12):
        services.round_record(actor=owner, session=session, body=KONG_THEN_GANG_SHANG_PAO)
    long = queries()
    assert len(long) == len(short)
    assert not [sql for sql in long if LedgerEntry._meta.db_table in sql], long
