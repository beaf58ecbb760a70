"""Tiles: reading and writing tile notation, and the packed counts the engine computes with.

A tile is an index 0..26: 0-8 are 1m..9m (万), 9-17 are 1p..9p (筒), 18-26 are 1s..9s (条). Notation groups
digits before a suit letter (``123m456p77s``); the Chinese suit characters, capital letters, full-width
digits and letters and spaces anywhere are accepted too (RULES.md section 1), so a phone's Chinese input
method types valid hands.

The engine counts tiles in one ``int``: tile ``i`` owns the four bits at ``4 * i``, so adding a tile is one
addition, a suit's nine counts are one shift and mask (the key of the per-suit tables) and questions about
the whole hand ("any 1 or 9?", "how many kinds held four times?") are one ``&`` with a constant mask.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from .errors import EngineError

SUITS: tuple[str, ...] = ("m", "p", "s")  # 万 characters, 筒 dots, 条 bamboo
SUIT_NAMES_ZH = {"m": "万", "p": "筒", "s": "条"}
KINDS = 27
RANK_BITS = 4
SUIT_BITS = 9 * RANK_BITS
SUIT_MASK = (1 << SUIT_BITS) - 1
TILE_NAMES: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10))
TILE_INDEX: dict[str, int] = {name: index for index, name in enumerate(TILE_NAMES)}
ONE: tuple[int, ...] = tuple(1 << (RANK_BITS * index) for index in range(KINDS))


def _mask(indices: Iterable[int], bits: int) -> int:
    return sum(bits << (RANK_BITS * index) for index in indices)


# Bit masks over the packed counts (counts of a valid hand are 0..4, or 5 in a dead-wait question).
LOW_BITS = _mask(range(KINDS), 0b0001)  # set for an odd count
FOUR_BITS = _mask(range(KINDS), 0b0100)  # set for a count of 4 or 5: a gen
TERMINALS = _mask((index for index in range(KINDS) if index % 9 in (0, 8)), 0b1111)
NOT_258 = _mask((index for index in range(KINDS) if index % 9 not in (1, 4, 7)), 0b1111)
SUIT_FIELDS: tuple[int, ...] = tuple(_mask(range(9 * suit, 9 * suit + 9), 0b1111) for suit in range(3))


def pack(indices: Iterable[int]) -> int:
    """The packed counts of some tiles."""
    packed = 0
    for index in indices:  # a plain loop: about half the instructions of sum(map(ONE.__getitem__, ...))
        packed += ONE[index]
    return packed


def count_of(packed: int, index: int) -> int:
    return (packed >> (RANK_BITS * index)) & 0b1111


def format_tiles(indices: Iterable[int]) -> str:
    """Compact notation in the given order: ``(0, 1, 2, 9)`` is ``123m1p`` (sort first for one canonical)."""
    parts: list[str] = []
    current = ""
    for index in indices:
        suit = SUITS[index // 9]
        if current and suit != current:
            parts.append(current)
        parts.append(str(index % 9 + 1))
        current = suit
    if current:
        parts.append(current)
    return "".join(parts)


# Everything a player may type, mapped to the one ASCII character the parser reads; spaces are dropped.
_FULL_WIDTH = {chr(0xFF10 + digit): str(digit) for digit in range(10)}
_LETTERS = (
    {letter.upper(): letter for letter in SUITS}
    | {chr(0xFF41 + ord(letter) - ord("a")): letter for letter in SUITS}
    | {chr(0xFF21 + ord(letter) - ord("a")): letter for letter in SUITS}
)
_CHINESE_SUITS = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s"}
_SPACES = " \t\r\n\u3000\u00a0"
_NORMAL = str.maketrans(_FULL_WIDTH | _LETTERS | _CHINESE_SUITS)
_NORMAL_NO_SPACES = str.maketrans(_FULL_WIDTH | _LETTERS | _CHINESE_SUITS | dict.fromkeys(_SPACES))
_VALID = re.compile(r"(?:[1-9]+[mps])*")
_GROUP = re.compile(r"([1-9]+)([mps])")
# For each suit letter, digit -> the character whose code is the tile index: a group's digits translate
# to a string of tile indices, and the joined string encodes to bytes, i.e. the indices, all in C.
_INDEX_CHARS = {
    suit: str.maketrans({str(rank + 1): chr(9 * number + rank) for rank in range(9)})
    for number, suit in enumerate(SUITS)
}
# The same for ASCII text (what the pages and most clients send), as bytes: bytes.translate is a 256-entry
# table lookup per character where str.translate looks a dict up, several times faster on a 14-tile hand.
_ASCII_NORMAL = bytes.maketrans("".join(SUITS).upper().encode(), "".join(SUITS).encode())
_ASCII_SPACES = "".join(char for char in _SPACES if char.isascii()).encode()
_VALID_ASCII = re.compile(rb"(?:[1-9]+[mps])*")
_GROUP_ASCII = re.compile(rb"([1-9]+)([mps])")
_INDEX_BYTES = {
    suit.encode(): bytes.maketrans(b"123456789", bytes(range(9 * number, 9 * number + 9)))
    for number, suit in enumerate(SUITS)
}


def parse_tiles(value: object, field: str = "concealed") -> tuple[int, ...]:
    """Tile indices in input order from a compact string or a list of single-tile strings.

    Raises ``EngineError`` about ``field`` naming the bad part: an unknown character, digits without a
    suit, a 0.
    """
    if isinstance(value, str):
        tiles = _parse_string(value)
        if tiles is None:
            raise _string_error(value, field)
        return tiles
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return tuple(_parse_one(item, position, field) for position, item in enumerate(value))
    got, got_zh = json_kind(value)
    raise EngineError("tiles_not_text_or_list", field=field, path=field, got=got, got_zh=got_zh)


def json_kind(value: object) -> tuple[str, str]:
    """What kind of JSON value ``value`` is, in English and Chinese: "got a number", "收到的是数字"."""
    return _JSON_KINDS.get(type(value), ("something else", "其他内容"))


# JSON kinds in words, for "the body must be an object; got an array".
_JSON_KINDS: dict[type, tuple[str, str]] = {
    type(None): ("null", "null"),
    bool: ("a boolean", "布尔值"),
    int: ("a number", "数字"),
    float: ("a number", "数字"),
    str: ("a string", "字符串"),
    list: ("an array", "数组"),
    dict: ("an object", "对象"),
}


@lru_cache(maxsize=4096)
def _parse_string(value: str) -> tuple[int, ...] | None:
    """The tiles of a compact string, or None when it is not one. Cached: a settled round reads each hand
    twice (the tile census, then the calculator), and the pages resend the hands they show."""
    if value.isascii():
        text = value.encode().translate(_ASCII_NORMAL, _ASCII_SPACES)
        if _VALID_ASCII.fullmatch(text):
            groups = [digits.translate(_INDEX_BYTES[suit]) for digits, suit in _GROUP_ASCII.findall(text)]
            return tuple(b"".join(groups))
        return None
    normal = value.translate(_NORMAL_NO_SPACES)
    if _VALID.fullmatch(normal):
        groups = [digits.translate(_INDEX_CHARS[suit]) for digits, suit in _GROUP.findall(normal)]
        return tuple("".join(groups).encode("latin-1"))
    return None


def _parse_one(item: object, position: int, field: str) -> int:
    """One entry of a list of tiles: exactly one tile such as ``5p`` or ``5筒``."""
    if isinstance(item, str):
        normal = item.translate(_NORMAL_NO_SPACES)
        if normal in TILE_INDEX:
            return TILE_INDEX[normal]
    raise EngineError("tile_entry_not_a_tile", field=field, path=field, position=position, value=item)


def _string_error(value: str, field: str) -> EngineError:
    """Walk the original text to name the first bad part, with its 1-based position in what was typed."""
    normal = value.translate(_NORMAL)
    digits = ""
    for position, char in enumerate(normal, start=1):
        if char in _SPACES:
            continue
        if char == "0":
            return EngineError("zero_rank", field=field, position=position)
        if char.isdigit() and char.isascii():
            digits += char
        elif char in SUITS and digits:
            digits = ""
        elif char in SUITS:
            return EngineError(
                "suit_without_digits", field=field, position=position, char=value[position - 1]
            )
        else:
            return EngineError("not_a_tile", field=field, position=position, char=value[position - 1])
    return EngineError("digits_without_suit", field=field, digits=digits)
