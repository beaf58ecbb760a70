"""``sczmj reset_password USERNAME``: the operator's door to a one-time link that sets a new password, for
any active account (a group owner makes one for a member from the group page: ``ledger/reset_links.py``)."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.reset_links import reset_path


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
        self.stdout.write(base_url.rstrip("/") + reset_path(user))
        self.stdout.write(f"Works once, for {hours} hours, for {user.get_username()} only.")
