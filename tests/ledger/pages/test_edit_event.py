"""改 on an event of the hand, on each page that enters one (issue 15 point 5): the session page (the ledger's
hand in progress), ``/round/`` (the evening in the Django session) and a correction from the history. The
same taps on each: event 1 of 3 changed in place (its fan, its winner, its discarder) with the two after it
kept, or taken out; a change after which the hand no longer settles is refused with the engine's words and
stores nothing. docs/pages.md, "Changing an event".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from bench.counting import settled
from calculator.engine import EngineError
from ledger import selectors, services
from ledger import urls as _converters  # noqa: F401 (the pages' routes need the ledger's path converter)
from ledger.pages.history import DRAFTS, CorrectionStore
from ledger.pages.session import SessionHandStore
from settlement.engine import settler
from tests.ledger.conftest import NAMES, make_table
from tests.ledger.pages.helpers import ENGLISH, errors_of, logged_in, visible_text
from tests.ledger.pages.test_session_taps import ORDINARY_QUERIES
from web.entry.evening import EveningStore
from web.entry.events import build_event, choices_of, table_rules
from web.entry.store import Hand

HTMX = {"HTTP_HX_REQUEST": "true"}
RULES = {"preset": "chengdu"}

# 小李 wins 平胡 on 阿美's discard; 老张 makes two concealed kongs.
SOUTH_ON_WEST = {
    "ev_type": "win",
    "winner_1": "on",
    "win_how": "discard:2",
    "pattern_1": "ping_hu",
    "gen_1": "0",
}
NORTH_KONG = {"ev_type": "kong", "kong_player": "3", "kong_kind": "concealed"}
PLAYED = (SOUTH_ON_WEST, NORTH_KONG, NORTH_KONG)


def entered(choices: dict[str, str]) -> tuple[dict[str, Any], str]:
    return build_event(choices, table_rules(RULES), (0, 1, 2, 3))


@dataclass
class EntryPage:
    """A phone on one page that enters a hand, and where that page keeps it."""

    client: Client
    url: str
    hand: Callable[[], Hand]

    def post(self, **fields: str) -> Any:
        body = {"revision": str(self.hand().revision), **fields}
        return self.client.post(self.url, body, **HTMX)


def _session_page(owner: Any) -> EntryPage:
    _group, session = make_table(owner, rules=RULES)
    page = EntryPage(
        logged_in(owner),
        f"/sessions/{session.pk}/",
        lambda: SessionHandStore(actor=owner, session=session).load(),
    )
    for choices in PLAYED:
        page.post(action="record", **choices)
    return page


def _round_page(owner: Any) -> EntryPage:
    client = Client()
    page = EntryPage(client, "/round/", lambda: EveningStore(client.session).load())
    for choices in PLAYED:
        page.post(action="record", **choices)
    return page


def _correction_page(owner: Any) -> EntryPage:
    _group, session = make_table(owner, rules=RULES)
    events, notes = zip(*(entered(choices) for choices in PLAYED), strict=True)
    round_, _created = services.round_record(
        actor=owner, session=session, body={"dealer": 0, "events": list(events)}
    )
    client = logged_in(owner)
    url = reverse("round-correct-page", args=[session.pk, round_.pk])
    kept = client.session  # the correction's draft, with the notes the entry would have written
    draft = {
        "version": round_.version,
        "events": list(events),
        "notes": list(notes),
        "undone": [],
        "revision": 0,
    }
    kept[DRAFTS] = {str(round_.pk): draft}
    kept.save()

    def hand() -> Hand:
        stored = selectors.session_rounds(session).get(pk=round_.pk)
        return CorrectionStore(client.session, stored, NAMES, (0, 0, 0, 0)).load()

    return EntryPage(client, url, hand)


PAGES = {"session": _session_page, "round": _round_page, "correction": _correction_page}


@pytest.fixture(params=list(PAGES))
def page(request: Any, owner: Any) -> EntryPage:
    return PAGES[request.param](owner)


def test_every_page_starts_from_the_same_three_events(page):
    assert page.hand().events == tuple(entered(choices)[0] for choices in PLAYED)


CHANGES = [
    pytest.param({**SOUTH_ON_WEST, "pattern_1": "qing_yi_se"}, id="the-fan"),
    pytest.param(
        {"ev_type": "win", "winner_0": "on", "win_how": "discard:2", "pattern_0": "ping_hu"}, id="the-winner"
    ),
    pytest.param({**SOUTH_ON_WEST, "win_how": "discard:0"}, id="the-discarder"),
]


@pytest.mark.parametrize("choices", CHANGES)
def test_an_event_changed_in_place_keeps_the_ones_after_it(page, choices):
    before = page.hand()
    response = page.post(action="replace", edit="0", **choices)
    assert response.status_code == 200 and errors_of(response) == []
    after = page.hand()
    assert (after.events[0], after.notes[0]) == entered(choices)
    assert after.events[1:] == before.events[1:] and after.notes[1:] == before.notes[1:]
    assert after.revision == before.revision + 1


def test_the_fan_changed_is_what_the_page_then_explains(page):
    response = page.post(action="replace", edit="0", **{**SOUTH_ON_WEST, "pattern_1": "qing_yi_se"})
    assert "清一色" in visible_text(response)


def test_an_event_deleted_leaves_the_others(page):
    before = page.hand()
    page.post(action="remove", edit="0")
    assert page.hand().events == before.events[1:]


@pytest.mark.parametrize(("headers", "refused"), [({}, "没有保存"), (ENGLISH, "Not saved")])
def test_a_change_after_which_the_hand_no_longer_settles_is_refused_and_stores_nothing(
    page, headers, refused
):
    """老张 cannot win first and make his kongs after: the whole hand is settled again, and refused."""
    before = page.hand()
    choices = {"ev_type": "win", "winner_3": "on", "win_how": "discard:2", "pattern_3": "ping_hu"}
    with pytest.raises(EngineError) as engine:
        before.draft.edit(0, *entered(choices), settle=settler(RULES))
    fields = {"revision": str(before.revision), "action": "replace", "edit": "0", **choices}
    response = page.client.post(page.url, fields, **HTMX, **headers)
    language = "en" if headers else "zh-hans"
    with translation.override(language):  # /round/'s seats without a name are named in the page's language
        expected = engine.value.localized(language, [str(name) for name in page.hand().names])
    assert errors_of(response) == [f"{refused} {expected}"]
    assert page.hand().draft == before.draft, "nothing is stored"


class _Checked(HTMLParser):
    """The form's choices as a page opens it: each checked box or radio, and each filled-in box."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        field = dict(attrs)
        kind, name, value = field.get("type"), field.get("name"), field.get("value") or ""
        if (
            tag == "input"
            and name
            and ((kind in ("radio", "checkbox") and "checked" in field) or kind == "hidden")
        ):
            self.chosen[name] = value


