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

# The API's routes under api/v1/, one row each: (route, view, URL name). A group, a session and a round
# are each named by an id the converter above bounds.
GROUP = "groups/<ledger_id:group_id>/"
SESSION = "sessions/<ledger_id:session_id>/"
ROUND = "rounds/<ledger_id:round_id>/"
ROUTES = (
    ("accounts/", api.AccountCreateView, "account-create"),
    ("auth/token/", api.TokenView, "auth-token"),
    ("auth/tokens/", api.DeviceTokensView, "auth-tokens"),
    ("auth/tokens/<str:token_id>/", api.DeviceTokenView, "auth-token-detail"),
    ("groups/", api.GroupListView, "group-list"),
    ("groups/import/", api.GroupImportView, "group-import"),
    (GROUP, api.GroupDetailView, "group-detail"),
    (f"{GROUP}export/", api.GroupExportView, "group-export"),
    (f"{GROUP}members/", api.MemberListView, "member-list"),
    (f"{GROUP}members/<ledger_id:member_id>/", api.MemberDetailView, "member-detail"),
    (f"{GROUP}members/<ledger_id:member_id>/reset-link/", api.MemberResetLinkView, "member-reset-link"),
    ("invitations/", api.InvitationListView, "invitation-list"),
    ("invitations/<ledger_id:invitation_id>/accept/", api.InvitationAcceptView, "invitation-accept"),
    ("invitations/<ledger_id:invitation_id>/decline/", api.InvitationDeclineView, "invitation-decline"),
    (f"{SESSION}invites/", api.InviteListView, "invite-list"),
    ("invites/<ledger_id:invite_id>/", api.InviteDetailView, "invite-detail"),
    (f"{GROUP}players/", api.PlayerListView, "player-list"),
    (f"{GROUP}sessions/", api.SessionListView, "session-list"),
    (f"{GROUP}standings/", api.StandingsView, "group-standings"),
    (f"{GROUP}statistics/", api.StatisticsView, "group-statistics"),
    (f"{GROUP}debts/", api.GroupDebtsView, "group-debts"),
    (SESSION, api.SessionDetailView, "session-detail"),
    (f"{SESSION}close/", api.SessionCloseView, "session-close"),
    (f"{SESSION}fee/", api.SessionFeeView, "session-fee"),
    (f"{SESSION}rounds/", api.RoundListView, "round-list"),
    (f"{SESSION}ledger/", api.LedgerView, "session-ledger"),
    (f"{SESSION}totals/", api.TotalsView, "session-totals"),
    (f"{SESSION}settle-up/", api.SettleUpView, "session-settle-up"),
    (f"{SESSION}debts/", api.SessionDebtsView, "session-debts"),
    (f"{SESSION}payments/", api.PaymentMarkView, "session-payments"),
    ("payments/<ledger_id:mark_id>/undo/", api.PaymentUndoView, "payment-undo"),
    (f"{SESSION}export.csv", api.ExportView, "session-export"),
    (f"{SESSION}hand/", api.HandView, "session-hand"),
    (f"{SESSION}hand/events/", api.HandEventsView, "session-hand-events"),
    (f"{SESSION}hand/events/<ledger_id:index>/", api.HandEventView, "session-hand-event"),
    (f"{SESSION}hand/undo/", api.HandUndoView, "session-hand-undo"),
    (f"{SESSION}hand/redo/", api.HandRedoView, "session-hand-redo"),
    (f"{SESSION}seats/", api.SessionSeatsView, "session-seats"),
    (ROUND, api.RoundDetailView, "round-detail"),
    (f"{ROUND}correct/", api.RoundCorrectView, "round-correct"),
    (f"{ROUND}void/", api.RoundVoidView, "round-void"),
)

urlpatterns = [path(f"api/v1/{route}", view.as_view(), name=name) for route, view, name in ROUTES]
