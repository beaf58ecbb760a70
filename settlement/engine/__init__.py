"""Round settlement for Sichuan mahjong: pure Python, no Django (RULES.md sections 4 to 10).

``settle_round`` replays a round's events and returns a ``RoundResult`` whose ``to_dict()`` is the body
of ``POST /api/v1/settle/``; ``settle_up`` proposes the fewest transfers that settle a session.

The round vocabulary adapters need is exported here and nowhere else: event kinds, kong kinds, the
statuses of a player at a draw, why points moved, the seats, the house, and the number of wall tiles
under which an escape is settled like a draw.
"""

from calculator.engine import EngineError

from .checks import robbed_kong_voided
from .draft import KEPT, Drafted, DraftRefusal, HandDraft, Settle, StaleDraft, Undone, settler
from .escape import NEAR_THE_END
from .events import EACH, DrawStatus, EventKind, KongKind
from .fee import FeeSplit, fee_shares
from .requests import settle_from_payload
from .settle import EventMoney, Paid, RoundResult, settle_round
from .settle_up import Payment, settle_up
from .state import HOUSE, SEATS, KongPayment, PaymentState, Reason, RoundState, Transfer
from .summaries import (
    AdjustSummary,
    DrawSummary,
    EscapeSummary,
    EventSummary,
    KongSummary,
    WinnerScore,
    WinSummary,
)
from .wins import Situation

__all__ = [
    "EACH",
    "HOUSE",
    "KEPT",
    "NEAR_THE_END",
    "SEATS",
    "AdjustSummary",
    "DraftRefusal",
    "Drafted",
    "DrawStatus",
    "DrawSummary",
    "EngineError",
    "EscapeSummary",
    "EventKind",
    "EventMoney",
    "EventSummary",
    "FeeSplit",
    "HandDraft",
    "KongKind",
    "KongPayment",
    "KongSummary",
    "Paid",
    "Payment",
    "PaymentState",
    "Reason",
    "RoundResult",
    "RoundState",
    "Settle",
    "Situation",
    "StaleDraft",
    "Transfer",
    "Undone",
    "WinSummary",
    "WinnerScore",
    "fee_shares",
    "robbed_kong_voided",
    "settle_from_payload",
    "settle_round",
    "settle_up",
    "settler",
]
