"""The management commands: load_demo (idempotent) and create_account."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models import Sum

from ledger import demo
from ledger.models import Group, LedgerEntry, Round, RoundVersion, VersionKind


def test_load_demo_records_a_living_session_once(db, settings):
    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    group = Group.objects.get(name=demo.GROUP)
    assert list(group.players.values_list("name", flat=True)) == list(demo.PLAYERS)
    assert Round.objects.filter(session__group=group).count() == len(demo.ROUNDS) >= 12
    assert RoundVersion.objects.filter(kind=VersionKind.CORRECTED).count() == 1
    reasons = set(LedgerEntry.objects.values_list("reason", flat=True))
    assert {"concealed_kong", "direct_kong", "added_kong", "kong_transfer", "huazhu", "chajiao"} <= reasons
    assert LedgerEntry.objects.aggregate(total=Sum("points"))["total"] == 0


@pytest.mark.parametrize(
    ("debug", "arguments", "loaded"),
    [
        pytest.param(False, [], False, id="debug-off-refused"),
        pytest.param(False, ["--force"], True, id="debug-off-forced"),
        pytest.param(True, [], True, id="debug-on"),
    ],
)
def test_load_demo_refuses_a_server_with_debug_off_unless_forced(db, settings, debug, arguments, loaded):
    settings.DEBUG = debug
    if loaded:
        call_command("load_demo", *arguments)
    else:
        with pytest.raises(CommandError, match=r"DEBUG off.*--force"):
            call_command("load_demo", *arguments)
    assert get_user_model().objects.filter(username=demo.USERNAME).exists() == loaded
    assert Group.objects.filter(name=demo.GROUP).exists() == loaded


def test_create_account_makes_a_login(db, django_user_model):
    call_command("create_account", "老张", password="friday-night-mahjong")
    assert django_user_model.objects.get(username="老张").check_password("friday-night-mahjong")
    with pytest.raises(CommandError, match="username"):
        call_command("create_account", "老张", password="friday-night-mahjong")
