"""A session's history written as the round services write it, but in memory, then stored in bulk: the
import of a group file (ledger/group_file.py).

The round services (rounds.py) write one version at a time under the session's lock and read back what
they need: the coin balances before a round, the rows a new version reverses, the head of the chain. A
file's history is known whole before anything is stored, so ``Draft`` keeps that state in memory and
takes the same steps in the same order with the services' own pieces (the body's check, the engine's
settlement, the rows built from its result, the bounds): what it stores is, row for row and digest for
digest, what replaying the file through the services stored (tests/ledger/test_group_file.py holds the
two equal). Nothing here writes until ``store``:

1. ``reserve`` takes the ids of the rows from the database's own counter (SQLite's AUTOINCREMENT
   sequence, PostgreSQL's identity sequence) in one short transaction, so every link and every seal can
   be computed before the write, and no other writer can take those ids meanwhile;
2. ``Draft.seal`` chains the session's versions in the order written, over what the seal of a version
   just written hashes (``integrity.ROW_VALUES`` of its rows), and moves the session's head;
3. ``store`` prepares the rows' values (as ``bulk_create`` would, the file's times kept), then runs one
   INSERT a table over all its rows (``executemany``) in one transaction, in the order of the foreign
   keys (the database's guards refuse updates and deletes of ledger rows, never inserts), and makes the
   sessions' figures from them (``figures.rebuild``): its lock is held for these alone.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.db import connection, models, transaction
from django.utils import timezone

from settlement.engine import RoundResult

from .. import bounds, figures, integrity, selectors
from ..canonical import canonical
from ..errors import IdempotencyKeyReusedError
from ..models import (
    CoinEntry,
    Group,
    HandInProgress,
    LedgerEntry,
    Membership,
    PaymentMark,
    Player,
    Role,
    Round,
    RoundVersion,
    Session,
    SessionSeat,
    Sitting,
    VersionKind,
    WinRecord,
)
from . import rounds
from .checks import _fingerprint


class Drafted:
    """A ledger, coin or win row as the draft makes it: the values the round services give their model
    (rounds.py makes both), as attributes; its model's defaults for the rest (``drafted``); its links as
    the rows they point at until ``Draft.link``. A model instance costs nine times as much to make (9 us
    against 1) and the draft needs only the values: 47,000 rows of a 100-session file."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)

    if TYPE_CHECKING:  # its fields are its model's, set as attributes

        def __getattr__(self, name: str) -> Any: ...


def drafted(model: type[models.Model]) -> type[Drafted]:
    """The ``Drafted`` rows of ``model``: each field's default (None where it has none; none of these is
    a callable's, which would be one value shared by every row) by its attribute name, and by its name
    for a link."""
    fields = model._meta.concrete_fields
    defaults: dict[str, Any] = {field.attname: field.get_default() for field in fields}
    defaults |= {field.name: None for field in fields if field.is_relation}
    return type(f"Drafted{model.__name__}", (Drafted,), defaults)


# Rows a version writes, by the table name its seal uses: the model, and the draft's rows of it.
SEALED_ROWS = (("entries", LedgerEntry), ("coins", CoinEntry), ("wins", WinRecord))
DRAFTED = {model: drafted(model) for _, model in SEALED_ROWS}


@dataclass(eq=False)
class _Written:
    """A version as the draft wrote it: its rows, and what they moved (what ledger/bounds.py limits); its
    result as stored (``result``; the version holds the engine's answer): the canonical text of that
    answer, which the services store and seal (None for a void's, SQL NULL)."""

    version: RoundVersion
    rows: dict[str, list[Any]]
    result: str | None

    def moved(self, name: str, column: str) -> int:
        return sum(abs(getattr(row, column)) for row in self.rows[name])


@dataclass(eq=False)
class _Current:
    """A round's state between writes: its current version, and its rows no later version reversed."""

    version: RoundVersion
    entries: list[Drafted] = field(default_factory=list)
    coins: list[Drafted] = field(default_factory=list)


