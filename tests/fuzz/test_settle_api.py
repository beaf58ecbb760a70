"""Fuzzing the settle request through the API: a valid round (random rules, coins, every kind of event)
with any JSON value put anywhere in it, or a body of no expected shape at all, is answered 200 with a
balanced settlement or 400 naming the field; never a 500."""

import random
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.fuzz.junk import assert_clean_refusal, json_values, paths, post_json, put
from tests.settlement.engine.random_rounds import random_round

THROUGH_HTTP = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
COINS = {"room_coefficient": 100, "balances": [10_000, 500, 0, 100_000]}


def settle(body: Any) -> None:
    response = post_json(APIClient(), reverse("api-settle"), body)
    if response.status_code != 200:
        assert_clean_refusal(response)
        return
    answer = response.json()
    assert sum(answer["net"]) + answer["house"] == 0
    if "coins" in answer:
        assert sum(answer["coins"]["change"]) + answer["coins"]["house"] == 0


@pytest.mark.django_db
@THROUGH_HTTP
@given(rng=st.randoms(use_true_random=False), junk=json_values, coins=st.booleans())
def test_any_value_anywhere_in_a_round_is_settled_or_refused_cleanly(
    rng: random.Random, junk: Any, coins: bool
):
    body = {**random_round(rng), **({"coins": COINS} if coins else {})}
    settle(put(body, rng.choice(paths(body)), junk))


@pytest.mark.django_db
@THROUGH_HTTP
@given(body=json_values)
def test_a_body_of_any_shape_is_refused_cleanly(body: Any):
    settle(body)
