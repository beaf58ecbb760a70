"""Debts that carry over (ledger/debts.py): a session's accounts, marking a payment, undoing a mark, and
who still owes whom across a group."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import debts, selectors, services
from ..models import Session
from ..serializers import (
    GroupDebtsSerializer,
    PaymentMarkCreateSerializer,
    PaymentMarkSerializer,
    SessionDebtsSerializer,
)
from .common import CONFLICTS, ERRORS, GROUP_ID, READ_ERRORS, SESSION_ID, SignedInApiRequest, _id_parameter

MARK_ID = _id_parameter("mark_id", "payment mark")


def session_debts_answer(session: Session) -> dict[str, object]:
    pairs, carried = debts.tonight_and_carried(session)
    marks = list(debts.session_marks(session))
    return {
        "session": session.pk,
        "unit": debts.unit_of(session),
        "pairs": pairs,
        "carried": carried,
        "corrected_after_marks": debts.corrected_after_marks(session, marks),
        "marks": marks,
    }


class SessionDebtsView(APIView):
    @extend_schema(
        tags=["debts"],
        summary="A session's accounts: each pair's asked, paid and left, and what earlier sessions carry",
        parameters=[SESSION_ID],
        responses={200: SessionDebtsSerializer, **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(SessionDebtsSerializer(session_debts_answer(session)).data)


class PaymentMarkView(APIView):
    @extend_schema(
        tags=["debts"],
        summary="Mark a payment toward the session's settle-up, in full or in part (payer or payee)",
        parameters=[SESSION_ID],
        request=PaymentMarkCreateSerializer,
        responses={201: PaymentMarkSerializer, **ERRORS},
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        body = request.data if isinstance(request.data, dict) else {}
        mark = services.payment_mark(
            actor=request.user,
            session=session,
            payer_id=body.get("from_player"),
            payee_id=body.get("to_player"),
            amount=body.get("amount"),
        )
        return Response(PaymentMarkSerializer(mark).data, status=status.HTTP_201_CREATED)


class PaymentUndoView(APIView):
    @extend_schema(
        tags=["debts"],
        summary="Undo a mark by appending its reversal (its maker; an owner, for an imported mark)",
        parameters=[MARK_ID],
        request=None,
        responses={201: PaymentMarkSerializer, **ERRORS, **CONFLICTS},
    )
    def post(self, request: SignedInApiRequest, mark_id: int) -> Response:
        mark = debts.payment_mark_get(user=request.user, mark_id=mark_id)
        reversal = services.payment_undo(actor=request.user, mark=mark)
        return Response(PaymentMarkSerializer(reversal).data, status=status.HTTP_201_CREATED)


class GroupDebtsView(APIView):
    @extend_schema(
        tags=["debts"],
        summary="Who still owes whom across the group's sessions",
        parameters=[GROUP_ID],
        responses={200: GroupDebtsSerializer, **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        return Response(GroupDebtsSerializer({"group": group.pk, "owed": debts.group_still_owed(group)}).data)
