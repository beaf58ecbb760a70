"""The picture for the group chat and the read-only summary its QR code opens.

- ``/sessions/<id>/card.png`` (members): the settle-up picture (``web.picture``): the nets, the fewest
  transfers, the biggest hand with its tiles, the 杠 / 花猪 / 查叫 counts, the rules in a few words and the
  QR code of the summary link. 结算 shows it as a plain ``<img>`` to long-press, with a save button.
- ``/sessions/<id>/hands/<round id>/card.png`` (members): one hand of the history as a picture: its nets,
  its winners' hands and fan, what it settled.
- ``/s/<token>/`` (anyone with the link, no account): the nets and the transfers, nothing else, with
  ``og:`` tags so a chat that previews links shows them; ``/s/<token>/card.png`` is its ``og:image``,
  the same two parts as a picture. The token is ``ledger.summary_links``'s (signed, revocable).

Every figure is the ledger's (``selectors.session_totals``, ``session_settle_up``, ``session_biggest_wins``,
each round's stored settle result); this module words them in the reader's language and hands the words
to the drawing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST, require_safe

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from calculator.engine import OPTIONS, PRESET_RULES, OptionKind, Preset, rules_from
from settlement.engine import DrawStatus, EventKind, settle_up
from web.entry.events import notes_of, table_rules, win_situation
from web.entry.explain import event_title, score_text
from web.htmx import SignedInRequest
from web.language import page_language
from web.notation import Meld as NotationMeld
from web.notation import read_hand, tile_names
from web.picture import Card, HandTiles, Highlight
from web.picture import render as render_picture

from .. import selectors
from ..models import Round, Session
from ..summary_links import session_by_summary_token, summary_link_revoke
from .fee import fee_line
from .links import summary_url
from .refusals import REFUSALS, refusal_message
from .settle import player_lines, signed, what_moves
from .words import option_label, value_words

# The options a table names first when it says how it plays; the others are told only where they differ
# from the Chengdu defaults, and the line stops after RULES_SHOWN of them.
RULES_FIRST = ("mode", "base_points", "cap_multiplier", "zimo_bonus")
RULES_SHOWN = 6
PNG = "image/png"
# What a summary link serves is kept nowhere (docs/pages.md, "The summary link"): stopping the link must
# end it at once, on every phone and in every cache that saw it.
KEPT_NOWHERE = "no-store"


def rules_words(rules: Mapping[str, Any], language: str) -> str:
    """The rules in a few words: ``玩法 血战到底 · 底分 1 · 封顶 不封顶 · 自摸奖励 自摸加底 · …``."""
    table = rules_from(rules)
    default = PRESET_RULES[Preset.CHENGDU]
    options = {option.key: option for option in OPTIONS}
    keys = [*RULES_FIRST] + [
        option.key
        for option in OPTIONS
        if option.key not in RULES_FIRST
        and option.kind is not OptionKind.PATTERN_FAN
        and getattr(table, option.key) != getattr(default, option.key)
    ]
    parts = [
        f"{option_label(options[key], language)} {value_words(options[key], getattr(table, key), language)}"
        for key in keys[:RULES_SHOWN]
    ]
    return " · ".join(parts) + (" · …" if len(keys) > RULES_SHOWN else "")


def table_counts(results: Sequence[Mapping[str, Any] | None]) -> tuple[tuple[str, int], ...]:
    """杠, 花猪 and 查叫 over the hands' settle results (a voided hand has none): the kongs made, and the
    players found a flower pig or not ready at a draw or an escape near the end."""
    kongs = huazhu = not_ready = 0
    for result in results:
        for summary in (result or {}).get("events", ()):
            kongs += summary["type"] == EventKind.KONG
            statuses = [player.get("status") for player in summary.get("players", ())]
            huazhu += statuses.count(DrawStatus.HUAZHU)
            not_ready += statuses.count(DrawStatus.NOT_READY)
    return (
        (pgettext("card count", "Kongs"), kongs),
        (pgettext("card count", "Flower pigs"), huazhu),
        (pgettext("card count", "Not ready"), not_ready),
    )


def _tiles(hand: Mapping[str, Any]) -> HandTiles | None:
    """A winner's hand as entered, to draw; None for a win entered by its fan (nothing to draw)."""
    concealed = hand.get("concealed")
    if not concealed:
        return None
    text = "".join(concealed) if isinstance(concealed, list) else str(concealed)
    melds = [NotationMeld(str(meld["kind"]), str(meld["tile"])) for meld in hand.get("melds") or ()]
    win = tile_names(str(hand["win_tile"]), "win_tile")[0] if hand.get("win_tile") else None
    read = read_hand(tile_names(text, "concealed"), win, melds)
    return HandTiles(
        read.concealed,
        tuple((meld.tile,) * (3 if meld.kind == "pung" else 4) for meld in read.melds),
        read.win,
    )


