"""A service's refusal as a sentence in the page's language.

The services speak both languages already (``EngineError`` and ``LedgerRefusal`` carry an English and a
Chinese message); a role refusal is a ``PermissionDenied`` whose words the page translates itself.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from calculator.engine import EngineError

from ..errors import LedgerRefusal

Refusal = EngineError | LedgerRefusal | PermissionDenied
REFUSALS = (EngineError, LedgerRefusal, PermissionDenied)


def refusal_message(error: Refusal) -> str:
    if isinstance(error, PermissionDenied):
        return _("Your role in this group does not allow this.")
    language = get_language() or "zh-hans"
    if isinstance(error, EngineError):
        return error.localized(language)
    return error.message_zh if language.lower().startswith("zh") else error.message
