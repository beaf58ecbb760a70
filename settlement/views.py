"""The round page ``/round/``: a table's evening, hand by hand, with every payment explained.

Nobody logs in and nothing is stored for good: the evening lives in the Django session
(``web.entry.evening.EveningStore``), so a reload, Back or the language switch continue it. The entry
itself (杠 / 胡 / 流局 / 逃跑, undo, redo, the end card, 下一手) is the shared one of ``web.entry``; this
page adds 座位与规则 (names, dealer, void suits, rules) and, for a logged-in player, saving the evening
into a group.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_http_methods

from web.entry.evening import EveningStore
from web.entry.page import Board, entry_response
from web.htmx import HtmxHttpRequest
from web.language import page_language
from web.notation import rules_payload
from web.rules_form import rules_context, rules_fields_of
from web.seats import SEATS, seat_number
from web.tiles import SUIT_SHORT_LABELS

# The ledger's page that saves this evening into a group, once it is wired (``ledger.pages.evening``).
SAVE_URL_NAME = "evening-save"


def _setup(store: EveningStore, data: QueryDict) -> None:
    """座位与规则 as posted: names, dealer, void suits and the rules fields."""
    hand = store.load()
    dealer = seat_number(data.get("dealer"))
    store.set_table(
        names=[str(data.get(f"name_{seat}", hand.names[seat])) for seat in SEATS],
        dealer=hand.dealer if dealer is None else dealer,
        void_suits=[
            data.get(f"void_{seat}") if data.get(f"void_{seat}") in SUIT_SHORT_LABELS else None
            for seat in SEATS
        ],
        rules=rules_payload(data),
    )


def _save_url() -> str:
    try:
        return reverse(SAVE_URL_NAME)
    except NoReverseMatch:
        return ""


@require_http_methods(["GET", "POST"])
def round_page(request: HtmxHttpRequest) -> HttpResponse:
    store = EveningStore(request.session)
    if request.method == "POST" and request.POST.get("action") == "setup":
        _setup(store, request.POST)
        if not request.htmx:
            return HttpResponseRedirect(request.get_full_path(), status=303)
    language = page_language()

    def page(board: Board) -> dict[str, Any]:
        return {
            "suits": list(SUIT_SHORT_LABELS.items()),
            "setup_open": not board.hand.events and board.hand.number == 1,
            "save_url": _save_url() if request.user.is_authenticated else "",
            **rules_context(rules_fields_of(board.hand.rules), language),
        }

    return entry_response(request, store, template="settlement/round.html", context=page)
