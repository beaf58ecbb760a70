"""The ledger's guards beyond the app's own code: the seal of every round version, and the check of it all.

The seal. Each ``RoundVersion`` stores ``digest = sha256(previous_digest, "\\n", content)``, where
``content`` is the canonical JSON of the version (round position, version, kind, dealer, void suits, events,
settle result, coin balances before) and of its ledger, coin and win rows (sorted, so the order the
database returns them in does not matter), and ``previous_digest`` is the digest of the version written
just before it in the same session ("" for the first), kept as the session's ``ledger_digest``. Versions
of a session are written under the session's lock, so their ids give the chain's order. Changing a row
changes its version's content; hiding that by rewriting the digest breaks the next version's link;
removing a version breaks the link after it (or the session's head, for the latest).

The check (``manage.py verify_ledger``), per session:

1. the chain: each version's ``previous_digest`` is the digest of the version before it, its ``digest``
   is the hash of what is stored now, and the session's ``ledger_digest`` is the digest of its last
   version (so removing the latest version shows too); the points and coins the session counts as moved
   are what its rows move;
2. balance: every version's points rows, and its coin rows, sum to zero (the house included), and each
   of its rows names the version's own round (the seal does not hash a row's round);
3. replay: each round mirrors its current version, no other session's version has rows naming it, and it
   keeps the nets its rows give (the rows naming it, as the pages add it up; ``Round.kept_net_*``, what
   the running totals read), and settling the current versions' events again through the engine, in
   position order (coins against the balances the replay reached), gives each round's net points and
   coin change as its rows hold them, and the session's totals.

Every step works from one read of the session's versions and of the rows of them or naming their rounds
(four queries; the replay adds the rounds and the session's totals), whatever its length.

What the seal does not do: it is not a signature. Someone who can write to the database and runs this
code's hash over every later version can rebuild a consistent chain; a copy of the latest digest kept
elsewhere (a backup, a printout) is what detects that (docs/ledger.md, "The database guards the ledger").
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from django.db import connections
from django.db.models import F, Q, QuerySet, TextField
from django.db.models.functions import Cast

from calculator.engine import EngineError, Rules, rules_from
from settlement.engine import RoundResult, settle_round

from . import selectors
from .canonical import CanonicalJSONField, canonical
from .figures import NOT_COUNTED, Counted
from .memory import cycles_uncollected
from .models import KEPT_NETS, SEATS, CoinEntry, LedgerEntry, RoundVersion, Session, WinRecord

VERSION_FIELDS = (
    "round__position",
    "version",
    "kind",
    "dealer",
    "void_suits",
    "events",
    "result",
    "coin_balances_before",
)
ENTRY_FIELDS = (
    "seat",
    "is_house",
    "player_id",
    "points",
    "reason",
    "event_index",
    "transfer_index",
    "reverses_id",
)
COIN_FIELDS = ("seat", "is_house", "coins", "reverses_id")
WIN_FIELDS = ("version", "event_index", "winner_id", "discarder_id", "self_draw", "fan")
ROW_COLUMNS = {"entries": ENTRY_FIELDS, "coins": COIN_FIELDS, "wins": WIN_FIELDS}
# A row made by the services (a model's instance, or the import's drafted row) as its seal hashes it: the
# values of its table's columns, in order, as a tuple (what ``_row_texts`` keys its texts by).
ROW_VALUES = {name: attrgetter(*columns) for name, columns in ROW_COLUMNS.items()}
MOVED_COLUMN = {"entries": "points", "coins": "coins"}
# where a row of the tables that move something says its seat, whether it is the house's, and how much
PLACED_AT = {
    name: tuple(ROW_COLUMNS[name].index(column) for column in ("seat", "is_house", moved))
    for name, moved in MOVED_COLUMN.items()
}
HOUSE = "house"  # the house's place among a round's nets (its rows have no seat)
_CANONICAL_ROWS = dict.fromkeys(ROW_COLUMNS, canonical)  # each row's text made afresh: one version's seal


@dataclass(frozen=True, slots=True)
class Sealed:
    """A stored version as the seal sees it: where it is, its stored links, and its content now; and the
    fields it was read with (``VERSION_FIELDS`` but its result, and ``round_id``), so a replay reads
    nothing twice."""

    position: int
    version: int
    stored: Mapping[str, Any]
    previous_digest: str
    digest: str
    content: str
    points_moved: int  # the sum of the absolute values of its points rows (what the bounds count)
    coins_moved: int
    points_sum: int  # the sum of its points rows, and of its coin rows: 0 when they balance
    coins_sum: int
    strays: int = 0  # its rows that name a round other than its own


def digest_of(previous_digest: str, content: str) -> str:
    # surrogatepass: stored text is already free of lone surrogates (services refuse them), but a hash
    # must never be the thing that fails
    return hashlib.sha256(f"{previous_digest}\n{content}".encode(errors="surrogatepass")).hexdigest()


def version_contents(
    versions: QuerySet[Any], entries: QuerySet[Any], coins: QuerySet[Any], wins: QuerySet[Any]
) -> dict[int, Sealed]:
    """Version id → its seal as stored now, for every version of ``versions``, in four queries.

    Takes querysets rather than models so the migration that seals existing history can pass its
    historical models.
    """
    return _read(versions, entries, coins, wins).sealed


@dataclass(frozen=True, slots=True)
class Read:
    """A session's versions as the check reads them: each one's seal; and, by the round each row names,
    what the rows move (``moved``: table → round id → place → sum, a seat or ``HOUSE``), as the pages add a
    round up, and how many of those rows are of another session's versions (``foreign``)."""

    sealed: dict[int, Sealed]
    moved: dict[str, dict[int, dict[Any, int]]]
    foreign: Counter[int]


