"""Groups, their members and players, and the group's standings and statistics."""

from __future__ import annotations

import secrets
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from .. import periods, selectors, services, statistics
from ..memory import cycles_uncollected
from ..models import Membership
from ..reset_links import reset_link_expires
from ..serializers import (
    GroupCreateSerializer,
    GroupSerializer,
    InvitationSerializer,
    MemberAddSerializer,
    MemberRoleSerializer,
    MembershipSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    ResetLinkSerializer,
    StandingsSerializer,
    StatisticsSerializer,
    period_body,
)
from .common import ERRORS, GROUP_ID, MEMBER_ID, READ_ERRORS, THROTTLED, ListView, SignedInApiRequest, _body

PERIOD_PARAMETERS = [
    OpenApiParameter(
        "period",
        OpenApiTypes.STR,
        OpenApiParameter.QUERY,
        enum=list(periods.PERIODS),
        description="The period of the ``period`` figures (by the day a session started): all by default.",
    ),
    OpenApiParameter(
        "from", OpenApiTypes.DATE, OpenApiParameter.QUERY, description="With period=range: the first day."
    ),
    OpenApiParameter(
        "to", OpenApiTypes.DATE, OpenApiParameter.QUERY, description="With period=range: the last day."
    ),
]


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
    def post(self, request: SignedInApiRequest) -> Response:
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
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
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
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
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
    def post(self, request: SignedInApiRequest, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        body = _body(MemberAddSerializer, request)
        invitation = services.member_invite(
            actor=request.user, group=group, username=body["username"], role=body["role"]
        )
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class MemberDetailView(APIView):
    def _membership(self, request: SignedInApiRequest, group_id: int, member_id: int) -> Membership:
        group = selectors.group_get(user=request.user, group_id=group_id)
        return selectors.member_get(group=group, member_id=member_id)

    @extend_schema(
        tags=["groups"],
        summary="Change a member's role (owners only)",
        parameters=[GROUP_ID, MEMBER_ID],
        request=MemberRoleSerializer,
        responses={200: MembershipSerializer, **ERRORS},
    )
    def patch(self, request: SignedInApiRequest, group_id: int, member_id: int) -> Response:
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
    def delete(self, request: SignedInApiRequest, group_id: int, member_id: int) -> Response:
        membership = self._membership(request, group_id, member_id)
        services.member_remove(actor=request.user, membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemberResetLinkView(APIView):
    @extend_schema(
        tags=["groups"],
        summary="Make a one-time link that sets a new password for a member (owners only)",
        description=(
            "For a member who forgot their password on a server with no mail. Only for a member whose every "
            "group is one you own (else 403: the server's operator makes it, `sczmj reset_password`), never "
            "for yourself (400) or a staff account (403). The link works once, until `expires`; the answer "
            "is sent with `Cache-Control: no-store`."
        ),
        parameters=[GROUP_ID, MEMBER_ID],
        request=None,
        responses={201: ResetLinkSerializer, **ERRORS},
    )
    def post(self, request: SignedInApiRequest, group_id: int, member_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        membership = selectors.member_get(group=group, member_id=member_id)
        path = services.reset_link_make(actor=request.user, membership=membership)
        link = {
            "username": membership.user.get_username(),
            "url": request.build_absolute_uri(path),
            "expires": reset_link_expires(),
        }
        response = Response(ResetLinkSerializer(link).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"  # the link is the account until it is used
        return response


# --- invitations (to a group) and invite links (to a session) -------------------------------------------


class MemberInviteThrottle(UserRateThrottle):
    """User-name guessing through invitations: 20 an hour per owner, counted in the shared cache."""

    scope = "member_invite"
    rate = "20/hour"


class PlayerListView(ListView):
    serializer_class = PlayerSerializer

    @extend_schema(
        tags=["groups"],
        summary="Players of a group",
        parameters=[GROUP_ID],
        responses={200: PlayerSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
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
    def post(self, request: SignedInApiRequest, group_id: int) -> Response:
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
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        return Response({"group": group.pk, "standings": statistics.group_standings(group)})


class StatisticsRenderer(JSONRenderer):
    """JSONRenderer's bytes, the lists an answer holds twice encoded once: over the period ``all`` the
    period's records and standings are the very lists of the all-time players and sessions
    (``StatisticsSerializer``), half of the answer's 1.1 MB at 1,000 sessions. Unindented JSON writes a list
    the same wherever it sits, so the rest is written around markers and each list's text put in for them."""

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        period = data.get("period") if isinstance(data, dict) else None
        if (
            not isinstance(period, dict)
            or period.get("records") is not data.get("players")
            or period.get("standings") is not data.get("sessions")
            or self.get_indent(accepted_media_type or "", renderer_context or {}) is not None
        ):
            return super().render(data, accepted_media_type, renderer_context)
        players, sessions = (f"\0{secrets.token_hex(16)}" for _ in range(2))
        text = super().render(
            {
                **data,
                "players": players,
                "sessions": sessions,
                "period": {**period, "records": players, "standings": sessions},
            }
        )
        for marker, written in ((players, data["players"]), (sessions, data["sessions"])):
            text = text.replace(super().render(marker), super().render(written))
        return text


class StatisticsView(APIView):
    renderer_classes = (StatisticsRenderer,)

    @extend_schema(
        tags=["groups"],
        summary="Per-player statistics (wins, self-draws, deal-ins, the biggest hand, kong money, "
        "花猪, 查叫, net per session) and the standings session by session",
        parameters=[GROUP_ID, *PERIOD_PARAMETERS],
        responses={200: StatisticsSerializer, **READ_ERRORS},
    )
    @cycles_uncollected()  # tens of thousands of rows, dicts and lists made at once: see ledger/memory.py
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
        group = selectors.group_get(user=request.user, group_id=group_id)
        period = periods.period_of(request.query_params, timezone.localdate())
        every = periods.period_report(group, periods.ALL_TIME)
        within = periods.period_report(group, period) if period.bounded else every
        body = {
            "group": group.pk,
            "players": every[1].players,
            "sessions": every[1].sessions,
            "period": period_body(*within),
        }
        return Response(StatisticsSerializer(body).data)