class Draft:
    """One session's history, written step by step in memory as ``round_record``, ``round_correct``
    (``reinstate=True``) and ``round_void`` write it, and then closed as ``session_close`` closes it."""

    def __init__(
        self, session: Session, sittings: Sequence[Sitting], marks: Sequence[PaymentMark] = ()
    ) -> None:
        self.session = session
        self.sittings = list(sittings)  # who sat where when (models.Sitting); the open ones are the table
        self.seats = [
            SessionSeat(session=session, seat=spell.seat, player=spell.player)
            for spell in sorted(self.sittings, key=lambda spell: spell.seat)
            if spell.last is None
        ]
        self.marks = list(marks)  # payment marks (ledger/debts.py): outside the seal, stored as they come
        self.hand = HandInProgress(session=session, number=1, dealer=0)
        self.rounds: list[Round] = []
        self.written: list[_Written] = []  # in the order written: the chain's order
        self._current: dict[int, _Current] = {}  # by position
        self._settled: dict[int, RoundResult] = {}  # by position: the engine's result of its current version
        self._keys: set[str] = set()
        self._moved = [0, 0]  # points, coins

    # --- the three steps a file replays ---

    def record(self, body: object, notes: Sequence[object] | None, key: str | None) -> None:
        """``notes``: none for a round recorded as ``POST rounds/`` records it, one per event (or fewer) for
        a hand finished at the table."""
        round_body = rounds._round_body(body)
        fingerprint = _fingerprint(round_body)  # of the round as entered, notes aside (as the hand's is)
        if notes:
            round_body["notes"] = rounds._notes_for(notes, round_body["events"])
        if key is not None and key in self._keys:
            raise IdempotencyKeyReusedError()
        coins_before = self._balances()
        result = rounds._settle(self.session, round_body, coins_before)
        position = len(self.rounds) + 1
        round_ = rounds._new_round(
            self.session, position, round_body, result, key=key, fingerprint=fingerprint
        )
        self.rounds.append(round_)
        if key is not None:
            self._keys.add(key)
        self._write(round_, VersionKind.RECORDED, 1, round_body, result, coins_before)
        self._check_bounds("events")
        self.hand.revision += 1
        self.hand.number = max(self.hand.number, position + 1)

    def correct(self, round_: Round, body: object, notes: Sequence[object] | None) -> None:
        round_body = rounds._round_body(body)
        round_body["notes"] = rounds._notes_for(notes, round_body["events"])
        coins_before = self._balances(before=round_.position)
        result = rounds._settle(self.session, round_body, coins_before)
        round_.version += 1
        self._write(round_, VersionKind.CORRECTED, round_.version, round_body, result, coins_before)
        round_.dealer = round_body["dealer"]
        round_.void_suits = round_body.get("void_suits")
        round_.events = round_body["events"]
        round_.adjustment = result.adjustment_round
        round_.voided = False
        rounds.keep_nets(round_, result)
        self._resettle_later_coins(round_)
        self._check_bounds("events")
        self.hand.revision += 1

    def void(self, round_: Round) -> None:
        if round_.voided:
            return
        notes = self._current[round_.position].version.notes
        body = {**rounds._body_of(round_), "notes": notes}
        self._write(round_, VersionKind.VOIDED, round_.version + 1, body, None, None)
        round_.voided = True
        round_.version += 1
        rounds.keep_nets(round_, None)
        self._resettle_later_coins(round_)
        self._check_bounds("round")
        self.hand.revision += 1

    def close(self) -> None:
        self.hand.revision += 1

    # --- what the services read back from the database, kept here ---

    def versions(self) -> dict[int, list[RoundVersion]]:
        """Every version written, by its round's position, oldest first."""
        by_position: dict[int, list[RoundVersion]] = {}
        for written in self.written:
            by_position.setdefault(written.version.round.position, []).append(written.version)
        return by_position

    def player_of(self, position: int) -> dict[int, int]:
        """``selectors.seat_map``: seat -> player id as the table sat for the hand at ``position``."""
        return {
            spell.seat: spell.player.pk
            for spell in self.sittings
            if spell.first <= position and (spell.last is None or spell.last >= position)
        }

    def totals(self) -> tuple[list[int], int, list[int] | None, int | None]:
        """Points per person (the seats now, then whoever left), the house's, coins per seat (the
        starting balances included) and the house's: the sums ``selectors.session_totals`` takes over
        the rows."""
        points: dict[int | None, int] = {}
        coins: dict[int | None, int] = {}
        for written in self.written:
            for row in written.rows["entries"]:
                points[row.player_id] = points.get(row.player_id, 0) + row.points
            for row in written.rows["coins"]:
                coins[row.seat] = coins.get(row.seat, 0) + row.coins
        table, away = selectors.table_and_away(self.sittings)
        people = [spell.player.pk for spell in (*table, *away)]
        if not self.session.coins_enabled:
            return [points.get(person, 0) for person in people], points.get(None, 0), None, None
        starting = self.session.starting_balances or []
        seats = [spell.seat for spell in table]
        return (
            [points.get(person, 0) for person in people],
            points.get(None, 0),
            [int(starting[seat]) + coins.get(seat, 0) for seat in seats],
            coins.get(None, 0),
        )

    def _balances(self, *, before: int | None = None) -> list[int] | None:
        """``selectors.coin_balances``: the starting balances plus the seats' coins of the rounds before
        position ``before`` (of every round when None)."""
        if not self.session.coins_enabled:
            return None
        balances = [int(start) for start in self.session.starting_balances or ()]
        for position, current in self._current.items():
            if before is None or position < before:
                for row in current.coins:
                    if row.seat is not None:  # a seat's, not the house's
                        balances[row.seat] += row.coins
        return balances

    def _check_bounds(self, field_name: str) -> None:
        bounds.check_moved(*self._moved, field=field_name)

    def _resettle_later_coins(self, changed: Round) -> None:
        """``rounds._resettle_later_coins``: every later round counting settled again against the balances
        before it, a ``recoined`` version where its coins come out differently."""
        if not self.session.coins_enabled:
            return
        later = [round_ for round_ in self.rounds if round_.position > changed.position and not round_.voided]
        if not later:
            return
        balances = self._balances(before=later[0].position)
        for round_ in later:
            current = self._current[round_.position].version
            body = {**rounds._body_of(round_), "notes": current.notes}
            # Only its coins can differ (its points do not depend on the balances), so they alone are
            # settled again: what rounds._resettle_later_coins's whole replay gives.
            stakes = {"balances": balances, "room_coefficient": self.session.room_coefficient}
            result = self._settled[round_.position].recoined(stakes, round_.dealer)
            coins = result.coins
            assert coins is not None  # noqa: S101 - the session has coins, so the engine settled them
            assert current.result is not None  # noqa: S101 - it counts, so it settled
            stored = current.result["coins"]
            if (list(coins.change), coins.house) != (list(stored["change"]), int(stored["house"])):
                round_.version += 1
                self._write(round_, VersionKind.RECOINED, round_.version, body, result, balances)
            balances = list(coins.balances)

    def _write(
        self,
        round_: Round,
        kind: VersionKind,
        number: int,
        body: dict[str, Any],
        result: RoundResult | None,
        coins_before: list[int] | None,
    ) -> None:
        """``rounds._write_version``: the version, the reversal of its round's live rows, its own rows."""
        # The engine's answer on the version, and its text made once for the seal and the insert, as
        # rounds._write_version has them (its lists are lists: what the comparison reads).
        answer = None if result is None else result.to_dict()
        text = None if answer is None else canonical(answer)
        version = rounds.version_row(round_, kind, number, body, answer, coins_before)
        previous = self._current.get(round_.position)
        moves_points = kind != VersionKind.RECOINED
        entries: list[Drafted] = []
        coins: list[Drafted] = []
        if previous is not None:
            if moves_points:
                entries += rounds._entry_reversals(round_, version, previous.entries, DRAFTED[LedgerEntry])
            coins += rounds._coin_reversals(round_, version, previous.coins, DRAFTED[CoinEntry])
        current = _Current(version=version)
        if previous is not None and not moves_points:
            current.entries = previous.entries
        wins: list[Drafted] = []
        if result is not None:
            seats = self.player_of(round_.position)
            if moves_points:
                current.entries = rounds._entries(
                    round_, version, seats, result.transfers, DRAFTED[LedgerEntry]
                )
                entries += current.entries
            current.coins = rounds._coin_entries(round_, version, result, DRAFTED[CoinEntry])
            coins += current.coins
            wins = rounds._win_records(round_, version, seats, result, DRAFTED[WinRecord])
        self._current[round_.position] = current
        if result is not None:
            self._settled[round_.position] = result
        written = _Written(version, {"entries": entries, "coins": coins, "wins": wins}, text)
        self.written.append(written)
        self._moved[0] += written.moved("entries", "points")
        self._moved[1] += written.moved("coins", "coins")

    # --- once the ids are reserved ---

    def link(self) -> None:
        """The links the services' rows took from stored rows, taken now from the reserved ids."""
        session = self.session.pk
        for written in self.written:
            version = written.version
            ids = session, version.round.pk, version.pk  # every row of a version is of its round (``_write``)
            for name, _ in SEALED_ROWS:
                for row in written.rows[name]:
                    row.session_id, row.round_id, row.round_version_id = ids
                    if name != "wins":
                        row.reverses_id = None if row.reverses is None else row.reverses.id

    def seal(self) -> None:
        """``integrity.seal`` of every version in the order written, and the session's head. Each row's
        text is made once (``integrity._row_texts``): a session's rows repeat, and here, unlike in
        ``integrity.seal``, every version of the session is sealed at once; its condition holds, as the
        rows are made each column holds one type (a flag a bool)."""
        head = ""
        texts = {name: integrity._row_texts() for name in integrity.ROW_COLUMNS}
        for written in self.written:
            version = written.version
            rows = {
                name: list(map(row_values, written.rows[name]))
                for name, row_values in integrity.ROW_VALUES.items()
            }
            result = "null" if written.result is None else written.result
            sealed = integrity._sealed(integrity._written_row(version), rows, result, row_text=texts)
            version.previous_digest = head
            version.digest = head = integrity.digest_of(head, sealed.content)
        self.session.ledger_digest = head
        self.session.points_moved, self.session.coins_moved = self._moved


