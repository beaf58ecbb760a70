"""The ledger's refusals as the API answers them: the status of each kind is chosen here and nowhere else.

The refusals themselves (``ledger/errors.py``) carry no HTTP status: a page shows their words, the API
answers their body (the one error shape) with the status below.
"""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from api import errors

from ..errors import IdempotencyKeyReusedError, InviteUnusableError, LedgerRefusal

# The first kind the refusal is an instance of gives its status.
STATUSES: tuple[tuple[type[LedgerRefusal], int], ...] = (
    # the same key with a different request (the IETF Idempotency-Key draft's 422)
    (IdempotencyKeyReusedError, status.HTTP_422_UNPROCESSABLE_ENTITY),
    (InviteUnusableError, status.HTTP_410_GONE),  # the link existed; it will not work again
    (LedgerRefusal, status.HTTP_409_CONFLICT),  # every other: the state things are in refuses it
)


def status_of(refusal: LedgerRefusal) -> int:
    return next(code for kind, code in STATUSES if isinstance(refusal, kind))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """REST_FRAMEWORK's ``EXCEPTION_HANDLER``: a ledger refusal is answered with its status and its body;
    everything else as ``api.errors.exception_handler`` answers it."""
    if isinstance(exc, LedgerRefusal):
        set_rollback()
        return Response(errors.safe(exc.detail), status=status_of(exc))
    return errors.exception_handler(exc, context)
