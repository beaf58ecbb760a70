"""Sessions: started, read, closed, and their totals, settle-up and ledger."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors, services
from ..serializers import (
    EntrySerializer,
    SessionCreateSerializer,
    SessionSerializer,
    SettleUpSerializer,
    TableFeeSerializer,
    TotalsSerializer,
)
from .common import ERRORS, GROUP_ID, READ_ERRORS, SESSION_ID, ListView, SignedInApiRequest, _body

SESSION_EXAMPLE = OpenApiExample(
    "Friday night with coins",
    value={
        "name": "周五晚",
        "players": [1, 2, 3, 4],
        "rules": {"preset": "chengdu", "cap_multiplier": 16},
        "coins": {"room_coefficient": 100, "starting_balances": [10000, 10000, 10000, 10000]},
    },
    request_only=True,
)


class SessionListView(ListView):
    serializer_class = SessionSerializer

    @extend_schema(
        tags=["sessions"],
        summary="Sessions of a group, newest first",
        parameters=[GROUP_ID],
        responses={200: SessionSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        page = self.paginate_queryset(selectors.group_sessions(group))
        return self.get_paginated_response(SessionSerializer(page, many=True).data)

    @extend_schema(
        tags=["sessions"],
        summary="Start a session: four players in seat order, the rules, optional coins and table fee",
        parameters=[GROUP_ID],
        request=SessionCreateSerializer,
        responses={201: SessionSerializer, **ERRORS},
        examples=[SESSION_EXAMPLE],
    )
    def post(self, request: SignedInApiRequest, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        body = _body(SessionCreateSerializer, request)
        session = services.session_start(
            actor=request.user,
            group=group,
            name=body["name"],
            player_ids=body["players"],
            rules=body.get("rules"),
            coins=body.get("coins"),
            fee=body.get("fee"),
        )
        return Response(SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(APIView):
    @extend_schema(
        tags=["sessions"],
        summary="A session",
        parameters=[SESSION_ID],
        responses={200: SessionSerializer, **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(SessionSerializer(session).data)


class SessionCloseView(APIView):
    @extend_schema(
        tags=["sessions"],
        summary="Close a session: it takes no more rounds or corrections",
        parameters=[SESSION_ID],
        request=None,
        responses={200: SessionSerializer, **ERRORS},
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        session = services.session_close(actor=request.user, session=session)
        return Response(SessionSerializer(session).data)


TOTALS_EXAMPLE = OpenApiExample(
    "Three rounds in",
    value={
        "rounds": 3,
        "seats": [
            {"seat": 0, "player": 1, "name": "小王", "points": -54, "coins": 4600},
            {"seat": 1, "player": 2, "name": "小李", "points": 28, "coins": 12800},
            {"seat": 2, "player": 3, "name": "阿美", "points": 21, "coins": 12100},
            {"seat": 3, "player": 4, "name": "老张", "points": 5, "coins": 10500},
        ],
        "house": 0,
        "house_coins": 0,
    },
    response_only=True,
)
SETTLE_UP_EXAMPLE = OpenApiExample(
    "One loser pays three winners",
    value={
        "balances": [-54, 28, 21, 5],
        "house": 0,
        "payments": [
            {"from": 0, "from_name": "小王", "to": 1, "to_name": "小李", "amount": 28},
            {"from": 0, "from_name": "小王", "to": 2, "to_name": "阿美", "amount": 21},
            {"from": 0, "from_name": "小王", "to": 3, "to_name": "老张", "amount": 5},
        ],
    },
    response_only=True,
)


class TotalsView(APIView):
    @extend_schema(
        tags=["sessions"],
        summary="Running totals per seat (points and coin balances)",
        parameters=[SESSION_ID],
        responses={200: TotalsSerializer, **READ_ERRORS},
        examples=[TOTALS_EXAMPLE],
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(TotalsSerializer(selectors.session_totals(session)).data)


class SettleUpView(APIView):
    @extend_schema(
        tags=["sessions"],
        summary="Settle-up proposal: who pays whom, in the fewest payments",
        parameters=[SESSION_ID],
        responses={200: SettleUpSerializer, **READ_ERRORS},
        examples=[SETTLE_UP_EXAMPLE],
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(selectors.session_settle_up(session))


class SessionFeeView(APIView):
    @extend_schema(
        tags=["sessions"],
        summary="Set the table fee: its amount, who bears it, who paid the room",
        parameters=[SESSION_ID],
        request=TableFeeSerializer,
        responses={200: SessionSerializer, **ERRORS},
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        body = request.data if isinstance(request.data, dict) else {}
        session = services.session_fee_set(
            actor=request.user,
            session=session,
            amount=body.get("amount"),
            split=body.get("split", "aa"),
            paid_by=body.get("paid_by"),
        )
        return Response(SessionSerializer(session).data)


class LedgerView(ListView):
    serializer_class = EntrySerializer

    @extend_schema(
        tags=["sessions"],
        summary="The session's ledger: every entry, reversals included, oldest first",
        parameters=[SESSION_ID],
        responses={200: EntrySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        page = self.paginate_queryset(selectors.ledger_entries(session))
        return self.get_paginated_response(EntrySerializer(page, many=True).data)