# --- reserving ids, storing -----------------------------------------------------------------------------


def _reserve_postgresql(cursor: Any, table: str, count: int) -> list[int]:
    """Ids from the identity column's own sequence: no other writer is given them, used or not."""
    cursor.execute(
        "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, count]
    )
    return [pk for (pk,) in cursor.fetchall()]


def _reserve_sqlite(cursor: Any, table: str, count: int) -> list[int]:
    """AUTOINCREMENT never gives an id at or below its sequence again: the sequence moved past a block."""
    cursor.execute(
        "INSERT INTO sqlite_sequence (name, seq) SELECT %s, 0 "
        "WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = %s)",
        [table, table],
    )
    cursor.execute(
        "UPDATE sqlite_sequence SET seq = MAX(seq, (SELECT COALESCE(MAX(id), 0) FROM "  # noqa: S608 - a model's table
        f"{connection.ops.quote_name(table)})) + %s WHERE name = %s RETURNING seq",
        [count, table],
    )
    (last,) = cursor.fetchone()
    return list(range(last - count + 1, last + 1))


RESERVE = {"postgresql": _reserve_postgresql, "sqlite": _reserve_sqlite}


def reserve(tables: Iterable[tuple[type[models.Model], Sequence[models.Model | Drafted]]]) -> None:
    """Give each row (an instance of its model, or a ``Drafted`` row of it) an id of its table that no
    other writer can take, in one short transaction."""
    take = RESERVE[connection.vendor]
    with transaction.atomic(), connection.cursor() as cursor:
        for model, rows in tables:
            if rows:
                for row, pk in zip(rows, take(cursor, model._meta.db_table, len(rows)), strict=True):
                    setattr(row, model._meta.pk.attname, pk)  # a Drafted row has no ``pk``


