"""The CSV export: UTF-8 with a BOM, formulas neutralised, negative numbers kept, streamed."""

import csv
import io

import pytest
from django.http import StreamingHttpResponse
from django.urls import reverse

from ledger import services
from ledger.api import neutralise
from tests.ledger.conftest import DIRECT_KONG, SELF_DRAW_B, SELF_DRAW_B_NET


def export(api, session):
    response = api.get(reverse("ledger:session-export", kwargs={"session_id": session.pk}))
    assert response.status_code == 200
    return response


def rows_of(response):
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        pytest.param("=HYPERLINK(1)", "'=HYPERLINK(1)", id="equals"),
        pytest.param("+1", "'+1", id="plus"),
        pytest.param("-2+3", "'-2+3", id="minus-text"),
        pytest.param("@SUM(A1)", "'@SUM(A1)", id="at"),
        pytest.param("\t=1", "'\t=1", id="tab"),
        pytest.param(-48, -48, id="negative-number-stays-a-number"),
        pytest.param("小王", "小王", id="plain-name"),
    ],
)
def test_text_cells_that_start_a_formula_are_neutralised(cell, written):
    assert neutralise(cell) == written


def test_the_export_streams_with_a_bom_and_one_row_per_round(api, owner, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    voided, _ = services.round_record(actor=owner, session=session, body=DIRECT_KONG)
    services.round_void(actor=owner, round_=voided)
    response = export(api, session)
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    header, first, second, total = rows_of(response)
    assert header[4:8] == ["小王", "小李", "阿美", "老张"]
    assert first[4:8] == [str(n) for n in SELF_DRAW_B_NET]
    assert second[2] == "作废 voided"
    assert second[4:8] == ["0", "0", "0", "0"]
    assert total[4:8] == [str(n) for n in SELF_DRAW_B_NET]


def test_a_name_that_looks_like_a_formula_is_neutralised_in_the_file(api, owner, group):
    evil = services.player_add(actor=owner, group=group, name="=cmd|' /C calc'!A0")
    others = list(group.players.exclude(pk=evil.pk).values_list("id", flat=True)[:3])
    session = services.session_start(actor=owner, group=group, name="-x", player_ids=[evil.pk, *others])
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    header, first, *_ = rows_of(export(api, session))
    assert header[4] == "'=cmd|' /C calc'!A0"
    assert first[4] == "-5"
    assert first[3] == "'=cmd|' /C calc'!A0"  # the dealer's name


def test_coin_columns_appear_when_the_session_has_coins(api, owner, group):
    ids = list(group.players.values_list("id", flat=True))
    session = services.session_start(
        actor=owner,
        group=group,
        name="币",
        player_ids=ids,
        coins={"room_coefficient": 10, "starting_balances": [100, 100, 100, 100]},
    )
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    services.round_record(actor=owner, session=session, body=DIRECT_KONG)
    header, first, second, total = rows_of(export(api, session))
    assert header[-4:] == [f"{name} 游戏币 coins" for name in ("小王", "小李", "阿美", "老张")]
    assert first[-4:] == ["-50", "150", "-50", "-50"]
    assert second[-4:] == ["0", "-20", "20", "0"]
    assert total[4:] == ["-5", "13", "-3", "-5", "0", "-50", "130", "-30", "-50"]  # points, house, coins
