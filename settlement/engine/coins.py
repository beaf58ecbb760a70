"""游戏币 (RULES.md 8): a round's points turned into coins, with short losers, rounding and the house's tax.

1. ``C_i = P_i x N`` for each seat's net points ``P_i``; the house's burned points claim ``house x N``.
2. A loser pays ``min(-C_i, balance_i)``; the pool is what losers paid.
3. The winners (and the house's claim) share the pool in proportion to their claims, exactly; shares are
   floored and the leftover coins go one by one by largest fractional part, ties to the dealer first, then
   in play order, the house last.
4. Each winner receives ``floor(share x (1 - tax_rate))``; the house keeps the rest, its own share too.
Everything is integers, the fractions kept as numerator and denominator (a share's fractional part is
its remainder over the claims' total; the tax rate is its exact ratio): 0.3 of 90 leaves 63, never 62.
``Fraction`` would give the same numbers at several times the cost, and every round with coins does this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from calculator.engine import EngineError
from calculator.engine.fields import as_list, as_object, is_int, require

from .state import SEATS

HOUSE_RANK = len(SEATS)  # the house takes a tied leftover coin last


@dataclass(frozen=True, slots=True)
class CoinStakes:
    """The coins request: each seat's balance and the room coefficient N."""

    balances: tuple[int, ...]
    room_coefficient: int


@dataclass(frozen=True, slots=True)
class CoinResult:
    """Each seat's coin change and new balance, the house's take, and how the pool was shared."""

    change: tuple[int, ...]
    house: int
    balances: tuple[int, ...]
    paid: tuple[int, ...]  # what each loser paid into the pool
    shares: tuple[int, ...]  # each winner's share of the pool before tax
    house_share: int  # the house's share for burned points, before it keeps the tax
    pool: int
    short: tuple[int, ...]  # seats that could not pay their full loss

    def to_dict(self) -> dict[str, Any]:
        return {
            "change": list(self.change),
            "house": self.house,
            "balances": list(self.balances),
            "paid": list(self.paid),
            "shares": list(self.shares),
            "house_share": self.house_share,
            "pool": self.pool,
            "tax": self.house - self.house_share,
            "short": list(self.short),
        }


def parse_coins(value: Any) -> CoinStakes | None:
    if value is None:
        return None
    data: Mapping[str, Any] = as_object(value, "coins", None)
    balances = as_list(require(data, "balances", "coins", None), "coins.balances", None)
    if len(balances) != len(SEATS):
        raise EngineError("coin_balances_count", field="coins.balances", count=len(balances))
    for position, balance in enumerate(balances):
        if not (is_int(balance) and balance >= 0):
            raise EngineError("coin_balance", field=f"coins.balances[{position}]", value=balance)
    coefficient = require(data, "room_coefficient", "coins", None)
    if not (is_int(coefficient) and coefficient >= 1):
        raise EngineError("room_coefficient", field="coins.room_coefficient", value=coefficient)
    return CoinStakes(tuple([int(balance) for balance in balances]), int(coefficient))


def settle_coins(
    net: Sequence[int], house: int, stakes: CoinStakes, tax_rate: Decimal, dealer: int
) -> CoinResult:
    claims = [points * stakes.room_coefficient for points in net]
    paid = tuple(
        [
            min(-claim, balance) if claim < 0 else 0
            for claim, balance in zip(claims, stakes.balances, strict=True)
        ]
    )
    pool = sum(paid)
    # (rank for ties, claim): seats in play order from the dealer, the house last
    claimants = [((seat - dealer) % len(SEATS), claims[seat]) for seat in SEATS if claims[seat] > 0]
    if house > 0:
        claimants.append((HOUSE_RANK, house * stakes.room_coefficient))
    shares = _share_out(pool, claimants)
    tax, whole = tax_rate.as_integer_ratio()  # exact: Decimal("0.3") is 3/10
    received = {rank: share * (whole - tax) // whole for rank, share in shares.items() if rank != HOUSE_RANK}
    change = tuple([received.get((seat - dealer) % len(SEATS), 0) - paid[seat] for seat in SEATS])
    return CoinResult(
        change=change,
        house=pool - sum(received.values()),
        balances=tuple([balance + delta for balance, delta in zip(stakes.balances, change, strict=True)]),
        paid=paid,
        shares=tuple([shares.get((seat - dealer) % len(SEATS), 0) for seat in SEATS]),
        house_share=shares.get(HOUSE_RANK, 0),
        pool=pool,
        short=tuple([seat for seat in SEATS if paid[seat] < -claims[seat]]),
    )


def _share_out(pool: int, claimants: list[tuple[int, int]]) -> dict[int, int]:
    """The pool split by the claims: floors, then leftovers by largest fraction, ties by rank."""
    total = sum([claim for _, claim in claimants])
    if total == 0:
        return {}
    # pool x claim / total, as its floor and the remainder over ``total`` (its fractional part)
    exact = {rank: divmod(pool * claim, total) for rank, claim in claimants}
    shares = {rank: floor for rank, (floor, _) in exact.items()}
    leftover = pool - sum(shares.values())
    by_fraction = sorted(exact, key=lambda rank: (-exact[rank][1], rank))
    for rank in by_fraction[:leftover]:
        shares[rank] += 1
    return shares
