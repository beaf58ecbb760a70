"""历史 History: every hand of a session, newest first, explained as the entry explains a hand.

Paged and collapsed, so the page stays the same size whatever the session's length: ``HANDS_PER_PAGE``
hands a page, each one line (who won and how, and what the winners took) that opens, as a ``<details>``,
to its full explanation; ``?page=`` turns the pages and ``?hand=N`` (a jump, or ``hand_url``) shows the
page that holds hand N with that hand open.

A corrected hand says 改过 and keeps its earlier versions a tap away; a voided one is struck through.
更正 opens the hand in the same entry UI as the session page (``web.entry``), filled in with its events
and kept in the Django session while it is being changed (``CorrectionStore``), and saves it through
``services.round_correct``; 作废 voids it through ``services.round_void`` after a confirmation. The totals
are the ledger's sums, so they follow at once.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from calculator.engine import Rules
from settlement.engine import HandDraft, RoundResult, StaleDraft, Undone
from web.entry.events import table_rules
from web.entry.explain import EventView, event_title, event_views
from web.entry.page import Board, entry_response
from web.entry.store import Change, Hand, StaleHand, Written, kept_open
from web.htmx import HtmxHttpRequest, SignedInRequest
from web.language import page_language

from .. import selectors, services
from ..errors import StaleRoundError
from ..models import WRITER_ROLES, Round, RoundVersion, Session, VersionKind
from .links import hand_url, session_url
from .refusals import REFUSALS, ledger_words, refusal_message

VERSION_KINDS: Mapping[str, Any] = {
    VersionKind.RECORDED: gettext_lazy("Recorded"),
    VersionKind.CORRECTED: gettext_lazy("Corrected"),
    VersionKind.VOIDED: gettext_lazy("Voided"),
    VersionKind.RECOINED: gettext_lazy("Coins settled again"),
}


# --- the history ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VersionView:
    """One version of a hand as the page shows it: what it was, who wrote it when, each seat's net, and
    every event explained."""

    number: int
    kind: str
    created: datetime
    author: str
    nets: tuple[tuple[str, int], ...]
    events: tuple[EventView, ...]


@dataclass(frozen=True, slots=True)
class HandView:
    round: Round
    dealer_name: str
    corrected: bool
    shown: VersionView  # the current version; for a voided hand the last one that counted
    earlier: tuple[VersionView, ...]  # every other version, newest first
    headline: str  # its collapsed line: how it ended (胖哥 自摸, 阿美 点炮，小李 胡, 流局)
    gains: tuple[tuple[str, int], ...]  # and who took points from it, with how many


def version_view(version: RoundVersion, names: Sequence[str], rules: Rules, language: str) -> VersionView:
    result = version.result or {"net": [0] * len(names), "events": [], "transfers": []}
    notes = [note or "" for note in version.notes]
    return VersionView(
        number=version.version,
        kind=str(VERSION_KINDS[version.kind]),
        created=version.created,
        author=version.created_by.get_username() if version.created_by else "",
        nets=tuple(zip(names, result["net"], strict=True)),
        events=event_views(result, notes, names, rules, language),
    )


def headline(result: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    """How a hand ended, in the entry's words: its wins, draw or escapes (its kongs only when nothing else
    happened, e.g. a hand still short of its end)."""
    summaries = (result or {}).get("events", ())
    ending = [summary for summary in summaries if summary["type"] != "kong"] or list(summaries)
    return " · ".join(event_title(summary, names) for summary in ending)


def hand_view(round_: Round, names: Sequence[str], rules: Rules, language: str) -> HandView:
    versions = list(round_.versions.all())  # prefetched, oldest first
    counted = [version for version in versions if version.result is not None]
    shown = counted[-1]
    view = version_view(shown, names, rules, language)
    return HandView(
        round=round_,
        dealer_name=names[round_.dealer],
        corrected=any(version.kind == VersionKind.CORRECTED for version in versions),
        shown=view,
        headline=headline(shown.result, names),
        gains=tuple((name, net) for name, net in view.nets if net > 0),
        earlier=tuple(
            version_view(version, names, rules, language)
            for version in reversed(versions)
            if version.pk != shown.pk and version.result is not None
        ),
    )


def _can_write(request: SignedInRequest, session: Session) -> bool:
    role = selectors.role_in(user=request.user, group=session.group)
    return role in WRITER_ROLES and session.is_open


def history_url(session: Session, round_: Round | None = None) -> str:
    if round_ is not None:
        return hand_url(session.pk, round_.position)
    return reverse("session-history", args=[session.pk])


@login_required
@require_http_methods(["GET", "HEAD"])
def history_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    return _history(request, session)


HANDS_PER_PAGE = 20  # a collapsed screenful or two at 360 px; a full page is about 12 KB gzip
MAX_NUMBER_DIGITS = 9  # more digits than any session's hands: read as no number at all


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """Which hands a page of the history shows: ``HANDS_PER_PAGE`` of them from position ``newest`` down."""

    number: int  # 1 holds the newest hands
    count: int  # pages in all
    newest: int
    last: int  # the session's latest position
    opened: int | None  # the hand ?hand= asked for, shown open

    @property
    def newer(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def older(self) -> int | None:
        return self.number + 1 if self.number < self.count else None


def _number(value: object) -> int | None:
    text = value if isinstance(value, str) else ""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= MAX_NUMBER_DIGITS else None


def history_page_of(query: Mapping[str, Any], last: int) -> HistoryPage:
    """The page ``?hand=N`` (the page holding hand N) or ``?page=K`` asks for; page 1 for anything else,
    the last page for a page beyond it."""
    count = max(1, -(-last // HANDS_PER_PAGE))
    hand = _number(query.get("hand"))
    if hand is not None and 1 <= hand <= last:
        number = (last - hand) // HANDS_PER_PAGE + 1
    else:
        hand = None
        number = min(max(_number(query.get("page")) or 1, 1), count)
    newest = last - (number - 1) * HANDS_PER_PAGE
    return HistoryPage(number=number, count=count, newest=newest, last=last, opened=hand)


def _history(
    request: SignedInRequest, session: Session, *, alert: str = "", status: int = 200
) -> HttpResponse:
    language = page_language()
    spells = selectors.sittings([session]).get(session.pk, [])  # each hand named as the table sat for it
    page = history_page_of(request.GET, selectors.session_last_position(session))
    rounds = selectors.session_history(session, newest=page.newest, count=HANDS_PER_PAGE)
    rules = table_rules(session.rules)  # read from their JSON once for the page, not once a version
    context = {
        "session": session,
        "totals": selectors.session_totals(session),
        "hands": [
            hand_view(round_, selectors.names_at(spells, round_.position), rules, language)
            for round_ in rounds
        ],
        "page": page,
        "can_write": _can_write(request, session),
        "session_url": session_url(session),
        "alert": alert,
    }
    return render(request, "ledger/history/history.html", context, status=status)


@login_required
@require_POST
def round_void_page(request: SignedInRequest, session_id: int, round_id: int) -> HttpResponse:
    """作废: the confirmation is the second tap (the button inside 作废… on the history page)."""
    session = selectors.session_get(user=request.user, session_id=session_id)
    round_ = selectors.session_round_get(session=session, round_id=round_id)
    try:
        services.round_void(actor=request.user, round_=round_)
    except REFUSALS as error:
        return _history(request, session, alert=refusal_message(error), status=400)
    messages.success(request, _("Hand %(n)s is voided: it no longer counts.") % {"n": round_.position})
    return HttpResponseRedirect(history_url(session, round_), status=303)


# --- correcting a hand ---------------------------------------------------------------------------------

DRAFTS = "ledger-corrections"  # request.session key: {round id: the draft of its correction}


class CorrectionStore:
    """The ``HandStore`` (web.entry.store) of a hand being corrected: a draft of its events in the Django
    session, begun from the round's current version; saving it is ``round_correct``, nothing before.

    The draft remembers the version it began from, so a correction saved after someone else's is refused
    (``StaleRoundError``) instead of silently replacing theirs.
    """

    def __init__(
        self, storage: MutableMapping[str, Any], round_: Round, names: Sequence[str], totals: Sequence[int]
    ):
        self.storage = storage
        self.round = round_
        self.names = tuple(names)
        self.totals = tuple(totals)
        drafts = storage.get(DRAFTS)
        self.drafts: dict[str, Any] = dict(drafts) if isinstance(drafts, Mapping) else {}
        draft = self.drafts.get(str(round_.pk))
        self.draft: dict[str, Any] = dict(draft) if isinstance(draft, Mapping) else self._fresh()

    @property
    def stale(self) -> bool:
        """Whether the round has moved on since the draft began (someone else corrected it)."""
        return self.base_version != self.round.version

    def _fresh(self) -> dict[str, Any]:
        current = self.round.versions.get(version=self.round.version)
        return {
            "version": self.round.version,
            "events": list(current.events),
            "notes": [note or "" for note in current.notes]
            + [""] * (len(current.events) - len(current.notes)),
            "undone": [],
            "revision": 0,
        }

    @property
    def rules(self) -> Mapping[str, Any]:
        rules: Mapping[str, Any] = self.round.session.rules  # a JSONField, Any to mypy
        return rules

    def load(self) -> Hand:
        draft = HandDraft.of(
            dealer=self.round.dealer,
            void_suits=self.round.void_suits,
            events=self.draft["events"],
            notes=self.draft["notes"],
            undone=[Undone(event, note) for event, note in self.draft["undone"]],
            revision=self.draft["revision"],
        )
        return Hand(
            number=self.round.position,
            names=self.names,
            draft=draft,
            rules=self.round.session.rules,
            totals=self.totals,
        )

    def settle(self, draft: HandDraft) -> RoundResult:
        """The session's rules; a correction shows points (its coins follow when it is saved)."""
        return selectors.session_settle(
            self.round.session,
            dealer=draft.dealer,
            void_suits=draft.void_suits,
            events=draft.events,
            coins_before=None,
        )

    @property
    def changed(self) -> bool:
        """Whether the draft differs from the version it began from (saving it as it is would only add a
        version that says nothing)."""
        current = self.round.versions.get(version=self.base_version)
        notes = [note or "" for note in current.notes]
        return (self.draft["events"], self.draft["notes"]) != (
            current.events,
            notes + [""] * (len(current.events) - len(notes)),
        )

    @property
    def base_version(self) -> int:
        return int(self.draft["version"])

    def write(self, change: Change, *, revision: int) -> Written:
        hand = self.load()
        try:
            hand.draft.at(revision)
        except StaleDraft as stale:
            raise StaleHand(hand) from stale
        draft, result = change.apply(hand.draft, self.settle)  # an EngineError keeps the draft
        self.draft.update(
            events=list(draft.events),
            notes=[note or "" for note in draft.notes],
            undone=[[undone.event, undone.note or ""] for undone in draft.undone],
            revision=draft.revision,
        )
        self.drafts[str(self.round.pk)] = self.draft
        self.storage[DRAFTS] = self.drafts
        return kept_open(replace(hand, draft=draft), result)

    def next_hand(self, *, revision: int) -> Written:
        """The end card's button saves the correction (``correct_page``); the draft itself stays put."""
        hand = self.load()
        return kept_open(hand, self.settle(hand.draft)) if hand.events else Written(hand, None)

    def discard(self) -> None:
        self.drafts.pop(str(self.round.pk), None)
        self.storage[DRAFTS] = self.drafts


