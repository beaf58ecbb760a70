"""A session as CSV: one row per round, spreadsheet formulas kept out."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from .. import selectors
from .common import READ_ERRORS, SESSION_ID, SignedInApiRequest


class CsvRenderer(BaseRenderer):
    """Lets a client ask for text/csv; errors on that path still come out as JSON text."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return JSONRenderer().render(data)


class _Echo:
    """A file-like object whose write returns the line, so csv.writer can feed a generator."""

    def write(self, value: str) -> str:
        return value


def neutralise(cell: object) -> object:
    """Keep spreadsheet formulas out: text starting with = + - @ (or a tab/CR) gets a leading quote.

    Numbers stay numbers, negative ones included: only text cells are touched.
    """
    if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + cell
    return cell


def export_rows(session: Any) -> Iterator[list[object]]:
    """The session as rows: a header, one row per round (net points per player, the house, and each
    player's coin change when coins are on), a total row summing every number column. A player is a
    person: one column each for everyone who played (the seats now, then whoever was substituted), and
    the dealer named as the table sat for that hand."""
    spells = selectors.sittings([session]).get(session.pk, [])
    table, away = selectors.table_and_away(spells)
    people = [*table, *away]
    names = [spell.player.name for spell in people]
    coin_headers = [f"{name} 游戏币 coins" for name in names] if session.coins_enabled else []
    yield ["局 round", "版本 version", "状态 status", "庄 dealer", *names, "房间 house", *coin_headers]
    totals = [0] * (len(names) + 1 + len(coin_headers))
    for round_ in selectors.iter_round_person_net(session, [spell.player_id for spell in people]):
        net = [int(getattr(round_, f"net_{seat}") or 0) for seat in range(len(names))]
        net.append(int(round_.net_house or 0))
        coin_cells = [int(getattr(round_, f"coins_{seat}") or 0) for seat in range(len(coin_headers))]
        numbers = [*net, *coin_cells]
        totals = [total + value for total, value in zip(totals, numbers, strict=True)]
        state = "作废 voided" if round_.voided else ("更正 corrected" if round_.version > 1 else "")
        dealer = selectors.sitter(spells, round_.dealer, round_.position)
        yield [round_.position, round_.version, state, dealer.player.name if dealer else "", *numbers]
    yield ["合计 total", "", "", "", *totals]
    fee = selectors.session_money_settle_up(session)["fee"]
    if fee is not None:
        yield _fee_row(session, fee, names)


def _fee_row(session: Any, fee: dict[str, Any], names: list[str]) -> list[object]:
    """台费: what the fee does to each column of its unit (docs/ledger.md, "The table fee"): each player
    bears his share, whoever paid the room (else the house) is owed it; the points' columns stay empty
    when the session settles in coins."""
    *players, house = selectors.fee_moves(fee, len(names))
    paid_by = "房间 house" if fee["paid_by_seat"] is None else names[fee["paid_by_seat"]]
    described = ["台费 fee", fee["amount"], fee["split"], paid_by]
    if session.coins_enabled:
        return [*described, *[""] * (len(names) + 1), *players]
    return [*described, *players, house]


def export_lines(session: Any) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield "\ufeff"  # the BOM: spreadsheets then read the file as UTF-8 and show the Chinese names
    for row in export_rows(session):
        yield writer.writerow([neutralise(cell) for cell in row])


class ExportView(APIView):
    renderer_classes = (JSONRenderer, CsvRenderer)

    @extend_schema(
        tags=["sessions"],
        summary="The session as CSV: one row per round, net points per player (UTF-8 with BOM)",
        parameters=[SESSION_ID],
        responses={(200, "text/csv"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> StreamingHttpResponse:
        session = selectors.session_get(user=request.user, session_id=session_id)
        response = StreamingHttpResponse(
            (line.encode("utf-8") for line in export_lines(session)), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="session-{session.pk}.csv"'
        return response