@dataclass
class Import:
    """A whole group file, settled and sealed in memory: what ``store`` writes."""

    group: Group
    players: list[Player]
    drafts: list[Draft]

    def tables(self) -> list[tuple[type[models.Model], list[Any]]]:
        """Every row to insert but the players (their ids are reserved first: the rows name them), by
        table, in an order that inserts no row before one it points to."""
        drafts = self.drafts
        return [
            (Session, [draft.session for draft in drafts]),
            (SessionSeat, [seat for draft in drafts for seat in draft.seats]),
            (Sitting, [spell for draft in drafts for spell in draft.sittings]),
            (HandInProgress, [draft.hand for draft in drafts]),
            (Round, [round_ for draft in drafts for round_ in draft.rounds]),
            (RoundVersion, [w.version for draft in drafts for w in draft.written]),
            *(
                (model, [row for draft in drafts for w in draft.written for row in w.rows[name]])
                for name, model in SEALED_ROWS
            ),
            (PaymentMark, [mark for draft in drafts for mark in draft.marks]),  # a reversal after its mark
        ]


def store(actor: User, plan: Import) -> Group:
    """Reserve the ids (the players' are already), link and seal, prepare every insert; then run them in
    one transaction, which so holds the database's write lock only for the inserts themselves."""
    membership = Membership(user=actor, group=plan.group, role=Role.OWNER)
    tables: list[tuple[type[models.Model], list[Any]]] = [
        (Group, [plan.group]),
        (Membership, [membership]),
        *plan.tables(),
    ]
    reserve(tables)
    for row in plan.players:
        row.group = plan.group
    for draft in plan.drafts:
        draft.session.group = plan.group
        draft.link()
        draft.seal()
    players: list[tuple[type[models.Model], list[Any]]] = [(Player, plan.players)]
    # the versions' results as their seals hashed them, by the versions' (reserved) ids
    results = {w.version.pk: w.result for draft in plan.drafts for w in draft.written}
    given: dict[type[models.Model], dict[str, Callable[[Any], Any]]] = {
        RoundVersion: {"result": lambda version: results[version.pk]}
    }
    inserts = [
        _insert(model, rows, given.get(model, {}))
        for model, rows in [*tables[:2], *players, *tables[2:]]
        if rows
    ]
    write, checked = WRITE[connection.vendor]
    with transaction.atomic(), connection.cursor() as cursor:
        for table, columns, values in inserts:
            write(cursor, table, columns, values)
        # The figures the statistics read (ledger/figures.py), made from the rows just inserted.
        figures.rebuild(draft.session.pk for draft in plan.drafts)
        checked(cursor)
    return plan.group