def _read(versions: QuerySet[Any], entries: QuerySet[Any], coins: QuerySet[Any], wins: QuerySet[Any]) -> Read:
    """``versions`` and every row of them or naming one of their rounds, read once (four queries)."""
    stored = {row["id"]: row for row in _version_rows(versions)}
    round_of = {version_id: row["round_id"] for version_id, row in stored.items()}
    rows: dict[str, defaultdict[int, list[tuple[Any, ...]]]] = {
        name: defaultdict(list) for name in ROW_COLUMNS
    }
    moved: dict[str, dict[int, dict[Any, int]]] = {name: {} for name in PLACED_AT}
    strays: Counter[int] = Counter()
    foreign: Counter[int] = Counter()
    ours = Q(round_version_id__in=versions.values("id")) | Q(round_id__in=versions.values("round_id"))
    for name, queryset in (("entries", entries), ("coins", coins), ("wins", wins)):
        # the versions as a subquery: their 11,000 ids of a long session as parameters cost more to send;
        # unordered: a version's rows are sealed in the order of their texts, and sorting 165,000 rows by
        # id in the database cost a fifth of their reading
        of_version, by_round = rows[name], moved.get(name)
        seat_at, house_at, value_at = PLACED_AT.get(name, (0, 0, 0))
        read = (
            queryset.filter(ours).order_by().values_list("round_version_id", "round_id", *ROW_COLUMNS[name])
        )
        for row in _driver_rows(read):
            version_id, round_id, values = row[0], row[1], row[2:]
            own = round_of.get(version_id)
            if own is None:
                foreign[round_id] += 1  # a row of another session's version naming one of these rounds
            else:
                of_version[version_id].append(values)
                if round_id != own:
                    strays[version_id] += 1
            if by_round is not None:
                nets = by_round.get(round_id)
                if nets is None:
                    nets = by_round[round_id] = defaultdict(int)
                nets[HOUSE if values[house_at] else values[seat_at]] += values[value_at]
    result_text, row_text = _result_text(versions), {name: _row_texts() for name in ROW_COLUMNS}
    sealed = {
        version_id: _sealed(
            row,
            {name: of_version.get(version_id, ()) for name, of_version in rows.items()},
            result_text(row.pop("result_text")),
            row_text,
            strays=strays[version_id],
        )
        for version_id, row in stored.items()
    }
    return Read(sealed, moved, foreign)


