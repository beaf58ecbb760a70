"""``sczmj reset_password USERNAME``: a one-time link that sets a new password, for a home server with no
mail. The operator (or an owner they hand it to) passes it on; it works once, and not after
``PASSWORD_RESET_TIMEOUT`` (Django's default, 3 days): Django's token is made of the password and the
last log-in, so using it (or logging in) spends it."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode


def reset_link(user: Any, base_url: str) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    path = reverse(
        "password-reset", kwargs={"uidb64": uid, "token": default_token_generator.make_token(user)}
    )
    return base_url.rstrip("/") + path


class Command(BaseCommand):
    help = "Print a one-time link that sets a new password for an account."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--base-url",
            help="The site's address, https://mahjong.example.org (default: the first of "
            "DJANGO_CSRF_TRUSTED_ORIGINS, else http://127.0.0.1:8000).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username__iexact=options["username"], is_active=True).first()
        if user is None:
            raise CommandError(f"No active account is named {options['username']!r}.")
        base_url = options["base_url"] or next(iter(settings.CSRF_TRUSTED_ORIGINS), "http://127.0.0.1:8000")
        hours = settings.PASSWORD_RESET_TIMEOUT // 3600
        self.stdout.write(reset_link(user, base_url))
        self.stdout.write(f"Works once, for {hours} hours, for {user.get_username()} only.")