def _insert(
    model: type[models.Model], rows: list[Any], given: Mapping[str, Callable[[Any], Any]]
) -> tuple[str, str, list[tuple[Any, ...]]]:
    """The table, its columns and each row's values for them, prepared now, ids and links included;
    ``given``: how a row's value of a column is had prepared already, by its attribute name (a version's
    result: the text its seal hashed).
    Raw, as ``loaddata`` saves rows: a ``created`` is the file's (``auto_now_add`` would set it to now),
    so the rows whose time is the import's are given it here. Each value is prepared as ``bulk_create``
    prepares it (``get_db_prep_save``), but only for the fields where that is more than the value itself
    (times, JSON): half a million integers and texts pass as they are."""
    now = timezone.now()
    fields = model._meta.concrete_fields
    stamped = [
        f.attname for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    for row in rows:
        if not isinstance(row, Drafted):  # a Drafted row's links are set already (Draft.link)
            row._prepare_related_fields_for_save(operation_name="bulk_create")
        for attname in stamped:
            if getattr(row, attname) is None or attname in AUTO_NOW:
                setattr(row, attname, now)
    read = operator.attrgetter(*(f.attname for f in fields))  # every model here has several fields
    prepared = [
        (index, _once_each(f.get_db_prep_save) if f.get_internal_type() in TIMES else f.get_db_prep_save)
        for index, f in enumerate(fields)
        if f.get_internal_type() not in AS_THEY_ARE and f.attname not in given
    ]
    given_at = [(index, given[f.attname]) for index, f in enumerate(fields) if f.attname in given]
    values = []
    for row in rows:
        value = list(read(row))
        for index, prepare in prepared:
            value[index] = prepare(value[index], connection)
        for index, give in given_at:
            value[index] = give(row)
        values.append(tuple(value))
    quote = connection.ops.quote_name
    return quote(str(model._meta.db_table)), ", ".join(quote(str(f.column)) for f in fields), values


def _once_each(prepare: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``prepare`` run once a distinct value: most rows' time is the import's own (33,000 ledger rows)."""
    done: dict[Any, Any] = {}

    def prepared(value: Any, on: Any) -> Any:
        if value not in done:
            done[value] = prepare(value, on)
        return done[value]

    return prepared


def _write_sqlite(cursor: Any, table: str, columns: str, values: list[tuple[Any, ...]]) -> None:
    marks = ", ".join(["%s"] * len(values[0]))
    cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", values)  # noqa: S608 - a model's


def _write_postgresql(cursor: Any, table: str, columns: str, values: list[tuple[Any, ...]]) -> None:
    """COPY: PostgreSQL takes the rows as one stream, several times faster than as many INSERTs (33,000
    ledger rows: 5.2 s by executemany, 0.8 s by COPY, under load). Django has no COPY: it runs on
    psycopg's own cursor, passed through Django's execute wrappers, so a clock that wraps them (the scale
    bench's) counts it as it would an INSERT, and its errors are Django's; the debug cursor's log
    (``connection.queries``, ``CaptureQueriesContext``) does not list it."""

    def copy(sql: str, params: object, many: bool, context: object) -> None:
        with cursor.db.wrap_database_errors, cursor.cursor.copy(sql) as stream:
            for row in values:
                stream.write_row(row)

    cursor._execute_with_wrappers(f"COPY {table} ({columns}) FROM STDIN", None, many=False, executor=copy)


def _checked_sqlite(cursor: Any) -> None:
    """SQLite counts a deferred foreign key's misses as it goes: the commit checks a counter."""


def _checked_postgresql(cursor: Any) -> None:
    """PostgreSQL checks each deferred foreign key of each row at the commit (a third of the import's
    time): checked here instead, as ``loaddata`` does (``check_constraints``), as two statements a
    clock counts, inside the transaction all the same."""
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    cursor.execute("SET CONSTRAINTS ALL DEFERRED")


WRITE = {"sqlite": (_write_sqlite, _checked_sqlite), "postgresql": (_write_postgresql, _checked_postgresql)}


AUTO_NOW = {"updated"}  # ``auto_now``: the time of the write, always
TIMES = {"DateField", "DateTimeField"}  # values that repeat, and hash
# Fields whose get_db_prep_save gives back the value a row holds (an int, a str, a bool, None, an id).
AS_THEY_ARE = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "ForeignKey",
    "IntegerField",
    "OneToOneField",
    "PositiveBigIntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
}
