"""A service's refusal as a sentence in the page's language.

Every refusal of the services carries its words in both languages from one catalogue (``EngineError``
and the ledger's ``LedgerError``, ``LedgerRefusal`` and ``Forbidden``): a page only picks its language.
"""

from __future__ import annotations

from django.utils.translation import get_language

from calculator.engine import EngineError

from ..errors import Forbidden, LedgerError, LedgerRefusal

Refusal = EngineError | LedgerRefusal | Forbidden
REFUSALS = (EngineError, LedgerRefusal, Forbidden)


def refusal_message(error: Refusal) -> str:
    return error.localized(get_language() or "zh-hans")


def ledger_words(code: str) -> str:
    """A refusal of the ledger's catalogue in the page's language, for a page that already knows the
    service would refuse (a viewer's page offers no button; it says why)."""
    return LedgerError(code, field="").localized(get_language() or "zh-hans")
