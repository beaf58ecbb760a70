"""Reading a hand from a request: concealed tiles, melds, flags and rules, validated (RULES.md section 2).

Every problem is an ``EngineError`` naming the field. Tiles that are valid but do not win are not errors;
the scoring decides that.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .errors import EngineError
from .limits import HAND_TILES, MAX_MELDS, READY_TILES
from .rules import DEFAULT_RULES, Rules
from .tiles import ONE, TILE_INDEX, TILE_NAMES, count_of, pack, parse_tiles

# Packed-count constants: a count of 5 or more shows as bit 3 of its field, either in the counts or in
# the counts plus 3 (counts here stay below 16, so only an already-bad count can carry over).
_THREES = pack(index for index in range(27) for _ in range(3))
_EIGHTS = pack(index for index in range(27) for _ in range(8))


class MeldKind(enum.StrEnum):
    PUNG = "pung"
    KONG_DIRECT = "kong_direct"
    KONG_ADDED = "kong_added"
    KONG_CONCEALED = "kong_concealed"


class WinBy(enum.StrEnum):
    DISCARD = "discard"
    SELF_DRAW = "self_draw"
    ROBBING_KONG = "robbing_kong"


MELD_SIZES: Mapping[MeldKind, int] = {
    MeldKind.PUNG: 3,
    MeldKind.KONG_DIRECT: 4,
    MeldKind.KONG_ADDED: 4,
    MeldKind.KONG_CONCEALED: 4,
}
_MELD_KINDS = {kind.value: kind for kind in MeldKind}
_WIN_BY = {how.value: how for how in WinBy}


@dataclass(frozen=True, slots=True)
class Meld:
    kind: MeldKind
    tile: int

    @property
    def size(self) -> int:
        return MELD_SIZES[self.kind]

    @property
    def is_open(self) -> bool:
        """Shown from another player's discard: breaks 门清 (an 暗杠 does not)."""
        return self.kind is not MeldKind.KONG_CONCEALED

    @property
    def name(self) -> str:
        return TILE_NAMES[self.tile][0] * self.size + TILE_NAMES[self.tile][1]


class Held(NamedTuple):
    """The tiles of one position: concealed tiles (packed counts) and melds, validated.

    An engine-internal record built for every hand scored or checked, so a NamedTuple: a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``, about 8,500 instructions for these four
    fields against 3,800 (counted with callgrind as ``bench/instructions.py`` counts).
    """

    concealed: tuple[int, ...]
    packed: int  # concealed tiles, plus the winning tile when there is one
    melds: tuple[Meld, ...]
    meld_packed: int  # every meld tile (a kong counts 4)


def read_melds(melds: object) -> tuple[Meld, ...]:
    if melds == () or melds == []:
        return ()
    if not isinstance(melds, list | tuple) and (  # the usual list first: the ABC check is slow
        not isinstance(melds, Sequence) or isinstance(melds, str | bytes | bytearray)
    ):
        raise EngineError("melds_not_a_list", field="melds")
    if len(melds) > MAX_MELDS:
        raise EngineError("too_many_melds", field="melds", count=len(melds))
    return tuple(_read_meld(meld, position) for position, meld in enumerate(melds))


def _read_meld(meld: object, position: int) -> Meld:
    field = f"melds[{position}]"
    if not isinstance(meld, dict | Mapping):  # dict first: the ABC check is slow
        raise EngineError("meld_not_an_object", field=field)
    kind_raw = meld.get("kind")
    kind = _MELD_KINDS.get(kind_raw) if isinstance(kind_raw, str) else None
    if kind is None:
        raise EngineError(
            "meld_kind_unknown", field=f"{field}.kind", choices=", ".join(MeldKind), value=kind_raw
        )
    tile_raw = meld.get("tile")
    if isinstance(tile_raw, str) and tile_raw in TILE_INDEX:  # the usual "5p": no parsing needed
        return Meld(kind, TILE_INDEX[tile_raw])
    tiles = read_tiles(tile_raw, f"{field}.tile")
    size = MELD_SIZES[kind]
    if not tiles or len(set(tiles)) != 1 or len(tiles) not in (1, size):
        raise EngineError(
            "meld_tile_not_one_kind", field=f"{field}.tile", kind=kind.value, size=size, value=tile_raw
        )
    return Meld(kind, tiles[0])


