"""A group's figures kept as the ledger is written, so that no read sums a group's whole ledger (issue 16).

``models.Figures`` holds, per session, each player's record in it (his own row: ``other`` is himself) and
what passed between each pair of its players (a pair's row: ``other`` is the other one); ``Session`` holds
its counted rounds and hands; ``models.GroupFigures`` the same rows added up over each group (and, on a
player's own row, the sessions he played: those in which his own row counts a round). The statistics
(``ledger.statistics``, ``ledger.periods``) read the group rows for all time and add the session rows up
over a period, instead of its ledger.

1. Kept: every round version that moves points (recorded, corrected, voided) ends with ``follow``, one
   upsert that adds to each row what that version changed: its own ledger rows (its reversals cancel what
   the version before it counted), its win rows less those of the version it replaces, and for each of the
   players who sat for it (the sittings its position falls in), the change in whether the round counts.
   A re-coined version changes neither points nor
   wins, so it writes nothing here. Computed by the database from the rows just written, in the same
   transaction under the session's lock: one query, whatever the round, and one more adding the same
   change to the group's rows.
2. Made again: ``rebuild`` computes the rows of some sessions from their ledger as the statistics' rules
   define them (``ledger.statistics``' docstring) and stores them in place of what was there, then adds
   up their groups' rows again from the session rows (``regroup``): a group file's bulk import and the
   scale bench's seed use it, migration 0022 its session rows alone; 0027 fills the group rows with the
   sums ``added_up`` makes, in SQL of its own.
3. Checked: ``drift`` compares what is stored with what ``rebuild`` would store, and the group rows with
   what their sessions' rows add up to (``verify_ledger`` runs it).

The rules themselves are stated once, in ``ledger.statistics``; ``follow`` and ``computed`` are two
readings of them, which ``drift`` (and tests/ledger/test_figures.py) hold equal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum

from settlement.engine import Reason

from .models import Figures, GroupFigures, LedgerEntry, Round, RoundVersion, Session, Sitting, WinRecord

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


def _delta_sql() -> str:
    """What a version changed, as rows (player, other, COUNTS...) to add up by (player, other): its
    own ledger rows and reversals, its wins less those of the version it follows, the counting of its
    round for whoever sat for it."""
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

    # The wins of the version written (+1) and of the one it follows (-1: none when that was a void).
    signed_wins = f"""SELECT winner_id, discarder_id, self_draw,
        CASE WHEN version = %(version)s THEN 1 ELSE -1 END AS sign
        FROM {wins} WHERE round_id = %(round)s AND version IN (%(version)s, %(replaced)s)"""  # noqa: S608 - the models' own table names; every value is a parameter
    return f"""
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
"""  # noqa: S608 - the models' own table names and reasons; every value is a parameter


def _added(table: str, names: Iterable[str]) -> str:
    return ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in names)


def _follow_sql() -> str:
    """The session's rows plus the version's delta."""
    figures = Figures._meta.db_table
    columns = ", ".join(COUNTS)
    sums = ", ".join(f"SUM({name})" for name in COUNTS)
    # "WHERE true": SQLite reads an upsert after a bare SELECT ... FROM as a join's ON otherwise.
    return f"""
INSERT INTO {figures} (session_id, player_id, other_id, {columns})
SELECT %(session)s, player, other, {sums} FROM ({_delta_sql()}) AS delta WHERE true GROUP BY player, other
ON CONFLICT (session_id, player_id, other_id) DO UPDATE SET {_added(figures, COUNTS)}
"""  # noqa: S608 - the models' own table names; every value is a parameter


def _follow_group_sql() -> str:
    """The group's rows plus the same delta, run after the session's: a player's own row there, just
    moved, says whether his rounds in the session went from none to some (one session more) or back.
    Two sessions of a group written at once move the same rows: each takes them in the order of (player,
    other), so neither waits for a row the other holds while holding one it waits for."""
    groups = GroupFigures._meta.db_table
    figures = Figures._meta.db_table
    sessions = Session._meta.db_table
    columns = ", ".join(COUNTS)
    sums = ", ".join(f"SUM({name}) AS {name}" for name in COUNTS)
    moved = ", ".join(f"delta.{name}" for name in COUNTS)
    played = """CASE WHEN kept.rounds > 0 THEN 1 ELSE 0 END
        - CASE WHEN kept.rounds - delta.rounds > 0 THEN 1 ELSE 0 END"""
    return f"""
INSERT INTO {groups} (group_id, player_id, other_id, sessions, {columns})
SELECT session.group_id, delta.player, delta.other, {played}, {moved}
FROM (SELECT player, other, {sums} FROM ({_delta_sql()}) AS moved GROUP BY player, other) AS delta
JOIN {figures} kept ON kept.session_id = %(session)s AND kept.player_id = delta.player
    AND kept.other_id = delta.other
