"""The request parser of ``POST /api/v1/settle/``, shared by the API and the round page.

Like ``calculator.engine.requests`` it checks only the envelope; ``settle_round`` validates the events,
seats, hands and coins and names the event at fault.
"""

from __future__ import annotations

from calculator.engine import request_object, rules_from

from .settle import RoundResult, settle_round

SETTLE_FIELDS = frozenset({"rules", "dealer", "void_suits", "events", "coins"})
SETTLE_REQUIRED = ("dealer", "events")


def settle_from_payload(payload: object) -> RoundResult:
    """The body checked and passed to ``settle_round``."""
    body = request_object(payload, SETTLE_FIELDS, SETTLE_REQUIRED)
    return settle_round(**{**body, "rules": rules_from(body.get("rules"))})