SAVES = ("save", "next")  # the page's own save, and the end card's button, which says 保存更正 here


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def correct_page(request: SignedInRequest, session_id: int, round_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    round_ = selectors.session_round_get(session=session, round_id=round_id)
    if not _can_write(request, session) or round_.voided:
        return _history(request, session, alert=_cannot_correct(session, round_), status=403)
    store = _store(request, session, round_)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action == "discard":
        store.discard()
        return _after(request, history_url(session, round_))
    if action in SAVES:
        return _save(request, session, round_, store)
    if store.stale:  # begin again from the version now current, and say why
        store.discard()
        store = _store(request, session, round_)
        messages.warning(request, refusal_message(StaleRoundError()))

    def page(board: Board) -> dict[str, Any]:
        return {
            "session": session,
            "round": round_,
            "entry_title": _("Correcting"),
            "entry_links": [(history_url(session, round_), _("History"))],
            "end_label": _("Save the correction"),
            "base_version": store.base_version,
        }

    return entry_response(request, store, template="ledger/history/correct.html", context=page)


def _store(request: HtmxHttpRequest, session: Session, round_: Round) -> CorrectionStore:
    """The draft, with the totals before this hand: the ledger's sums without this hand's own part, each
    seat as the table sat for this hand (a correction made after a substitute keeps the hand's players)."""
    totals = selectors.session_totals(session)
    points = {person.player_id: person.points for person in totals.players}
    seated = selectors.seated_at(session.pk, round_.position)
    current = round_.versions.get(version=round_.version).result or {}
    own = current.get("net") or [0] * len(seated)
    before = [points.get(player, 0) - own[seat] for seat, (player, _name) in enumerate(seated)]
    return CorrectionStore(request.session, round_, [name for _player, name in seated], before)


def _save(request: SignedInRequest, session: Session, round_: Round, store: CorrectionStore) -> HttpResponse:
    hand = store.load()
    if not store.changed:
        store.discard()
        messages.info(request, _("Nothing was changed: hand %(n)s stays as it was.") % {"n": round_.position})
        return _after(request, history_url(session, round_))
    body = {"dealer": hand.dealer, "void_suits": list(hand.void_suits), "events": list(hand.events)}
    try:
        services.round_correct(
            actor=request.user, round_=round_, body=body, notes=list(hand.notes), version=store.base_version
        )
    except REFUSALS as error:
        store.discard()  # a stale draft begins again from the version now current
        messages.error(request, refusal_message(error))
        return _after(request, reverse("round-correct-page", args=[session.pk, round_.pk]))
    store.discard()
    messages.success(request, _("Hand %(n)s is corrected: the totals follow.") % {"n": round_.position})
    return _after(request, history_url(session, round_))


def _after(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """A write's answer: a redirect, which htmx follows as a whole page (HX-Redirect)."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url, status=303)


def _cannot_correct(session: Session, round_: Round) -> str:
    if not session.is_open:
        return _("This session is closed: its hands can no longer be corrected.")
    if round_.voided:
        return _("This hand was voided: it can no longer be corrected.")
    return ledger_words("role_forbids")


urlpatterns = [
    path("sessions/<ledger_id:session_id>/history/", history_page, name="session-history"),
    path(
        "sessions/<ledger_id:session_id>/history/<ledger_id:round_id>/correct/",
        correct_page,
        name="round-correct-page",
    ),
    path(
        "sessions/<ledger_id:session_id>/history/<ledger_id:round_id>/void/",
        round_void_page,
        name="round-void-page",
    ),
]
