"""Debts that carry over: what each settle-up asks, what was marked paid, and what is still owed.

The model (docs/ledger.md, "Debts that carry over"):

1. What a session asks is derived, never stored: its settle-up (``selectors.money_settle_up``: the fewest
   transfers of its nets, in coins when it plays for coins), read player to player. A transfer to the
   house is nobody's debt to a person and is left out. A group's reads take them from
   ``models.KeptTransfers``, a copy kept under the key of everything they are made from and settled
   afresh whenever that key moves (``kept_transfers``).
2. A mark (``models.PaymentMark``) is a fact: this much passed from one player to another toward that
   session, said by one of them. Its reversal cancels it.
3. What is still owed is per session and per pair of players: the transfers between the two minus the
   payments between them, each netted over both directions. A correction changes (1) and never (2): a
   pair asked more than it paid has the difference to pay, one that paid more than it is now asked has
   the surplus to return, and a pair the new transfers no longer name has its payments to return.
4. Across sessions (the group page, the carried debts of the next settle-up) a pair's remainders are
   netted again, per unit: points and coins are never added together. The group's netted result is kept
   in ``models.KeptDebts`` under the group's ``debts_revision``, which every write that can change a
   session's transfers or the group's marks moves (``moved``), so a read while nothing was written takes
   it in one query (``group_still_owed``).

Reads, and what the writes call; the writes of marks are ``services.payment_mark`` and
``services.payment_undo``.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import OperationalError, connection, transaction
from django.db.models import F, Max, OuterRef, QuerySet, StringAgg, Subquery, TextField, Value
from django.db.models.functions import Cast, Coalesce, Concat
from django.shortcuts import get_object_or_404

from .models import Group, KeptDebts, KeptTransfers, PaymentMark, RoundVersion, Session, Sitting
from .selectors import SessionTotals, money_settle_up, player_names, sessions_for, sessions_totals

POINTS, COINS = "points", "coins"

# Moves (1, 2, ...) whenever how a session's transfers are made from its inputs changes (the settle-up, the
# fee, whose places they are): every row of ``KeptTransfers`` and ``KeptDebts`` is then stale, made afresh.
TRANSFERS_FORM = 2

Transfer = tuple[int, int, int]  # the payer's player id, the payee's, the amount
Net = dict[tuple[int, int, str], int]  # (the lower player id, the higher, the unit): what low owes high


@dataclass(frozen=True, slots=True)
class Party:
    player_id: int
    name: str


@dataclass(frozen=True, slots=True)
class PairDebt:
    """One pair's account in one session, read from ``payer`` to ``payee``: asked, paid, and what is left
    (negative: ``payee`` has that much to return)."""

    session_id: int
    payer: Party
    payee: Party
    asked: int
    paid: int
    unit: str

    @property
    def left(self) -> int:
        return self.asked - self.paid


@dataclass(frozen=True, slots=True)
class Owing:
    """Across sessions: ``payer`` still owes ``payee`` ``amount`` (always positive) in ``unit``."""

    payer: Party
    payee: Party
    amount: int
    unit: str


def unit_of(session: Session) -> str:
    return COINS if session.coins_enabled else POINTS


def session_debts(session: Session) -> tuple[PairDebt, ...]:
    """Each pair's account in ``session``: the pairs its transfers name, then any its marks alone name."""
    return sessions_debts([session]).get(session.pk, ())


def sessions_debts(sessions: Sequence[Session]) -> dict[int, tuple[PairDebt, ...]]:
    """``session_debts`` of many sessions at once, settled afresh: the totals' queries and one of
    marks."""
    totals = sessions_totals(sessions)
    names = {person.player_id: person.player_name for each in totals.values() for person in each.players}
    settled = [
        Kept(session.pk, unit_of(session), _transfers(session, totals[session.pk])) for session in sessions
    ]
    marks = PaymentMark.objects.filter(session__in=[session.pk for session in sessions])
    return _debts_of(settled, names, marks)


