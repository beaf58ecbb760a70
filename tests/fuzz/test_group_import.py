"""Fuzzing the group import: a real exported file with any JSON value put anywhere in it is imported
(201) or refused with a 400 naming the field, and a refusal stores nothing."""

import random
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import group_file, services
from ledger.models import Group, LedgerEntry, RoundVersion
from tests.fuzz.junk import assert_clean_refusal, json_values, paths, post_json, put
from tests.ledger.conftest import (
    DRAW_WITH_PIG,
    KONG_THEN_GANG_SHANG_PAO,
    SELF_DRAW_B,
    client_for,
    make_table,
    make_user,
)

THROUGH_HTTP = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture
def exported(db: Any) -> dict[str, Any]:
    owner = make_user("owner")
    group, session = make_table(owner, coins={"room_coefficient": 10, "starting_balances": [200, 100, 50, 0]})
    first = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)[0]
    services.round_record(actor=owner, session=session, body=DRAW_WITH_PIG)
    services.round_correct(actor=owner, round_=first, body=KONG_THEN_GANG_SHANG_PAO)
    return group_file.group_export(actor=owner, group=group)


@pytest.mark.django_db
def test_any_value_anywhere_in_a_group_file_is_imported_or_refused_whole(exported: dict[str, Any]):
    client = client_for(make_user("mover"))
    url = reverse("ledger:group-import")
    places = paths(exported)

    @THROUGH_HTTP
    @given(rng=st.randoms(use_true_random=False), junk=json_values)
    def send(rng: random.Random, junk: Any) -> None:
        cache.clear()  # the import throttle (20 an hour) counts per account, in the cache
        before = (Group.objects.count(), RoundVersion.objects.count(), LedgerEntry.objects.count())
        response = post_json(client, url, put(exported, rng.choice(places), junk))
        if response.status_code == 201:
            return
        assert_clean_refusal(response)
        assert (Group.objects.count(), RoundVersion.objects.count(), LedgerEntry.objects.count()) == before

    send()
