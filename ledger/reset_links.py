"""A one-time link that sets a new password, for a server with no mail: Django's own reset token.

The token is made of the account's password hash and last log-in, signed with the site's key, so it needs
no row of its own, works once (setting the password, or logging in, spends it) and stops after
``PASSWORD_RESET_TIMEOUT`` (Django's 3 days). The link opens ``PasswordResetConfirmView``
(``ledger/pages/accounts.py``, ``PasswordReset``). Two doors make one: the operator's ``sczmj
reset_password`` and a group owner's button on the group page (``services.reset_link_make`` decides for
whom an owner may).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode


def reset_path(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse(
        "password-reset", kwargs={"uidb64": uid, "token": default_token_generator.make_token(user)}
    )


def reset_link_expires() -> datetime:
    """When a link made now stops working."""
    return timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