JOIN {sessions} session ON session.id = %(session)s
WHERE true ORDER BY delta.player, delta.other
ON CONFLICT (group_id, player_id, other_id) DO UPDATE SET {_added(groups, ("sessions", *COUNTS))}
"""  # noqa: S608 - the models' own table names; every value is a parameter


def follow(version: RoundVersion, change: Counted) -> None:
    """Add to the session's figures, then to its group's, what ``version`` (its rows just written)
    changed; ``change``: how the round's counting moved (``Counted.of`` after, less before). Step 1 of the
    module's docstring: two queries, whatever the round or the group."""
    values = {
        "session": version.round.session_id,
        "position": version.round.position,  # who sat at the table for it (its sittings)
        "round": version.round_id,
        "version_id": version.pk,
        "version": version.version,
        "replaced": version.version - 1,
        "rounds": change.rounds,
        "hands": change.hands,
    }
    with connection.cursor() as cursor:
        cursor.execute(_follow_sql(), values)
        cursor.execute(_follow_group_sql(), values)


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
    """Store the figures ``computed`` makes for these sessions in place of theirs, then their groups' rows
    added up again from them (step 2)."""
    regroup(rebuild_sessions(session_ids))


def rebuild_sessions(session_ids: Iterable[int]) -> set[int]:
    """The session rows alone of ``rebuild``, ``CHUNK`` sessions at a time; the groups they belong to,
    whose rows these leave stale until ``regroup`` (migration 0022 fills the session rows before the
    group rows exist; 0027 adds these up)."""
    ids = list(session_ids)
    return {group for start in range(0, len(ids), CHUNK) for group in _rebuild(ids[start : start + CHUNK])}


def _rebuild(ids: list[int]) -> set[int]:
    rows, counted = computed(ids)
    Figures.objects.filter(session_id__in=ids).delete()
    Figures.objects.bulk_create(
        Figures(session_id=session, player_id=player, other_id=other, **values)
        for (session, player, other), values in rows.items()
    )
    sessions = list(Session.objects.filter(pk__in=ids).only("pk", "group_id"))
    for session in sessions:
        session.counted_rounds, session.counted_hands = _pair(counted.get(session.pk, NOT_COUNTED))
    Session.objects.bulk_update(sessions, ["counted_rounds", "counted_hands"], batch_size=500)
    return {session.group_id for session in sessions}


def added_up(group_ids: Iterable[int]) -> QuerySet[Any, Any]:
    """What the session rows of these groups add up to, one row per (group, player, other) with its
    columns in ``GROUP_COLUMNS``' order: the group rows as they must be (0027 fills them with the same
    sums)."""
    return (
        Figures.objects.filter(session__group__in=list(group_ids))
        .values("session__group", "player", "other")
        .annotate(
            played=Count("id", filter=Q(player=F("other"), rounds__gt=0)),
            **{f"{name}_sum": Sum(name) for name in COUNTS},
        )
        .order_by()
    )


GROUP_COLUMNS = ("group_id", "player_id", "other_id", "sessions", *COUNTS)


def regroup(group_ids: Iterable[int]) -> None:
    """Store the rows of these groups as their session rows add up (``added_up``) in place of theirs: one
    INSERT ... SELECT, whatever their number of sessions."""
    groups = list(group_ids)
    if not groups:
        return
    GroupFigures.objects.filter(group__in=groups).delete()
    select, params = added_up(groups).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {GroupFigures._meta.db_table} ({', '.join(GROUP_COLUMNS)}) {select}",
            params,
        )


def _pair(counted: Counted) -> tuple[int, int]:
    return counted.rounds, counted.hands


# --- 3. checked ------------------------------------------------------------------------------------------


def drift(session_ids: Iterable[int]) -> list[str]:
    """What the stored figures of these sessions get wrong, against ``computed``, and the rows of their
    groups, against what all their sessions' rows add up to: one line each (none when they hold). A row
    of zeros and a missing row are the same."""
    ids = list(session_ids)
    found: list[str] = []
    groups: set[int] = set()
    for start in range(0, len(ids), CHUNK):
        drifted, touched = _drift(ids[start : start + CHUNK])
        found += drifted
        groups |= touched
    return found + _group_drift(groups)


def _group_drift(group_ids: set[int]) -> list[str]:
    names = ("sessions", *COUNTS)
    expected = {
        (group, player, other): dict(zip(names, values, strict=True))
        for group, player, other, *values in (row.values() for row in added_up(group_ids))
    }
    stored = {
        (row.group_id, row.player_id, row.other_id): {name: getattr(row, name) for name in names}
        for row in GroupFigures.objects.filter(group__in=group_ids)
    }
    return [
        f"group {key[0]}, player {key[1]}"
        + ("" if key[1] == key[2] else f" against player {key[2]}")
        + f": stored {_nonzero(stored.get(key))}, its sessions add up to {_nonzero(expected.get(key))}"
        for key in sorted(set(expected) | set(stored))
        if _nonzero(stored.get(key)) != _nonzero(expected.get(key))
    ]


def _drift(ids: list[int]) -> tuple[list[str], set[int]]:
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
    groups = set()
    for pk, group, rounds, hands in Session.objects.filter(pk__in=ids).values_list(
        "pk", "group", "counted_rounds", "counted_hands"
    ):
        groups.add(group)
        expected = counted.get(pk, NOT_COUNTED)
        if (rounds, hands) != _pair(expected):
            found.append(
                f"session {pk}: stored {rounds} rounds and {hands} hands counted, "
                f"the ledger makes {expected.rounds} and {expected.hands}"
            )
    return found, groups


def _nonzero(values: Mapping[str, int] | None) -> dict[str, int]:
    return {name: value for name, value in (values or {}).items() if value}
