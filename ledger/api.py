"""The stored-data REST API: thin views over ``selectors`` (reads) and ``services`` (writes).

Every object is fetched through a selector scoped to the requester's groups, so another group's objects
answer 404 whatever the method; roles are checked by the services (403).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import authenticate
from django.db.models import Prefetch
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from api.errors import ErrorSerializer
from calculator.engine import request_object

from . import group_file, selectors, services, statistics, tokens
from .errors import HandConflict, LedgerError
from .models import MAX_KEY_LENGTH, WRITER_ROLES, LedgerEntry, Membership, RoundVersion, Session
from .serializers import (
    ROUND_BODY_EXAMPLE,
    AccountCreateSerializer,
    AccountSerializer,
    AuthTokenRequestSerializer,
    AuthTokenSerializer,
    EntrySerializer,
    GroupCreateSerializer,
    GroupSerializer,
    HandConflictSerializer,
    HandEventSerializer,
    HandFinishedSerializer,
    HandRevisionSerializer,
    HandSerializer,
    HandSetupSerializer,
    InvitationSerializer,
    InviteCreateSerializer,
    InviteSerializer,
    MemberAddSerializer,
    MemberRoleSerializer,
    MembershipSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    RoundBodySerializer,
    RoundDetailSerializer,
    RoundSerializer,
    SessionCreateSerializer,
    SessionSerializer,
    SettleUpSerializer,
    StandingsSerializer,
    StatisticsSerializer,
    TotalsSerializer,
)

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input: the field (or event) and why."),
    401: OpenApiResponse(ErrorSerializer, description="Not logged in."),
    403: OpenApiResponse(ErrorSerializer, description="Your role in the group does not allow this."),
    404: OpenApiResponse(ErrorSerializer, description="No such object among your groups."),
}
READ_ERRORS = {code: ERRORS[code] for code in (401, 404)}
CONFLICTS = {
    409: OpenApiResponse(ErrorSerializer, description="The session is closed (or the round voided)."),
}
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=(
        "Any unique string (a UUID) per round. Sending the same key again returns the round already "
        "stored, with header Idempotent-Replayed: true; the same key with a different body is a 422."
    ),
)


class Pagination(LimitOffsetPagination):
    """The default limit/offset pages, with a ceiling on both: a huge offset is an empty page, not an
    integer overflow in the database."""

    max_limit = 500
    max_offset = 10**12

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), self.max_offset)


def _id_parameter(name: str, what: str) -> OpenApiParameter:
    return OpenApiParameter(name, OpenApiTypes.INT, OpenApiParameter.PATH, description=f"The {what}'s id.")


GROUP_ID = _id_parameter("group_id", "group")
SESSION_ID = _id_parameter("session_id", "session")
ROUND_ID = _id_parameter("round_id", "round")
MEMBER_ID = _id_parameter("member_id", "membership")


def _body(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- accounts --------------------------------------------------------------------------------------------


class SignUpThrottle(AnonRateThrottle):
    """Per client address (REST_FRAMEWORK["NUM_PROXIES"] says which one), counted in the shared cache."""

    scope = "sign_up"
    rate = "20/hour"


class TokenThrottle(AnonRateThrottle):
    """Password guessing: 20 tries an hour per client address, right or wrong."""

    scope = "token"
    rate = "20/hour"


THROTTLED = {429: OpenApiResponse(ErrorSerializer, description="Too many requests: try again later.")}


class AccountCreateView(APIView):
    """Open sign-up: anyone may create an account (a home app); an account sees nothing until a group
    owner adds it or it creates a group of its own."""

    permission_classes = (AllowAny,)
    authentication_classes = ()
    throttle_classes = (SignUpThrottle,)

    @extend_schema(
        tags=["accounts"],
        summary="Create an account",
        request=AccountCreateSerializer,
        responses={201: AccountSerializer, 400: ERRORS[400], **THROTTLED},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = _body(AccountCreateSerializer, request)
        user = services.account_create(username=body["username"], password=body["password"])
        return Response({"id": user.pk, "username": user.get_username()}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """POST: a user name and password for the account's token (anyone). DELETE: revoke it, the API's
    log-out (the token's own holder)."""

    throttle_classes = (TokenThrottle,)

    def get_authenticators(self) -> list[Any]:
        """Credentials are read only to log out: a stale token sent along with a log-in must not refuse
        the log-in that replaces it (``self.request`` is Django's request here, before DRF wraps it; the
        schema generator has none, and documents each method's own ``auth``)."""
        logging_in = self.request is not None and self.request.method == "POST"
        return [] if logging_in else super().get_authenticators()

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(
        tags=["accounts"],
        summary="Exchange a user name and password for an API token",
        description=(
            "Send the token as `Authorization: Token <token>` on every other call. Ten wrong passwords "
            "for one user name from one address lock that pair out for 15 minutes (429)."
        ),
        request=AuthTokenRequestSerializer,
        responses={200: AuthTokenSerializer, 400: ERRORS[400], **THROTTLED},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = _body(AuthTokenRequestSerializer, request)
        user = authenticate(request._request, username=body["username"], password=body["password"])
        if user is None:
            raise LedgerError("wrong_password", field="password")
        return Response({"token": tokens.token_issue(user=user).key})

    @extend_schema(
        tags=["accounts"],
        summary="Log out: revoke your token",
        description="The account's token stops working for every client that holds it.",
        request=None,
        responses={204: None, 401: ERRORS[401]},
    )
    def delete(self, request: Request) -> Response:
        tokens.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- groups ----------------------------------------------------------------------------------------------


class ListView(generics.GenericAPIView):
    pagination_class = Pagination


class GroupListView(ListView):
    serializer_class = GroupSerializer

    def get_queryset(self) -> Any:
        return selectors.groups_with_role(self.request.user)

    @extend_schema(
        tags=["groups"], summary="Your groups", responses={200: GroupSerializer(many=True), **READ_ERRORS}
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(GroupSerializer(page, many=True).data)

    @extend_schema(
        tags=["groups"],
        summary="Create a group (you become its owner)",
        request=GroupCreateSerializer,
        responses={201: GroupSerializer, 400: ERRORS[400], 401: ERRORS[401]},
    )
    def post(self, request: Request) -> Response:
        body = _body(GroupCreateSerializer, request)
        group = services.group_create(actor=request.user, name=body["name"])
        created = selectors.groups_with_role(request.user).get(pk=group.pk)
        return Response(GroupSerializer(created).data, status=status.HTTP_201_CREATED)


class GroupDetailView(APIView):
    @extend_schema(
        tags=["groups"],
        summary="A group",
        parameters=[GROUP_ID],
        responses={200: GroupSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, group_id: int) -> Response:
        return Response(
            GroupSerializer(get_object_or_404(selectors.groups_with_role(request.user), pk=group_id)).data
        )


class MemberListView(ListView):
    serializer_class = MembershipSerializer

    @extend_schema(
        tags=["groups"],
        summary="Members of a group",
        parameters=[GROUP_ID],
        responses={200: MembershipSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        page = self.paginate_queryset(selectors.group_members(group))
        return self.get_paginated_response(MembershipSerializer(page, many=True).data)

    def get_throttles(self) -> list[Any]:
        # Only asking someone in is throttled: each answer says whether a user name exists.
        return [MemberInviteThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        tags=["groups"],
        summary="Invite an account to a group (owners only); it joins when it accepts",
        description=(
            "Nobody is added without consent: this creates an invitation (its id is the invitation's), "
            "which the account accepts with POST /api/v1/invitations/{id}/accept/. "
            "Throttled to 20 an hour per owner, so user names cannot be probed in bulk."
        ),
        parameters=[GROUP_ID],
        request=MemberAddSerializer,
        responses={201: InvitationSerializer, **ERRORS, **THROTTLED},
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        body = _body(MemberAddSerializer, request)
        invitation = services.member_invite(
            actor=request.user, group=group, username=body["username"], role=body["role"]
        )
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class MemberDetailView(APIView):
    def _membership(self, request: Request, group_id: int, member_id: int) -> Membership:
        group = selectors.group_get(user=request.user, group_id=group_id)
        return selectors.member_get(group=group, member_id=member_id)

    @extend_schema(
        tags=["groups"],
        summary="Change a member's role (owners only)",
        parameters=[GROUP_ID, MEMBER_ID],
        request=MemberRoleSerializer,
        responses={200: MembershipSerializer, **ERRORS},
    )
    def patch(self, request: Request, group_id: int, member_id: int) -> Response:
        membership = self._membership(request, group_id, member_id)
        body = _body(MemberRoleSerializer, request)
        membership = services.member_set_role(actor=request.user, membership=membership, role=body["role"])
        return Response(MembershipSerializer(membership).data)

    @extend_schema(
        tags=["groups"],
        summary="Remove a member (owners only)",
        parameters=[GROUP_ID, MEMBER_ID],
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, group_id: int, member_id: int) -> Response:
        membership = self._membership(request, group_id, member_id)
        services.member_remove(actor=request.user, membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- invitations (to a group) and invite links (to a session) -------------------------------------------


class MemberInviteThrottle(UserRateThrottle):
    """User-name guessing through invitations: 20 an hour per owner, counted in the shared cache."""

    scope = "member_invite"
    rate = "20/hour"


INVITATION_ID = _id_parameter("invitation_id", "invitation")
INVITE_ID = _id_parameter("invite_id", "invite")


class InvitationListView(ListView):
    serializer_class = InvitationSerializer

    @extend_schema(
        tags=["groups"],
        summary="Invitations waiting for your answer",
        responses={200: InvitationSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.invitations_for(request.user))
        return self.get_paginated_response(InvitationSerializer(page, many=True).data)


class InvitationAcceptView(APIView):
    @extend_schema(
        tags=["groups"],
        summary="Accept an invitation: you join the group with the role offered",
        parameters=[INVITATION_ID],
        request=None,
        responses={200: MembershipSerializer, **ERRORS, 409: CONFLICTS[409]},
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = selectors.invitation_get(user=request.user, invitation_id=invitation_id)
        membership = services.invitation_accept(actor=request.user, invitation=invitation)
        return Response(MembershipSerializer(membership).data)


class InvitationDeclineView(APIView):
    @extend_schema(
        tags=["groups"],
        summary="Decline an invitation (or, as an owner of the group, withdraw it)",
        parameters=[INVITATION_ID],
        request=None,
        responses={200: InvitationSerializer, **ERRORS, 409: CONFLICTS[409]},
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = selectors.invitation_get(user=request.user, invitation_id=invitation_id)
        invitation = services.invitation_decline(actor=request.user, invitation=invitation)
        return Response(InvitationSerializer(invitation).data)


INVITE_EXAMPLE = OpenApiExample(
    "A link for a friend who watches", value={"role": "viewer", "expires_in_hours": 24}, request_only=True
)


class InviteListView(ListView):
    serializer_class = InviteSerializer

    @extend_schema(
        tags=["sessions"],
        summary="The session's invite links (owners and scorekeepers)",
        parameters=[SESSION_ID],
        responses={200: InviteSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        services.require_role(actor=request.user, group=session.group, roles=WRITER_ROLES)
        page = self.paginate_queryset(selectors.session_invites(session))
        return self.get_paginated_response(
            InviteSerializer(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        tags=["sessions"],
        summary="Make an invite link: a viewer watches without an account; a scorekeeper joins the group",
        parameters=[SESSION_ID],
        request=InviteCreateSerializer,
        responses={201: InviteSerializer, **ERRORS},
        examples=[INVITE_EXAMPLE],
    )
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        body = _body(InviteCreateSerializer, request)
        invite = services.invite_create(
            actor=request.user,
            session=session,
            role=body["role"],
            expires_in_hours=body.get("expires_in_hours"),
        )
        return Response(
            InviteSerializer(invite, context={"request": request}).data, status=status.HTTP_201_CREATED
        )


class InviteDetailView(APIView):
    @extend_schema(
        tags=["sessions"],
        summary="Revoke an invite link: it stops working at once and says so",
        parameters=[INVITE_ID],
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, invite_id: int) -> Response:
        invite = selectors.invite_get(user=request.user, invite_id=invite_id)
        services.invite_revoke(actor=request.user, invite=invite)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerListView(ListView):
    serializer_class = PlayerSerializer

    @extend_schema(
        tags=["groups"],
        summary="Players of a group",
        parameters=[GROUP_ID],
        responses={200: PlayerSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        page = self.paginate_queryset(selectors.group_players(group))
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)

    @extend_schema(
        tags=["groups"],
        summary="Add a player (a name at the table)",
        parameters=[GROUP_ID],
        request=PlayerCreateSerializer,
        responses={201: PlayerSerializer, **ERRORS},
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        body = _body(PlayerCreateSerializer, request)
        player = services.player_add(actor=request.user, group=group, name=body["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class StandingsView(APIView):
    @extend_schema(
        tags=["groups"],
        summary="Standings: each player's points across the group's sessions",
        parameters=[GROUP_ID],
        responses={200: StandingsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        return Response({"group": group.pk, "standings": statistics.group_standings(group)})


class StatisticsView(APIView):
    @extend_schema(
        tags=["groups"],
        summary="Per-player statistics (wins, self-draws, deal-ins, the biggest hand, kong money, "
        "花猪, 查叫, net per session) and the standings session by session",
        parameters=[GROUP_ID],
        responses={200: StatisticsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        figures = statistics.group_statistics(group)
        body = {"group": group.pk, "players": figures.players, "sessions": figures.sessions}
        return Response(StatisticsSerializer(body).data)


# --- sessions --------------------------------------------------------------------------------------------

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
    def get(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        page = self.paginate_queryset(selectors.group_sessions(group))
        return self.get_paginated_response(SessionSerializer(page, many=True).data)

    @extend_schema(
        tags=["sessions"],
        summary="Start a session: four players in seat order, the rules, optional coins",
        parameters=[GROUP_ID],
        request=SessionCreateSerializer,
        responses={201: SessionSerializer, **ERRORS},
        examples=[SESSION_EXAMPLE],
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        body = _body(SessionCreateSerializer, request)
        session = services.session_start(
            actor=request.user,
            group=group,
            name=body["name"],
            player_ids=body["players"],
            rules=body.get("rules"),
            coins=body.get("coins"),
        )
        return Response(SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(APIView):
    @extend_schema(
        tags=["sessions"],
        summary="A session",
        parameters=[SESSION_ID],
        responses={200: SessionSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, session_id: int) -> Response:
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
    def post(self, request: Request, session_id: int) -> Response:
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
    def get(self, request: Request, session_id: int) -> Response:
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
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(selectors.session_settle_up(session))


class LedgerView(ListView):
    serializer_class = EntrySerializer

    @extend_schema(
        tags=["sessions"],
        summary="The session's ledger: every entry, reversals included, oldest first",
        parameters=[SESSION_ID],
        responses={200: EntrySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        page = self.paginate_queryset(selectors.ledger_entries(session))
        return self.get_paginated_response(EntrySerializer(page, many=True).data)


# --- rounds ----------------------------------------------------------------------------------------------


class RoundListView(ListView):
    serializer_class = RoundSerializer

    @extend_schema(
        tags=["rounds"],
        summary="Rounds of a session, in order",
        parameters=[SESSION_ID],
        responses={200: RoundSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, session_id: int) -> Response:
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
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        key = _idempotency_key(request)
        round_, created = services.round_record(
            actor=request.user, session=session, body=request.data, idempotency_key=key
        )
        headers = {} if created else {"Idempotent-Replayed": "true"}
        return Response(_round_data(round_), status=status.HTTP_201_CREATED, headers=headers)


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise LedgerError("idempotency_key_length", field="Idempotency-Key", maximum=MAX_KEY_LENGTH)
    return key


def _round_data(round_: Any) -> dict[str, Any]:
    stored = selectors.session_rounds(round_.session).get(pk=round_.pk)
    return RoundSerializer(stored).data


class RoundDetailView(APIView):
    @extend_schema(
        tags=["rounds"],
        summary="A round with its history: every version and its ledger entries",
        parameters=[ROUND_ID],
        responses={200: RoundDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, round_id: int) -> Response:
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
    def post(self, request: Request, round_id: int) -> Response:
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
    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_get(user=request.user, round_id=round_id)
        round_ = services.round_void(actor=request.user, round_=round_)
        return Response(_round_data(round_))


# --- the hand in progress -----------------------------------------------------------------------------

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

    def session_for(self, request: Request, session_id: int) -> Session:
        self.session = selectors.session_get(user=request.user, session_id=session_id)
        return self.session

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, HandConflict) and self.session is not None:
            exc.detail = {**exc.detail, "hand": HandSerializer(selectors.session_hand(self.session)).data}
        return super().handle_exception(exc)

    def answer(self, outcome: services.HandOutcome) -> Response:
        """200 with the hand; 201 with the round and the next hand when the write finished the hand."""
        assert self.session is not None
        headers = {"Idempotent-Replayed": "true"} if outcome.replayed else {}
        if outcome.round is None:
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
    def get(self, request: Request, session_id: int) -> Response:
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
    def patch(self, request: Request, session_id: int) -> Response:
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
    def post(self, request: Request, session_id: int) -> Response:
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


class HandUndoView(HandAPIView):
    @extend_schema(
        tags=["hand"],
        summary="Undo the hand's last event (it can be redone)",
        parameters=[SESSION_ID, HAND_KEY],
        request=HandRevisionSerializer,
        responses={200: HandSerializer, **ERRORS, **HAND_CONFLICT},
    )
    def post(self, request: Request, session_id: int) -> Response:
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
    def post(self, request: Request, session_id: int) -> Response:
        session = self.session_for(request, session_id)
        body = request_object(request.data, REVISION_FIELDS, ("revision",))
        outcome = services.hand_redo(
            actor=request.user,
            session=session,
            revision=body["revision"],
            idempotency_key=_idempotency_key(request),
        )
        return self.answer(outcome)


# --- CSV export --------------------------------------------------------------------------------------------


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
    player's coin change when coins are on), a total row summing every number column."""
    seats = selectors.session_seats(session)
    names = [seat.player.name for seat in seats]
    coin_headers = [f"{name} 游戏币 coins" for name in names] if session.coins_enabled else []
    yield ["局 round", "版本 version", "状态 status", "庄 dealer", *names, "房间 house", *coin_headers]
    totals = [0] * (len(names) + 1 + len(coin_headers))
    for round_ in selectors.iter_round_net(session):
        net = [int(getattr(round_, f"net_{seat}") or 0) for seat in range(len(names))]
        net.append(int(round_.net_house or 0))
        coin_cells = [int(getattr(round_, f"coins_{seat}") or 0) for seat in range(len(coin_headers))]
        numbers = [*net, *coin_cells]
        totals = [total + value for total, value in zip(totals, numbers, strict=True)]
        state = "作废 voided" if round_.voided else ("更正 corrected" if round_.version > 1 else "")
        yield [round_.position, round_.version, state, names[round_.dealer], *numbers]
    yield ["合计 total", "", "", "", *totals]


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
    def get(self, request: Request, session_id: int) -> StreamingHttpResponse:
        session = selectors.session_get(user=request.user, session_id=session_id)
        response = StreamingHttpResponse(
            (line.encode("utf-8") for line in export_lines(session)), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="session-{session.pk}.csv"'
        return response


# --- moving a group ----------------------------------------------------------------------------------------


RESEAL_YES = ("1", "true", "yes")


class GroupImportThrottle(UserRateThrottle):
    """An import replays every round of the file: a few an hour is plenty (the import page counts too)."""

    scope = "group_import"
    rate = "20/hour"


class GroupExportView(APIView):
    @extend_schema(
        tags=["groups"],
        summary="Export a group as one JSON file (owners only)",
        description=(
            'One file `{"format": "sczmj-group", "version": 1, "group", "players", "members", "sessions"}`: '
            "every session with its rules, seats, coins, totals and rounds as entered, every version with "
            "who wrote it and when. `POST /api/v1/groups/import/` reads it back."
        ),
        parameters=[GROUP_ID],
        responses={200: OpenApiTypes.OBJECT, **READ_ERRORS, 403: ERRORS[403]},
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        response = Response(group_file.group_export(actor=request.user, group=group))
        response["Content-Disposition"] = f'attachment; filename="sczmj-group-{group.pk}.json"'
        return response


class GroupImportView(APIView):
    throttle_classes = (GroupImportThrottle,)

    @extend_schema(
        tags=["groups"],
        summary="Import a group file: a new group owned by you, every round replayed through the engine",
        description=(
            "A file whose replayed figures differ from its own is refused (400 naming where) and nothing "
            "is stored. So is a file whose own chain (each version's `chain`) does not hold, unless "
            "`?reseal=true`: the group then records you as its importer and that it was re-sealed. "
            "Members are not imported: you are the new group's only owner. The body is at most 2.5 MB "
            "(413) and nests at most 32 deep (400), as every body of the API."
        ),
        parameters=[
            OpenApiParameter(
                "reseal",
                OpenApiTypes.BOOL,
                description="Import a file whose chain does not hold, recorded as re-sealed by you.",
            )
        ],
        request=OpenApiTypes.OBJECT,
        responses={201: GroupSerializer, 400: ERRORS[400], 401: ERRORS[401], **THROTTLED},
    )
    def post(self, request: Request) -> Response:
        reseal = request.query_params.get("reseal", "") in RESEAL_YES
        group = group_file.group_import(actor=request.user, data=request.data, reseal=reseal)
        created = selectors.groups_with_role(request.user).get(pk=group.pk)
        return Response(GroupSerializer(created).data, status=status.HTTP_201_CREATED)
