from django.urls import path, register_converter

from . import api


class IdConverter:
    """A database id: at most 18 digits, so a huge number is a 404, not an overflow in the database."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "ledger_id")

app_name = "ledger"

urlpatterns = [
    path("api/v1/accounts/", api.AccountCreateView.as_view(), name="account-create"),
    path("api/v1/auth/token/", api.TokenView.as_view(), name="auth-token"),
    path("api/v1/groups/", api.GroupListView.as_view(), name="group-list"),
    path("api/v1/groups/import/", api.GroupImportView.as_view(), name="group-import"),
    path("api/v1/groups/<ledger_id:group_id>/", api.GroupDetailView.as_view(), name="group-detail"),
    path("api/v1/groups/<ledger_id:group_id>/export/", api.GroupExportView.as_view(), name="group-export"),
    path("api/v1/groups/<ledger_id:group_id>/members/", api.MemberListView.as_view(), name="member-list"),
    path(
        "api/v1/groups/<ledger_id:group_id>/members/<ledger_id:member_id>/",
        api.MemberDetailView.as_view(),
        name="member-detail",
    ),
    path("api/v1/invitations/", api.InvitationListView.as_view(), name="invitation-list"),
    path(
        "api/v1/invitations/<ledger_id:invitation_id>/accept/",
        api.InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path(
        "api/v1/invitations/<ledger_id:invitation_id>/decline/",
        api.InvitationDeclineView.as_view(),
        name="invitation-decline",
    ),
    path("api/v1/sessions/<ledger_id:session_id>/invites/", api.InviteListView.as_view(), name="invite-list"),
    path("api/v1/invites/<ledger_id:invite_id>/", api.InviteDetailView.as_view(), name="invite-detail"),
    path("api/v1/groups/<ledger_id:group_id>/players/", api.PlayerListView.as_view(), name="player-list"),
    path("api/v1/groups/<ledger_id:group_id>/sessions/", api.SessionListView.as_view(), name="session-list"),
    path(
        "api/v1/groups/<ledger_id:group_id>/standings/", api.StandingsView.as_view(), name="group-standings"
    ),
    path(
        "api/v1/groups/<ledger_id:group_id>/statistics/",
        api.StatisticsView.as_view(),
        name="group-statistics",
    ),
    path("api/v1/sessions/<ledger_id:session_id>/", api.SessionDetailView.as_view(), name="session-detail"),
    path(
        "api/v1/sessions/<ledger_id:session_id>/close/", api.SessionCloseView.as_view(), name="session-close"
    ),
    path("api/v1/sessions/<ledger_id:session_id>/rounds/", api.RoundListView.as_view(), name="round-list"),
    path("api/v1/sessions/<ledger_id:session_id>/ledger/", api.LedgerView.as_view(), name="session-ledger"),
    path("api/v1/sessions/<ledger_id:session_id>/totals/", api.TotalsView.as_view(), name="session-totals"),
    path(
        "api/v1/sessions/<ledger_id:session_id>/settle-up/",
        api.SettleUpView.as_view(),
        name="session-settle-up",
    ),
    path(
        "api/v1/sessions/<ledger_id:session_id>/export.csv", api.ExportView.as_view(), name="session-export"
    ),
    path("api/v1/sessions/<ledger_id:session_id>/hand/", api.HandView.as_view(), name="session-hand"),
    path(
        "api/v1/sessions/<ledger_id:session_id>/hand/events/",
        api.HandEventsView.as_view(),
        name="session-hand-events",
    ),
    path(
        "api/v1/sessions/<ledger_id:session_id>/hand/undo/",
        api.HandUndoView.as_view(),
        name="session-hand-undo",
    ),
    path(
        "api/v1/sessions/<ledger_id:session_id>/hand/redo/",
        api.HandRedoView.as_view(),
        name="session-hand-redo",
    ),
    path("api/v1/rounds/<ledger_id:round_id>/", api.RoundDetailView.as_view(), name="round-detail"),
    path("api/v1/rounds/<ledger_id:round_id>/correct/", api.RoundCorrectView.as_view(), name="round-correct"),
    path("api/v1/rounds/<ledger_id:round_id>/void/", api.RoundVoidView.as_view(), name="round-void"),
]
