"""The hand in progress: read (with an ETag), set up, an event recorded, undone and redone."""

from __future__ import annotations

from typing import Any

from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from calculator.engine import request_object

from .. import selectors, services
from ..errors import HandConflict
from ..models import Session
from ..serializers import (
    HandConflictSerializer,
    HandEventSerializer,
    HandFinishedSerializer,
    HandReopenedSerializer,
    HandRevisionSerializer,
    HandSerializer,
    HandSetupSerializer,
    SeatsChangedSerializer,
    SeatsChangeSerializer,
    SeatSerializer,
)
from .common import ERRORS, READ_ERRORS, SESSION_ID, SignedInApiRequest, _idempotency_key, _round_data

HAND_CONFLICT = {
    409: OpenApiResponse(
        HandConflictSerializer,
        description=(
            "Stale revision (someone else changed the hand or the session's ledger), nothing to undo or "
            "redo, or a setup after the first event: the error with the current hand in `hand`. Also a "
            "closed session (the error alone)."
        ),
    )
}
HAND_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=(
        "Optional. Sending the same request again with the same key returns what it did the first time "
        "(header Idempotent-Replayed: true) instead of applying it twice. Without a key, the same request "
        "at the same revision is recognised the same way."
    ),
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The ETag of an earlier answer: 304, no body, while the hand and the ledger are unchanged.",
)
HAND_EXAMPLE = OpenApiExample(
    "A concealed kong so far",
    value={
        "session": 1,
        "number": 3,
        "dealer": 2,
        "void_suits": None,
        "events": [{"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}],
        "notes": ["小李 暗杠"],
        "revision": 7,
        "can_undo": True,
        "can_redo": False,
        "preview": {
            "transfers": [
                {"event": 0, "from": 0, "to": 1, "points": 2, "reason": "concealed_kong", "detail": {}},
                {"event": 0, "from": 2, "to": 1, "points": 2, "reason": "concealed_kong", "detail": {}},
                {"event": 0, "from": 3, "to": 1, "points": 2, "reason": "concealed_kong", "detail": {}},
            ],
            "net": [-2, 6, -2, -2],
            "house": 0,
            "events": [{"index": 0, "type": "kong"}],
            "winners": [],
            "finished": False,
            "next_dealer": None,
        },
    },
    response_only=True,
)
HAND_EVENT_EXAMPLE = OpenApiExample(
    "小李 self-draws a 清一色",
    value={
        "event": {"type": "win", "from": None, "winners": [{"player": 1, "fan": 3}]},
        "revision": 7,
        "note": "小李 自摸 清一色",
    },
    request_only=True,
)
HAND_EVENT_FIELDS = frozenset({"event", "revision", "note"})
HAND_SETUP_FIELDS = frozenset({"dealer", "void_suits", "revision"})
REVISION_FIELDS = frozenset({"revision"})
SEATS_FIELDS = frozenset({"seat", "player", "name", "swap", "revision"})


def _hand_etag(revision: int) -> str:
    return f'"hand-{revision}"'


def _hand_response(session: Session, status_code: int = status.HTTP_200_OK, **extra: Any) -> Response:
    """The hand as it stands now, with its ETag (``extra`` adds fields around it: the recorded round)."""
    hand = selectors.session_hand(session)
    data = HandSerializer(hand).data
    body = {**extra, "hand": data} if extra else data
    return Response(body, status=status_code, headers={"ETag": _hand_etag(hand.revision)})


class HandAPIView(APIView):
    """The hand views share their answer to a conflict: the error, and the current hand beside it."""

    session: Session | None = None

    def session_for(self, request: SignedInApiRequest, session_id: int) -> Session:
        self.session = selectors.session_get(user=request.user, session_id=session_id)
        return self.session

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, HandConflict) and self.session is not None:
            exc.detail = {**exc.detail, "hand": HandSerializer(selectors.session_hand(self.session)).data}
        return super().handle_exception(exc)

    def answer(self, outcome: services.HandOutcome) -> Response:
        """200 with the hand; 201 with the round and the next hand when the write finished the hand."""
        assert self.session is not None  # noqa: S101 - session_for ran first
        headers = {"Idempotent-Replayed": "true"} if outcome.replayed else {}
        if outcome.reopened is not None:
            response = _hand_response(self.session, reopened_round=outcome.reopened.pk)
        elif outcome.round is None:
            response = _hand_response(self.session)
        else:
            response = _hand_response(self.session, status.HTTP_201_CREATED, round=_round_data(outcome.round))
        for name, value in headers.items():
            response[name] = value
        return response


class HandView(HandAPIView):
    @extend_schema(
        tags=["hand"],
        summary="The hand in progress: its events, notes, revision and the settlement so far",
        parameters=[SESSION_ID, IF_NONE_MATCH],
        responses={200: HandSerializer, 304: OpenApiResponse(description="Unchanged."), **READ_ERRORS},
        examples=[HAND_EXAMPLE],
    )
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = self.session_for(request, session_id)
        etag = _hand_etag(selectors.session_hand_revision(session))
        # Weakly, as RFC 9110 asks of If-None-Match: GZipMiddleware weakens the ETag of what it compresses.
        wanted = {tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))}
        if etag in wanted or "*" in wanted:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return _hand_response(session)

    @extend_schema(
        tags=["hand"],
        summary="Choose the dealer and void suits (定缺) of the hand, before its first event",
        parameters=[SESSION_ID, HAND_KEY],
        request=HandSetupSerializer,
        responses={200: HandSerializer, **ERRORS, **HAND_CONFLICT},
    )
    def patch(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, HAND_SETUP_FIELDS, ("revision",))
        outcome = services.hand_setup(
            actor=request.user,
            session=session,
            idempotency_key=_idempotency_key(request),
            **body,
        )
        return self.answer(outcome)


