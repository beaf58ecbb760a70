"""The session page ``/sessions/<id>/``: tonight's table, hand by hand, kept on the server (issue 8 flow 5).

The shared event entry (``web.entry``) bound to the session's hand in progress through the ledger's hand
services (``hand_event_add``, ``hand_undo``, ``hand_redo``), called directly by ``SessionHandStore``: every
event is saved as it is recorded, so a reload, Back, the language switch or a second phone continue the
same hand; a write against a stale revision is refused and the page shows the hand as it now stands; the
event that finishes the hand records the round in the same request (exactly once: the service keys the
write by the revision it was made at, so a double tap or a retry is answered, not applied again) and the
next hand starts with the dealer the engine suggests. The seats show the ledger's running totals plus this
hand's part, kong money at once.

Live view: every member's page follows the table. It polls ``session_live`` (see there) every
``live.POLL_SECONDS`` while it is visible; the answer is 204 while the hand is at the revision the page
shows, else the entry's update fragment (header, seats, this hand, the end card), swapped out of band.
When a poll is skipped or held (a hidden page, this phone entering an event): docs/pages.md, "Live view".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from operator import add
from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from settlement.engine import HandDraft, RoundResult
from web.entry.page import Board, entry_context, entry_response, settled
from web.entry.store import Change, Hand, StaleHand, StoreRefusal, Written
from web.htmx import HtmxHttpRequest, SignedInRequest
from web.language import page_language

from .. import selectors, services
from ..errors import Forbidden, HandRefusedError, LedgerRefusal, StaleHandError
from ..models import WRITER_ROLES, HandInProgress, Round, Session
from .live import POLL_SECONDS, REVISION_HEADER, live_pass, pass_holder
from .refusals import refusal_message


class SessionHandStore:
    """The ``HandStore`` of the session page (web/entry/store.py) over the ledger's hand in progress: each
    write is one ``services.hand_write`` (the service keeps the draft under the session's lock and records
    the round when the hand finishes); the page renders the settlement that write made."""

    def __init__(self, *, actor: User, session: Session, table: selectors.SessionTable | None = None):
        self.actor = actor
        self.session = session
        # the seats' names and running points, when the page read them with the session (one query)
        self._names = table.names if table is not None else None
        self._points = table.points if table is not None else None
        # the table as this request read it, hand included, until a write changes the hand
        self._table = table

    @classmethod
    def of(cls, actor: User, table: selectors.SessionTable) -> SessionHandStore:
        return cls(actor=actor, session=table.session, table=table)

    @property
    def rules(self) -> Any:
        return self.session.rules

    def load(self) -> Hand:
        read = self._table.hand if self._table is not None else None
        hand = self._hand(read if read is not None else selectors.hand_row(self.session))
        if self.session.is_open:
            return hand
        # closing dropped the unfinished hand: the table as the ledger has it (its revision kept for the poll)
        kept = hand.draft
        empty = HandDraft.of(dealer=kept.dealer, void_suits=kept.void_suits, revision=kept.revision)
        return replace(hand, draft=empty)

    def settle(self, draft: HandDraft) -> RoundResult:
        """The session's table: its rules and, with coins on, the balances now."""
        return selectors.session_settle(
            self.session,
            dealer=draft.dealer,
            void_suits=draft.void_suits,
            events=draft.events,
            coins_before=selectors.coin_balances(self.session),
        )

    def _hand(self, row: HandInProgress, *, ledger_changed: bool = False) -> Hand:
        """The stored hand with the seats' names and running points (read once a request, with the session
        when the page read its table, and again after a write that changed the ledger)."""
        if ledger_changed or self._points is None:
            self._points = selectors.seat_points(self.session)
        if self._names is None:
            seats = sorted(self.session.seats.all(), key=lambda seat: seat.seat)
            self._names = tuple(seat.player.name for seat in seats)
        return Hand(
            number=row.number,
            names=self._names,
            draft=selectors.hand_draft(row),
            rules=self.session.rules,
            totals=self._points,
        )

    def _finished(self, round_: Round, hand: Hand, draft: HandDraft | None = None) -> Hand:
        """The hand a round recorded, for the end card: as the write that recorded it finished it, or with
        the notes its version keeps."""
        if draft is None:
            version = round_.versions.order_by("-version").first()
            draft = HandDraft.of(
                dealer=round_.dealer,
                void_suits=round_.void_suits,
                events=round_.events,
                notes=[str(note or "") for note in (version.notes if version is not None else [])],
            )
        return Hand(number=round_.position, names=hand.names, draft=draft, rules=self.session.rules)

    def write(self, change: Change, *, revision: int) -> Written:
        table, self._table = self._table, None
        try:
            outcome = services.hand_write(
                actor=self.actor,
                session=self.session,
                revision=revision,
                asked=change.asked,
                transition=change.apply,
                table=table,
            )
        except StaleHandError as stale:
            raise StaleHand(self.load()) from stale
        except HandRefusedError as refused:
            raise refused.error from None  # the engine's refusal, worded as the other stores word it
        except (LedgerRefusal, Forbidden) as refusal:
            raise StoreRefusal(refusal_message(refusal)) from refusal
        ledger_changed = outcome.round is not None or outcome.reopened is not None
        if outcome.round is not None and outcome.result is not None and self._points is not None:
            # The round just recorded moved each seat by its net. The totals were the ledger's when this
            # request read them: a round recorded since would have moved the revision and refused the write.
            self._points = tuple(map(add, self._points, outcome.result.net))
            ledger_changed = False
        hand = self._hand(outcome.hand, ledger_changed=ledger_changed)
        if outcome.round is None:
            result = outcome.result if not outcome.replayed else self._settled(hand)
            return Written(hand, result)
        finished = self._finished(outcome.round, hand, outcome.finished)
        result = outcome.result if outcome.result is not None else self.settle(finished.draft)
        return Written(hand, None, finished, result)

    def _settled(self, hand: Hand) -> RoundResult | None:
        return self.settle(hand.draft) if hand.events else None

    def next_hand(self, *, revision: int) -> Written:
        """The next hand started when the last one finished: 下一手 only puts the end card away."""
        hand = self.load()
        return Written(hand, self._settled(hand))

    def finished_before(self, hand: Hand) -> tuple[Hand, RoundResult] | None:
        """The hand that finished just before ``hand``, as its round was recorded, with its settlement:
        the end card a phone shows when it learns by polling that the hand it was showing is over."""
        round_ = selectors.session_rounds(self.session).filter(position=hand.number - 1).first()
        if round_ is None:
            return None
        finished = self._finished(round_, hand)
        return finished, selectors.session_settle(
            self.session,
            dealer=round_.dealer,
            void_suits=round_.void_suits,
            events=round_.events,
            coins_before=None,
        )


