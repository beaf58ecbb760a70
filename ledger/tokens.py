"""API tokens (``Authorization: Token …``), kept by django-rest-knox: one per device that logged in, stored
as a digest, dying ``REST_KNOX["TOKEN_TTL"]`` after their last use (settings.py says how long; each use
moves the expiry, at most once a minute). A device logs itself out (``DELETE auth/token/``) or one of the
account's others, or all of them (``auth/tokens/``). docs/security.md, "API tokens", says why.
"""

from __future__ import annotations

import binascii
from hmac import compare_digest
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from rest_framework.exceptions import AuthenticationFailed

from .errors import LedgerError
from .models import DeviceToken


@transaction.atomic
def token_issue(*, user: User, name: str = "") -> tuple[DeviceToken, str]:
    """A new token for the device logging in, and its key (shown this once, never stored); the account's
    expired tokens go (knox would look at them on every request otherwise)."""
    DeviceToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    token, key = DeviceToken.objects.create(user=user, name=name.strip())
    return token, key


def token_revoke(*, user: User, token_id: str) -> None:
    """Log one of the account's devices out (``token_id`` is the token's ``id`` in ``GET auth/tokens/``);
    404 for one that is not the account's, as for any object of someone else's."""
    get_object_or_404(DeviceToken, user=user, token_key=token_id).delete()


def tokens_revoke_all(*, user: User) -> int:
    """Log every device of the account out; how many there were."""
    deleted, _ = DeviceToken.objects.filter(user=user).delete()
    return int(deleted)


def account_tokens(user: User) -> list[DeviceToken]:
    """The account's devices still logged in, newest first."""
    alive = Q(expiry__isnull=True) | Q(expiry__gte=timezone.now())
    return list(DeviceToken.objects.filter(alive, user=user))


class DeviceTokenAuthentication(TokenAuthentication):
    """knox's authentication, with an expired token refused as ``token_expired`` (the one error shape says
    why: log in again) instead of knox's "invalid token", the use recorded on the token when knox renews
    it, and no look at the account's other tokens on each request (``token_issue`` clears them)."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, DeviceToken]:
        key = token.decode("utf-8")
        try:
            digest = hash_token(key)
        except (TypeError, binascii.Error):
            raise AuthenticationFailed() from None
        for candidate in DeviceToken.objects.filter(
            token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH]
        ).select_related("user"):
            if not compare_digest(digest, candidate.digest):
                continue
            if candidate.expiry is not None and candidate.expiry < timezone.now():
                candidate.delete()
                refusal = LedgerError("token_expired", field="credentials")
                # The body holds only text, lists and dicts of text; to_dict() is typed dict[str, object].
                raise AuthenticationFailed(refusal.to_dict())  # type: ignore[arg-type]
            self.renew_token(candidate)
            # knox is untyped: its validate_user hands back (user, token) as Any
            return self.validate_user(candidate)  # type: ignore[no-any-return]
        raise AuthenticationFailed()

    def renew_token(self, auth_token: DeviceToken) -> None:
        """The use moves the expiry (knox's AUTO_REFRESH) and is kept as ``last_used``: one write a minute
        at most (knox's ``MIN_REFRESH_INTERVAL``), not one a request."""
        now = timezone.now()
        last = auth_token.last_used
        if last is not None and (now - last).total_seconds() <= knox_settings.MIN_REFRESH_INTERVAL:
            return
        auth_token.last_used = now
        if knox_settings.TOKEN_TTL is not None:  # DJANGO_API_TOKEN_DAYS=0: it never expires
            auth_token.expiry = now + knox_settings.TOKEN_TTL
        auth_token.save(update_fields=("expiry", "last_used"))
