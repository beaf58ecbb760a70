"""Moving a group: one JSON file out (``group_export``), a new group in by replaying it (``group_import``).

The file (API.md, "Moving a group"): ``{"format": "sczmj-group", "version": 1, "group", "players",
"members", "sessions"}``; each session carries its rules, seats, coins, status and times, its rounds as
entered with every version (kind, dealer, void suits, events, the notes that explain them, who and when,
the figures it settled to, its place in the session's history), the session's totals, its table fee and
its payment marks. A file exported before versions carried their notes has none; its versions are then
imported without them; one exported before fees or marks moved imports with none.

Import: everything is checked, settled and sealed in memory, then written at once (services/bulk.py),
so any refusal stores nothing and the database's write lock is held for the inserts alone:

1. check the envelope (format and version), the group's name and its players;
2. per session: its rules and coins as ``session_start`` checks them; replay its history in the order it
   was written, each ``recorded`` version as ``round_record`` writes it, each ``corrected`` as
   ``round_correct`` does, each ``voided`` as ``round_void`` (``recoined`` versions are the consequence
   of an earlier change and are written again by it), each version with its notes;
3. compare: every round's versions must come out as the file lists them (kinds and figures) and the
   session's totals as the file's; any difference is a 400 naming where it is;
4. put back who and when (the file's names and times: the accounts of another server are not this
   server's, so versions name their writer, unlinked: the file's claim) and close the sessions the file
   closed;
5. check the file's own seal (``file_chain`` below): a file changed since it was exported is refused,
   unless the importer asks to re-seal it, which the new group records (who imported it, when, re-sealed).
   It comes last so that a file whose figures or fields are wrong is refused for that, named where.

Members are listed in the file for the record, not imported: an account name on another server is not
the same person here, and the importer becomes the only owner (docs/ledger.md, "Moving a group").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from calculator.engine import EngineError

from . import bounds, integrity, selectors, services
from .canonical import canonical
from .errors import LedgerError
from .memory import cycles_uncollected
from .models import (
    MAX_KEY_LENGTH,
    WRITER_NAME_LENGTH,
    Group,
    PaymentMark,
    Player,
    Round,
    RoundVersion,
    Session,
    SessionStatus,
    Sitting,
    VersionKind,
)
from .names import baked_day_name
from .services import bulk

FORMAT = "sczmj-group"
VERSION = 2  # 2: a session may carry its sittings (a substitute, a swap); a file without any is written as 1
VERSIONS = (1, VERSION)  # what an import reads
SITTINGS = "sittings"
FIGURE_ZH = {"net": "净分", "house": "房间", "coins": "游戏币"}


# --- export ------------------------------------------------------------------------------------------------


def group_export(*, actor: User, group: Group) -> dict[str, Any]:
    """The whole group as one JSON-ready dict (owners only), in a bounded number of queries whatever the
    group's size: its players, members, sessions, then all their rounds, versions, seats and totals."""
    services.require_role(actor=actor, group=group, roles=("owner",))
    players = [
        {
            "id": player.pk,
            "name": player.name,
            "username": player.user.get_username() if player.user else None,
            "created": _time(player.created),
        }
        for player in selectors.group_players(group)
    ]
    sessions = list(Session.objects.filter(group=group).order_by("id"))
    written = [_sealed(session, players) for session in _sessions(sessions)]
    return {
        "format": FORMAT,
        # version 1 readers read every file with no change of seats as they always have
        "version": VERSION if any(SITTINGS in session for session in written) else 1,
        "exported": _time(timezone.now()),
        "group": {"id": group.pk, "name": group.name, "created": _time(group.created)},
        "players": players,
        "members": [
            {"username": member.user.get_username(), "role": member.role, "created": _time(member.created)}
            for member in selectors.group_members(group)
        ],
        "sessions": written,
    }


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _sessions(sessions: Sequence[Session]) -> Iterator[dict[str, Any]]:
    """Each session as the file holds it; its rows read for all the sessions together."""
    rounds: dict[int, list[Round]] = {}
    for round_ in Round.objects.filter(session__in=sessions).order_by("position"):
        rounds.setdefault(round_.session_id, []).append(round_)
    versions: dict[int, list[RoundVersion]] = {}
    for version in (
        RoundVersion.objects.filter(round__session__in=sessions)
        .select_related("created_by")
        .annotate(session_id=F("round__session_id"))
        .order_by("id")
    ):
        versions.setdefault(version.session_id, []).append(version)
    marks: dict[int, list[dict[str, Any]]] = {}
    for mark in PaymentMark.objects.filter(session__in=sessions).order_by("id"):
        marks.setdefault(mark.session_id, []).append(_mark(mark))
    sittings = selectors.sittings(sessions)
    totals = selectors.sessions_totals(sessions)
    for session in sessions:
        yield _session(
            session,
            rounds.get(session.pk, []),
            versions.get(session.pk, []),
            sittings.get(session.pk, []),
            _totals_of(session, totals[session.pk]),
            marks.get(session.pk, []),
        )


