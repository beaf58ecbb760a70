"""Accounts: sign-up, worded in both languages when Django's password validators refuse, and the one-time
link a group owner makes for a member who forgot their password."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils import translation

from calculator.engine import EngineError

from ..errors import Forbidden, LedgerError
from ..models import Membership, Role
from ..reset_links import reset_path
from .checks import _unique_or, require_role


def account_create(*, username: str, password: str) -> User:
    """A new login. Password rules are Django's validators; a taken name is a 400 on ``username``."""
    user_model = get_user_model()
    username = username.strip()
    if not username:
        raise LedgerError("username_missing", field="username")
    if user_model.objects.filter(username__iexact=username).exists():
        raise _name_taken()
    refusal = _password_refusal(password, user_model(username=username))
    if refusal is not None:
        raise refusal
    with _unique_or(_name_taken):
        return user_model.objects.create_user(username=username, password=password)


def _password_refusal(password: str, user: User) -> EngineError | None:
    """Django's password validators' verdict, worded in English and in Chinese (they word their messages
    in the active language, so each language is asked for in turn)."""
    worded = {}
    for language in ("en", "zh-hans"):
        with translation.override(language):
            try:
                validate_password(password, user)
            except DjangoValidationError as error:
                worded[language] = " ".join(error.messages)
    return (
        LedgerError("password_refused", field="password", reason=worded["en"], reason_zh=worded["zh-hans"])
        if worded
        else None
    )


def _name_taken() -> EngineError:
    return LedgerError("username_taken", field="username")


def reset_link_make(*, actor: User, membership: Membership) -> str:
    """The path of a one-time link that sets a new password for ``membership``'s account, made by an owner
    of its group (a home server with no mail: docs/security.md, "A forgotten password").

    The link is the account, not the group, so an owner makes one only for a member whose every group is
    one they own: an owner of one group never takes over what the member holds in another (the operator's
    ``sczmj reset_password`` serves that member). Not for oneself (the password page does that, knowing
    the old one), nor for a staff account, which reaches the admin."""
    require_role(actor=actor, group=membership.group, roles=(Role.OWNER,))
    member = membership.user
    if member.pk == actor.pk:
        raise LedgerError("reset_link_self", field="member")
    if member.is_staff or member.is_superuser or not member.is_active:
        raise Forbidden("reset_link_staff")
    owned = Membership.objects.filter(user=actor, role=Role.OWNER).values("group_id")
    if Membership.objects.filter(user=member).exclude(group_id__in=owned).exists():
        raise Forbidden("reset_link_other_groups")
    return reset_path(member)
