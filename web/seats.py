"""The four seats, always shown the same way round (UX.md): seat 0 to 3 in play order, reading order in
the 2 x 2 grid (东 南 / 西 北) and in every row of seat choices, so a seat is found in one place."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from settlement.engine import SEATS as SEATS  # the pages' seats are the engine's

_POSTED = {str(seat): seat for seat in SEATS}
DEFAULT_NAMES = (_("East"), _("South"), _("West"), _("North"))
NAME_LENGTH = 12


def seat_number(raw: Any) -> int | None:
    """A seat posted by a form (``"2"``), or None for anything else."""
    return _POSTED.get(str(raw))


def seat_names(raw: Any) -> tuple[str, ...]:
    """Four names as typed, trimmed and cut to length; an empty one is the seat's wind."""
    raw = raw if isinstance(raw, Sequence) and not isinstance(raw, str) else ()
    return tuple(
        str(raw[seat] if seat < len(raw) else "").strip()[:NAME_LENGTH] or str(DEFAULT_NAMES[seat])
        for seat in SEATS
    )


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the grid shows it: running total (before this hand plus this hand) and its tags."""

    seat: int
    name: str
    dealer: bool
    won: bool
    escaped: bool
    net: int
    total: int
    void: str | None
    wins: int = 0  # this hand's wins (under 血流成河 a seat may win several times: 胡×2)
    plays_on: bool = False  # 血流成河: a winner stays in play (RULES.md 7.1)

    @property
    def active(self) -> bool:
        """May still act: kong, discard, win, pay (a winner too under 血流成河)."""
        return not self.escaped and (self.plays_on or not self.won)

    @property
    def checked_at_the_end(self) -> bool:
        """Asked at a 流局 (花猪 / 没叫 / 有叫): has not won and has not escaped (RULES.md 5, 7.1)."""
        return not (self.won or self.escaped)

    @property
    def key(self) -> str:
        """The seat as form fields name it (``pattern_2``)."""
        return str(self.seat)


@dataclass(frozen=True, slots=True)
class SeatOption:
    seat: int
    name: str  # the form field
    value: str
    label: str
    disabled: bool
    checked: bool


@dataclass(frozen=True, slots=True)
class SeatChoices:
    """One row of seat choices (``web/_seat_choices.html``): radios or checkboxes, one per seat."""

    input_type: str
    options: tuple[SeatOption, ...]
    label: str = ""
    extra_class: str = ""


def seat_choices(
    seats: Iterable[SeatView],
    *,
    name: str | Callable[[SeatView], str],
    chosen: Callable[[SeatView], bool],
    value: Callable[[SeatView], str] = lambda seat: str(seat.seat),
    disabled: Callable[[SeatView], bool] = lambda seat: not seat.active,
    input_type: str = "radio",
    label: Any = "",
) -> SeatChoices:
    """A row of the four seats as choices; by default a seat out of the hand cannot be chosen."""
    return SeatChoices(
        input_type,
        tuple(
            SeatOption(
                seat=seat.seat,
                name=name(seat) if callable(name) else name,
                value=value(seat),
                label=seat.name,
                disabled=disabled(seat),
                checked=chosen(seat),
            )
            for seat in seats
        ),
        label=str(label),
    )
