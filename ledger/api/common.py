"""What the API's views share: the error answers of the schema, the path parameters, paging, the
body of a request, the idempotency key, and a round as answered.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import generics
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from api.errors import ErrorSerializer

from .. import selectors
from ..errors import LedgerError
from ..models import MAX_KEY_LENGTH
from ..serializers import RoundSerializer

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input: the field (or event) and why."),
    401: OpenApiResponse(ErrorSerializer, description="Not logged in."),
    403: OpenApiResponse(ErrorSerializer, description="Your role in the group does not allow this."),
    404: OpenApiResponse(ErrorSerializer, description="No such object among your groups."),
}
READ_ERRORS = {code: ERRORS[code] for code in (401, 404)}
CONFLICTS = {
    409: OpenApiResponse(ErrorSerializer, description="The session is closed (or the round voided)."),
}
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=(
        "Any unique string (a UUID) per round. Sending the same key again returns the round already "
        "stored, with header Idempotent-Replayed: true; the same key with a different body is a 422."
    ),
)


class Pagination(LimitOffsetPagination):
    """The default limit/offset pages, with a ceiling on both: a huge offset is an empty page, not an
    integer overflow in the database."""

    max_limit = 500
    max_offset = 10**12

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), self.max_offset)


def _id_parameter(name: str, what: str) -> OpenApiParameter:
    return OpenApiParameter(name, OpenApiTypes.INT, OpenApiParameter.PATH, description=f"The {what}'s id.")


GROUP_ID = _id_parameter("group_id", "group")
SESSION_ID = _id_parameter("session_id", "session")
ROUND_ID = _id_parameter("round_id", "round")
MEMBER_ID = _id_parameter("member_id", "membership")


def _body(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


THROTTLED = {429: OpenApiResponse(ErrorSerializer, description="Too many requests: try again later.")}


class SignedInApiRequest(Request):
    """An API view's request: DRF authenticated it before the view ran (``IsAuthenticated``, the default
    permission of every view but sign-up), so its user is a ``User`` (as ``web.htmx.SignedInRequest``)."""

    user: User


class ListView(generics.GenericAPIView[Any]):
    pagination_class = Pagination
    request: SignedInApiRequest  # behind IsAuthenticated, as every view of the ledger's API but sign-up


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise LedgerError("idempotency_key_length", field="Idempotency-Key", maximum=MAX_KEY_LENGTH)
    return key


def _round_data(round_: Any) -> dict[str, Any]:
    stored = selectors.session_rounds(round_.session).get(pk=round_.pk)
    return RoundSerializer(stored).data
