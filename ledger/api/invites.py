"""Invitations to a group (asked of an account) and invite links to a session."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors, services
from ..models import WRITER_ROLES
from ..serializers import InvitationSerializer, InviteCreateSerializer, InviteSerializer, MembershipSerializer
from .common import (
    CONFLICTS,
    ERRORS,
    READ_ERRORS,
    SESSION_ID,
    ListView,
    SignedInApiRequest,
    _body,
    _id_parameter,
)

INVITATION_ID = _id_parameter("invitation_id", "invitation")
INVITE_ID = _id_parameter("invite_id", "invite")


class InvitationListView(ListView):
    serializer_class = InvitationSerializer

    @extend_schema(
        tags=["groups"],
        summary="Invitations waiting for your answer",
        responses={200: InvitationSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: SignedInApiRequest) -> Response:
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
    def post(self, request: SignedInApiRequest, invitation_id: int) -> Response:
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
    def post(self, request: SignedInApiRequest, invitation_id: int) -> Response:
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
    def get(self, request: SignedInApiRequest, session_id: int) -> Response:
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
    def post(self, request: SignedInApiRequest, session_id: int) -> Response:
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
    def delete(self, request: SignedInApiRequest, invite_id: int) -> Response:
        invite = selectors.invite_get(user=request.user, invite_id=invite_id)
        services.invite_revoke(actor=request.user, invite=invite)
        return Response(status=status.HTTP_204_NO_CONTENT)
