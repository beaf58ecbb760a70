"""A group's figures kept as the ledger is written, so that no read sums a group's whole ledger (issue 16).

``models.Figures`` holds, per session, each player's record in it (his own row: ``other`` is himself) and
what passed between each pair of its players (a pair's row: ``other`` is the other one); ``Session`` holds
its counted rounds and hands. The statistics (``ledger.statistics``, ``ledger.periods``) add these rows up
over a group or a period, a few hundred rows a year, instead of its ledger.

1. Kept: every round version that moves points (recorded, corrected, voided) ends with ``follow``, one
   upsert that adds to each row what that version changed: its own ledger rows (its reversals cancel what
   the version before it counted), its win rows less those of the version it replaces, and for each of the
   players who sat for it (the sittings its position falls in), the change in whether the round counts.
   A re-coined version changes neither points nor
   wins, so it writes nothing here. Computed by the database from the rows just written, in the same
   transaction under the session's lock: one query, whatever the round.
2. Made again: ``rebuild`` computes the rows of some sessions from their ledger as the statistics' rules
   define them (``ledger.statistics``' docstring) and stores them in place of what was there: the
   migration that added them, a group file's bulk import and the scale bench's seed use it.
3. Checked: ``drift`` compares what is stored with what ``rebuild`` would store (``verify_ledger`` runs it).

The rules themselves are stated once, in ``ledger.statistics``; ``follow`` and ``computed`` are two
readings of them, which ``drift`` (and tests/ledger/test_figures.py) hold equal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum

from settlement.engine import Reason

from .models import Figures, LedgerEntry, Round, RoundVersion, Session, Sitting, WinRecord

KONG_REASONS = (
    Reason.DIRECT_KONG,
    Reason.ADDED_KONG,
    Reason.CONCEALED_KONG,
    Reason.KONG_TRANSFER,
    Reason.KONG_REFUND,
)
# A payment the current state of its round still makes: not a reversal, and not reversed since.
PAID_NOW = Q(points__lt=0, reverses__isnull=True, reversed_by__isnull=True)
CHUNK = 500  # sessions a rebuild or a check reads at a time: the ids fit any database's parameters
COUNTS = ("rounds", "hands", "net", "kong_points", "huazhu", "chajiao", "wins", "self_draws", "paid", "fed")


@dataclass(frozen=True, slots=True)
class Counted:
    """Whether a round counts (rule 1): not voided, and a hand unless it holds adjustments only."""

    rounds: int
    hands: int

    @classmethod
    def of(cls, *, voided: bool, adjustment: bool) -> Counted:
        return cls(0, 0) if voided else cls(1, 0 if adjustment else 1)

    def __sub__(self, other: Counted) -> Counted:
        return Counted(self.rounds - other.rounds, self.hands - other.hands)


NOT_COUNTED = Counted(0, 0)


# --- 1. kept by every round write ----------------------------------------------------------------------


def _follow_sql() -> str:
    figures = Figures._meta.db_table
    entries = LedgerEntry._meta.db_table
    wins = WinRecord._meta.db_table
    sittings = Sitting._meta.db_table
    kongs = ", ".join(f"'{reason.value}'" for reason in KONG_REASONS)

    def paid_in(reason: Reason) -> str:
        """+1 when the version's own rows have the player pay for ``reason``, -1 when its reversals cancel
        such a payment: the change in "a hand in which he paid for it" (rule 5)."""
        return (
            f"MAX(CASE WHEN reason = '{reason.value}' AND points < 0 AND reverses_id IS NULL"
            " THEN 1 ELSE 0 END)"
            f" - MAX(CASE WHEN reason = '{reason.value}' AND points > 0 AND reverses_id IS NOT NULL"
            " THEN 1 ELSE 0 END)"
        )

    columns = ", ".join(COUNTS)
    sums = ", ".join(f"SUM({name})" for name in COUNTS)
    added = ", ".join(f"{name} = {figures}.{name} + excluded.{name}" for name in COUNTS)
    # The wins of the version written (+1) and of the one it follows (-1: none when that was a void).
    signed_wins = f"""SELECT winner_id, discarder_id, self_draw,
        CASE WHEN version = %(version)s THEN 1 ELSE -1 END AS sign
        FROM {wins} WHERE round_id = %(round)s AND version IN (%(version)s, %(replaced)s)"""  # noqa: S608 - the models' own table names; every value is a parameter
    # "WHERE true": SQLite reads an upsert after a bare SELECT ... FROM as a join's ON otherwise.
    return f"""
