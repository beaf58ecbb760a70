"""The project's own messages are translated one way: a msgid means the same words on every page.

The messages live in one catalogue a topic (``locale/<topic>/``, all in ``LOCALE_PATHS``); Django merges
them into one translation, and where two catalogues translate the same msgid the first path wins, so the
other catalogue's words would never show. The check reads the compiled catalogues as Django does
(``gettext``), after ``make messages`` has compiled them (``make test`` does that first).
"""

import gettext
from collections import defaultdict
from pathlib import Path

from django.conf import settings

Translations = dict[object, dict[str, str]]


def translations_by_msgid(locale_paths: list[Path]) -> Translations:
    """Every msgid (with its context, a plural with its index) and its Chinese words, by catalogue."""
    found: Translations = defaultdict(dict)
    for path in locale_paths:
        with (path / "zh_Hans" / "LC_MESSAGES" / "django.mo").open("rb") as file:
            catalogue = gettext.GNUTranslations(file)._catalog  # type: ignore[attr-defined]  # no public reader
        for msgid, words in catalogue.items():
            if msgid != "":  # the header
                found[msgid][path.name] = words
    return found


def translated_two_ways(found: Translations) -> dict[object, dict[str, str]]:
    return {msgid: where for msgid, where in found.items() if len(set(where.values())) > 1}


def test_every_catalogue_is_in_locale_paths_and_compiled():
    paths = [Path(path) for path in settings.LOCALE_PATHS]
    assert len(paths) > 1
    for path in paths:
        assert (path / "zh_Hans" / "LC_MESSAGES" / "django.mo").is_file(), path


def test_no_msgid_is_translated_two_ways_across_the_catalogues():
    found = translations_by_msgid([Path(path) for path in settings.LOCALE_PATHS])
    assert translated_two_ways(found) == {}


def test_viewer_is_one_word_everywhere():
    """The role is 观众 (the noun a table uses for the one looking on), on every page and in every link."""
    found = translations_by_msgid([Path(path) for path in settings.LOCALE_PATHS])
    assert set(found["Viewer"].values()) == {"观众"}


def test_the_check_finds_a_msgid_translated_two_ways():
    found: Translations = {
        "Viewer": {"accounts": "观众", "live": "观看"},
        "Scorekeeper": {"accounts": "记分员", "live": "记分员"},
        "Owner": {"accounts": "组长"},
    }
    assert translated_two_ways(found) == {"Viewer": {"accounts": "观众", "live": "观看"}}
