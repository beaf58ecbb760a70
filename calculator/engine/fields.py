"""The input layer both engines read requests with: one reader per kind of value, so ``score_hand``,
``find_waits`` and ``settle_round`` accept or refuse a value the same way and with the same words.

Each reader takes the value and the path of its field (``void_suit``, ``events[2].winners[0].hand``) and
returns the value read, or raises ``EngineError`` naming that path (and the round's event, when there is
one). Adapters reach these as ``calculator.engine.fields``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import EngineError
from .tiles import SUITS, TILE_INDEX, parse_tiles


def at(path: str, key: str | None) -> str:
    """The field ``key`` of ``path``: the readers join them only for an error message."""
    return path if key is None else f"{path}.{key}"


def require(data: Mapping[str, Any], key: str, path: str, index: int | None) -> Any:
    if key not in data:
        raise EngineError("field_required", field=f"{path}.{key}", event=index, key=key)
    return data[key]


def as_object(value: Any, path: str, index: int | None) -> Mapping[str, Any]:
    if isinstance(value, (dict, Mapping)):  # dict first: the ABC check is slow
        return value
    raise EngineError("not_an_object", field=path, event=index, path=path)


def as_list(value: Any, path: str, index: int | None, key: str | None = None) -> Sequence[Any]:
    if isinstance(value, list | tuple):
        return value
    path = at(path, key)
    raise EngineError("not_a_list", field=path, event=index, path=path)


def check_keys(data: Mapping[str, Any], allowed: frozenset[str], path: str, index: int) -> None:
    """Every key of ``data`` is one ``allowed``: a misspelt flag ("robing_kong") must not vanish silently."""
    if allowed.issuperset(data):  # in C over the keys: cheaper than ``data.keys() <= allowed``
        return
    key = next(str(key) for key in data if key not in allowed)
    names = ", ".join(sorted(allowed))
    raise EngineError("unknown_field_here", field=f"{path}.{key}", event=index, key=key, names=names)


def is_int(value: Any) -> bool:
    """A JSON whole number: ``True`` is a bool, not 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def boolean(value: Any, path: str, index: int | None = None) -> bool:
    """A JSON true or false: the string "false" is a mistake, not false."""
    if isinstance(value, bool):
        return value
    raise EngineError("not_a_boolean", field=path, event=index, name=path.rsplit(".", 1)[-1], value=value)


def one_tile(value: Any, path: str, index: int | None = None, key: str | None = None) -> int:
    """Exactly one tile, in any notation the parser reads (``5p``, ``5筒``, ``["5p"]``), at ``path.key``
    (joined only when the tile is not the usual "5p": these readers run for every tile of a round)."""
    if isinstance(value, str) and value in TILE_INDEX:  # the usual "5p": no parsing needed
        return TILE_INDEX[value]
    path = at(path, key)
    try:
        tiles = parse_tiles(value, field=path)
    except EngineError as error:
        raise error.at(error.field, index) from None
    if len(tiles) != 1:
        raise EngineError("not_one_tile", field=path, event=index, path=path, value=value)
    return tiles[0]


# A void suit as players write it: the letter, or the Chinese name of the suit.
_SUIT_WORDS = {"m": 0, "p": 1, "s": 2, "万": 0, "萬": 0, "筒": 1, "饼": 1, "餅": 1, "条": 2, "條": 2, "索": 2}


def void_suit(value: Any, path: str, index: int | None = None) -> int | None:
    """A declared void suit (定缺) as a suit index 0..2 (m, p, s), or None: ``m``, ``p``, ``s``, the suit's
    Chinese name (万, 筒, 条 and their variants), any case and surrounding spaces, or null."""
    if value is None:
        return None
    if isinstance(value, str):
        suit = _SUIT_WORDS.get(value)  # as written, the usual case; else tidied
        if suit is None:
            suit = _SUIT_WORDS.get(value.strip().lower())
        if suit is not None:
            return suit
    raise EngineError("void_suit_unknown", field=path, event=index, path=path, value=value)


def void_suit_letter(value: Any, path: str, index: int | None = None) -> str | None:
    """``void_suit`` as its letter (``"万"`` is ``"m"``), the form the settlement keeps per seat."""
    suit = void_suit(value, path, index)
    return None if suit is None else SUITS[suit]