def _debts_of(
    sessions: Sequence[Kept], names: Mapping[int, str], marks: QuerySet[PaymentMark]
) -> dict[int, tuple[PairDebt, ...]]:
    """Steps 2 and 3 for each of ``sessions``, given its transfers and ``marks`` (theirs): one query."""
    by_session = _marks_by_session(marks)
    return {
        kept.session_id: _pair_debts(
            kept.session_id, kept.unit, kept.transfers, names, by_session.get(kept.session_id, ())
        )
        for kept in sessions
    }


def _marks_by_session(marks: QuerySet[PaymentMark]) -> dict[int, list[tuple[Party, Party, int]]]:
    found: dict[int, list[tuple[Party, Party, int]]] = defaultdict(list)
    for session_id, payer, payer_name, payee, payee_name, amount in marks.order_by("id").values_list(
        "session_id", "payer_id", "payer__name", "payee_id", "payee__name", "amount"
    ):
        found[session_id].append((Party(payer, payer_name), Party(payee, payee_name), amount))
    return found


def _transfers(session: Session, totals: SessionTotals) -> list[Transfer]:
    """Step 1: the session's settle-up read player to player; the house's part is nobody's debt."""
    # the settle-up's places are everyone who played, substitutes and those who left included
    by_place = [person.player_id for person in totals.players]
    return [
        (by_place[payment["from"]], by_place[payment["to"]], payment["amount"])
        for payment in money_settle_up(session, totals)["payments"]
        if payment["to"] != "house"
    ]


def _pair_debts(
    session_id: int,
    unit: str,
    transfers: Iterable[Transfer],
    names: Mapping[int, str],
    marks: Iterable[tuple[Party, Party, int]],
) -> tuple[PairDebt, ...]:
    """Steps 1 to 3 of the module's model for one session."""
    parties: dict[int, Party] = {}
    asked: dict[tuple[Party, Party], int] = {}
    for payer, payee, amount in transfers:
        _add(asked, _party(parties, payer, names), _party(parties, payee, names), amount)
    paid: dict[tuple[Party, Party], int] = {}
    for payer_party, payee_party, amount in marks:
        _add(paid, payer_party, payee_party, amount)
    pairs = [*asked, *(pair for pair in paid if pair not in asked)]
    return tuple(_oriented(session_id, unit, *pair, asked.get(pair, 0), paid.get(pair, 0)) for pair in pairs)


def _party(parties: dict[int, Party], player_id: int, names: Mapping[int, str]) -> Party:
    """One ``Party`` per player of a session's pairs: made once, not once per transfer."""
    party = parties.get(player_id)
    if party is None:
        party = parties[player_id] = Party(player_id, names[player_id])
    return party


@dataclass(frozen=True, slots=True)
class Kept:
    """One session's transfers (step 1) as a group's reads take them: oldest session first."""

    session_id: int
    unit: str
    transfers: Sequence[Transfer]


def _spell_text() -> Concat:
    """A sitting as text (id, seat, player, first hand, last: empty while he sits there), the same on every
    database, so that the session's key is made in one query with its row."""
    text, comma = TextField(), Value(",", output_field=TextField())
    parts: list[Any] = []
    for field in ("id", "seat", "player_id", "first"):
        parts += [Cast(field, text), comma]
    last = Coalesce(Cast("last", text), Value("", output_field=text))
    return Concat(*parts, last, output_field=text)


def _kept_rows(group: Group) -> QuerySet[Session, tuple[Any, ...]]:
    """Per session of ``group``, oldest first, in one query: what its transfers are made from (the ledger's
    head, moved by every round version written: records, corrections, voids; whether it plays for coins and
    their start; the fee; its sittings as text), then its kept row's key and transfers (null when none is
    kept). The JSON columns come as text: the key digests the text, and only the kept transfers are
    decoded."""
    spells = (
        Sitting.objects.filter(session=OuterRef("pk"))
        .order_by()
        .values("session")
        .annotate(text=StringAgg(_spell_text(), Value(";")))
        .values("text")
    )
    return (
        group_sessions_oldest_first(group)
        .annotate(
            balances=Cast("starting_balances", TextField()),
            spells=Subquery(spells, output_field=TextField()),
            kept=Cast("kept_transfers__transfers", TextField()),
        )
        .values_list(
            "id",
            "ledger_digest",
            "coins_enabled",
            "balances",
            "fee_amount",
            "fee_split",
            "fee_paid_by_id",
            "spells",
            "kept_transfers__key",
            "kept",
        )
    )