class HandEventsView(HandAPIView):
    @extend_schema(
        tags=["hand"],
        summary="Record one event of the hand; the event that finishes it records the round",
        description=(
            "200 with the hand. When the event finishes the hand, the round is recorded (as POST "
            "…/rounds/ would) in the same transaction and the next hand starts with the suggested dealer: "
            "201 with `round` and `hand`. An event the engine refuses is a 400 naming `events[i]…`; "
            "nothing changes."
        ),
        parameters=[SESSION_ID, HAND_KEY],
        request=HandEventSerializer,
        responses={200: HandSerializer, 201: HandFinishedSerializer, **ERRORS, **HAND_CONFLICT},
        examples=[HAND_EVENT_EXAMPLE, HAND_EXAMPLE],
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, HAND_EVENT_FIELDS, ("event", "revision"))
        outcome = services.hand_event_add(
            actor=request.user,
            session=session,
            event=body["event"],
            revision=body["revision"],
            note=body.get("note"),
            idempotency_key=_idempotency_key(request),
        )
        return self.answer(outcome)


EVENT_INDEX = OpenApiParameter(
    "index", OpenApiTypes.INT, OpenApiParameter.PATH, description="The event's place in the hand, from 0."
)


class HandEventView(HandAPIView):
    @extend_schema(
        tags=["hand"],
        summary="Replace event k of the hand in place (a wrong fan, winner or discarder)",
        description=(
            "The events after it are kept; the whole hand is settled again, and a 400 (naming the event "
            "at fault) changes nothing. 200 with the hand; 201 with `round` and `hand` if the hand is now "
            "finished. An index past the end is a 409 (`no_such_event`) with the hand."
        ),
        parameters=[SESSION_ID, EVENT_INDEX, HAND_KEY],
        request=HandEventSerializer,
        responses={200: HandSerializer, 201: HandFinishedSerializer, **ERRORS, **HAND_CONFLICT},
    )
    def put(self, request: SignedInApiRequest, session_id: int, index: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, HAND_EVENT_FIELDS, ("event", "revision"))
        outcome = services.hand_event_edit(
            actor=request.user,
            session=session,
            index=index,
            event=body["event"],
            revision=body["revision"],
            note=body.get("note"),
            idempotency_key=_idempotency_key(request),
        )
        return self.answer(outcome)

    @extend_schema(
        tags=["hand"],
        summary="Remove event k of the hand, keeping the events after it",
        description="The whole hand is settled again; a 400 changes nothing. 200 with the hand.",
        parameters=[SESSION_ID, EVENT_INDEX, HAND_KEY],
        request=HandRevisionSerializer,
        responses={200: HandSerializer, 201: HandFinishedSerializer, **ERRORS, **HAND_CONFLICT},
    )
    def delete(self, request: SignedInApiRequest, session_id: int, index: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, REVISION_FIELDS, ("revision",))
        outcome = services.hand_event_remove(
            actor=request.user,
            session=session,
            index=index,
            revision=body["revision"],
            idempotency_key=_idempotency_key(request),
        )
        return self.answer(outcome)


