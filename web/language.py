"""The page's language: Django's active one, which the engines' two-language names are chosen by."""

from __future__ import annotations

from django.utils.translation import get_language


def page_language() -> str:
    """The active language code; Chinese is the default of every page."""
    return get_language() or "zh-hans"