def kept_transfers(group: Group) -> list[Kept]:
    """Each of the group's sessions' transfers (step 1), oldest first, from ``KeptTransfers`` where its key
    is the session's now; the others are settled afresh (their rows, then the totals' queries, whatever
    their number) and kept. One query when none is stale.

    A row can never be taken stale: its key is made from the session row and sittings read *before* the
    totals it is settled from, so a write landing in between leaves a key older than the figures (read
    again next time, never wrongly taken), and no key comes back once its inputs move: the ledger's digest
    is a chain, a sitting's id is never reused, and the fee is read with the digest in one row."""
    found: list[Kept] = []
    stale: dict[int, str] = {}
    for session_id, digest, coins, balances, fee, split, paid_by, spells, kept_key, kept in _kept_rows(group):
        key = transfers_key([session_id, digest, coins, balances, fee, split, paid_by, spells])
        if key == kept_key:
            transfers = json.loads(kept)  # [[payer, payee, amount], ...]: unpacked as a Transfer is
        else:
            stale[session_id] = key
            transfers = []
        found.append(Kept(session_id, COINS if coins else POINTS, transfers))
    if stale:
        sessions = list(group_sessions_oldest_first(group).filter(pk__in=stale))
        totals = sessions_totals(sessions)
        made = {s.pk: Kept(s.pk, unit_of(s), _transfers(s, totals[s.pk])) for s in sessions}
        _keep([KeptTransfers(session_id=pk, key=stale[pk], transfers=made[pk].transfers) for pk in made])
        found = [made.get(kept.session_id, kept) for kept in found]
    return found


def transfers_key(made_from: Sequence[Any]) -> str:
    """The digest of everything a session's transfers are made from (``_kept_rows``' first columns): its
    ledger (whose head moves with every round version written: corrections and voids too), its coins'
    start, its table fee, and who sat where when (each sitting with its id, in one order whatever order
    the database gave them in). ``TRANSFERS_FORM`` moves when the way they are made changes. The values are
    numbers, text, booleans and nulls, whose ``repr`` tells any two apart (and costs a third of
    ``json.dumps``: this runs once per session on every read of a group's debts)."""
    *fields, spells = made_from
    sittings = sorted((spells or "").split(";"))
    return hashlib.sha256(repr((TRANSFERS_FORM, *fields, sittings)).encode()).hexdigest()


def _keep(rows: list[KeptTransfers]) -> None:
    """Store what was settled afresh. Keeping is a saving, not a fact: if the database is busy (SQLite
    behind another write), the read answers all the same and the next one settles again."""
    try:
        with transaction.atomic():
            KeptTransfers.objects.bulk_create(
                sorted(rows, key=lambda row: row.session_id),  # one order: two reads never deadlock
                update_conflicts=True,
                unique_fields=["session"],
                update_fields=["key", "transfers"],
            )
    except OperationalError:
        return


def _add(book: dict[tuple[Party, Party], int], payer: Party, payee: Party, amount: int) -> None:
    """Book ``amount`` from ``payer`` to ``payee`` under the pair's one key (the lower id first)."""
    if payer.player_id < payee.player_id:
        book[payer, payee] = book.get((payer, payee), 0) + amount
    else:
        book[payee, payer] = book.get((payee, payer), 0) - amount


def _oriented(session_id: int, unit: str, first: Party, second: Party, asked: int, paid: int) -> PairDebt:
    """Read the pair from whoever is asked to pay (or, asked nothing, from whoever paid)."""
    if asked < 0 or (asked == 0 and paid < 0):
        return PairDebt(session_id, second, first, -asked, -paid, unit)
    return PairDebt(session_id, first, second, asked, paid, unit)


def group_sessions_oldest_first(group: Group) -> QuerySet[Session]:
    """The group's sessions in the order of its debts."""
    return Session.objects.filter(group=group).order_by("created", "id")


