"""The checks every write shares: the actor's role, the shape of text and numbers it stores, a
request's fingerprint, and a unique constraint turned into a refusal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TypeGuard

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from calculator.engine import EngineError

from ..errors import Forbidden, LedgerError
from ..models import SEATS, Group, Membership
from ..names import InvisibleCharacter, normal_name

MAX_ID = 10**18  # ids beyond any database's integer column are simply not found


@contextmanager
def _unique_or(refusal: Callable[[], EngineError]) -> Iterator[None]:
    """The insert inside, in a savepoint; a unique constraint it trips becomes ``refusal()``.

    The check before it answers the usual case; this answers a twin request that passed the same check
    at the same moment (the database's constraint decides, and the loser gets the same 400, not a 500).
    """
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise refusal() from None


def require_role(*, actor: User, group: Group, roles: Sequence[str]) -> None:
    """403 unless the actor holds one of ``roles`` in ``group``."""
    if not Membership.objects.filter(user=actor, group=group, role__in=roles).exists():
        raise Forbidden("role_forbids")


def _is_whole(value: object, low: int, high: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_dealer(dealer: object) -> int:
    if not _is_whole(dealer, 0, SEATS - 1):
        raise LedgerError("dealer_seat", field="dealer")
    return dealer


def _refuse_unstorable(value: object, field: str) -> None:
    """Text no database stores: a NUL character (PostgreSQL's jsonb refuses it) or a lone UTF-16 surrogate
    (not a character at all; jsonb refuses its escape). Neither ever means anything in a round.

    A whole group file is millions of characters: its JSON text is searched at once first, and only a text
    that may hold one (an escaped NUL, or a surrogate UTF-8 cannot encode) is walked to name the field."""
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode()
    except (TypeError, ValueError):  # not JSON, or a lone surrogate (UnicodeEncodeError): walk it
        pass
    else:
        if "\\u0000" not in text:  # json.dumps writes a NUL, and only a NUL, as this escape
            return
    _walk_unstorable(value, field)


def _walk_unstorable(value: object, field: str) -> None:
    if isinstance(value, str) and not _storable(value):
        raise LedgerError("unstorable_text", field=field or "body")
    if isinstance(value, Mapping):
        for key, item in value.items():
            _walk_unstorable(key, field)
            _walk_unstorable(item, f"{field}.{key}" if field else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk_unstorable(item, f"{field}[{index}]")


def _storable(text: str) -> bool:
    return "\x00" not in text and not any("\ud800" <= char <= "\udfff" for char in text)


def _fingerprint(body: object) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: any str hashes (a lone surrogate must never be a 500), and the fingerprints of
    # rounds already stored stay what they were.
    return hashlib.sha256(canonical.encode(errors="surrogatepass")).hexdigest()


MAX_NOTE_LENGTH = 1000  # a quick-picker note of a four-player draw is about 200


def _note(value: object, field: str = "note") -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_NOTE_LENGTH or not _storable(value):
        raise LedgerError("note_too_long", field=field, maximum=MAX_NOTE_LENGTH)
    return value


def _optional_text(value: object, field: str, max_length: int) -> str:
    """``_required_text`` that may be left blank (``None`` or only white space): ``""``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    return _required_text(value, field, max_length)


def _required_text(value: object, field: str, max_length: int) -> str:
    """A name as the ledger keeps and compares it (``ledger.names``: NFKC, trimmed, nothing invisible)."""
    try:
        text = normal_name(value) if isinstance(value, str) else ""
    except InvisibleCharacter as error:
        raise LedgerError("name_invisible", field=field, character=error.code) from None
    if not text or len(text) > max_length:
        raise LedgerError("text_length", field=field, name=field, maximum=max_length)
    return text