def read_tiles(value: object, field: str) -> tuple[int, ...]:
    if value is None:
        raise EngineError("tiles_required", field=field, path=field)
    return parse_tiles(value, field)


def read_win_tile(value: object) -> int:
    if isinstance(value, str) and value in TILE_INDEX:
        return TILE_INDEX[value]
    tiles = read_tiles(value, "win_tile")
    if len(tiles) != 1:
        raise EngineError("win_tile_not_one", field="win_tile", count=len(tiles))
    return tiles[0]


def check_size(
    concealed: tuple[int, ...], melds: tuple[Meld, ...], sizes: tuple[int, ...], extra: int
) -> None:
    """concealed + 3 per meld (+ the winning tile) must make one of ``sizes``."""
    if len(concealed) + 3 * len(melds) + extra in sizes:  # the usual case, without a call: every hand asks
        return
    problem = size_problem(len(concealed), len(melds), sizes, extra)
    if problem is not None:
        raise problem


def size_problem(concealed: int, melds: int, sizes: tuple[int, ...], extra: int) -> EngineError | None:
    """The error for ``concealed`` tiles beside ``melds`` melds (+ ``extra``: the winning tile), or None."""
    if concealed + 3 * melds + extra in sizes:
        return None
    counts = [str(size - 3 * melds - extra) for size in sizes]
    return EngineError(
        "concealed_count_with_melds" if melds else "concealed_count",
        field="concealed",
        expected=" or ".join(counts),
        expected_zh=" 或 ".join(counts),
        melds=melds,
        count=concealed,
    )


def tile_count_problem(concealed: int, melds: int, *, winning: bool) -> EngineError | None:
    """What ``score_hand`` (``winning``: concealed + melds + the winning tile make 14) or ``find_waits``
    (13, or 14 with a drawn tile) would say of this many tiles, or None: a page counting tiles as they are
    picked gives the API's own words."""
    if winning:
        return size_problem(concealed, melds, (HAND_TILES,), 1)
    return size_problem(concealed, melds, (READY_TILES, HAND_TILES), 0)


def _fifth_copy(field: str, tile: int) -> EngineError:
    return EngineError("fifth_copy", field=field, tile=TILE_NAMES[tile])


def _over_four(packed: int) -> bool:
    return bool((packed | (packed + _THREES)) & _EIGHTS)


def read_held(concealed: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int | None) -> Held:
    """Count the tiles and reject a fifth copy of a kind, naming where it came from."""
    packed = pack(concealed)
    if _over_four(packed):
        raise _fifth_copy("concealed", next(tile for tile in concealed if count_of(packed, tile) > 4))
    if win_tile is not None:
        packed += ONE[win_tile]
        if count_of(packed, win_tile) > 4:
            raise _fifth_copy("win_tile", win_tile)
    meld_packed = 0
    for position, meld in enumerate(melds):
        if count_of(packed + meld_packed, meld.tile) + meld.size > 4:
            raise _fifth_copy(f"melds[{position}].tile", meld.tile)
        meld_packed += meld.size * ONE[meld.tile]
    return Held(concealed, packed, melds, meld_packed)


def read_flag(value: object, field: str) -> bool:
    if isinstance(value, bool):
        return value
    raise EngineError("not_a_boolean", field=field, name=field, value=value)


def read_win_by(value: object) -> WinBy:
    found = _WIN_BY.get(value) if isinstance(value, str) else None
    if found is not None:
        return found
    raise EngineError("win_by_unknown", field="win_by", choices=", ".join(WinBy), value=value)


def read_rules(rules: object) -> Rules:
    if rules is None:
        return DEFAULT_RULES
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise EngineError("hand_rules_not_an_object", field="rules")
