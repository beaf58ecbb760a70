"""Accounts: names unique whatever their case, in the database; sign-up and tokens throttled per address."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from tests.ledger.conftest import make_user
from tests.ledger.test_concurrency import post, run_together

PASSWORD = "a-long-pass-phrase"


def test_the_database_refuses_a_user_name_differing_only_in_case(db):
    make_user("RacerX")
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user(username="Racerx", password=PASSWORD)


@pytest.mark.django_db(transaction=True)
def test_sign_ups_racing_with_names_differing_in_case_create_one_account():
    names = ["RacerX", "Racerx", "racerX", "RACERX", "racerx"] * 2
    answers = run_together(
        [
            lambda name=name: post(None, "account-create", {"username": name, "password": PASSWORD})
            for name in names
        ]
    )
    assert sorted(status for status, _ in answers) == [201] + [400] * 9
    assert get_user_model().objects.filter(username__iexact="racerx").count() == 1


@pytest.mark.parametrize(
    ("route", "body"),
    [
        pytest.param(
            "account-create", lambda n: {"username": f"guest{n}", "password": PASSWORD}, id="sign-up"
        ),
        # A name per try: ten wrong passwords for one name are the login lockout's (tests/ops), not this.
        pytest.param("auth-token", lambda n: {"username": f"user{n}", "password": f"guess-{n}"}, id="token"),
    ],
)
def test_twenty_requests_an_hour_per_address_even_with_a_forged_forwarded_for(owner, route, body):
    client = APIClient()
    statuses = [
        client.post(
            reverse(f"ledger:{route}"), body(n), format="json", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
        ).status_code
        for n in range(21)
    ]
    assert 429 not in statuses[:20]
    assert statuses[20] == 429


def test_the_token_throttle_does_not_count_sign_ups(db):
    client = APIClient()
    for n in range(20):
        client.post(
            reverse("ledger:account-create"), {"username": f"g{n}", "password": PASSWORD}, format="json"
        )
    response = client.post(
        reverse("ledger:auth-token"), {"username": "g0", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200


def test_throttle_counts_are_shared_by_every_server_process():
    assert isinstance(caches["default"], DatabaseCache)
