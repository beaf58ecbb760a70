"""Each round keeps its current net per seat and the house's (``Round.kept_net_*``, issue 16): the 走势 page
adds those up, one row a hand, instead of the ledger's 16 rows a hand. These tests hold the kept nets equal
to the ledger's sums (``selectors.round_net``) through a record, a correction, a void, a reinstatement, a
substitute, a hand finished at the table and undone, a group file's import, the bench's copied rows and
the migration's fill; hold the running totals equal to the ledger's by person; and have verify_ledger
name a round whose kept nets were changed behind the app's back.
"""

import importlib
import json
from io import StringIO
from itertools import accumulate
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import Sum

from bench.scale_seed import add_group, add_sessions, record_template
from ledger import group_file, selectors, services
from ledger.integrity import verify_session
from ledger.models import KEPT_NETS, LedgerEntry, Round, Session
from tests.ledger.conftest import (
    DIRECT_KONG,
    DRAW_WITH_PIG,
    KONG_THEN_GANG_SHANG_PAO,
    SELF_DRAW_B,
    make_user,
)

FILL = importlib.import_module("ledger.migrations.0028_round_kept_nets").FILL


def kept_and_summed(session: Session) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Each round's kept nets (seats, then the house), and what its ledger rows sum to, in order."""
    rounds = list(selectors.round_net(session))
    kept = [tuple(getattr(round_, name) for name in KEPT_NETS) for round_ in rounds]
    nets = (*(f"net_{seat}" for seat in range(4)), "net_house")
    summed = [tuple(int(getattr(round_, name) or 0) for name in nets) for round_ in rounds]
    return kept, summed


def assert_kept(session: Session) -> None:
    kept, summed = kept_and_summed(session)
    assert kept == summed


def record(owner: Any, session: Session, *bodies: dict[str, Any]) -> list[Round]:
    return [services.round_record(actor=owner, session=session, body=body)[0] for body in bodies]


def change_seats(owner: Any, session: Session, **asked: Any) -> None:
    revision = selectors.session_hand(session).revision
    services.session_seats_change(actor=owner, session=session, revision=revision, **asked)


@pytest.fixture
def evening(owner: Any, session: Session) -> Session:
    """Four hands, the second corrected and the first voided, 老张 replaced by 小刘 from hand 3 and seats 0
    and 1 swapped from hand 4: every write that moves a round's points."""
    first, second = record(owner, session, SELF_DRAW_B, DIRECT_KONG)
    change_seats(owner, session, seat=3, name="小刘")
    record(owner, session, DRAW_WITH_PIG)
    change_seats(owner, session, seat=0, swap=1)
    record(owner, session, SELF_DRAW_B)
    services.round_correct(actor=owner, round_=second, body=KONG_THEN_GANG_SHANG_PAO)
    services.round_void(actor=owner, round_=first)
    return session


def test_a_recorded_round_keeps_the_nets_of_its_rows(owner, session):
    record(owner, session, SELF_DRAW_B)
    kept, summed = kept_and_summed(session)
    assert kept == summed == [(-5, 15, -5, -5, 0)]


def test_corrections_voids_and_substitutes_keep_the_nets_of_the_live_rows(evening):
    kept, summed = kept_and_summed(evening)
    assert kept == summed
    assert kept[0] == (0, 0, 0, 0, 0)  # voided
    assert kept[1] == (-1, -2, 4, -1, 0)  # corrected


def test_a_voided_round_taken_back_keeps_its_new_nets(owner, session):
    (round_,) = record(owner, session, DIRECT_KONG)
    services.round_void(actor=owner, round_=round_)
    assert_kept(session)
    round_.refresh_from_db()
    services.round_correct(actor=owner, round_=round_, body=SELF_DRAW_B, reinstate=True)
    kept, summed = kept_and_summed(session)
    assert kept == summed == [(-5, 15, -5, -5, 0)]


