"""Every write of the ledger app: keyword-only, typed, one transaction each (HackSoft style), one module
per resource (accounts, groups and members, invites, sessions, rounds, the hand in progress, an evening
kept from ``/round/``; ``checks`` holds what they share). Callers import the package:
``services.round_record(...)``.

Objects arrive already scoped to the actor's groups (the selectors return 404 for anything else);
services check the actor's role and refuse with ``PermissionDenied``. Bad input raises ``EngineError``
(a 400 naming the field), a closed session or a reused idempotency key a ``LedgerRefusal`` (its status:
``ledger/api/refusals.py``).
"""

from .accounts import account_create, reset_link_make
from .checks import MAX_ID, MAX_NOTE_LENGTH, require_role
from .debts import may_mark, may_undo, payment_mark, payment_undo
from .evening import HandSoFar, evening_keep
from .groups import (
    ROLE_RANK,
    group_create,
    invitation_accept,
    invitation_decline,
    member_invite,
    member_remove,
    member_set_role,
    player_add,
)
from .hand import (
    HAND_KEY_PREFIX,
    HandOutcome,
    hand_event_add,
    hand_event_edit,
    hand_event_remove,
    hand_redo,
    hand_setup,
    hand_undo,
    hand_write,
)
from .invites import (
    DEFAULT_INVITE_HOURS,
    INVITE_TOKEN_BYTES,
    MAX_INVITE_HOURS,
    invite_create,
    invite_join,
    invite_refusal,
    invite_revoke,
)
from .rounds import MAX_TRANSFER_POINTS, ROUND_FIELDS, ROUND_REQUIRED, round_correct, round_record, round_void
from .seats import SeatChange, session_seats_change
from .sessions import (
    MAX_COINS,
    MAX_FEE,
    MAX_ROOM_COEFFICIENT,
    session_close,
    session_fee_set,
    session_start,
    session_start_by_names,
)

__all__ = [
    "DEFAULT_INVITE_HOURS",
    "HAND_KEY_PREFIX",
    "INVITE_TOKEN_BYTES",
    "MAX_COINS",
    "MAX_FEE",
    "MAX_ID",
    "MAX_INVITE_HOURS",
    "MAX_NOTE_LENGTH",
    "MAX_ROOM_COEFFICIENT",
    "MAX_TRANSFER_POINTS",
    "ROLE_RANK",
    "ROUND_FIELDS",
    "ROUND_REQUIRED",
    "HandOutcome",
    "HandSoFar",
    "SeatChange",
    "account_create",
    "evening_keep",
    "group_create",
    "hand_event_add",
    "hand_event_edit",
    "hand_event_remove",
    "hand_redo",
    "hand_setup",
    "hand_undo",
    "hand_write",
    "invitation_accept",
    "invitation_decline",
    "invite_create",
    "invite_join",
    "invite_refusal",
    "invite_revoke",
    "may_mark",
    "may_undo",
    "member_invite",
    "member_remove",
    "member_set_role",
    "payment_mark",
    "payment_undo",
    "player_add",
    "require_role",
    "reset_link_make",
    "round_correct",
    "round_record",
    "round_void",
    "session_close",
    "session_fee_set",
    "session_seats_change",
    "session_start",
    "session_start_by_names",
]
