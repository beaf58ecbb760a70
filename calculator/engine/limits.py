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

# Money. A real table's largest payment is a few tens of thousands of points (base 1,000 at a 64-fold cap
# pays 64,000), a round's transfers a few hundred thousand. These bounds are five orders of magnitude
# beyond that, and low enough that no sum the app takes can overflow: SQLite's SUM and PostgreSQL's bigint
# stop at 2^63 - 1, a JavaScript number is exact up to 2^53 - 1 (9,007,199,254,740,991). A round's
# transfers counted on both ledger rows, 2 x MAX_ROUND_POINTS, stay below the ledger's bound on a whole
# session (docs/settlement.md, "Bounds"), so even one round at the bound fits an empty session.
MAX_PAYMENT_POINTS = 10**10  # one transfer, e.g. base 10,000 at 20 fan: 10,000 x 2^19 = 5,242,880,000
MAX_ROUND_POINTS = 4 * 10**10  # the points of all of one round's transfers, each counted once
