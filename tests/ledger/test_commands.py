"""The management commands: load_demo (idempotent) and create_account."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models import Sum

from ledger import demo
from ledger.models import Group, LedgerEntry, Round, RoundVersion, Session, VersionKind


def test_load_demo_records_a_living_session_once(db, settings):
    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    group = Group.objects.get(name=demo.GROUP)
    assert list(group.players.values_list("name", flat=True)) == list(demo.PLAYERS)
    assert (
        Round.objects.filter(session__group=group, session__name=demo.SESSION).count()
        == len(demo.ROUNDS)
        >= 12
    )
    earlier = Session.objects.filter(group=group).exclude(name=demo.SESSION).order_by("id")
    assert [(session.name, session.is_open) for session in earlier] == [
        (name, False) for name, *_ in demo.EARLIER
    ]
    tonight = Session.objects.get(group=group, name=demo.SESSION).created
    for session, (_, weeks_ago, _, rounds) in zip(earlier, demo.EARLIER, strict=True):
        # each earlier evening dated its week, its hands after its start and before it closed
        assert tonight - session.created - timedelta(weeks=weeks_ago) < timedelta(minutes=1)
        times = [
            *Round.objects.filter(session=session).order_by("position").values_list("created", flat=True)
        ]
        assert len(times) == len(rounds) and session.created < times[0] and times == sorted(times)
        assert times[-1] < session.closed < tonight
        assert set(
            RoundVersion.objects.filter(round__session=session).values_list("created", flat=True)
        ) == set(times)
    call_command("verify_ledger")  # dating them back breaks no seal
    assert RoundVersion.objects.filter(kind=VersionKind.CORRECTED).count() == 1
    reasons = set(LedgerEntry.objects.values_list("reason", flat=True))
    assert {"concealed_kong", "direct_kong", "added_kong", "kong_transfer", "huazhu", "chajiao"} <= reasons
    assert LedgerEntry.objects.aggregate(total=Sum("points"))["total"] == 0
    session = Session.objects.get(group=group, name=demo.SESSION)
    assert session.is_open
    hand = session.hand
    assert hand.number == len(demo.ROUNDS) + 1
    assert hand.events == list(demo.HAND_IN_PROGRESS)  # a living hand: a kong and one winner so far
    assert hand.dealer == 3  # round 12 was 老张's self-draw: he deals on


def test_load_demo_refuses_outside_development_mode_whatever_the_flags(db, settings):
    settings.DEBUG = False
    for flags in ([], ["--force"], ["--settings=sczmj_site.settings"]):
        with pytest.raises(CommandError, match=r"outside development mode.*DJANGO_DEBUG=1"):
            call_command("load_demo", *flags)
    assert not get_user_model().objects.filter(username=demo.USERNAME).exists()
    assert not Group.objects.filter(name=demo.GROUP).exists()


def test_create_account_makes_a_login(db, django_user_model):
    call_command("create_account", "老张", password="friday-night-mahjong")
    assert django_user_model.objects.get(username="老张").check_password("friday-night-mahjong")
    with pytest.raises(CommandError, match="username"):
        call_command("create_account", "老张", password="friday-night-mahjong")