def _driver_rows(rows: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` as the database driver returns them, without Django's converters: a
    long session's 200,000 rows through them cost a third of their reading. The drivers hand back the
    values the fields read as (psycopg a boolean as one; SQLite, as Django connects to it, a ``bool``
    column too), so a row's text is the same either way."""
    sql, params = rows.query.get_compiler(rows.db).as_sql()
    with connections[rows.db].cursor() as cursor:
        cursor.execute(sql, params)
        rows_read: list[tuple[Any, ...]] = cursor.fetchall()
    return rows_read


def _version_rows(versions: QuerySet[Any]) -> QuerySet[Any]:
    """Each version's fields but its result, which comes as its stored text (``_result_text``)."""
    fields = [field for field in VERSION_FIELDS if field != "result"]
    return versions.values(
        "id", "round_id", "previous_digest", "digest", *fields, result_text=Cast("result", TextField())
    ).order_by("id")


def _result_text(versions: QuerySet[Any]) -> Callable[[str | None], str]:
    """How a stored result's text becomes its canonical text: it is that text already where the column is
    a ``CanonicalJSONField`` (SQL NULL, a void's, is ``null``); a historical model's JSON column (the
    migration that sealed existing history ran before results were kept so) is decoded and encoded."""
    if isinstance(versions.model._meta.get_field("result"), CanonicalJSONField):
        return lambda stored: "null" if stored is None else stored
    return lambda stored: canonical(None if stored is None else json.loads(stored))


def _row_texts() -> Callable[[tuple[Any, ...]], str]:
    """``canonical`` of a stored row, made once a distinct row: a session's rows repeat, the same seat
    paying the same points for the same reason hand after hand (196 distinct among an evening's 330 ledger
    rows, 10,176 among the 165,000 of the bench's 10,000-round session, most of those the reversals').
    Rows that compare equal have one text: each column reads back as one type (a flag as a bool, never as
    1, which equals True), so no two equal rows are written differently; one memo a table, so that no
    row of one is taken for another's. A group file's import seals its rows so too, as the services made
    them (services/bulk.py)."""
    done: dict[tuple[Any, ...], str] = {}

    def text(row: tuple[Any, ...]) -> str:
        found = done.get(row)
        if found is None:
            found = done[row] = canonical(row)
        return found

    return text


def _sealed(
    row: Mapping[str, Any],
    own: Mapping[str, Sequence[Sequence[Any]]],
    result: str,
    row_text: Mapping[str, Callable[[Any], str]] = _CANONICAL_ROWS,
    *,
    strays: int = 0,
) -> Sealed:
    """One version's seal from its stored fields (``VERSION_FIELDS`` but its result), the canonical text of
    its result, and its rows' columns (``ENTRY_FIELDS`` … in order), each row's text made by
    ``row_text``'s function for its table; ``strays`` of its rows name another round than its own."""
    content = {
        "version": _version_text(row, result),
        **{name: canonical(sorted(map(row_text[name], own.get(name, ())))) for name in ROW_COLUMNS},
    }
    moved = {
        name: _column(own.get(name, ()), ROW_COLUMNS[name].index(column))
        for name, column in MOVED_COLUMN.items()
    }
    return Sealed(
        position=row["round__position"],
        version=row["version"],
        stored=row,
        previous_digest=row["previous_digest"],
        digest=row["digest"],
        content=_object_text(content),
        points_moved=sum(map(abs, moved["entries"])),
        coins_moved=sum(map(abs, moved["coins"])),
        points_sum=sum(moved["entries"]),
        coins_sum=sum(moved["coins"]),
        strays=strays,
    )


def _column(rows: Sequence[Sequence[Any]], index: int) -> list[Any]:
    return [values[index] for values in rows]


# The version's fields as the seal lays them out, keys sorted: those before its result's and after.
_BEFORE_RESULT = tuple(sorted(field for field in VERSION_FIELDS if field < "result"))
_AFTER_RESULT = tuple(sorted(field for field in VERSION_FIELDS if field > "result"))
assert _BEFORE_RESULT and _AFTER_RESULT  # noqa: S101 - _version_text joins two objects around the result


def _version_text(row: Mapping[str, Any], result: str) -> str:
    """``canonical`` of the version's ``VERSION_FIELDS``, its result given as its text: the fields on
    either side of the result's place encoded as two objects and joined around it (two calls of the
    encoder a version, not one a field). Fields sort on both sides of "result", so neither half is empty."""
    before = canonical({field: row[field] for field in _BEFORE_RESULT})
    after = canonical({field: row[field] for field in _AFTER_RESULT})
    return f'{before[:-1]},"result":{result},{after[1:]}'


def _object_text(texts: Mapping[str, str]) -> str:
    """``canonical`` of an object whose values are given as their canonical texts, laid out as the encoder
    lays one out (keys sorted, ``"key":value``, commas), so a text made once is not encoded again."""
    return "{" + ",".join(f"{_string_text(key)}:{text}" for key, text in sorted(texts.items())) + "}"


# ``canonical`` of a string (characters as they are), without a call of the encoder: the keys of the
# 11,000 objects a long session's seal lays out.
_string_text = json.encoder.encode_basestring


def _contents(versions: QuerySet[RoundVersion]) -> Read:
    return _read(versions, LedgerEntry.objects.all(), CoinEntry.objects.all(), WinRecord.objects.all())


@dataclass(frozen=True, slots=True)
class Written:
    """The rows a service has just written for a new version, as it wrote them: what its seal hashes (they
    are all of that version's rows: its id is new), so the seal reads back only the version's own row."""

    entries: Sequence[LedgerEntry]
    coins: Sequence[CoinEntry]
    wins: Sequence[WinRecord]

    def columns(self) -> dict[str, list[tuple[Any, ...]]]:
        tables = {"entries": self.entries, "coins": self.coins, "wins": self.wins}
        return {name: list(map(ROW_VALUES[name], rows)) for name, rows in tables.items()}


def _written_row(version: RoundVersion) -> dict[str, Any]:
    """The version's ``VERSION_FIELDS`` but its result (``_sealed`` takes its text) as the service wrote
    them; each JSON field holds what the JSON of its value reads back as, so ``canonical`` of either is the
    same text (verify_ledger reads it back)."""
    row = {
        field: getattr(version, field)
        for field in VERSION_FIELDS
        if field not in ("round__position", "result")
    }
    return {
        **row,
        "round__position": version.round.position,
        "previous_digest": "",
        "digest": "",
        "round_id": version.round_id,
    }


def seal(
    version: RoundVersion, written: Written, *, head: Session, counted: Counted = NOT_COUNTED
) -> tuple[int, int]:
    """Chain a version about to be stored (its rows included, made but not stored either) to the
    session's version before it, and move the session's head: its digest, and the points and coins its
    rows have moved (what ledger/bounds.py limits); those two totals, as they now stand, are returned for
    the bounds check. In the same update the session's counted rounds and hands move by ``counted``
    (ledger/figures.py).

    Runs inside the writing service's transaction, under the session's lock, before the version is stored:
    its digest is stored with it, so nothing is written twice. ``head`` is the session as read under that
    lock: only a seal moves its head, and it moves ``head`` with it, so the versions a write seals one
    after another (a correction and the rounds it re-coins) each chain to the one before without reading
    the row again.
    """
    assert version.round.session_id == head.pk  # noqa: S101 - a version is chained in its own session
    previous, points, coins = head.ledger_digest, head.points_moved, head.coins_moved
    sealed = _sealed(_written_row(version), written.columns(), canonical(version.result))
    version.previous_digest = previous
    version.digest = digest_of(previous, sealed.content)
    Session.objects.filter(pk=head.pk).update(
        ledger_digest=version.digest,
        points_moved=F("points_moved") + sealed.points_moved,
        coins_moved=F("coins_moved") + sealed.coins_moved,
        counted_rounds=F("counted_rounds") + counted.rounds,
        counted_hands=F("counted_hands") + counted.hands,
    )
    head.ledger_digest = version.digest
    head.points_moved, head.coins_moved = points + sealed.points_moved, coins + sealed.coins_moved
    head.counted_rounds += counted.rounds
    head.counted_hands += counted.hands
    return head.points_moved, head.coins_moved


# --- the check ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong, named so an operator can find it."""

    session: Session
    what: str
    position: int | None = None
    version: int | None = None

    def __str__(self) -> str:
        where = f"group {self.session.group_id}, session {self.session.pk} ({self.session.title})"
        if self.position is not None:
            where += f", round #{self.position}"
        if self.version is not None:
            where += f" version {self.version}"
        return f"{where}: {self.what}"


def verify_session(session: Session) -> Iterator[Finding]:
    """The three steps, in a fixed number of queries whatever the session's length: its versions and their
    rows are read once (four queries), for the chain, the balance and the replay alike."""
    with cycles_uncollected():  # the whole session in memory at once: see ledger/memory.py
        read = _contents(RoundVersion.objects.filter(round__session=session))
        findings = [
            *_chain_findings(session, read.sealed),
            *_balance_findings(session, read.sealed),
            *_replay_findings(session, read),
        ]
    yield from findings


def _chain_findings(session: Session, contents: Mapping[int, Sealed]) -> Iterator[Finding]:
    previous, points, coins = "", 0, 0
    for sealed in contents.values():
        points += sealed.points_moved
        coins += sealed.coins_moved
        where: dict[str, Any] = {"session": session, "position": sealed.position, "version": sealed.version}
        if sealed.previous_digest != previous:
            yield Finding(
                what="the hash chain is broken: its link is not the hash of the session's version before it "
                "(a version was removed, or a hash rewritten)",
                **where,
            )
        if digest_of(sealed.previous_digest, sealed.content) != sealed.digest:
            yield Finding(what="its rows or fields are not what was sealed when it was written", **where)
        previous = sealed.digest
    if session.ledger_digest != previous:
        yield Finding(
            session=session,
            what="the end of its hash chain is not its latest version "
            "(a version was removed, or a hash rewritten)",
        )
    if (session.points_moved, session.coins_moved) != (points, coins):
        yield Finding(
            session=session,
            what=f"it counts {session.points_moved} points and {session.coins_moved} coins moved; "
            f"its rows move {points} and {coins}",
        )


def _balance_findings(session: Session, contents: Mapping[int, Sealed]) -> Iterator[Finding]:
    # From the rows the seal has read (each version's own rows, summed as it read them): no query of its own.
    ordered = sorted(contents.values(), key=lambda sealed: (sealed.position, sealed.version))
    for column, total_of in (("points", attrgetter("points_sum")), ("coins", attrgetter("coins_sum"))):
        for sealed in ordered:
            if total := total_of(sealed):
                yield Finding(
                    session=session,
                    position=sealed.position,
                    version=sealed.version,
                    what=f"its {column} rows sum to {total}, not 0",
                )
    for sealed in ordered:
        if sealed.strays:
            yield Finding(
                session=session,
                position=sealed.position,
                version=sealed.version,
                what=f"its rows that name another round than its own: {sealed.strays}",
            )


@dataclass(slots=True)
class _Replay:
    """The totals a replay of the session's rounds reaches, round by round."""

    points: list[int]
    house: int
    coins: list[int] | None
    house_coins: int


@dataclass(frozen=True, slots=True)
class _Settled:
    """What the replay compares of a round's settlement: its net points and the house's; and, with coins,
    each seat's coin change, the balances after it and the house's take (None when the round moves no coin:
    the session has none, or the engine settled none)."""

    net: tuple[int, ...]
    house: int
    coins: tuple[tuple[int, ...], tuple[int, ...], int] | None


def _replay_findings(session: Session, read: Read) -> Iterator[Finding]:
    starting = (
        list(session.starting_balances) if session.coins_enabled and session.starting_balances else None
    )
    replay = _Replay(points=[0] * SEATS, house=0, coins=starting, house_coins=0)
    versions = {(sealed.stored["round_id"], sealed.version): sealed.stored for sealed in read.sealed.values()}
    rules = rules_from(session.rules)  # read once, not once a round
    for round_ in session.rounds.order_by("position").values(*ROUND_FIELDS):
        version = versions.get((round_["id"], round_["version"]))
        if version is None:
            yield Finding(
                session=session,
                position=round_["position"],
                what=f"its version {round_['version']} is missing",
            )
            continue
        if foreign := read.foreign[round_["id"]]:
            yield Finding(
                session=session,
                position=round_["position"],
                what=f"rows of another session's versions name it: {foreign}",
            )
        nets = [_placed(read.moved[name].get(round_["id"], {})) for name in MOVED_COLUMN]
        yield from _replay_round(session, rules, round_, nets, version, replay)
    yield from _compare_totals(session, replay)


ROUND_FIELDS = ("id", "position", "version", "voided", "dealer", "void_suits", "events", *KEPT_NETS)


def _placed(nets: Mapping[Any, int]) -> tuple[list[int], int]:
    """What a round's rows of one table move, each seat's and the house's (a row of no seat moves none's)."""
    return [nets.get(seat, 0) for seat in range(SEATS)], nets.get(HOUSE, 0)


def _replay_round(
    session: Session,
    rules: Rules,
    round_: Mapping[str, Any],
    nets: Sequence[tuple[list[int], int]],
    version: Mapping[str, Any],
    replay: _Replay,
) -> Iterator[Finding]:
    """``nets``: what the round's rows move, points then coins (``_placed``)."""
    where = {"session": session, "position": round_["position"]}
    if any(round_[name] != version[name] for name in ("dealer", "void_suits", "events")):
        yield Finding(what="its events differ from those of its current version", **where)
    stored = nets[0]
    kept = [round_[name] for name in KEPT_NETS[:SEATS]], round_[KEPT_NETS[SEATS]]
    if kept != stored:
        yield Finding(
            what=f"it keeps points {kept[0]} and house {kept[1]}; its rows give {stored[0]} and house "
            f"{stored[1]}",
            **where,
        )
    result: _Settled | None = None
    if round_["voided"]:
        expected = ([0] * SEATS, 0)
    else:
        settled = _settled(session, rules, version, replay)
        if isinstance(settled, EngineError):
            yield Finding(
                what=f"the engine refuses its stored events: {settled.field}: {settled.message}", **where
            )
            return
        result = settled
        expected = (list(result.net), int(result.house))
    if stored != expected:
        yield Finding(
            what=f"its rows give points {stored[0]} and house {stored[1]}; "
            f"a replay of its events gives {expected[0]} and house {expected[1]}",
            **where,
        )
    replay.points = [total + net for total, net in zip(replay.points, expected[0], strict=True)]
    replay.house += expected[1]
    if replay.coins is not None:
        yield from _replay_coins(nets[1][0], result, replay, where)


def _replay_coins(
    stored: list[int], result: _Settled | None, replay: _Replay, where: dict[str, Any]
) -> Iterator[Finding]:
    coins = None if result is None else result.coins
    expected = [0] * SEATS if coins is None else list(coins[0])
    if stored != expected:
        yield Finding(what=f"its coin rows give {stored}; a replay of its events gives {expected}", **where)
    if coins is not None:
        replay.coins = list(coins[1])
        replay.house_coins += coins[2]


def _settled(
    session: Session, rules: Rules, version: Mapping[str, Any], replay: _Replay
) -> _Settled | EngineError:
    """The engine's settlement of the version's stored inputs (its dealer, void suits and events, and the
    coin balances the replay has reached), or its refusal. Each round is settled afresh: a session's rounds
    differ (with coins, the balances before each always do), so a memo of them would save nothing but on
    a benchmark's copied evenings."""
    try:
        result = _settle(session, rules, version, replay.coins)
    except EngineError as error:
        return error
    coins = result.coins
    moved = None if not coins else (tuple(coins.change), tuple(coins.balances), int(coins.house))
    return _Settled(tuple(result.net), int(result.house), moved)


def _settle(
    session: Session, rules: Rules, version: Mapping[str, Any], balances: list[int] | None
) -> RoundResult:
    coins = None if balances is None else {"balances": balances, "room_coefficient": session.room_coefficient}
    return settle_round(
        dealer=version["dealer"],
        events=version["events"],
        rules=rules,
        void_suits=version["void_suits"],
        coins=coins,
    )


def _compare_totals(session: Session, replay: _Replay) -> Iterator[Finding]:
    # What is stored (per seat, the house) beside what the replay reached: the points, summed from the
    # ledger's rows (the totals read the kept figures, which figures.drift checks against those rows),
    # then any coins.
    points, house_points = selectors.ledger_points(session)
    figures: list[tuple[str, Sequence[int | None], int | None, Sequence[int], int]] = [
        ("totals are points", points, house_points, replay.points, replay.house)
    ]
    if replay.coins is not None:
        totals = selectors.session_totals(session)
        coins = [seat.coins for seat in totals.seats]
        figures.append(("coin balances are", coins, totals.house_coins, replay.coins, replay.house_coins))
    for what, seats, house, replayed_seats, replayed_house in figures:
        if (seats, house) != (replayed_seats, replayed_house):
            yield Finding(
                session=session,
                what=f"its {what} {seats} and house {house}; "
                f"a replay of its rounds gives {replayed_seats} and house {replayed_house}",
            )
