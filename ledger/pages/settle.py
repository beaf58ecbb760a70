"""结算 Settle up: each player's net (and coins when on), the fewest transfers that square the table with
what was paid toward each (``ledger/pages/debts.py``), what earlier sessions leave unpaid, a plain-text
summary to paste into the group chat, the CSV download, and closing the session.

The figures are the ledger's (``selectors.session_totals``, ``selectors.session_settle_up``: the engine's
``settle_up`` of the totals); this page only words them. Copying is ``static/js/settle.js`` (under the
CSP); without JavaScript the summary is in a text box to select by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from web.htmx import SignedInRequest

from .. import selectors, services
from ..models import WRITER_ROLES, Session
from . import debts as debt_pages
from .fee import SPLIT_WORDS, fee_line
from .links import group_stats_url, session_url, summary_url
from .refusals import REFUSALS, refusal_message


@dataclass(frozen=True, slots=True)
class PlayerLine:
    name: str
    points: int
    coins: int | None  # the balance now, with coins on
    coin_change: int | None  # since the start of the session


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: int
    to_house: bool = False  # burned points: nobody's debt to a person, so nothing to mark paid


def signed(points: int) -> str:
    """A number of the summary as the pages print it (web.templatetags.signed): +36, −12 (a real minus), 0."""
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def player_lines(session: Session, totals: selectors.SessionTotals) -> tuple[PlayerLine, ...]:
    """Everyone who played, in the settle-up's order: the seats now, then whoever was substituted."""
    starting = session.starting_balances or [0] * len(totals.seats)
    return tuple(
        PlayerLine(
            name=person.player_name,
            points=person.points,
            coins=person.coins,
            coin_change=None if person.coins is None else person.coins - int(starting[person.seat]),
        )
        for person in totals.players
    )


def transfers(settle_up: dict[str, Any]) -> tuple[Transfer, ...]:
    """The engine's fewest payments, by name; points owed to the house (a burned penalty) name it."""
    return tuple(
        Transfer(
            payment["from_name"],
            _("the house") if payment["to"] == "house" else payment["to_name"],
            payment["amount"],
            to_house=payment["to"] == "house",
        )
        for payment in settle_up["payments"]
    )


def what_moves(
    session: Session, totals: selectors.SessionTotals
) -> tuple[dict[str, Any], tuple[Transfer, ...]]:
    """What is to be paid, and its transfers: in coins when the session plays for coins (what actually
    moved; the points' transfers would ask a loser who ran short for more than they lost), else in
    points; from the totals the page read (``selectors.money_settle_up``)."""
    settle_up = selectors.money_settle_up(session, totals)
    return settle_up, transfers(settle_up)


def summary_text(
    session: Session,
    hands: int,
    players: Sequence[PlayerLine],
    payments: Sequence[Transfer],
    still_owed: Sequence[str] = (),
    fee: str = "",
) -> str:
    """What the copy button puts on the clipboard: plain lines a group chat shows as they are. With coins
    the points are only the score and every transfer says it is in coins, so nobody pays the points."""
    heading = [session.group.name, session.title]
    if not session.named_by_day:
        heading.append(formats.date_format(timezone.localtime(session.created), "SHORT_DATE_FORMAT"))
    lines = [
        " · ".join(heading),
        ngettext("%(n)s hand", "%(n)s hands", hands) % {"n": hands},
        "",
    ]
    in_coins = session.coins_enabled
    for player in players:
        if in_coins:
            score = _("score %(n)s") % {"n": signed(player.points)}
            coins = _("coins %(n)s") % {"n": signed(player.coin_change or 0)}
            lines.append(f"{player.name} {score} · {coins}")
        else:
            lines.append(f"{player.name} {signed(player.points)}")
    unit = " " + _("coins") if in_coins else ""
    lines += ["", _("Settle up in coins:") if in_coins else _("Settle up:")]
    lines += [f"{payment.payer} → {payment.payee} {payment.amount}{unit}" for payment in payments] or [
        _("All square: nobody owes anything.")
    ]
    return "\n".join([*lines, *([fee] if fee else []), *still_owed])


@login_required
@require_http_methods(["GET", "HEAD"])
def settle_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_alone(user=request.user, session_id=session_id)
    return _page(request, session)


def _page(request: SignedInRequest, session: Session, *, alert: str = "", status: int = 200) -> HttpResponse:
    totals = selectors.session_totals(session)
    players = player_lines(session, totals)
    settle_up, payments = what_moves(session, totals)
    role = selectors.role_in(user=request.user, group=session.group)
    owed = debt_pages.settle_context(request, session, role)
    fee = fee_line(settle_up["fee"], [line.name for line in players])
    context = {
        **owed.context,
        "fee_line": fee,
        "can_set_fee": role in WRITER_ROLES,
        "fee_splits": SPLIT_WORDS.items(),
        "seat_players": [(person.player_id, person.player_name) for person in totals.players],
        "session": session,
        "hands": totals.rounds,
        "players": players,
        "payments": payments,
        "house": totals.house,
        "summary": summary_text(session, totals.rounds, players, payments, owed.summary_lines, fee),
        "csv_url": reverse("ledger:session-export", kwargs={"session_id": session.pk}),
        "history_url": reverse("session-history", args=[session.pk]),
        "chart_url": reverse("session-chart", args=[session.pk]),
        "session_url": session_url(session),
        "stats_url": group_stats_url(session.group),  # after the evening: how it stands over all of them
        "can_close": session.is_open and role in WRITER_ROLES,
        "unfinished": _unfinished(session) if session.is_open else "",
        "card_url": reverse("session-card", args=[session.pk]),
        "card_filename": f"sczmj-{session.pk}-{timezone.localdate(session.created).isoformat()}.png",
        "summary_url": summary_url(request, session),
        "can_revoke_summary": role in WRITER_ROLES,
        "alert": alert,
    }
    return render(request, "ledger/settle/settle.html", context, status=status)


def _unfinished(session: Session) -> str:
    """What closing drops: the hand in progress, its kongs' money included, counts only once finished."""
    hand = selectors.hand_row(session)
    if not hand.events:
        return ""
    return ngettext(
        "Hand %(n)s is not over: its %(count)s recorded entry (a kong's money too) is dropped when the "
        "session closes; only finished hands count.",
        "Hand %(n)s is not over: its %(count)s recorded entries (a kong's money too) are dropped when the "
        "session closes; only finished hands count.",
        len(hand.events),
    ) % {"n": hand.number, "count": len(hand.events)}


@login_required
@require_POST
def session_close_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    """结束本场: the confirmation is the second tap (the button inside 结束本场… on the settle page)."""
    session = selectors.session_get(user=request.user, session_id=session_id)
    try:
        services.session_close(actor=request.user, session=session)
    except REFUSALS as error:
        return _page(request, session, alert=refusal_message(error), status=403)
    messages.success(request, _("The session is closed: its hands are kept, and no more can be recorded."))
    return HttpResponseRedirect(reverse("session-settle", args=[session.pk]), status=303)


urlpatterns = [
    path("sessions/<ledger_id:session_id>/settle/", settle_page, name="session-settle"),
    path("sessions/<ledger_id:session_id>/close/", session_close_page, name="session-close-page"),
]