def still_owed(debts: Iterable[PairDebt]) -> tuple[Owing, ...]:
    """Step 4: the remainders netted per pair and unit; the pairs that come out square are left out."""
    net: Net = defaultdict(int)
    parties: dict[int, Party] = {}
    for debt in debts:
        parties[debt.payer.player_id], parties[debt.payee.player_id] = debt.payer, debt.payee
        _net(net, debt.payer.player_id, debt.payee.player_id, debt.unit, debt.left)
    return _owings(net, parties)


def _net(net: Net, payer: int, payee: int, unit: str, amount: int) -> None:
    """Book ``amount`` in ``unit`` from ``payer`` to ``payee`` under the pair's key (the lower id first)."""
    if payer < payee:
        net[payer, payee, unit] += amount
    else:
        net[payee, payer, unit] -= amount


def _owings(net: Net, parties: Mapping[int, Party]) -> tuple[Owing, ...]:
    owings = [
        Owing(parties[low], parties[high], amount, unit)
        if amount > 0
        else Owing(parties[high], parties[low], -amount, unit)
        for (low, high, unit), amount in net.items()
        if amount
    ]
    return tuple(sorted(owings, key=lambda owing: (owing.unit, -owing.amount, owing.payer.name)))


def group_debts(group: Group) -> tuple[PairDebt, ...]:
    """Every session's pair accounts, oldest session first: its transfers as kept (``kept_transfers``),
    so the read does not settle up the group's whole history again. Three queries when none is stale."""
    sessions = kept_transfers(group)
    debts = _debts_of(sessions, player_names(group), PaymentMark.objects.filter(session__group=group))
    return tuple(debt for kept in sessions for debt in debts[kept.session_id])


def group_still_owed(group: Group, *, names: Mapping[int, str] | None = None) -> tuple[Owing, ...]:
    """谁还欠谁: what each pair of the group still owes across all its sessions, ``still_owed`` of
    ``group_debts``. One query while the group's kept result is at its revision (``kept_net``), two when
    the caller has not read the group's ``names`` (``selectors.player_names``); the names are read now, not
    kept, so a renamed player is named as he is now."""
    names = player_names(group) if names is None else names
    return _owings(kept_net(group), {player_id: Party(player_id, name) for player_id, name in names.items()})


def kept_net(group: Group) -> Net:
    """Step 4's net of the whole group, from ``KeptDebts`` while its revision and form are the group's now;
    otherwise netted afresh (``group_net``) and kept. One query when kept.

    A result can never be taken stale: the revision is read *before* what it is netted from, so a write
    landing in between leaves it kept under a revision older than the figures (netted again next time,
    never wrongly taken), and a revision only ever moves on."""
    revision, kept_revision, form, kept = (
        Group.objects.filter(pk=group.pk)
        .values_list("debts_revision", "kept_debts__revision", "kept_debts__form", "kept_debts__net")
        .get()
    )
    if (kept_revision, form) == (revision, TRANSFERS_FORM):
        return {(low, high, unit): amount for low, high, unit, amount in kept}
    net = group_net(group)
    _keep_net(group, revision, net)
    return net


def group_net(group: Group) -> Net:
    """What ``group_still_owed`` answers, as the net per pair and unit, the pairs square left out: the
    transfers (``kept_transfers``) and the marks netted as they come, without making each session's pairs
    (the sum is ``still_owed``'s of ``group_debts``: a pair's remainder is linear in both). Two queries when
    no session is stale."""
    marks = _marks_by_session(PaymentMark.objects.filter(session__group=group))
    net: Net = defaultdict(int)
    for kept in kept_transfers(group):
        for payer, payee, amount in kept.transfers:
            _net(net, payer, payee, kept.unit, amount)
        for payer_party, payee_party, amount in marks.get(kept.session_id, ()):
            _net(net, payer_party.player_id, payee_party.player_id, kept.unit, -amount)
    return {pair: amount for pair, amount in net.items() if amount}


def _keep_net(group: Group, revision: int, net: Net) -> None:
    """Keep ``net`` as the group's result at ``revision``, in one statement: inserted, or over a kept one
    only if that one is older (or of an older form), so two reads netting at once never put an older
    result over a newer one. A saving, not a fact: a busy database (``_keep``) answers all the same."""
    rows = [[low, high, unit, amount] for (low, high, unit), amount in net.items()]
    # as the database takes the JSON column (text on SQLite, jsonb's adapter on PostgreSQL)
    column = KeptDebts._meta.get_field("net").get_db_prep_value(rows, connection)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                _KEEP_NET_SQL,
                {"group": group.pk, "revision": revision, "form": TRANSFERS_FORM, "net": column},
            )
    except OperationalError:
        return