def _winner_entry(event: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
    return next((winner for winner in event.get("winners", ()) if winner.get("player") == seat), {})


def win_highlight(
    version_events: Sequence[Mapping[str, Any]],
    result: Mapping[str, Any],
    notes: Sequence[str | None],
    index: int,
    seat: int,
    *,
    names: Sequence[str],
    rules: Mapping[str, Any],
    heading: str,
) -> Highlight:
    """One winner of one win event: who won how, the fan as reached, the tiles when they were given."""
    summary = next(event for event in result["events"] if event["index"] == index)
    score = next(score for score in summary["scores"] if score["player"] == seat)
    entries = notes_of((notes[index] if index < len(notes) else None) or "")
    line = score_text(score, entries.get(seat), win_situation(summary), table_rules(rules), page_language())
    hand = _winner_entry(version_events[index], seat).get("hand") or {}
    return Highlight(f"{heading} · {event_title(summary, names)}", (f"{names[seat]} {line}",), _tiles(hand))


def _header(session: Session, hands: int) -> tuple[str, str]:
    count = ngettext("%(n)s hand", "%(n)s hands", hands) % {"n": hands}
    title = f"{session.group.name} · {session.title}"
    if session.named_by_day:
        return title, count
    return title, f"{formats.date_format(timezone.localtime(session.created), 'DATE_FORMAT')} · {count}"


def _money(session: Session) -> dict[str, Any]:
    """Each player's net and what to pay, as 结算 says them: in coins when the session plays for coins
    (each player's coin change, his points only the score beside it; ``settle.what_moves``)."""
    totals = selectors.session_totals(session)
    lines = player_lines(session, totals)
    settle_up, payments = what_moves(session, totals)
    in_coins = session.coins_enabled
    return {
        "hands": totals.rounds,
        "nets": tuple(
            (line.name, line.coin_change or 0) if in_coins else (line.name, line.points) for line in lines
        ),
        "asides": tuple(_("score %(n)s") % {"n": signed(line.points)} for line in lines) if in_coins else (),
        "unit": _("coins") if in_coins else "",
        "transfers": tuple((payment.payer, payment.payee, payment.amount) for payment in payments),
        "fee": fee_line(settle_up["fee"], [line.name for line in lines]),
    }


def _biggest(session: Session, money: Mapping[str, Any]) -> tuple[Highlight, ...]:
    wins = selectors.session_biggest_wins(session, limit=1)
    if not wins:
        return ()
    win = wins[0]
    version = win.round_version
    heading = _("Biggest hand · hand %(n)s") % {"n": win.round.position}
    seated = selectors.seated_at(session.pk, win.round.position)  # named as the table sat for that hand
    highlight = win_highlight(
        version.events,
        version.result or {},
        version.notes,
        win.event_index,
        [player for player, _name in seated].index(win.winner_id),
        names=tuple(name for _player, name in seated),
        rules=session.rules,
        heading=heading,
    )
    return (highlight,)


def _fee_note(money: Mapping[str, Any]) -> tuple[str, ...]:
    return (money["fee"],) if money["fee"] else ()


def _base_card(session: Session, money: Mapping[str, Any], **parts: Any) -> Card:
    title, subtitle = _header(session, money["hands"])
    return Card(
        title=title,
        subtitle=subtitle,
        nets_heading=_("Each player, in coins") if money["unit"] else _("Each player"),
        nets=money["nets"],
        net_asides=money["asides"],
        transfers_heading=_("Who pays whom, in coins") if money["unit"] else _("Who pays whom"),
        transfers=money["transfers"],
        unit=money["unit"],
        all_square=_("All square: nobody owes anything."),
        **parts,
    )


def session_card(request: HttpRequest, session: Session) -> Card:
    money = _money(session)
    results = [row.result for row in selectors.session_rounds(session).filter(voided=False)]
    return _base_card(
        session,
        money,
        highlights=_biggest(session, money),
        facts=table_counts(results),
        notes=(*_fee_note(money), rules_words(session.rules, page_language())),
        qr_text=summary_url(request, session),
        qr_caption=_("Scan for the summary"),
    )


def hand_card(request: HttpRequest, session: Session, round_: Round) -> Card:
    """One hand as a picture: each seat's net in it, the fewest transfers that square it, each winner's
    hand and fan; the QR code is the evening's summary."""
    version = round_.versions.get(version=round_.version)
    names = tuple(name for _player, name in selectors.seated_at(session.pk, round_.position))
    result = version.result or {"net": [0] * len(names), "events": [], "transfers": []}
    nets = [int(net) for net in result["net"]]
    highlights = tuple(
        win_highlight(
            version.events,
            result,
            version.notes,
            summary["index"],
            score["player"],
            names=names,
            rules=session.rules,
            heading=_("Hand %(n)s") % {"n": round_.position},
        )
        for summary in result["events"]
        for score in summary.get("scores", ())
        if summary["type"] == EventKind.WIN and score.get("won", True)
    )
    title, _subtitle = _header(session, 1)
    day = formats.date_format(timezone.localtime(version.created), "DATE_FORMAT")
    return Card(
        title=title,
        subtitle=f"{day} · " + _("hand %(n)s") % {"n": round_.position},
        nets_heading=_("This hand"),
        nets=tuple(zip(names, nets, strict=True)),
        transfers_heading=_("Who pays whom"),
        transfers=tuple(
            (names[payment.payer], names[payment.payee], payment.amount) for payment in settle_up(nets)
        ),
        all_square=_("All square: nobody owes anything."),
        highlights=highlights,
        facts=table_counts([result]),
        notes=(rules_words(session.rules, page_language()),),
        qr_text=summary_url(request, session),
        qr_caption=_("Scan for the summary"),
    )


def _png(picture: bytes) -> HttpResponse:
    response = HttpResponse(picture, content_type=PNG)
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_safe
def card_png(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    return _png(render_picture(session_card(request, session)))


@login_required
@require_safe
def hand_card_png(request: SignedInRequest, session_id: int, round_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    round_ = selectors.session_round_get(session=session, round_id=round_id)
    return _png(render_picture(hand_card(request, session, round_)))


def summary_card(session: Session) -> Card:
    money = _money(session)
    return _base_card(session, money, notes=_fee_note(money))


@require_safe
def summary_page(request: HttpRequest, token: str) -> HttpResponse:
    """What the QR code opens, logged in or not: the nets and the transfers of one session."""
    session = session_by_summary_token(token)
    money = _money(session)
    title, subtitle = _header(session, money["hands"])
    unit = f" {money['unit']}" if money["unit"] else ""
    nets = " · ".join(
        f"{name} {points:+d}{unit}" if points else f"{name} 0" for name, points in money["nets"]
    )
    context = {
        "session": session,
        "title": title,
        "subtitle": subtitle,
        "nets": money["nets"],
        "payments": money["transfers"],
        "fee_line": money["fee"],
        "unit": money["unit"],
        "og_description": nets,
        "og_image": request.build_absolute_uri(reverse("session-summary-card", args=[token])),
        "og_url": request.build_absolute_uri(),
    }
    response = render(request, "ledger/settle/summary.html", context)
    response["Cache-Control"] = KEPT_NOWHERE
    return response


@require_safe
def summary_card_png(request: HttpRequest, token: str) -> HttpResponse:
    session = session_by_summary_token(token)
    response = HttpResponse(render_picture(summary_card(session)), content_type=PNG)
    response["Cache-Control"] = KEPT_NOWHERE
    return response


@login_required
@require_POST
def summary_link_revoke_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    """停用链接: every summary link of the session stops working; the picture then carries a new one."""
    session = selectors.session_get(user=request.user, session_id=session_id)
    try:
        summary_link_revoke(actor=request.user, session=session)
    except REFUSALS as error:
        messages.error(request, refusal_message(error))
    else:
        messages.success(request, _("The old summary link no longer works; the picture has a new one."))
    return HttpResponseRedirect(reverse("session-settle", args=[session.pk]), status=303)


urlpatterns = [
    path("sessions/<ledger_id:session_id>/card.png", card_png, name="session-card"),
    path(
        "sessions/<ledger_id:session_id>/hands/<ledger_id:round_id>/card.png",
        hand_card_png,
        name="session-hand-card",
    ),
    path(
        "sessions/<ledger_id:session_id>/summary-link/revoke/",
        summary_link_revoke_page,
        name="session-summary-revoke",
    ),
    path("s/<str:token>/", summary_page, name="session-summary"),
    path("s/<str:token>/card.png", summary_card_png, name="session-summary-card"),
]
