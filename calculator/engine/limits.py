"""The hand's fixed numbers and the engine's bounds on input, defined once (adapters import them from
``calculator.engine``).

The first group is the game itself (RULES.md 1 and 2). The second bounds what a request may ask for: far
beyond any real table, so a typo is refused with a message instead of computed into a nonsense amount.
"""

from __future__ import annotations

COPIES = 4  # of each of the 27 kinds
HAND_TILES = 14  # a complete hand: concealed + 3 per meld + the winning tile
READY_TILES = HAND_TILES - 1  # a position waiting for its winning tile
MAX_MELDS = 4

MAX_FAN = 64  # an entered fan; keeps 2 ** (fan - 1) a sane integer
MAX_PATTERN_FAN = 16  # what pattern_fan may make one pattern worth
MAX_OPTION_VALUE = 10_000  # base points, kong points and penalties in b
