"""Changing seats between two hands: a substitute takes a seat, or two seats swap (docs/ledger.md,
"Substitutes").

``session_seats_change`` is a write of the hand in progress like every other (``hand.hand_write``'s
steps 1 to 3: the hand and the table read with the actor's role, a retry answered, a closed session or a
stale revision refused), then, under the session's lock:

1. the hand about to be played must be empty: a change mid-hand is refused (the hand's events name seats,
   and they were tapped for the players who sat then); a session that plays for coins keeps its four
   players (each seat's coins are its stack, not a person's: refused);
2. the change is read: one seat and a player (by id or by name; a name the group does not know becomes a
   player), or two seats swapped; the player must not sit at the table already;
3. from this hand on (``HandInProgress.number``) the changed seats' sittings close at the hand before and
   new ones open, and ``SessionSeat`` is the table as it now sits; a sitting that has played no hand yet
   (a change before the first hand) is simply replaced;
4. the hand's revision moves on, in the hand writes' one ``UPDATE … WHERE revision = <the one read>``:
   when another write came first (an event tapped on another phone, a hand finished with the old seats),
   nothing of the change is kept and it is refused as stale, so no event is ever lost to it and no round
   is ever recorded with a seating that changed under it; every phone then sees the new seating.

Rounds already recorded keep the seating they were played with (their rows name their players; a
correction reads the round's own map, ``selectors.seat_map``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from .. import debts
from ..errors import LedgerError, SeatChangeRefusedError, SessionClosedError, StaleHandError
from ..models import SEATS, HandInProgress, Player, Session, SessionSeat, Sitting
from .checks import MAX_ID, _fingerprint, _is_whole, _required_text
from .groups import player_add
from .hand import HAND_KEY_PREFIX, _Moved, _read, _retried, _revision, _store
from .sessions import _locked


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What a change did: the hand as it now stands, and whether it was a retry answered unapplied."""

    hand: HandInProgress
    replayed: bool = False


def session_seats_change(
    *,
    actor: User,
    session: Session,
    revision: object,
    seat: object,
    player: object = None,
    name: object = None,
    swap: object = None,
    idempotency_key: str | None = None,
) -> SeatChange:
    """From the hand about to be played on, ``seat`` is ``player`` (an id of the group's players) or the
    player called ``name``, or it swaps with seat ``swap`` (exactly one of the three; the module's steps)."""
    asked = {"seats": {"seat": seat, "player": player, "name": name, "swap": swap}}
    seen = _revision(revision)
    key = idempotency_key if idempotency_key is not None else f"{HAND_KEY_PREFIX}{seen}"
    fingerprint = _fingerprint({**asked, "revision": seen})
    hand, players = _read(actor, session, None)
    if _retried(hand, key, fingerprint, own_key=idempotency_key is not None) is not None:
        return SeatChange(hand=hand, replayed=True)
    session = hand.session
    if not session.is_open:
        raise SessionClosedError()
    if hand.revision != seen:
        raise StaleHandError()
    if hand.events:
        raise SeatChangeRefusedError("seat_change_mid_hand")
    if session.coins_enabled:
        raise SeatChangeRefusedError("seat_change_coins")
    table = dict(enumerate(players))
    seated = _seat(seat, "seat")
    if sum(value is not None for value in (player, name, swap)) != 1:
        raise LedgerError("seat_change_one", field="player")
    try:
        with transaction.atomic():
            locked = _locked(session)
            new = _changed(actor, locked, table, seated, player, name, swap)
            _seat_anew(locked, hand.number, new)
            hand.undone = []  # a redo would replay an event tapped for whoever sat before
            hand.revision = seen + 1
            hand.last_key, hand.last_fingerprint, hand.last_round = key, fingerprint, None
            _store(hand, seen)
    except _Moved:
        raise StaleHandError() from None
    return SeatChange(hand=hand)


def _changed(
    actor: User,
    session: Session,
    table: dict[int, int],
    seated: int,
    player: object,
    name: object,
    swap: object,
) -> dict[int, int]:
    """Step 2: seat -> the player who sits there from now on, for each seat the change moves."""
    if swap is not None:
        other = _seat(swap, "swap")
        if other == seated:
            raise LedgerError("seat_change_swap_itself", field="swap")
        return {seated: table[other], other: table[seated]}
    newcomer = _newcomer(actor, session, player, name)
    if newcomer in table.values():
        at = next(place for place, sitter in table.items() if sitter == newcomer)
        raise LedgerError("seat_change_seated", field="player" if name is None else "name", seat=at + 1)
    return {seated: newcomer}


def _seat(value: object, field: str) -> int:
    if not _is_whole(value, 0, SEATS - 1):
        raise LedgerError("seat_change_seat", field=field)
    return value


def _newcomer(actor: User, session: Session, player: object, name: object) -> int:
    """Who takes the seat: one of the group's players by id, or by name (a new one if need be)."""
    if player is not None:
        if not _is_whole(player, 1, MAX_ID):
            raise LedgerError("not_a_player_id", field="player", value=player)
        if not Player.objects.filter(pk=player, group_id=session.group_id).exists():
            raise LedgerError("no_such_player", field="player", value=player)
        return player
    text = _required_text(name, "name", 50)
    known = Player.objects.filter(group_id=session.group_id, name=text).values_list("pk", flat=True).first()
    return known if known is not None else player_add(actor=actor, group=session.group, name=text).pk


def _seat_anew(session: Session, first: int, new: dict[int, int]) -> None:
    """Step 3: the changed seats' open sittings end before hand ``first`` (or go, if they played none), new
    ones open from it, and the table's seats are rewritten (deleted and made again: a swap would otherwise
    pass through a moment with one player at two seats, which ``player_once_per_session`` refuses)."""
    open_now = Sitting.objects.filter(session=session, seat__in=new, last__isnull=True)
    open_now.filter(first__gte=first).delete()
    open_now.update(last=first - 1)
    Sitting.objects.bulk_create(
        Sitting(session=session, seat=seat, player_id=player, first=first) for seat, player in new.items()
    )
    SessionSeat.objects.filter(session=session, seat__in=new).delete()
    SessionSeat.objects.bulk_create(
        SessionSeat(session=session, seat=seat, player_id=player) for seat, player in new.items()
    )
    debts.moved(session.group_id)  # the settle-up's places are the sittings
