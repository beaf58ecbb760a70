"""The stored-data REST API: thin views over ``selectors`` (reads) and ``services`` (writes), one module
per resource (accounts, groups and members, invites, sessions, rounds, the hand in progress, the CSV
export, moving a group; ``common`` holds what they share). ``ledger/urls.py`` routes to the views named
here.

Every object is fetched through a selector scoped to the requester's groups, so another group's objects
answer 404 whatever the method; roles are checked by the services (403).
"""

from .accounts import AccountCreateView, TokenView
from .csv_export import ExportView
from .groups import (
    GroupDetailView,
    GroupListView,
    MemberDetailView,
    MemberListView,
    PlayerListView,
    StandingsView,
    StatisticsView,
)
from .hand import HandEventsView, HandRedoView, HandUndoView, HandView
from .invites import (
    InvitationAcceptView,
    InvitationDeclineView,
    InvitationListView,
    InviteDetailView,
    InviteListView,
)
from .moving import GroupExportView, GroupImportView
from .rounds import RoundCorrectView, RoundDetailView, RoundListView, RoundVoidView
from .sessions import (
    LedgerView,
    SessionCloseView,
    SessionDetailView,
    SessionListView,
    SettleUpView,
    TotalsView,
)

__all__ = [
    "AccountCreateView",
    "ExportView",
    "GroupDetailView",
    "GroupExportView",
    "GroupImportView",
    "GroupListView",
    "HandEventsView",
    "HandRedoView",
    "HandUndoView",
    "HandView",
    "InvitationAcceptView",
    "InvitationDeclineView",
    "InvitationListView",
    "InviteDetailView",
    "InviteListView",
    "LedgerView",
    "MemberDetailView",
    "MemberListView",
    "PlayerListView",
    "RoundCorrectView",
    "RoundDetailView",
    "RoundListView",
    "RoundVoidView",
    "SessionCloseView",
    "SessionDetailView",
    "SessionListView",
    "SettleUpView",
    "StandingsView",
    "StatisticsView",
    "TokenView",
    "TotalsView",
]