INSERT INTO {figures} (session_id, player_id, other_id, {columns})
SELECT %(session)s, player, other, {sums} FROM (
    SELECT player_id AS player, player_id AS other, 0 AS rounds, 0 AS hands, SUM(points) AS net,
        SUM(CASE WHEN reason IN ({kongs}) THEN points ELSE 0 END) AS kong_points,
        {paid_in(Reason.HUAZHU)} AS huazhu, {paid_in(Reason.CHAJIAO)} AS chajiao,
        0 AS wins, 0 AS self_draws, 0 AS paid, 0 AS fed
    FROM {entries} WHERE round_version_id = %(version_id)s AND player_id IS NOT NULL GROUP BY player_id
    UNION ALL
    SELECT payer.player_id, payee.player_id, 0, 0, 0, 0, 0, 0, 0, 0, payee.points, 0
    FROM {entries} payer JOIN {entries} payee ON payee.round_version_id = payer.round_version_id
        AND payee.transfer_index = payer.transfer_index AND payee.id <> payer.id
        AND (payee.reverses_id IS NULL) = (payer.reverses_id IS NULL)
    WHERE payer.round_version_id = %(version_id)s AND payer.player_id IS NOT NULL
        AND payee.player_id IS NOT NULL AND (payer.points < 0) = (payer.reverses_id IS NULL)
    UNION ALL
    SELECT winner_id, winner_id, 0, 0, 0, 0, 0, 0, sign, CASE WHEN self_draw THEN sign ELSE 0 END, 0, 0
    FROM ({signed_wins}) AS won
    UNION ALL
    SELECT discarder_id, winner_id, 0, 0, 0, 0, 0, 0, 0, 0, 0, sign
    FROM ({signed_wins}) AS fed WHERE discarder_id IS NOT NULL
    UNION ALL
    SELECT player_id, player_id, %(rounds)s, %(hands)s, 0, 0, 0, 0, 0, 0, 0, 0
    FROM {sittings} WHERE session_id = %(session)s
        AND first <= %(position)s AND (last IS NULL OR last >= %(position)s)
) AS delta WHERE true GROUP BY player, other
ON CONFLICT (session_id, player_id, other_id) DO UPDATE SET {added}
"""  # noqa: S608 - the models' own table names and reasons; every value is a parameter


def follow(version: RoundVersion, change: Counted) -> None:
    """Add to the session's figures what ``version`` (its rows just written) changed; ``change``: how the
    round's counting moved (``Counted.of`` after, less before). Step 1 of the module's docstring."""
    with connection.cursor() as cursor:
        cursor.execute(
            _follow_sql(),
            {
                "session": version.round.session_id,
                "position": version.round.position,  # who sat at the table for it (its sittings)
                "round": version.round_id,
                "version_id": version.pk,
                "version": version.version,
                "replaced": version.version - 1,
                "rounds": change.rounds,
                "hands": change.hands,
            },
        )


# --- 2. made again from the ledger ----------------------------------------------------------------------

Key = tuple[int, int, int]  # session, player, other


def computed(session_ids: Iterable[int]) -> tuple[dict[Key, dict[str, int]], dict[int, Counted]]:
    """The figures of these sessions as their ledger makes them (the statistics' rules 1-5), and each
    session's counted rounds and hands: seven grouped queries, whatever their number."""
    ids = list(session_ids)
    rows: dict[Key, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTS, 0))
    counted = {
        session: Counted(rounds, hands)
        for session, rounds, hands in Round.objects.filter(session_id__in=ids, voided=False)
        .values("session")
        .annotate(rounds=Count("id"), hands=Count("id", filter=Q(adjustment=False)))
        .values_list("session", "rounds", "hands")
        .order_by()
    }
    # each player's rounds and hands: the counted ones his sittings cover (a substitute's from his first)
    rounds = "session__rounds"
    in_spell = Q(**{f"{rounds}__position__gte": F("first"), f"{rounds}__voided": False}) & (
        Q(last__isnull=True) | Q(**{f"{rounds}__position__lte": F("last")})
    )
    for session, player, sat, hands in (
        Sitting.objects.filter(session_id__in=counted)
        .values("session", "player")
        .annotate(
            sat=Count(rounds, filter=in_spell),
            hands=Count(rounds, filter=in_spell & Q(**{f"{rounds}__adjustment": False})),
        )
        .values_list("session", "player", "sat", "hands")
        .order_by()
    ):
        seated = rows[session, player, player]
        seated["rounds"], seated["hands"] = sat, hands
    money = (
        LedgerEntry.objects.filter(session_id__in=ids, is_house=False)
        .values("session", "player")
        .annotate(
            net=Sum("points"),
            kong_points=Sum("points", filter=Q(reason__in=KONG_REASONS)),
            huazhu=Count("round", distinct=True, filter=PAID_NOW & Q(reason=Reason.HUAZHU)),
            chajiao=Count("round", distinct=True, filter=PAID_NOW & Q(reason=Reason.CHAJIAO)),
        )
        .order_by()
    )
    for row in money:
        own = rows[row["session"], row["player"], row["player"]]
        for name in ("net", "kong_points", "huazhu", "chajiao"):
            own[name] = int(row[name] or 0)
    current = WinRecord.objects.filter(session_id__in=ids, version=F("round__version"))
    for session, winner, wins, self_draws in (
        current.values("session", "winner")
        .annotate(wins=Count("id"), self_draws=Count("id", filter=Q(self_draw=True)))
        .values_list("session", "winner", "wins", "self_draws")
        .order_by()
    ):
        own = rows[session, winner, winner]
        own["wins"], own["self_draws"] = wins, self_draws
    for session, discarder, winner, fed in (
        current.filter(discarder__isnull=False)
        .values("session", "discarder", "winner")
        .annotate(fed=Count("id"))
        .values_list("session", "discarder", "winner", "fed")
        .order_by()
    ):
        rows[session, discarder, winner]["fed"] = fed
    for session, payer, payee, paid in _paid(ids):
        rows[session, payer, payee]["paid"] = int(paid)
    return dict(rows), counted


