"""Accounts: sign-up and the API's tokens, one per device (ledger/tokens.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, user_logged_in
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from .. import services, tokens
from ..errors import LedgerError
from ..models import DeviceToken
from ..serializers import (
    AccountCreateSerializer,
    AccountSerializer,
    AuthTokenRequestSerializer,
    AuthTokenSerializer,
    DeviceTokenSerializer,
)
from .common import ERRORS, THROTTLED, SignedInApiRequest, _body


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
            "for one user name from one address lock that pair out for 15 minutes (429); ten from any "
            "addresses make the name wait a minute before its next try, doubling with each further one to 15 "
            "(429)."
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
        # A log-in like the page's: axes clears the counts it keeps (sczmj_site/lockout.py).
        user_logged_in.send(sender=type(user), request=request._request, user=user)
        token, key = tokens.token_issue(user=user, name=body.get("name", ""))
        return Response({"token": key, "id": token.token_key, "name": token.name, "expiry": token.expiry})

    @extend_schema(
        tags=["accounts"],
        summary="Log out this device: revoke the token this request carries",
        description="Only this device's token stops working; the account's other devices stay logged in.",
        request=None,
        responses={204: None, 401: ERRORS[401]},
    )
    def delete(self, request: SignedInApiRequest) -> Response:
        if isinstance(request.auth, DeviceToken):
            request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeviceTokensView(APIView):
    """The account's devices logged in to the API (GET) and logging all of them out (DELETE)."""

    @extend_schema(
        tags=["accounts"],
        summary="Your devices logged in to the API",
        description="Newest first; `current` is the one this request was made with. Keys are never shown.",
        responses={200: DeviceTokenSerializer(many=True), 401: ERRORS[401]},
    )
    def get(self, request: SignedInApiRequest) -> Response:
        devices = tokens.account_tokens(request.user)
        return Response(DeviceTokenSerializer(devices, many=True, context={"auth": request.auth}).data)

    @extend_schema(
        tags=["accounts"],
        summary="Log out every device",
        operation_id="v1_auth_tokens_destroy_all",
        description="Every token of the account stops working, this request's included.",
        request=None,
        responses={204: None, 401: ERRORS[401]},
    )
    def delete(self, request: SignedInApiRequest) -> Response:
        tokens.tokens_revoke_all(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeviceTokenView(APIView):
    @extend_schema(
        tags=["accounts"],
        summary="Log out one of your devices",
        operation_id="v1_auth_tokens_destroy_one",
        description="`token_id` is a device's `id` in GET auth/tokens/; another account's is 404.",
        request=None,
        responses={204: None, 401: ERRORS[401], 404: ERRORS[404]},
    )
    def delete(self, request: SignedInApiRequest, token_id: str) -> Response:
        tokens.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
