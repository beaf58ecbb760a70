"""Moving a group: its export as one JSON file, and the import of such a file."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from .. import group_file, selectors
from ..serializers import GroupSerializer
from .common import ERRORS, GROUP_ID, READ_ERRORS, THROTTLED, SignedInApiRequest

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
            "who wrote it and when, its table fee and its payment marks (who paid whom how much, who marked "
            "it and when, reversals). `POST /api/v1/groups/import/` reads it back."
        ),
        parameters=[GROUP_ID],
        responses={200: OpenApiTypes.OBJECT, **READ_ERRORS, 403: ERRORS[403]},
    )
    def get(self, request: SignedInApiRequest, group_id: int) -> Response:
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
    def post(self, request: SignedInApiRequest) -> Response:
        reseal = request.query_params.get("reseal", "") in RESEAL_YES
        group = group_file.group_import(actor=request.user, data=request.data, reseal=reseal)
        created = selectors.groups_with_role(request.user).get(pk=group.pk)
        return Response(GroupSerializer(created).data, status=status.HTTP_201_CREATED)
