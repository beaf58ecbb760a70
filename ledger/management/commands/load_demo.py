"""``manage.py load_demo``: a demo account, group and a living session, recorded through the services.

Idempotent: if the demo group exists, nothing happens. Refused unless DEBUG is on or ``--force`` is given:
the demo account's password is published, so it has no place on a server facing the world.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from ledger import demo, services
from ledger.models import Group


class Command(BaseCommand):
    help = "Create the demo account (demo / demo-sczmj), the group 周五麻将 and a session of a dozen hands."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo even with DEBUG off (its password is public: never on a real server).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                f"Refusing to load the demo with DEBUG off: it creates the superuser {demo.USERNAME} "
                f"with the published password {demo.PASSWORD}. Set DJANGO_DEBUG=1 (development) "
                "or pass --force."
            )
        if Group.objects.filter(name=demo.GROUP, memberships__user__username=demo.USERNAME).exists():
            self.stdout.write(f"The demo group {demo.GROUP} is already there (log in as {demo.USERNAME}).")
            return
        with transaction.atomic():
            owner = self._demo_user()
            group = services.group_create(actor=owner, name=demo.GROUP)
            players = [services.player_add(actor=owner, group=group, name=name) for name in demo.PLAYERS]
            session = services.session_start(
                actor=owner,
                group=group,
                name=demo.SESSION,
                player_ids=[player.pk for player in players],
                rules=demo.RULES,
                coins=demo.COINS,
            )
            rounds = [
                services.round_record(actor=owner, session=session, body=body)[0] for body in demo.ROUNDS
            ]
            position, corrected = demo.CORRECTION
            services.round_correct(actor=owner, round_=rounds[position - 1], body=corrected)
        self.stdout.write(
            f"Demo ready: log in as {demo.USERNAME} / {demo.PASSWORD} (admin and /api/docs/); "
            f"group {demo.GROUP}, session {demo.SESSION} with {len(rounds)} rounds."
        )

    def _demo_user(self) -> Any:
        user_model = get_user_model()
        user = user_model.objects.filter(username=demo.USERNAME).first()
        if user is None:
            # staff, so the admin shows the demo ledger too; a home app's demo, not a production account
            user = user_model.objects.create_user(
                username=demo.USERNAME, password=demo.PASSWORD, is_staff=True
            )
            user.is_superuser = True
            user.save(update_fields=["is_superuser"])
        return user