_KEPT_DEBTS = KeptDebts._meta.db_table
_KEEP_NET_SQL = f"""
INSERT INTO {_KEPT_DEBTS} (group_id, revision, form, net) VALUES (%(group)s, %(revision)s, %(form)s, %(net)s)
ON CONFLICT (group_id) DO UPDATE SET revision = excluded.revision, form = excluded.form, net = excluded.net
WHERE {_KEPT_DEBTS}.revision < excluded.revision OR {_KEPT_DEBTS}.form <> excluded.form
"""  # noqa: S608 - the model's own table name; every value is a parameter


def drift(group_ids: Iterable[int]) -> list[str]:
    """The groups among ``group_ids`` whose kept 谁还欠谁, where a read would take it (at the group's revision
    and form now), is not what their sessions settled afresh and their marks make: a write that changed
    transfers or marks without ``moved`` (``verify_ledger`` runs it)."""
    found = []
    kept = KeptDebts.objects.filter(
        group__in=list(group_ids), revision=F("group__debts_revision"), form=TRANSFERS_FORM
    ).select_related("group")
    for row in kept.order_by("group_id"):
        afresh: Net = defaultdict(int)
        sessions = list(group_sessions_oldest_first(row.group))
        for debt in (debt for each in sessions_debts(sessions).values() for debt in each):
            _net(afresh, debt.payer.player_id, debt.payee.player_id, debt.unit, debt.left)
        made = {pair: amount for pair, amount in afresh.items() if amount}
        if {(low, high, unit): amount for low, high, unit, amount in row.net} != made:
            found.append(
                f"group {row.group_id}: its kept debts at revision {row.revision} are not its sessions'"
            )
    return found


def moved(group_id: int) -> None:
    """Move the group's ``debts_revision``: every write that can change one of its sessions' transfers (a
    round version, the fee, the sittings, a session started) or its marks calls it in its transaction,
    after the session's lock (one order of locks: the session, then the group). The writes of whole new
    groups (a group file's import, the scale bench's seed) need not: nothing is kept for a group no read
    has seen."""
    Group.objects.filter(pk=group_id).update(debts_revision=F("debts_revision") + 1)


def tonight_and_carried(session: Session) -> tuple[tuple[PairDebt, ...], tuple[PairDebt, ...]]:
    """``session_debts`` of ``session``, and what the group's other sessions leave unpaid, oldest first
    (the carried part of this settle-up, shown apart from tonight's and marked against the session it
    comes from): one reading of the group's debts, which holds tonight's pairs too."""
    every = group_debts(session.group)
    tonight = tuple(debt for debt in every if debt.session_id == session.pk)
    return tonight, tuple(debt for debt in every if debt.session_id != session.pk and debt.left != 0)


def corrected_after_marks(session: Session, marks: Iterable[PaymentMark]) -> bool:
    """Whether a hand of ``session`` was corrected or voided after its first payment was marked (``marks``:
    its marks, ``session_marks``, which its pages read anyway): its transfers may then differ from what was
    paid, and the settle page says so (step 3)."""
    first_mark = min((mark.created for mark in marks), default=None)
    if first_mark is None:
        return False
    latest = RoundVersion.objects.filter(round__session=session, version__gt=1).aggregate(last=Max("created"))
    return latest["last"] is not None and latest["last"] > first_mark


def session_marks(session: Session) -> QuerySet[PaymentMark]:
    """The session's marks and their reversals, newest first, with whether each is undone."""
    return (
        PaymentMark.objects.filter(session=session)
        .select_related("payer", "payee", "reversed_by")
        .order_by("-id")
    )


def payment_mark_get(*, user: User, mark_id: int) -> PaymentMark:
    """A mark of one of ``user``'s groups (404 for any other)."""
    marks = PaymentMark.objects.filter(session__in=sessions_for(user)).select_related("session__group")
    return get_object_or_404(marks, pk=mark_id)
