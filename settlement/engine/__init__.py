"""Round settlement for Sichuan mahjong: pure Python, no Django (RULES.md sections 4 to 10).

``settle_round`` replays a round's events and returns a ``RoundResult`` whose ``to_dict()`` is the body
of ``POST /api/v1/settle/``; ``settle_up`` proposes the fewest transfers that settle a session.
"""

from calculator.engine.errors import EngineError

from .escape import NEAR_THE_END
from .requests import settle_from_payload
from .settle import RoundResult, settle_round
from .settle_up import Payment, settle_up
from .state import KongPayment, PaymentState, Reason, RoundState, Transfer

__all__ = [
    "NEAR_THE_END",
    "EngineError",
    "KongPayment",
    "Payment",
    "PaymentState",
    "Reason",
    "RoundResult",
    "RoundState",
    "Transfer",
    "settle_from_payload",
    "settle_round",
    "settle_up",
]
