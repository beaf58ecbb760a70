"""``manage.py load_demo``: a demo account, group and a living session, recorded through the services.

Idempotent: if the demo group exists, nothing happens. Refused unless DEBUG is on (``DJANGO_DEBUG=1``, which
only the Makefile sets), with no flag to override it: the demo account is a superuser whose password is
published, so it has no place in a database a server facing the world uses.
"""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from ledger import demo, selectors, services
from ledger.models import Group, Round, RoundVersion, Session


class Command(BaseCommand):
    help = (
        "Create the demo account (demo / demo-sczmj), the group 周五麻将 with two earlier evenings and "
        "tonight's session of a dozen hands with the next one in progress."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                f"Refusing to load the demo outside development mode: it creates the superuser "
                f"{demo.USERNAME} with the published password {demo.PASSWORD}. It runs only with "
                "DJANGO_DEBUG=1 (make run), never against a deployment's database."
            )
        if Group.objects.filter(name=demo.GROUP, memberships__user__username=demo.USERNAME).exists():
            self.stdout.write(f"The demo group {demo.GROUP} is already there (log in as {demo.USERNAME}).")
            return
        with transaction.atomic():
            owner = self._demo_user()
            group = services.group_create(actor=owner, name=demo.GROUP)
            players = [services.player_add(actor=owner, group=group, name=name) for name in demo.PLAYERS]
            tonight = timezone.now()
            for name, weeks_ago, seating, earlier in demo.EARLIER:
                evening = services.session_start(
                    actor=owner,
                    group=group,
                    name=name,
                    player_ids=[players[index].pk for index in seating],
                    rules=demo.RULES,
                    coins=demo.COINS,
                )
                for body in earlier:
                    services.round_record(actor=owner, session=evening, body=body)
                services.session_close(actor=owner, session=evening)
                _date_back(evening, tonight - timedelta(weeks=weeks_ago))
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
            # Rounds recorded beside the hand move its number on, not its dealer: deal hand 13 from the
            # seat round 12 suggested, as the session page would after a finished hand.
            suggested = selectors.fresh_hand(session).dealer
            revision = selectors.session_hand_revision(session)
            services.hand_setup(actor=owner, session=session, revision=revision, dealer=suggested)
            for event in demo.HAND_IN_PROGRESS:
                revision = selectors.session_hand_revision(session)
                services.hand_event_add(actor=owner, session=session, event=event, revision=revision)
        self.stdout.write(
            f"Demo ready: log in as {demo.USERNAME} / {demo.PASSWORD} (admin and /api/docs/); "
            f"group {demo.GROUP}, session {demo.SESSION} with {len(rounds)} rounds and hand "
            f"{len(rounds) + 1} in progress."
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


def _date_back(session: Session, start: datetime) -> None:
    """An earlier evening's times as if it had been recorded then: the session from ``start``, each hand
    ``demo.MINUTES_PER_HAND`` after the one before, closed after the last. None of them is sealed
    (ledger/integrity.py), as the import of a group file puts back a file's times (ledger/group_file.py);
    the append-only ledger rows are not touched and keep the moment they were written."""
    hands = list(Round.objects.filter(session=session).values_list("pk", "position"))
    for pk, position in hands:
        at = start + timedelta(minutes=demo.MINUTES_PER_HAND * position)
        Round.objects.filter(pk=pk).update(created=at)
        RoundVersion.objects.filter(round_id=pk).update(created=at)
    closed = start + timedelta(minutes=demo.MINUTES_PER_HAND * (len(hands) + 1))
    Session.objects.filter(pk=session.pk).update(created=start, closed=closed)
