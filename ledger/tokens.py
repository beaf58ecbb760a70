"""API tokens (``Authorization: Token …``): issued for a user name and a password, revoked by the client's
log-out (``DELETE /api/v1/auth/token/``), and expiring ``API_TOKEN_MAX_AGE`` after they were issued when
that setting is on (``DJANGO_API_TOKEN_DAYS``; off by default, as a phone app that stays logged in wants).

An account has one token (DRF's model), shared by every client it logged in from: revoking it logs all of
them out, and the next log-in issues a new one.
"""

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from .errors import LedgerError


def token_expired(token: Token) -> bool:
    max_age = settings.API_TOKEN_MAX_AGE
    return max_age is not None and token.created <= timezone.now() - max_age


@transaction.atomic
def token_issue(*, user: Any) -> Token:
    """The account's token, a fresh one if the one it had has expired."""
    token, _ = Token.objects.get_or_create(user=user)
    if token_expired(token):
        token.delete()
        token = Token.objects.create(user=user)
    return token


def token_revoke(*, user: Any) -> None:
    Token.objects.filter(user=user).delete()


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, refusing a token older than ``API_TOKEN_MAX_AGE`` (a 401 that says so)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            refusal = LedgerError("token_expired", field="credentials")
            # The body holds only text, lists and dicts of text; to_dict() is typed dict[str, object].
            raise AuthenticationFailed(refusal.to_dict())  # type: ignore[arg-type]
        return user, token
