"""Migration 0019: the keys DRF's authtoken kept in plain text become knox digests that go on logging in
(a client logged in before the upgrade keeps working), and DRF's table, with the plain keys, is dropped."""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

from django.apps import apps
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from ledger.models import DeviceToken
from tests.ledger.conftest import make_user

OLD_KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"  # a DRF key: 40 hex characters
migration = import_module("ledger.migrations.0019_device_token")


def test_an_old_plain_key_still_logs_in_and_is_no_longer_stored(db):
    user = make_user("xiaowang")
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamp, user_id int)"
        )
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s, %s)", [OLD_KEY, timezone.now(), user.pk])
    # RunPython's schema editor, as far as the function uses it (SQLite's refuses to open inside a test's
    # transaction)
    editor = SimpleNamespace(connection=connection, execute=lambda sql: connection.cursor().execute(sql))
    migration.tokens_kept_as_digests(apps, editor)

    assert "authtoken_token" not in connection.introspection.table_names()
    (token,) = DeviceToken.objects.filter(user=user)
    assert OLD_KEY not in (token.digest, token.token_key) and token.expiry > timezone.now()
    assert APIClient(headers={"Authorization": f"Token {OLD_KEY}"}).get("/api/v1/groups/").status_code == 200


def test_a_new_database_has_nothing_to_move(db):
    editor = SimpleNamespace(connection=connection, execute=lambda sql: connection.cursor().execute(sql))
    migration.tokens_kept_as_digests(apps, editor)
    assert not DeviceToken.objects.exists()
