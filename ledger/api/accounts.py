"""Accounts: sign-up and the log-in token."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from .. import services, tokens
from ..errors import LedgerError
from ..serializers import (
    AccountCreateSerializer,
    AccountSerializer,
    AuthTokenRequestSerializer,
    AuthTokenSerializer,
)
from .common import ERRORS, THROTTLED, _body


class SignUpThrottle(AnonRateThrottle):
    """Per client address (REST_FRAMEWORK["NUM_PROXIES"] says which one), counted in the shared cache."""

    scope = "sign_up"
    rate = "20/hour"


class TokenThrottle(AnonRateThrottle):
    """Password guessing: 20 tries an hour per client address, right or wrong."""

    scope = "token"
    rate = "20/hour"


class AccountCreateView(APIView):
    """Open sign-up: anyone may create an account (a home app); an account sees nothing until a group
    owner adds it or it creates a group of its own."""

    permission_classes = (AllowAny,)
    authentication_classes = ()
    throttle_classes = (SignUpThrottle,)

    @extend_schema(
        tags=["accounts"],
        summary="Create an account",
        request=AccountCreateSerializer,
        responses={201: AccountSerializer, 400: ERRORS[400], **THROTTLED},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = _body(AccountCreateSerializer, request)
        user = services.account_create(username=body["username"], password=body["password"])
        return Response({"id": user.pk, "username": user.get_username()}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """POST: a user name and password for the account's token (anyone). DELETE: revoke it, the API's
    log-out (the token's own holder)."""

    throttle_classes = (TokenThrottle,)

    def get_authenticators(self) -> list[Any]:
        """Credentials are read only to log out: a stale token sent along with a log-in must not refuse
        the log-in that replaces it (``self.request`` is Django's request here, before DRF wraps it; the
        schema generator has none, and documents each method's own ``auth``)."""
        logging_in = self.request is not None and self.request.method == "POST"
        return [] if logging_in else super().get_authenticators()

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(
        tags=["accounts"],
        summary="Exchange a user name and password for an API token",
        description=(
            "Send the token as `Authorization: Token <token>` on every other call. Ten wrong passwords "
            "for one user name from one address lock that pair out for 15 minutes (429)."
        ),
        request=AuthTokenRequestSerializer,
        responses={200: AuthTokenSerializer, 400: ERRORS[400], **THROTTLED},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = _body(AuthTokenRequestSerializer, request)
        user = authenticate(request._request, username=body["username"], password=body["password"])
        if user is None:
            raise LedgerError("wrong_password", field="password")
        return Response({"token": tokens.token_issue(user=user).key})

    @extend_schema(
        tags=["accounts"],
        summary="Log out: revoke your token",
        description="The account's token stops working for every client that holds it.",
        request=None,
        responses={204: None, 401: ERRORS[401]},
    )
    def delete(self, request: Request) -> Response:
        tokens.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
