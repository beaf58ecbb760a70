"""The admin lists every ledger model, and shows rounds and ledger rows read-only."""

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import CoinEntry, Group, HandInProgress, LedgerEntry, Player, Round, Session, WinRecord
from tests.ledger.conftest import SELF_DRAW_B, make_table

MODELS = [Group, Player, Session, Round, LedgerEntry, CoinEntry, WinRecord, HandInProgress]


@pytest.fixture
def admin_client_with_data(admin_client, admin_user):
    _, session = make_table(admin_user, coins={"room_coefficient": 10, "starting_balances": [100] * 4})
    services.round_record(actor=admin_user, session=session, body=SELF_DRAW_B)
    return admin_client


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_every_model_has_a_working_admin_list_and_page(admin_client_with_data, model):
    meta = model._meta
    assert (
        admin_client_with_data.get(
            reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        ).status_code
        == 200
    )
    row = model.objects.first()
    page = admin_client_with_data.get(
        reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk])
    )
    assert page.status_code == 200


@pytest.mark.parametrize(
    "model", [Round, LedgerEntry, CoinEntry, WinRecord, HandInProgress], ids=lambda model: model.__name__
)
def test_history_cannot_be_added_changed_or_deleted_in_the_admin(admin_client_with_data, model):
    meta = model._meta
    row = model.objects.first()
    assert (
        admin_client_with_data.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code
        == 403
    )
    page = admin_client_with_data.get(
        reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk])
    )
    assert b'name="_save"' not in page.content
    deleting = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[row.pk])
    assert admin_client_with_data.post(deleting, {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def test_a_players_group_cannot_be_changed_in_the_admin(admin_client_with_data, admin_user):
    player = Player.objects.first()
    own_group = player.group_id
    other = services.group_create(actor=admin_user, name="另一组")
    page = admin_client_with_data.get(reverse("admin:ledger_player_change", args=[player.pk]))
    assert b'name="group"' not in page.content
    admin_client_with_data.post(
        reverse("admin:ledger_player_change", args=[player.pk]),
        {"name": "改名", "group": other.pk, "user": ""},
    )
    player.refresh_from_db()
    assert (player.name, player.group_id) == ("改名", own_group)  # the rest of the form still saves


def test_a_new_players_group_is_chosen_in_the_admin(admin_client_with_data):
    page = admin_client_with_data.get(reverse("admin:ledger_player_add"))
    assert b'name="group"' in page.content
