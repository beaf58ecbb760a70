"""The one JSON text of a value, and a JSON field stored as that text.

``canonical`` is what every seal hashes (ledger/integrity.py): keys sorted, no spaces, characters as they
are. ``CanonicalJSONField`` keeps a round version's result as that very text, so the check of the seal
reads it as stored instead of decoding and encoding again the largest value of the ledger (a 10,000-round
session's results are 32 MB of JSON: 0.75 s of ``verify_ledger``'s CPU, docs/performance.md). A ``jsonb``
or SQLite's JSON column would not do: PostgreSQL rewrites the text it is given, and Django writes
``json.dumps``'s text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import models

# One encoder for every value (json.dumps would build one a call).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _c_encode(encoder: json.JSONEncoder) -> Callable[[object, int], tuple[str, ...]] | None:
    """The stdlib's C encoder with ``encoder``'s settings, built once: ``JSONEncoder.encode`` builds one a
    call, which is most of the cost of encoding a short row (1.4 us of it against 0.6 us, the 200,000 rows
    of a 10,000-round session). The same arguments ``JSONEncoder.iterencode`` passes; no circular check:
    what is sealed is read from JSON or made by the engine, neither of which can hold a cycle. None where
    the C accelerator is missing."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    settings = (encoder.key_separator, encoder.item_separator, encoder.sort_keys, encoder.skipkeys)
    made: Callable[[object, int], tuple[str, ...]] = make(
        None, encoder.default, json.encoder.encode_basestring, None, *settings, encoder.allow_nan
    )
    return made


_C_ENCODE = _c_encode(_ENCODER)


def canonical(value: object) -> str:
    """The one JSON text of a value that every seal hashes: keys sorted, no spaces, characters as they are
    (``_ENCODER.encode``'s text, whichever encoder writes it)."""
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


class CanonicalJSONField(models.JSONField):
    """A JSON value kept as its ``canonical`` text in a text column: read back decoded, as a JSONField is
    (the API's serializers and the pages see no difference); written as ``canonical`` of it. A JSONField
    still to Django and the REST framework (its internal type, its serializer field, SQL NULL for None,
    the bulk import's preparing of it); no key lookups (``result__net``): the column is text to
    PostgreSQL."""

    def db_type(self, connection: Any) -> str | None:
        # a text column (SQLite's JSON column is one, with its JSON_VALID check; PostgreSQL's jsonb is not)
        return connection.data_types["TextField"]  # type: ignore[no-any-return]

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if not prepared:
            value = self.get_prep_value(value)
        return None if value is None else canonical(value)