class HandUndoView(HandAPIView):
    @extend_schema(
        tags=["hand"],
        summary="Undo the hand's last event (it can be redone); right after a finished hand, reopen it",
        description=(
            "200 with the hand. Right after the event that finished a hand (nothing recorded in the new hand "
            "yet), the undo takes that hand back: its round is voided (a reversal version, as POST "
            "…/rounds/{id}/void/), the hand is in progress again with its events, the finishing one undone "
            "and redoable: 200 with `hand` and `reopened_round` (the round's id). Redo then records the "
            "round again, as a new version of the same round."
        ),
        parameters=[SESSION_ID, HAND_KEY],
        request=HandRevisionSerializer,
        responses={
            200: PolymorphicProxySerializer(
                component_name="HandUndone",
                serializers=[HandSerializer, HandReopenedSerializer],
                resource_type_field_name=None,
            ),
            **ERRORS,
            **HAND_CONFLICT,
        },
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, REVISION_FIELDS, ("revision",))
        outcome = services.hand_undo(
            actor=request.user,
            session=session,
            revision=body["revision"],
            idempotency_key=_idempotency_key(request),
        )
        return self.answer(outcome)


class HandRedoView(HandAPIView):
    @extend_schema(
        tags=["hand"],
        summary="Redo the event undone last (it may finish the hand, like any event)",
        parameters=[SESSION_ID, HAND_KEY],
        request=HandRevisionSerializer,
        responses={200: HandSerializer, 201: HandFinishedSerializer, **ERRORS, **HAND_CONFLICT},
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, REVISION_FIELDS, ("revision",))
        outcome = services.hand_redo(
            actor=request.user,
            session=session,
            revision=body["revision"],
            idempotency_key=_idempotency_key(request),
        )
        return self.answer(outcome)


class SessionSeatsView(HandAPIView):
    @extend_schema(
        tags=["hand"],
        summary="Between two hands: a substitute takes a seat, or two seats swap",
        description=(
            "From the hand about to be played on (the hand in progress, before its first event), `seat` is "
            "`player` (a player of the group), or the player called `name` (a new one if the group has "
            "none so called), or it swaps with seat `swap`. Rounds already recorded keep the players they "
            "were played by; totals, settle-up, debts and statistics follow each person "
            '(docs/ledger.md, "Substitutes"). 409 with the hand when it has begun '
            "(`seat_change_mid_hand`), when the session plays for coins (`seat_change_coins`) or when "
            "`revision` is stale; 400 naming `seat`, `player`, `name` or `swap`."
        ),
        parameters=[SESSION_ID, HAND_KEY],
        request=SeatsChangeSerializer,
        responses={200: SeatsChangedSerializer, **ERRORS, **HAND_CONFLICT},
    )
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, SEATS_FIELDS, ("seat", "revision"))
        change = services.session_seats_change(
            actor=request.user, session=session, idempotency_key=_idempotency_key(request), **body
        )
        hand = change.hand
        data = {
            "seats": SeatSerializer(selectors.session_seats(session), many=True).data,
            "from_hand": hand.number,
            "hand": HandSerializer(selectors.session_hand(session)).data,
        }
        headers = {"ETag": _hand_etag(hand.revision)}
        if change.replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(data, headers=headers)