def _table_for(request: SignedInRequest, session_id: int) -> selectors.SessionTable:
    """The session's table, if it is one of the user's groups' (another group's is a 404, as in the API)."""
    return selectors.session_table(user=request.user, session_id=session_id)


def _links(session: Session) -> list[tuple[str, str]]:
    """历史, 走势 and 结算 (ledger/pages/history.py, chart.py, settle.py)."""
    return [
        (reverse("session-history", args=[session.pk]), _("History")),
        (reverse("session-chart", args=[session.pk]), _("Trends")),
        (reverse("session-settle", args=[session.pk]), _("Settle up")),
    ]


def _writer_links(session: Session) -> list[tuple[str, str]]:
    """邀请 (ledger/pages/invites.py) and 换人 (ledger/pages/seats.py), for owners and scorekeepers."""
    return [
        (reverse("session-invite", args=[session.pk]), _("Invite")),
        (reverse("session-seats-page", args=[session.pk]), _("Change seats")),
    ]


# The footer says what this phone can do with the table: continue the hand, watch it, or look back at it
# (the closed session's words are those 结算 says when it closes it).
FOOTERS = {
    "records": gettext_lazy(
        "Every event is saved as it is recorded: any phone of the table can continue this hand."
    ),
    "watches": gettext_lazy(
        "You are watching: each event a scorekeeper records shows here by itself; "
        "only scorekeepers can record."
    ),
    "closed": gettext_lazy("The session is closed: its hands are kept, and no more can be recorded."),
}


