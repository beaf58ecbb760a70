"""Accounts: sign-up, worded in both languages when Django's password validators refuse."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils import translation

from calculator.engine import EngineError

from ..errors import LedgerError
from .checks import _unique_or


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
