"""Names as people type them and as the ledger keeps and compares them (issue 18, point 15).

A name is shown at the table and told apart from the others by eye, so what cannot be seen may not tell
two names apart: ``小王`` and ``小王`` + U+200B are one name. ``normal_name`` is the one rule, used by the
services for every name they store (groups, players, sessions) and by the start page when it compares
the four it was given:

1. NFKC: full-width ``ＡＢ`` is ``AB``, a compatibility form its plain letter;
2. trimmed of white space and of invisible characters (Unicode's control and format classes: U+200B,
   U+FEFF, U+202E...) at either end, inner runs of white space made one space;
3. an invisible character left inside is refused (``InvisibleCharacter``, naming it as U+XXXX), not
   dropped: a right-to-left override inside a name changes how it reads, so the table must see it.
"""

from __future__ import annotations

import re
import unicodedata

# Unicode's "Other" classes: control, format, surrogate, private use, unassigned
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_SPACES = re.compile(r"\s+")


class InvisibleCharacter(ValueError):
    """A name holds a character nobody sees; ``code`` is its U+XXXX."""

    def __init__(self, character: str):
        self.code = f"U+{ord(character):04X}"
        super().__init__(self.code)


def _invisible(character: str) -> bool:
    return unicodedata.category(character) in INVISIBLE


def normal_name(text: str) -> str:
    """The name as stored and compared: NFKC, trimmed, one space between words; raises
    ``InvisibleCharacter`` for an invisible character inside it."""
    text = unicodedata.normalize("NFKC", text)
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or _invisible(text[start])):
        start += 1
    while end > start and (text[end - 1].isspace() or _invisible(text[end - 1])):
        end -= 1
    text = _SPACES.sub(" ", text[start:end])
    for character in text:
        if _invisible(character):
            raise InvisibleCharacter(character)
    return text
