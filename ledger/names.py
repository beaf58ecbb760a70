"""Names as people type them and as the ledger keeps, compares and shows them (issue 18, points 11, 15).

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
from datetime import date

from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

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


def session_title(name: str, day: date, day_number: int) -> str:
    """A session as a reader sees it (issue 18, point 11): the name its table gave it, as typed; else its
    day in the reader's language, and from the group's second session of a day on, its place that day
    (``12月2日 · 第2场``, ``December 2 · session 2``). Nothing of the creator's language is stored."""
    if name:
        return name
    day_words = date_format(day, "MONTH_DAY_FORMAT")
    if day_number == 1:
        return day_words
    return _("%(day)s · session %(n)s") % {"day": day_words, "n": day_number}


def baked_day_name(name: str, day: date) -> bool:
    """Whether ``name`` is a day name an older version stored for good in its creator's language (the
    start page's ``12月2日`` / ``December 2``, the evening's ``2026-12-02``): such a session is named by
    its day again, in each reader's language."""
    spelled = {day.isoformat()}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            spelled.add(date_format(day, "MONTH_DAY_FORMAT"))
    return name in spelled
