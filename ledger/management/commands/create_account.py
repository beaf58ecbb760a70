"""``manage.py create_account USERNAME``: an account, through the same service as POST /api/v1/accounts/."""

import getpass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from calculator.engine import EngineError
from ledger import services


class Command(BaseCommand):
    help = "Create an account (the password is asked for unless --password is given)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", help="The password; asked for interactively when left out.")

    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password"] or getpass.getpass(f"Password for {options['username']}: ")
        try:
            user = services.account_create(username=options["username"], password=password)
        except EngineError as error:
            raise CommandError(f"{error.field}: {error.message}") from None
        self.stdout.write(f"Created account {user.get_username()} (id {user.pk}).")