def _session(
    session: Session,
    rounds: Sequence[Round],
    versions: Sequence[RoundVersion],
    spells: Sequence[Sitting],
    totals: dict[str, Any],
    marks: list[dict[str, Any]],
) -> dict[str, Any]:
    """One session: its seats as it started, every sitting when its seats ever changed (docs/ledger.md,
    "Substitutes"), its rounds in position order, its versions (oldest first) numbered in written order,
    its payment marks (docs/ledger.md, "Debts that carry over") oldest first."""
    sequence = {version.pk: index for index, version in enumerate(versions, start=1)}
    by_round: dict[int, list[RoundVersion]] = {}
    for version in versions:
        by_round.setdefault(version.round_id, []).append(version)
    changed = any(spell.first > 1 or spell.last is not None for spell in spells)
    seating = (
        {
            SITTINGS: [
                {"seat": spell.seat, "player": spell.player_id, "first": spell.first, "last": spell.last}
                for spell in spells
            ]
        }
        if changed
        else {}
    )
    return {
        "id": session.pk,
        "name": session.name,
        "rules": session.rules,
        "coins": (
            {"room_coefficient": session.room_coefficient, "starting_balances": session.starting_balances}
            if session.coins_enabled
            else None
        ),
        "status": session.status,
        "created": _time(session.created),
        "closed": _time(session.closed),
        "seats": [spell.player_id for spell in sorted(spells, key=lambda s: s.seat) if spell.first == 1],
        **seating,
        # the table fee (docs/ledger.md, "The table fee"); ``paid_by`` a player's id in this file
        "fee": {"amount": session.fee_amount, "split": session.fee_split, "paid_by": session.fee_paid_by_id},
        "rounds": [
            {
                "position": round_.position,
                "idempotency_key": round_.idempotency_key,
                "created": _time(round_.created),
                "versions": [
                    _version(version, sequence[version.pk])
                    for version in sorted(by_round.get(round_.pk, ()), key=lambda v: v.version)
                ],
            }
            for round_ in rounds
        ],
        "totals": totals,
        "marks": marks,
        "ledger_digest": session.ledger_digest,
    }


def _version(version: RoundVersion, sequence: int) -> dict[str, Any]:
    return {
        "version": version.version,
        "kind": version.kind,
        "sequence": sequence,
        "dealer": version.dealer,
        "void_suits": version.void_suits,
        "events": version.events,
        "notes": version.notes,
        "created_by": version.writer_name,
        "created": _time(version.created),
        **_figures(version),
        "digest": version.digest,
    }


