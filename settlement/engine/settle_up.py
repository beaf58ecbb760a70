"""Settling up a session (RULES.md 10): who pays whom, in as few transfers as can be found.

A set of players whose balances sum to zero can settle among themselves in (its size - 1) transfers, so
the fewest transfers is ``n - k`` where ``k`` is the largest number of disjoint zero-sum groups the
balances split into. Up to ``EXACT_LIMIT`` non-zero balances that number is found exactly by a dynamic
programme over subsets; beyond it, exact pairs are matched first and the rest settled greedily, which
never needs more than ``n - 1`` transfers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from calculator.engine import EngineError
from calculator.engine.fields import is_int

EXACT_LIMIT = 15


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer of a settle-up: ``payer`` pays ``payee`` (indices into the balances) ``amount``."""

    payer: int
    payee: int
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


def settle_up(balances: Sequence[int]) -> tuple[Payment, ...]:
    """Transfers that bring every balance to exactly 0 (positive: is owed; negative: owes)."""
    for position, balance in enumerate(balances):
        if not is_int(balance):
            raise EngineError("balance_not_whole", field=f"balances[{position}]", value=balance)
    if sum(balances) != 0:
        raise EngineError("balances_do_not_sum_to_zero", field="balances", total=sum(balances))
    owing = [position for position, balance in enumerate(balances) if balance != 0]
    groups = (
        _zero_sum_groups(owing, balances) if len(owing) <= EXACT_LIMIT else _paired_then_rest(owing, balances)
    )
    return tuple(payment for group in groups for payment in _settle_group(group, balances))


def _zero_sum_groups(owing: list[int], balances: Sequence[int]) -> list[list[int]]:
    """The most disjoint zero-sum groups: best[mask] = most groups a chain of removals from mask closes."""
    size = len(owing)
    sums = [0] * (1 << size)
    best = [0] * (1 << size)
    for mask in range(1, 1 << size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[owing[low]]
        best[mask] = max(best[mask & ~(1 << bit)] for bit in range(size) if mask >> bit & 1) + (
            sums[mask] == 0
        )
    groups: list[list[int]] = []
    mask, current = (1 << size) - 1, list[int]()
    while mask:
        # walk back along a removal that keeps the optimum; a zero-sum mask closes the group collected so far
        bit = next(
            bit
            for bit in range(size)
            if mask >> bit & 1 and best[mask & ~(1 << bit)] + (sums[mask] == 0) == best[mask]
        )
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        current.append(owing[bit])
        mask &= ~(1 << bit)
    if current:
        groups.append(current)
    return groups


def _paired_then_rest(owing: list[int], balances: Sequence[int]) -> list[list[int]]:
    """Beyond the exact limit: pair a debtor with a creditor of equal amount, then one group of the rest."""
    groups: list[list[int]] = []
    waiting: dict[int, list[int]] = {}
    for position in owing:
        partners = waiting.get(-balances[position])
        if partners:
            groups.append([partners.pop(), position])
        else:
            waiting.setdefault(balances[position], []).append(position)
    unmatched = [position for positions in waiting.values() for position in positions]
    if unmatched:
        groups.append(unmatched)
    return groups


def _settle_group(group: list[int], balances: Sequence[int]) -> list[Payment]:
    """A zero-sum group settles in len(group) - 1 transfers: the largest debtor pays the largest creditor."""
    left = {position: balances[position] for position in group}
    payments: list[Payment] = []
    while True:
        debtor = min(left, key=lambda position: (left[position], position))
        creditor = max(left, key=lambda position: (left[position], -position))
        if left[debtor] == 0:
            return payments
        amount = min(-left[debtor], left[creditor])
        payments.append(Payment(debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