def test_a_hand_finished_at_the_table_undone_and_finished_again_keeps_the_nets(owner, session):
    """The table's finishing tap records the round in the hand's own write; the undo that takes it back
    voids it, and redo finishes it again as a new version (services/hand.py)."""

    def revision() -> int:
        return selectors.session_hand(session).revision

    (event,) = DRAW_WITH_PIG["events"]
    services.hand_event_add(actor=owner, session=session, event=event, revision=revision())
    kept, summed = kept_and_summed(session)
    assert kept == summed == [(-48, 17, 20, 11, 0)]
    services.hand_undo(actor=owner, session=session, revision=revision())
    kept, summed = kept_and_summed(session)
    assert kept == summed == [(0, 0, 0, 0, 0)]
    services.hand_redo(actor=owner, session=session, revision=revision())
    kept, summed = kept_and_summed(session)
    assert kept == summed == [(-48, 17, 20, 11, 0)]


def test_an_imported_group_keeps_the_nets_of_its_rows(evening, owner, group):
    file = json.loads(json.dumps(group_file.group_export(actor=owner, group=group)))
    moved = group_file.group_import(actor=make_user("mover"), data=file)
    imported = Session.objects.get(group=moved)
    assert kept_and_summed(imported) == kept_and_summed(evening)
    assert_kept(imported)


def test_the_benchs_copied_rounds_keep_the_nets_of_their_rows(owner):
    group, players = add_group(owner, "长场")
    template = record_template(owner, group, players, coins=None)
    (session,) = add_sessions(template, group, players, 1, hands=60)
    assert_kept(session)


def test_the_migration_fills_the_nets_of_rounds_stored_before_it(evening, owner):
    """Its one UPDATE, run over rounds whose kept nets are still the columns' default."""
    other = services.session_start(
        actor=owner, group=evening.group, name="第二场", player_ids=list(players_of(evening))
    )
    record(owner, other, DRAW_WITH_PIG, SELF_DRAW_B)
    expected = kept_and_summed(evening), kept_and_summed(other)
    Round.objects.update(**dict.fromkeys(KEPT_NETS, 0))
    assert kept_and_summed(evening)[0] != expected[0][0]
    with connection.cursor() as cursor:
        cursor.execute(FILL)
    assert (kept_and_summed(evening), kept_and_summed(other)) == expected


def players_of(session: Session) -> list[int]:
    return list(session.seats.order_by("seat").values_list("player_id", flat=True))


def test_the_running_totals_follow_each_person_through_the_seats_he_sat_at(evening):
    """Who sat where comes from the sittings: each person's total after each hand is his ledger rows'."""
    spells = selectors.sittings([evening])[evening.pk]
    people = sorted({spell.player_id for spell in spells})
    hands = selectors.session_last_position(evening)
    totals = selectors.session_running_totals(evening, people, list(range(1, hands + 1)), spells=spells)
    by_hand = {
        (position, player): int(points)
        for position, player, points in LedgerEntry.objects.filter(session=evening, is_house=False)
        .values_list("round__position", "player")
        .annotate(points=Sum("points"))
        .values_list("round__position", "player", "points")
        .order_by()
    }
    running = [
        list(accumulate(by_hand.get((hand, person), 0) for hand in range(1, hands + 1))) for person in people
    ]
    assert [hand.totals for hand in totals] == list(zip(*running, strict=True))
    assert totals[-1].totals == tuple(
        next(p.points for p in selectors.session_totals(evening).players if p.player_id == person)
        for person in people
    )


def test_verify_names_a_round_whose_kept_nets_were_changed(evening):
    """The tamper test: a round's kept net moved behind the app's back (no trigger guards it: it is a
    figure kept beside the ledger, not the ledger)."""
    Round.objects.filter(session=evening, position=3).update(kept_net_2=12345)
    findings = [str(finding) for finding in verify_session(Session.objects.get(pk=evening.pk))]
    assert findings == [
        f"group {evening.group_id}, session {evening.pk} ({evening.title}), round #3: it keeps points "
        "[-48, 17, 12345, 11] and house 0; its rows give [-48, 17, 20, 11] and house 0"
    ]
    errors = StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_ledger", stdout=StringIO(), stderr=errors)
    assert "round #3: it keeps points" in errors.getvalue()