def _mark(mark: PaymentMark) -> dict[str, Any]:
    """A payment mark or its reversal (``reverses`` the id of the mark it cancels), players by their id."""
    return {
        "id": mark.pk,
        "payer": mark.payer_id,
        "payee": mark.payee_id,
        "amount": mark.amount,
        "marked_by": mark.marked_by_name,
        "created": _time(mark.created),
        "reverses": mark.reverses_id,
    }


def _figures(version: RoundVersion) -> dict[str, Any]:
    """What the version settled to: net points per seat, the house, the coins (null for a void)."""
    result = version.result
    if result is None:
        return {"net": None, "house": None, "coins": None}
    coins = result.get("coins")
    return {
        "net": result["net"],
        "house": result["house"],
        "coins": None if coins is None else {"change": coins["change"], "house": coins["house"]},
    }


def _totals(session: Session) -> dict[str, Any]:
    return _totals_of(session, selectors.session_totals(session))


def _totals_of(session: Session, totals: selectors.SessionTotals) -> dict[str, Any]:
    """The session's totals as the file holds them (and as a replay must reach them): points per person,
    the seats now then whoever left (``SessionTotals.players``)."""
    return {
        "points": [person.points for person in totals.players],
        "house": totals.house,
        "coins": [seat.coins for seat in totals.seats] if session.coins_enabled else None,
        "house_coins": totals.house_coins,
    }


# --- the file's own seal -----------------------------------------------------------------------------------
#
# The ledger's seal (integrity.py) hashes this server's rows and ids, which another server cannot rebuild;
# so the file carries a chain of its own, over the file as written. Each session's chain opens with a link
# over its header (everything but its rounds, plus its seated players as the file names them), then one
# link per version in the order written, over the version as the file holds it (the origin's digest
# included) and its round's place, key and time. Whatever a reader would take on trust, who wrote a
# version and when, a name, a zeroed digest, breaks a link. Like the ledger's seal it is not a signature:
# someone who edits a file and runs this code over it rebuilds a chain that holds (docs/ledger.md).

CHAIN = "chain"


def file_chain(session: Mapping[str, Any], players: Mapping[object, Any]) -> tuple[str, dict[int, str]]:
    """The session's head and each version's link, by the version's ``sequence``."""
    header = {key: value for key, value in session.items() if key not in ("rounds", CHAIN)}
    seated = [players.get(file_id) for file_id in session.get("seats") or ()]
    for spell in session.get(SITTINGS) or ():  # a substitute's row is sealed as a seat's is
        seated.append(players.get(spell.get("player")) if isinstance(spell, Mapping) else None)
    link = integrity.digest_of("", canonical({"session": header, "players": seated}))
    versions = []
    for round_ in session.get("rounds") or ():
        place = {key: round_.get(key) for key in ("position", "idempotency_key", "created")}
        for version in round_.get("versions") or ():
            content = {key: value for key, value in version.items() if key != CHAIN}
            versions.append((version.get("sequence"), {"round": place, "version": content}))
    links = {}
    for sequence, content in sorted(versions, key=lambda step: step[0]):
        link = integrity.digest_of(link, canonical(content))
        links[sequence] = link
    return link, links


