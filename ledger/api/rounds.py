"""Rounds: recorded (with an idempotency key), read, corrected and voided."""

from __future__ import annotations

from django.db.models import Prefetch
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ErrorSerializer

from .. import selectors, services
from ..models import LedgerEntry, RoundVersion
from ..serializers import ROUND_BODY_EXAMPLE, RoundBodySerializer, RoundDetailSerializer, RoundSerializer
from .common import (
    CONFLICTS,
    ERRORS,
    IDEMPOTENCY_KEY,
    READ_ERRORS,
    ROUND_ID,
    SESSION_ID,
    ListView,
    SignedInApiRequest,
    _idempotency_key,
    _round_data,
)


class RoundListView(ListView):
    serializer_class = RoundSerializer

    @extend_schema(
        tags=["rounds"],
        summary="Rounds of a session, in order",
        parameters=[SESSION_ID],
        responses={200: RoundSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        page = self.paginate_queryset(selectors.session_rounds(session))
        return self.get_paginated_response(RoundSerializer(page, many=True).data)

    @extend_schema(
        tags=["rounds"],
        summary="Record a round (the settle body without rules; coins come from the session)",
        parameters=[SESSION_ID, IDEMPOTENCY_KEY],
        request=RoundBodySerializer,
        responses={
            201: RoundSerializer,
            **ERRORS,
            **CONFLICTS,
            422: OpenApiResponse(ErrorSerializer, description="Idempotency-Key reused for another round."),
        },
        examples=[ROUND_BODY_EXAMPLE],
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        key = _idempotency_key(request)
        round_, created = services.round_record(
            actor=request.user, session=session, body=request.data, idempotency_key=key
        )
        headers = {} if created else {"Idempotent-Replayed": "true"}
        return Response(_round_data(round_), status=status.HTTP_201_CREATED, headers=headers)


class RoundDetailView(APIView):
    @extend_schema(
        tags=["rounds"],
        summary="A round with its history: every version and its ledger entries",
        parameters=[ROUND_ID],
        responses={200: RoundDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, round_id: int) -> Response:
        round_ = selectors.round_get(user=request.user, round_id=round_id)
        versions = (
            RoundVersion.objects.order_by("version")
            .select_related("created_by")
            .prefetch_related(Prefetch("entries", queryset=LedgerEntry.objects.order_by("id")))
        )
        stored = (
            selectors.session_rounds(round_.session)
            .prefetch_related(Prefetch("versions", queryset=versions))
            .get(pk=round_.pk)
        )
        return Response(RoundDetailSerializer(stored).data)


class RoundCorrectView(APIView):
    @extend_schema(
        tags=["rounds"],
        summary="Correct a round: reversing entries for its current version, then the new version's",
        parameters=[ROUND_ID],
        request=RoundBodySerializer,
        responses={200: RoundSerializer, **ERRORS, **CONFLICTS},
        examples=[ROUND_BODY_EXAMPLE],
    )
    def post(self, request: SignedInApiRequest, round_id: int) -> Response:
        round_ = selectors.round_get(user=request.user, round_id=round_id)
        round_ = services.round_correct(actor=request.user, round_=round_, body=request.data)
        return Response(_round_data(round_))


class RoundVoidView(APIView):
    @extend_schema(
        tags=["rounds"],
        summary="Void a round: reversing entries; it no longer counts",
        parameters=[ROUND_ID],
        request=None,
        responses={200: RoundSerializer, **ERRORS, **CONFLICTS},
    )
    def post(self, request: SignedInApiRequest, round_id: int) -> Response:
        round_ = selectors.round_get(user=request.user, round_id=round_id)
        round_ = services.round_void(actor=request.user, round_=round_)
        return Response(_round_data(round_))
