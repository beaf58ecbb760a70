"""Fuzzing the tile parser: any text or JSON value gives tiles or an EngineError naming the field, never
anything else; through the score API the same value is a 200 or a clean 400."""

from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from calculator.engine import EngineError, format_tiles, parse_tiles
from tests.fuzz.junk import assert_clean_refusal, json_values, post_json, tile_text

FAST = settings(max_examples=300, deadline=None)
THROUGH_HTTP = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FAST
@given(st.one_of(tile_text, json_values))
def test_the_parser_gives_tiles_or_names_the_field(value: Any):
    try:
        tiles = parse_tiles(value, "concealed")
    except EngineError as error:
        assert error.field.startswith("concealed")
        assert error.message and error.message_zh
        error.message.encode()  # always encodable, even when it echoes a lone surrogate
        return
    assert sorted(parse_tiles(format_tiles(tiles))) == sorted(tiles)


@pytest.mark.django_db
@THROUGH_HTTP
@given(concealed=st.one_of(tile_text, json_values), win_tile=st.one_of(tile_text, json_values))
def test_the_score_api_answers_any_tiles_with_a_score_or_a_clean_400(concealed: Any, win_tile: Any):
    response = post_json(APIClient(), reverse("api-score"), {"concealed": concealed, "win_tile": win_tile})
    if response.status_code != 200:
        assert_clean_refusal(response)