def _paid(session_ids: list[int]) -> Iterator[tuple[int, int, int, int]]:
    """(session, payer, payee, points) of every transfer still paid between two players: the payee's live
    row matched to the payer's by its version and place in the settle result."""
    live = Q(reverses__isnull=True, reversed_by__isnull=True)
    payer = LedgerEntry.objects.filter(
        live,
        round=OuterRef("round"),
        round_version=OuterRef("round_version"),
        transfer_index=OuterRef("transfer_index"),
        points__lt=0,
    ).values("player")[:1]
    for session, paid_by, paid_to, points in (
        LedgerEntry.objects.filter(live, session_id__in=session_ids, is_house=False, points__gt=0)
        .annotate(paid_by=Subquery(payer))
        .values("session", "paid_by", "player")
        .annotate(total=Sum("points"))
        .values_list("session", "paid_by", "player", "total")
        .order_by()
    ):
        if paid_by is not None:  # a payment from the house (none is made today) has no pair
            yield session, paid_by, paid_to, points


def rebuild(session_ids: Iterable[int]) -> None:
    """Store the figures ``computed`` makes for these sessions in place of theirs (step 2), ``CHUNK``
    sessions at a time."""
    ids = list(session_ids)
    for start in range(0, len(ids), CHUNK):
        _rebuild(ids[start : start + CHUNK])


def _rebuild(ids: list[int]) -> None:
    rows, counted = computed(ids)
    Figures.objects.filter(session_id__in=ids).delete()
    Figures.objects.bulk_create(
        Figures(session_id=session, player_id=player, other_id=other, **values)
        for (session, player, other), values in rows.items()
    )
    sessions = list(Session.objects.filter(pk__in=ids).only("pk"))
    for session in sessions:
        session.counted_rounds, session.counted_hands = _pair(counted.get(session.pk, NOT_COUNTED))
    Session.objects.bulk_update(sessions, ["counted_rounds", "counted_hands"], batch_size=500)


def _pair(counted: Counted) -> tuple[int, int]:
    return counted.rounds, counted.hands


# --- 3. checked ------------------------------------------------------------------------------------------


def drift(session_ids: Iterable[int]) -> list[str]:
    """What the stored figures of these sessions get wrong, against ``computed``: one line each (none when
    they hold). A row of zeros and a missing row are the same."""
    ids = list(session_ids)
    return [found for start in range(0, len(ids), CHUNK) for found in _drift(ids[start : start + CHUNK])]


def _drift(ids: list[int]) -> list[str]:
    rows, counted = computed(ids)
    stored = {
        (row.session_id, row.player_id, row.other_id): {name: getattr(row, name) for name in COUNTS}
        for row in Figures.objects.filter(session_id__in=ids)
    }
    found = [
        f"session {key[0]}, player {key[1]}"
        + ("" if key[1] == key[2] else f" against player {key[2]}")
        + f": stored {_nonzero(stored.get(key))}, the ledger makes {_nonzero(rows.get(key))}"
        for key in sorted(set(rows) | set(stored))
        if _nonzero(stored.get(key)) != _nonzero(rows.get(key))
    ]
    for pk, rounds, hands in Session.objects.filter(pk__in=ids).values_list(
        "pk", "counted_rounds", "counted_hands"
    ):
        expected = counted.get(pk, NOT_COUNTED)
        if (rounds, hands) != _pair(expected):
            found.append(
                f"session {pk}: stored {rounds} rounds and {hands} hands counted, "
                f"the ledger makes {expected.rounds} and {expected.hands}"
            )
    return found


def _nonzero(values: Mapping[str, int] | None) -> dict[str, int]:
    return {name: value for name, value in (values or {}).items() if value}