def chosen_on(html: str) -> dict[str, str]:
    parser = _Checked()
    parser.feed(html)
    return parser.chosen


def test_each_event_offers_its_change_and_without_script_opens_it_filled_in(page):
    assert page.client.get(page.url).content.decode().count("data-edit=") == len(PLAYED)
    chosen = chosen_on(page.client.get(f"{page.url}?edit=0").content.decode())
    assert chosen["edit"] == "0"
    assert {name: chosen.get(name) for name in SOUTH_ON_WEST} == SOUTH_ON_WEST


def test_without_script_a_change_saved_goes_back_to_the_page(page):
    fields = {"revision": str(page.hand().revision), "action": "replace", "edit": "0", **CHANGES[0].values[0]}
    response = page.client.post(page.url, fields)
    assert response.status_code == 303
    assert page.hand().events[0] == entered(CHANGES[0].values[0])[0]


# What 改 fills the form with reads back as the same event and note, for every kind the entry enters.
ENTRIES = [
    pytest.param(
        {"ev_type": "kong", "kong_player": "2", "kong_kind": "direct", "kong_from": "0"}, id="direct-kong"
    ),
    pytest.param(
        {
            "ev_type": "win",
            "winner_1": "on",
            "winner_3": "on",
            "win_how": "robbing:2",
            "pattern_1": "qing_yi_se",
            "gen_1": "2",
            "tiles_3": "123m456m789m11p234s",
            "melds_3": "",
        },
        id="robbed-kong-two-winners-one-by-tiles",
    ),
    pytest.param(
        {
            "ev_type": "win",
            "winner_0": "on",
            "win_how": "self_draw",
            "after_kong": "on",
            "tiandi_0": "tian_hu",
        },
        id="self-draw-after-a-kong-heavenly",
    ),
    pytest.param(
        {
            "ev_type": "draw",
            "draw_0": "huazhu",
            "draw_1": "ready",
            "drawpattern_1": "dui_dui_hu",
            "drawgen_1": "1",
            "draw_2": "not_ready",
            "drawtiles_3": "1112345678999m",
            "drawmelds_3": "",
        },
        id="draw",
    ),
    pytest.param(
        {
            "ev_type": "escape",
            "escape_player": "2",
            "tiles_left": "3",
            "draw_0": "not_ready",
            "draw_1": "not_ready",
            "draw_3": "huazhu",
        },
        id="escape-near-the-end",
    ),
    pytest.param({"ev_type": "escape", "escape_player": "2", "tiles_left": ""}, id="escape-uncounted"),
    pytest.param(
        {
            "ev_type": "adjust",
            "adjust_from": "1",
            "adjust_to": "each",
            "adjust_amount": "8",
            "adjust_reason": "诈胡",
        },
        id="false-win-fine",
    ),
    pytest.param(
        {
            "ev_type": "adjust",
            "adjust_from": "1",
            "adjust_to": "house",
            "adjust_points": "5",
            "adjust_reason": "其他",
            "adjust_note": "迟到",
        },
        id="other-fine-to-the-house",
    ),
]


@pytest.mark.parametrize("choices", ENTRIES)
def test_the_choices_of_an_event_enter_it_again(choices):
    rules, active = table_rules(RULES), (0, 1, 2, 3)
    event, note = build_event(choices, rules, active)
    assert build_event(choices_of(event, note), rules, active) == (event, note)


def test_a_change_on_the_session_page_is_one_tap_like_any_other(owner):
    """One settlement, and no more queries than an ordinary event (test_session_taps.py)."""
    page = _session_page(owner)
    fields = {"revision": str(page.hand().revision), "action": "replace", "edit": "0", **CHANGES[0].values[0]}
    with settled() as settlements, CaptureQueriesContext(connection) as queries:
        response = page.client.post(page.url, fields, **HTMX)
    assert response.status_code == 200 and errors_of(response) == []
    assert settlements.value == 1
    assert len(queries) <= ORDINARY_QUERIES, [query["sql"][:80] for query in queries]
