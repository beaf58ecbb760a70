"""The table fee (台费 / 茶水, RULES.md has no rule for it; docs/ledger.md, "The table fee"): who bears
how much of one whole amount, so the shares always sum to it exactly.

- ``AA``: everyone alike; the units that do not divide go one each to the players best placed tonight.
- ``TOP_WINNER``: the biggest winner bears it all (several tied for the top share it as AA among them).
- ``WINNERS``: the players ahead bear it in proportion to their winnings, by the largest remainder (each
  bears the whole part of its share, and the units left go to the largest fractions, ties to the bigger
  winner, then the earlier seat). With nobody ahead it is AA.

Ties everywhere fall to the bigger net, then the earlier position: one answer for one table.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence


class FeeSplit(enum.Enum):
    AA = "aa"
    TOP_WINNER = "top_winner"
    WINNERS = "winners"


def fee_shares(nets: Sequence[int], amount: int, split: FeeSplit) -> tuple[int, ...]:
    """Each player's share of ``amount`` (a whole number, 0 or more) by ``split``, given tonight's nets."""
    weights = _weights(nets, split)
    bearers = [index for index, weight in enumerate(weights) if weight]
    parts = _largest_remainder(amount, [weights[i] for i in bearers], [nets[i] for i in bearers])
    shares = dict(zip(bearers, parts, strict=True))
    return tuple(shares.get(index, 0) for index in range(len(nets)))


def _weights(nets: Sequence[int], split: FeeSplit) -> list[int]:
    """How much of the fee each player bears, relatively (0: none of it)."""
    if split is FeeSplit.TOP_WINNER:
        return [int(net == max(nets)) for net in nets]
    if split is FeeSplit.WINNERS and any(net > 0 for net in nets):
        return [max(net, 0) for net in nets]
    return [1] * len(nets)


def _largest_remainder(amount: int, weights: Sequence[int], nets: Sequence[int]) -> list[int]:
    """``amount`` split by ``weights`` into whole parts summing to it; the units left over go to the
    largest fractions, then to the bigger net, then to the earlier position."""
    total = sum(weights)
    parts = [amount * weight // total for weight in weights]
    order = sorted(
        range(len(weights)), key=lambda index: (-(amount * weights[index] % total), -nets[index], index)
    )
    for index in order[: amount - sum(parts)]:
        parts[index] += 1
    return parts
