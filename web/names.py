"""An engine name in the page's language: 清一色, or "Full flush".

No Django here: the browser's offline engine names patterns with this too (docs/offline.md), so a card
scored offline reads as one scored by the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def is_chinese(language: str) -> bool:
    return language.lower().startswith("zh")


def in_language(item: Mapping[str, Any] | Any, language: str) -> str:
    """An engine name (pattern or extra, a dict or a row) in the page's language: 清一色 or "Full flush"."""
    get = item.get if isinstance(item, Mapping) else lambda key, default=None: getattr(item, key, default)
    return str(get("name") if is_chinese(language) else get("name_en", get("name")))


def composition_label(composition: Any, language: str) -> str:
    """十八罗汉, or "Eighteen arhats (十八罗汉)": an English page keeps the name the table says aloud."""
    return composition.name if is_chinese(language) else f"{composition.name_en} ({composition.name})"