def _footer(session: Session, *, writer: bool) -> str:
    return str(FOOTERS["closed" if not session.is_open else "records" if writer else "watches"])


def _page_context(
    request: SignedInRequest, table: selectors.SessionTable
) -> Callable[[Board], dict[str, Any]]:
    session, role = table.session, table.role
    read_only = role not in WRITER_ROLES or not session.is_open
    footer = _footer(session, writer=role in WRITER_ROLES)

    def context(board: Board) -> dict[str, Any]:
        return {
            "session": session,
            "entry_title": session.title,
            "entry_links": _links(session) + ([] if read_only else _writer_links(session)),
            "read_only": read_only,
            "footer": footer,
            "live_url": reverse("session-live", args=[session.pk]),
            "live": session.is_open,  # a closed session changes no more: its page stops polling
            "live_pass": live_pass(request),
            "poll_seconds": POLL_SECONDS,
        }

    return context


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    table = _table_for(request, session_id)
    store = SessionHandStore.of(request.user, table)
    return entry_response(
        request, store, template="ledger/session/page.html", context=_page_context(request, table)
    )


@require_GET
def session_live(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """A member's poll, ``/sessions/<id>/live/?revision=N&hand=H`` with the page's live pass. Idle, it is
    one indexed query and renders nothing:

    1. the pass says who asks, for the login cookie beside it (a signature, no query);
    2. one query reads the hand's revision through the user's membership of the session's group, with
       the user active and the login still there (``selectors.member_hand_revision``);
    3. the revision the page shows: 204 No Content, and nothing else is read;
    4. anything else (another revision, no pass or a bad one, an old page): the long way, as any page
       of the session: log-in and membership checked by Django, then 204 or the update fragment.

    Nothing is kept in the server process: any number of processes or hosts serve the same table.
    """
    holder = pass_holder(request)
    if holder is not None:
        user_id, login_key = holder
        revision = selectors.member_hand_revision(user_id=user_id, session_id=session_id, login_key=login_key)
        if revision is not None and request.GET.get("revision") == str(revision):
            return HttpResponse(status=204)
    # _live_update is behind @login_required, which lets only a signed-in request through (its stub keeps
    # the view's own type, so mypy cannot see that).
    return _live_update(cast(SignedInRequest, request), session_id)


@login_required
def _live_update(request: SignedInRequest, session_id: int) -> HttpResponse:
    """What changed since the page's revision: header, seats, this hand and, when the hand the page
    showed has finished meanwhile, its end card; the revision in ``REVISION_HEADER``."""
    table = _table_for(request, session_id)
    session = table.session
    seen = request.GET.get("revision")
    if seen == str(selectors.session_hand_revision(session)):
        return HttpResponse(status=204)
    store = SessionHandStore.of(request.user, table)
    hand = store.load()
    shown = request.GET.get("hand", "")
    moved_on = shown.isascii() and shown.isdigit() and len(shown) <= 9 and int(shown) < hand.number
    board = settled(store, hand)
    before = store.finished_before(hand) if moved_on else None
    if before is not None:
        board = replace(board, finished=before[0], finished_result=before[1])
    page = {**entry_context(board, {}, page_language()), **_page_context(request, table)(board)}
    response = TemplateResponse(request, "web/entry/_update.html", page)
    response[REVISION_HEADER] = str(hand.revision)
    if not session.is_open:
        # closed since this page polled (a closed page does not poll): the whole page again, without the
        # entry's controls and with the hand in progress gone, rather than a refusal at the next tap
        response["HX-Refresh"] = "true"
    return response


urlpatterns = [
    path("sessions/<ledger_id:session_id>/", session_page, name="session-page"),
    path("sessions/<ledger_id:session_id>/live/", session_live, name="session-live"),
]