def _sealed(session: dict[str, Any], players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    head, links = file_chain(session, {player["id"]: player for player in players})
    for round_ in session["rounds"]:
        for version in round_["versions"]:
            version[CHAIN] = links[version["sequence"]]
    session[CHAIN] = head
    return session


def _chain_break(session: Mapping[str, Any], players: Mapping[object, Any], at: str) -> str | None:
    """Where the file's chain first fails to hold, or None: a version's link, else the session's head."""
    head, links = file_chain(session, players)
    breaks = [
        (version.get("sequence"), f"{at}.rounds[{index}].versions[{number}].{CHAIN}")
        for index, round_ in enumerate(session["rounds"])
        for number, version in enumerate(round_["versions"])
        if version.get(CHAIN) != links[version.get("sequence")]
    ]
    if breaks:
        return min(breaks)[1]
    return None if session.get(CHAIN) == head else f"{at}.{CHAIN}"


# --- import ------------------------------------------------------------------------------------------------


@cycles_uncollected()  # the whole file's history in memory at once: see ledger/memory.py
def group_import(*, actor: User, data: object, reseal: bool = False) -> Group:
    """A new group owned by ``actor``, replayed from an exported file; refused whole (400) if anything in
    it is malformed, refused by the engine, or replays to other figures than the file's own, or if its
    own chain does not hold and ``reseal`` was not asked for. Everything is checked, settled and sealed
    in memory first; only then is it written, in one short transaction (services/bulk.py)."""
    file = _object(data, "body")
    # Text no database stores (a NUL, a lone surrogate) is refused up front, named where it is, by the same
    # check a recorded round gets: nothing below then fails half-way in the database.
    services.checks._refuse_unstorable(file, "")
    if file.get("format") != FORMAT:
        raise LedgerError("not_a_group_file", field="format", format=FORMAT)
    if file.get("version") not in VERSIONS or isinstance(file.get("version"), bool):  # true == 1 in Python
        raise LedgerError(
            "group_file_version",
            field="version",
            version=" or ".join(map(str, VERSIONS)),
            value=file.get("version"),
        )
    group_data = _object(file.get("group"), "group")
    with _within("group"):
        name = services.checks._required_text(group_data.get("name"), "name", 100)
    rows = _list(file.get("players"), "players")
    players = _players(rows)
    bulk.reserve([(Player, list(players.values()))])  # the rows name them: their ids come first
    claimed = {row["id"]: row for row in rows}  # each checked to be an object with a whole id
    drafts, broken = [], False
    for index, session in enumerate(_list(file.get("sessions"), "sessions")):
        at = f"sessions[{index}]"
        with _within(at):
            bounds.check_group_sessions(index)
        draft, session_broken = _draft_session(players, claimed, _object(session, at), at, reseal=reseal)
        drafts.append(draft)
        broken |= session_broken
    _number_days([draft.session for draft in drafts])
    group = Group(name=name, imported=timezone.now(), imported_by=actor, resealed=broken)
    return bulk.store(actor, bulk.Import(group=group, players=list(players.values()), drafts=drafts))


def _number_days(sessions: Sequence[Session]) -> None:
    """Each session's number among the group's sessions of its day, in the file's order (session_start
    numbers them as they start)."""
    started: dict[object, int] = {}
    for session in sessions:
        started[session.day] = session.day_number = started.get(session.day, 0) + 1


@contextmanager
def _within(prefix: str) -> Iterator[None]:
    """An engine or service refusal inside, named from the file's top: ``sessions[0].rounds[2]…``."""
    try:
        yield
    except EngineError as error:
        raise error.within(prefix) from None


def _object(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise LedgerError("file_not_an_object", field=field, path=field)
    return value


def _list(value: object, field: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise LedgerError("file_not_a_list", field=field, path=field)
    return value


def _whole(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= services.MAX_ID:
        raise LedgerError("file_not_whole", field=field, path=field)
    return value


def _moment(value: object, field: str) -> datetime:
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None or moment.tzinfo is None:
        raise LedgerError("file_not_a_moment", field=field, path=field)
    return moment


def _players(rows: Sequence[Any]) -> dict[int, Player]:
    """The file's players by their id in the file, checked as ``player_add`` checks them; not stored."""
    players: dict[int, Player] = {}
    names: set[str] = set()
    for index, row in enumerate(rows):
        field = f"players[{index}]"
        player = _object(row, field)
        file_id = _whole(player.get("id"), f"{field}.id")
        if file_id in players:
            raise LedgerError("file_player_twice", field=f"{field}.id", value=file_id)
        created = _moment(player.get("created"), f"{field}.created")
        with _within(field):
            name = services.checks._required_text(player.get("name"), "name", 50)
            if name in names:
                raise LedgerError("player_name_taken", field="name", name=name)
        names.add(name)
        players[file_id] = Player(name=name, created=created)
    return players


def _draft_session(
    players: Mapping[int, Player],
    claimed: Mapping[object, Any],
    data: Mapping[str, Any],
    at: str,
    *,
    reseal: bool,
) -> tuple[bulk.Draft, bool]:
    """One session of the file replayed in memory; whether its chain was broken (and so re-sealed)."""
    seated = []
    for index, file_id in enumerate(_list(data.get("seats"), f"{at}.seats")):
        player = players.get(file_id) if isinstance(file_id, int) else None
        if player is None:
            raise LedgerError("file_no_such_player", field=f"{at}.seats[{index}]")
        seated.append(player)
    with _within(at):
        services.sessions.seat_ids_check([player.pk for player in seated])
        session = services.sessions.session_row(
            group=None,
            name=data.get("name"),
            rules=_object(data.get("rules"), "rules"),
            coins=data.get("coins"),
        )
    spells = _sittings(session, seated, players, data.get(SITTINGS), f"{at}.{SITTINGS}")
    seated = list(dict.fromkeys([*seated, *(spell.player for spell in spells)]))  # everyone who played
    if data.get("fee") is not None:  # files written before the table fee have none
        _fee(session, seated, players, _object(data["fee"], f"{at}.fee"), f"{at}.fee")
    marks = _marks(session, seated, players, _list(data.get("marks", []), f"{at}.marks"), f"{at}.marks")
    rounds = [
        _object(row, f"{at}.rounds[{index}]")
        for index, row in enumerate(_list(data.get("rounds"), f"{at}.rounds"))
    ]
    draft = bulk.Draft(session, spells, marks)
    _replay(draft, rounds, at)
    replayed = _Replayed(draft, data, rounds, at)
    _compare(replayed)
    _restore_who_and_when(replayed)  # checks the file's times as it puts them back
    broken = _chain_break(data, claimed, at)
    if broken is not None and not reseal:
        raise LedgerError("file_chain_broken", field=broken)
    return draft, broken is not None


def _fee(
    session: Session, seated: Sequence[Player], players: Mapping[int, Player], fee: Mapping[str, Any], at: str
) -> None:
    """The session's table fee as ``session_fee_set`` checks it, ``paid_by`` a player's id in the file."""
    paid_by = fee.get("paid_by")
    if paid_by is not None and not (isinstance(paid_by, int) and paid_by in players):
        raise LedgerError("file_no_such_player", field=f"{at}.paid_by")
    with _within(at):
        amount, split, payer = services.sessions.fee_checked(
            amount=fee.get("amount"),
            split=fee.get("split"),
            paid_by=None if paid_by is None else players[paid_by],
            seated=set(seated),
        )
    session.fee_amount, session.fee_split, session.fee_paid_by = amount, split, payer


def _marks(
    session: Session,
    seated: Sequence[Player],
    players: Mapping[int, Player],
    rows: Sequence[Any],
    at: str,
) -> list[PaymentMark]:
    """The session's payment marks (a file written before they moved has none), checked as the database's
    constraints and ``payment_undo`` hold them: between two players who sat, a positive amount, or the
    reversal of one earlier mark of the pair, which it cancels once. Who marked and when are the file's
    claim, as its versions' writers are: a name unlinked from any account here (so an owner here undoes
    an imported mark, ``services.may_undo``), covered by the file's chain (``file_chain``: a session's
    marks are in its header)."""
    marks: dict[int, PaymentMark] = {}
    cancelled: set[object] = set()  # the file ids of the marks reversed so far
    for index, row in enumerate(rows):
        field = f"{at}[{index}]"
        data = _object(row, field)
        file_id = _whole(data.get("id"), f"{field}.id")
        if file_id in marks:
            raise LedgerError("file_mark_twice", field=f"{field}.id", value=file_id)
        payer, payee = (
            _party(data.get(key), seated, players, f"{field}.{key}") for key in ("payer", "payee")
        )
        if payer is payee:
            raise LedgerError("file_mark_pair", field=f"{field}.payee")
        reverses = _reversed(data.get("reverses"), marks, cancelled, (payer, payee), f"{field}.reverses")
        amount = data.get("amount")
        low, high = (1, services.MAX_ID) if reverses is None else (-reverses.amount, -reverses.amount)
        if not services.checks._is_whole(amount, low, high):
            raise LedgerError("file_mark_amount", field=f"{field}.amount")
        writer = data.get("marked_by")
        marks[file_id] = PaymentMark(
            session=session,
            payer=payer,
            payee=payee,
            amount=amount,
            marked_by_name=writer[:WRITER_NAME_LENGTH] if isinstance(writer, str) else "",
            reverses=reverses,
            created=_moment(data.get("created"), f"{field}.created"),
        )
    return list(marks.values())


def _sittings(
    session: Session, seated: Sequence[Player], players: Mapping[int, Player], rows: object, at: str
) -> list[Sitting]:
    """Who sat where when: the file's sittings (version 2, a session whose seats changed), or, without
    any, its four seats all evening. Checked as a table can have sat: each seat a run of spells from hand
    1 (the first its seat's player), each beginning the hand after the one before it ended, the last
    still open; no player at two seats in one hand (``file_sittings``, naming the row)."""
    if rows is None:
        return [Sitting(session=session, seat=seat, player=player) for seat, player in enumerate(seated)]
    spells: list[Sitting] = []
    for index, row in enumerate(_list(rows, at)):
        data = _object(row, f"{at}[{index}]")
        file_id = data.get("player")
        seat, player = data.get("seat"), players.get(file_id) if isinstance(file_id, int) else None
        first, last = data.get("first"), data.get("last")
        whole = services.checks._is_whole
        if not (whole(seat, 0, 3) and player is not None and whole(first, 1, services.MAX_ID)):
            raise LedgerError("file_sittings", field=f"{at}[{index}]")
        if last is not None and not whole(last, first, services.MAX_ID):
            raise LedgerError("file_sittings", field=f"{at}[{index}].last")
        spells.append(Sitting(session=session, seat=seat, player=player, first=first, last=last))
    broken = _seating_break(spells, seated)
    if broken is not None:
        raise LedgerError("file_sittings", field=f"{at}[{broken}]")
    return spells


def _seating_break(spells: Sequence[Sitting], seated: Sequence[Player]) -> int | None:
    """The index of the first spell that breaks the seating's rules (``_sittings``), or None."""
    for seat, starter in enumerate(seated):
        own = sorted(
            (i for i, spell in enumerate(spells) if spell.seat == seat), key=lambda i: spells[i].first
        )
        if not own:
            return len(spells)
        expected, player = 1, starter
        for place, i in enumerate(own):
            spell = spells[i]
            if spell.first != expected or (place == 0 and spell.player != player):
                return i
            if (spell.last is None) != (place == len(own) - 1):
                return i
            expected = (spell.last or 0) + 1
    for i, spell in enumerate(spells):
        for other in spells[:i]:
            if other.player == spell.player and _overlap(other, spell):
                return i
    return None


def _overlap(one: Sitting, other: Sitting) -> bool:
    ends = [spell.last if spell.last is not None else services.MAX_ID for spell in (one, other)]
    return one.first <= ends[1] and other.first <= ends[0]


def _party(file_id: object, seated: Sequence[Player], players: Mapping[int, Player], field: str) -> Player:
    """One side of a payment: a player of the file who sat in the session."""
    player = players.get(file_id) if isinstance(file_id, int) else None
    if player is None or player not in seated:
        raise LedgerError("file_mark_pair", field=field)
    return player


def _reversed(
    file_id: object,
    marks: Mapping[int, PaymentMark],
    cancelled: set[object],
    pair: tuple[Player, Player],
    field: str,
) -> PaymentMark | None:
    """The earlier mark a reversal cancels (None: the row is a mark), noted as cancelled."""
    if file_id is None:
        return None
    mark = marks.get(file_id) if isinstance(file_id, int) else None
    if mark is None or mark.reverses is not None or file_id in cancelled or (mark.payer, mark.payee) != pair:
        raise LedgerError("file_mark_reverses", field=field)
    cancelled.add(file_id)
    return mark


def _history(rounds: Sequence[Mapping[str, Any]], at: str) -> list[tuple[int, int, int, Mapping[str, Any]]]:
    """Every version of the file as (sequence, round index, version index, version), in written order."""
    history = []
    for index, round_ in enumerate(rounds):
        where = f"{at}.rounds[{index}]"
        if round_.get("position") != index + 1:
            raise LedgerError("file_round_positions", field=f"{where}.position")
        _idempotency_key(round_.get("idempotency_key"), f"{where}.idempotency_key")
        versions = _list(round_.get("versions"), f"{where}.versions")
        for number, version in enumerate(versions):
            field = f"{where}.versions[{number}]"
            version = _object(version, field)
            kind = version.get("kind")
            first = number == 0
            if version.get("version") != number + 1 or (kind == VersionKind.RECORDED) != first:
                raise LedgerError("file_version_numbers", field=field)
            if kind not in VersionKind.values:
                raise LedgerError("file_version_kind", field=f"{field}.kind", value=kind)
            history.append((_whole(version.get("sequence"), f"{field}.sequence"), index, number, version))
        if not versions:
            raise LedgerError("file_round_without_versions", field=f"{where}.versions")
    sequences = [sequence for sequence, *_ in history]
    if len(set(sequences)) != len(sequences):
        raise LedgerError("file_sequence_shared", field=f"{at}.rounds")
    return sorted(history, key=lambda step: step[0])


def _replay(draft: bulk.Draft, rounds: Sequence[Mapping[str, Any]], at: str) -> None:
    """Write the file's history again, in memory, in the order it was written."""
    for _, index, number, version in _history(rounds, at):
        step = STEPS.get(version["kind"])
        if step is None:
            continue  # recoined: the draft writes it again as the consequence of an earlier change
        body = {key: version.get(key) for key in ("dealer", "void_suits", "events")}
        with _within(f"{at}.rounds[{index}].versions[{number}]"):
            step(draft, index, body, _notes(version), rounds[index].get("idempotency_key"))


def _notes(version: Mapping[str, Any]) -> Sequence[object] | None:
    """The version's notes as the file holds them; none in a file exported before it carried them (the
    version is then written as the services write one without notes)."""
    notes = version.get("notes")
    return None if notes is None else _list(notes, "notes")


def _record(draft: bulk.Draft, index: int, body: Any, notes: Any, key: Any) -> None:
    if index != len(draft.rounds):
        raise LedgerError("file_rounds_out_of_order", field="sequence")
    draft.record(body, notes, key)


def _correct(draft: bulk.Draft, index: int, body: Any, notes: Any, key: Any) -> None:
    # A corrected version after a voided one is a hand taken back and finished anew (undo, then redo).
    draft.correct(draft.rounds[_recorded(draft, index)], body, notes)


def _void(draft: bulk.Draft, index: int, body: Any, notes: Any, key: Any) -> None:
    draft.void(draft.rounds[_recorded(draft, index)])  # its notes are those of the version it voids


def _recorded(draft: bulk.Draft, index: int) -> int:
    if index >= len(draft.rounds):
        raise LedgerError("file_changed_before_recorded", field="sequence")
    return index


STEPS = {VersionKind.RECORDED: _record, VersionKind.CORRECTED: _correct, VersionKind.VOIDED: _void}


def _idempotency_key(value: object, field: str) -> str | None:
    """The round's key as the API took it (a header of 1 to MAX_KEY_LENGTH printable characters), or none."""
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_KEY_LENGTH or not value.isprintable():
        raise LedgerError("file_idempotency_key", field=field, maximum=MAX_KEY_LENGTH)
    return value


@dataclass(frozen=True, slots=True)
class _Replayed:
    """One session of the file and its replay in memory: what the steps after the replay compare and
    put back."""

    draft: bulk.Draft
    data: Mapping[str, Any]  # the file's session
    rounds: Sequence[Mapping[str, Any]]  # its rounds, each checked to be an object
    at: str  # where the session is in the file: sessions[0]

    def pairs(self) -> Iterator[tuple[Round, list[RoundVersion], Mapping[str, Any], str]]:
        """Each replayed round, its versions, the file's round it replays and where that is in the file."""
        versions = self.draft.versions()
        for index, (round_, file_round) in enumerate(zip(self.draft.rounds, self.rounds, strict=True)):
            yield round_, versions[round_.position], file_round, f"{self.at}.rounds[{index}]"


def _compare(replayed: _Replayed) -> None:
    """The replay must give the file's own figures, version by version, and the file's totals."""
    for _, mine, file_round, at in replayed.pairs():
        expected = file_round["versions"]
        where = f"{at}.versions"
        kinds = [version.kind for version in mine]
        if kinds != [version["kind"] for version in expected]:
            raise _differs(where, f"{len(kinds)} versions ({', '.join(kinds)})", f"{len(kinds)} 个版本")
        for number, (version, theirs) in enumerate(zip(mine, expected, strict=True)):
            for key, value in _figures(version).items():
                if theirs.get(key) != value:
                    figure = _plain(value)
                    raise _differs(
                        f"{where}[{number}].{key}", f"{key} {figure}", f"{FIGURE_ZH[key]} {figure}"
                    )
    points, house, coins, house_coins = replayed.draft.totals()
    totals = {"points": points, "house": house, "coins": coins, "house_coins": house_coins}
    if replayed.data.get("totals") != totals:
        raise _differs(
            f"{replayed.at}.totals",
            f"points {_plain(points)} and house {house}",
            f"分数 {_plain(points)}，房间 {house}",
        )


def _plain(value: object) -> str:
    """A figure as a player reads it: numbers separated by spaces, no JSON punctuation."""
    if isinstance(value, Mapping):
        return " / ".join(_plain(item) for item in value.values())  # coins: the change, then the house
    if isinstance(value, list):
        return " ".join(_plain(item) for item in value)
    return "-" if value is None else str(value)


def _differs(field: str, replayed: str, replayed_zh: str) -> EngineError:
    return LedgerError("file_figures_differ", field=field, replayed=replayed, replayed_zh=replayed_zh)


def _restore_who_and_when(replayed: _Replayed) -> None:
    """The file's names and times on what the replay wrote (none of them is sealed: see integrity.py), and
    its sessions closed as the file closed them."""
    for round_, mine, file_round, at in replayed.pairs():
        for number, (version, theirs) in enumerate(zip(mine, file_round["versions"], strict=True)):
            writer = theirs.get("created_by")
            version.created = _moment(theirs.get("created"), f"{at}.versions[{number}].created")
            version.created_by_name = writer[:WRITER_NAME_LENGTH] if isinstance(writer, str) else ""
        round_.created = _moment(file_round.get("created"), f"{at}.created")
    draft, data = replayed.draft, replayed.data
    if data.get("status") == SessionStatus.CLOSED:
        draft.close()
        draft.session.status = SessionStatus.CLOSED
        draft.session.closed = _moment(data.get("closed"), f"{replayed.at}.closed")
    session = draft.session
    session.created = _moment(data.get("created"), f"{replayed.at}.created")
    session.day = timezone.localtime(session.created).date()
    session.name = "" if baked_day_name(session.name, session.day) else session.name
