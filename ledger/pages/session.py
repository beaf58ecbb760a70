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
static/js/live.js pauses the polling of a hidden page; static/js/entry.js holds it while this phone's
scorekeeper is entering an event, so a poll never resets a half-entered event or an open picker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from web.entry.page import Board, board_of, entry_context, entry_response
from web.entry.store import Hand, Recorded, StaleHand, StoreRefusal
from web.htmx import HtmxHttpRequest
from web.language import page_language
from web.seats import SEATS

from .. import selectors, services
from ..errors import Forbidden, LedgerRefusal, StaleHandError
from ..models import WRITER_ROLES, HandInProgress, Round, Session
from .live import POLL_SECONDS, REVISION_HEADER, live_pass, pass_holder
from .refusals import refusal_message


class SessionHandStore:
    """The ``HandStore`` of the session page (web/entry/store.py) over the ledger's hand in progress."""

    def __init__(self, *, actor: Any, session: Session):
        self.actor = actor
        self.session = session

    def load(self) -> Hand:
        row = selectors.hand_row(self.session)
        if not self.session.is_open:  # closing dropped the unfinished hand: the table as the ledger has it
            return self._hand(row, events=(), notes=())
        return self._hand(row)

    def _hand(
        self, row: HandInProgress, *, events: Any = None, notes: Any = None, number: int | None = None
    ) -> Hand:
        totals = selectors.session_totals(self.session)
        return Hand(
            number=row.number if number is None else number,
            names=tuple(seat.player_name for seat in totals.seats),
            dealer=row.dealer,
            void_suits=tuple(row.void_suits or (None,) * len(SEATS)),
            rules=self.session.rules,
            events=tuple(row.events if events is None else events),
            notes=tuple(note or "" for note in (row.notes if notes is None else notes)),
            totals=tuple(seat.points for seat in totals.seats),
            revision=row.revision,
            can_redo=bool(row.undone),
        )

    def _finished(self, round_: Round, names: tuple[str, ...]) -> Hand:
        """The hand a round just recorded, with the notes its version keeps, for the end card."""
        version = round_.versions.order_by("-version").first()
        notes = list(version.notes or []) if version is not None else []
        return Hand(
            number=round_.position,
            names=names,
            dealer=round_.dealer,
            void_suits=tuple(round_.void_suits or (None,) * len(SEATS)),
            rules=self.session.rules,
            events=tuple(round_.events),
            notes=tuple(
                str(note or "") for note in (notes + [""] * len(round_.events))[: len(round_.events)]
            ),
        )

    def _write(self, write: Callable[..., services.HandOutcome], **arguments: Any) -> services.HandOutcome:
        try:
            return write(actor=self.actor, session=self.session, **arguments)
        except StaleHandError as stale:
            raise StaleHand(self.load()) from stale
        except (LedgerRefusal, Forbidden) as refusal:
            raise StoreRefusal(refusal_message(refusal)) from refusal

    def record(self, event: dict[str, Any], note: str, *, revision: int) -> Recorded:
        outcome = self._write(services.hand_event_add, event=event, note=note or None, revision=revision)
        hand = self._hand(outcome.hand)
        return Recorded(
            hand, self._finished(outcome.round, hand.names) if outcome.round is not None else None
        )

    def undo(self, *, revision: int) -> Hand:
        return self._hand(self._write(services.hand_undo, revision=revision).hand)

    def redo(self, *, revision: int) -> Hand:
        return self._hand(self._write(services.hand_redo, revision=revision).hand)

    def next_hand(self, *, revision: int) -> Hand:
        """The next hand started when the last one finished: 下一手 only puts the end card away."""
        return self.load()

    def finished_before(self, hand: Hand) -> Hand | None:
        """The hand that finished just before ``hand``, as its round was recorded: the end card a phone
        shows when it learns by polling that the hand it was showing is over."""
        round_ = selectors.session_rounds(self.session).filter(position=hand.number - 1).first()
        return self._finished(round_, hand.names) if round_ is not None else None


def _session_for(request: HtmxHttpRequest, session_id: int) -> Session:
    """The session, if it is one of the user's groups' (another group's is a 404, as in the API)."""
    return selectors.session_get(user=request.user, session_id=session_id)


def _links(session: Session) -> list[tuple[str, str]]:
    """历史, 走势 and 结算 (ledger/pages/history.py, chart.py, settle.py)."""
    return [
        (reverse("session-history", args=[session.pk]), _("History")),
        (reverse("session-chart", args=[session.pk]), _("Trends")),
        (reverse("session-settle", args=[session.pk]), _("Settle up")),
    ]


def _writer_links(session: Session) -> list[tuple[str, str]]:
    """邀请 (ledger/pages/invites.py), for those who may make a link: owners and scorekeepers."""
    return [(reverse("session-invite", args=[session.pk]), _("Invite"))]


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
    return FOOTERS["closed" if not session.is_open else "records" if writer else "watches"]


def _page_context(request: HtmxHttpRequest, session: Session) -> Callable[[Board], dict[str, Any]]:
    role = selectors.role_in(user=request.user, group=session.group)
    read_only = role not in WRITER_ROLES or not session.is_open
    footer = _footer(session, writer=role in WRITER_ROLES)

    def context(board: Board) -> dict[str, Any]:
        return {
            "session": session,
            "entry_title": session.name,
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
def session_page(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = _session_for(request, session_id)
    store = SessionHandStore(actor=request.user, session=session)
    return entry_response(
        request, store, template="ledger/session/page.html", context=_page_context(request, session)
    )


@require_GET
def session_live(request: HttpRequest, session_id: int) -> HttpResponse:
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
    return _live_update(request, session_id)


@login_required
def _live_update(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """What changed since the page's revision: header, seats, this hand and, when the hand the page
    showed has finished meanwhile, its end card; the revision in ``REVISION_HEADER``."""
    session = _session_for(request, session_id)
    seen = request.GET.get("revision")
    if seen == str(selectors.session_hand_revision(session)):
        return HttpResponse(status=204)
    store = SessionHandStore(actor=request.user, session=session)
    hand = store.load()
    shown = request.GET.get("hand", "")
    moved_on = shown.isascii() and shown.isdigit() and len(shown) <= 9 and int(shown) < hand.number
    board = board_of(hand, store.finished_before(hand) if moved_on else None)
    page = {**entry_context(board, {}, page_language()), **_page_context(request, session)(board)}
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
