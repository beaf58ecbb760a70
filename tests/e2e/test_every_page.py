"""Every page of issue 9 at 360 x 780, in Chinese and in English, light and dark, held to UX.md's rules in
one place: no horizontal scroll, no console error or CSP violation, every control a 44 px target, text
that reads against its background (WCAG AA contrast) in both schemes, and a Chinese page with no English
left untranslated. Each is photographed into /tmp/sczmj-every-<page>-<language>-<scheme>.png.

The pages: the invite page with its QR codes, the join pages (viewer board, scorekeeper link for a visitor
and for a logged-in account, expired and revoked links), the invitations page, 走势, 统计, the group page,
home, the offline calculator scoring a hand with no network, and a session page that loses the network
(its offline note) or is opened without one (the offline page).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from ledger import demo, services
from ledger.models import Group, Role, Session, SessionInvite
from ledger.summary_links import summary_token
from tests.ledger.conftest import make_table, make_user

from .conftest import Phones
from .test_pages import photograph, tap_tiles
from .test_pwa import OFFLINE_READY_MS

pytestmark = [
    pytest.mark.e2e,
    # What these judge (layout at 360 px, contrast, axe, reach, words) is the same on either database,
    # and they are the suite's slowest: CI runs them once, on the SQLite pass (docs/structure.md).
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the pages read the same on either database: judged once, on the SQLite pass",
    ),
]

PHONE = {"width": 360, "height": 780}
LOCALES = {"zh": "zh-CN", "en": "en-US"}
TARGET = 44
# WCAG 2.x AA: 4.5:1 for text, 3:1 for large text (24 px, or 18.66 px bold).
CONTRAST, LARGE_CONTRAST = 4.5, 3.0
# Latin words a Chinese page shows on purpose: the language switch, the QQ preset, the brand, and the QR
# code and CSV file named as Chinese names them (结算's 下载 CSV).
LATIN_IN_CHINESE = {"English", "QQ", "SCZMJ", "QR", "CSV"}

# Every visible control; a radio or checkbox is measured by its label, the whole of which is tapped.
TARGETS_JS = """target => {
  const selector = 'a[href], button, summary, select, textarea, input:not([type=hidden])';
  const visible = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const small = [];
  for (let el of document.querySelectorAll(selector)) {
    if (el.matches('input[type=radio], input[type=checkbox]')) el = el.closest('label') || el;
    if (!el || !visible(el) || el.closest('.sr-only, [aria-hidden=true]')) continue;
    const box = el.getBoundingClientRect();
    // tile faces cannot be 44 px wide: nine across the picker, fourteen in the hand (docs/pages.md)
    const tile = el.matches('.pick, .held');
    if (box.height < target || (!tile && box.width < target)) {
      small.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || el.name || '').trim()
        .slice(0, 30)}" ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
    }
  }
  return small;
}"""

# What sticks out past the phone's right edge (the outermost such elements), when the page scrolls sideways.
WIDER_JS = """width => document.documentElement.scrollWidth <= width ? [] :
  [...document.body.querySelectorAll('*')]
    .filter(el => el.getBoundingClientRect().right > width + 0.5)
    .filter(el => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 0.5)
    .map(el => `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} right ${
      el.getBoundingClientRect().right.toFixed(1)}`)"""

# Text the page cuts short with "…" (CSS text-overflow) although the demo's names are short: the words a
# player needs (改过, the seat's part of this hand) must fit at 360 px.
CUT_JS = """() => [...document.body.querySelectorAll('*')]
  .filter(el => getComputedStyle(el).textOverflow === 'ellipsis' && el.getClientRects().length > 0)
  .filter(el => {
    // the text's own width (a Range measures it whole, cut or not) against the room inside the box:
    // scrollWidth and clientWidth are whole pixels and miss a cut by a fraction of one
    const style = getComputedStyle(el), text = document.createRange();
    text.selectNodeContents(el);
    const room = el.getBoundingClientRect().width - ['paddingLeft', 'paddingRight', 'borderLeftWidth',
      'borderRightWidth'].reduce((sum, side) => sum + parseFloat(style[side]), 0);
    return text.getBoundingClientRect().width > room + 0.01;
  })
  .map(el => `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} "${
    el.textContent.trim().slice(0, 30)}"`)"""

# A <select> whose chosen option's label does not fit inside it (chromium cuts it without an ellipsis): the
# label's width, measured in the select's own font, against the room left of the arrow.
SELECT_CUT_JS = """() => [...document.querySelectorAll('select')]
  .filter(el => el.getClientRects().length > 0 && el.selectedIndex >= 0)
  .filter(el => {
    const style = getComputedStyle(el), probe = document.createElement('span');
    probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${style.font}`;
    probe.textContent = el.options[el.selectedIndex].label;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    const arrow = style.appearance === 'none' ? 0 : 20;
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
    return text > room + 0.5;
  })
  .map(el => `select[name=${el.name}] "${el.options[el.selectedIndex].label.slice(0, 40)}"`)"""

# What a sticky bar covers at the top of the screen: an element of the in-page jump's target (:target)
# whose top is above the bottom of a sticky or fixed bar.
UNDER_BAR_JS = """() => {
  const target = document.querySelector(':target');
  if (!target) return ['no :target after the jump'];
  const bars = [...document.querySelectorAll('body *')]
    .filter(el => ['sticky', 'fixed'].includes(getComputedStyle(el).position) && el.getClientRects().length)
    .filter(el => el.getBoundingClientRect().top <= 0.5);
  const bottom = Math.max(0, ...bars.map(el => el.getBoundingClientRect().bottom));
  return [target, ...target.querySelectorAll('h2, h3, .badge, .tag')]
    .filter(el => el.getClientRects().length && el.getBoundingClientRect().top < bottom - 0.5)
    .map(el => `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} "${el.textContent.trim()
      .slice(0, 20)}" top ${el.getBoundingClientRect().top.toFixed(1)} under a bar to ${bottom.toFixed(1)}`);
}"""

# axe-core's serious and critical findings, each with the first elements it names.
AXE_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => ['serious', 'critical'].includes(v.impact))
    .map(v => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
}"""

# A button whose label takes two lines keeps both centred.
WRAPPED_JS = """() => [...document.querySelectorAll('.primary, .secondary')]
  .filter(el => el.getClientRects().length > 0 && getComputedStyle(el).textAlign !== 'center')
  .filter(el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map(line => Math.round(line.top))).size > 1;
  })
  .map(el => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`)"""

# Text whose colour against the background behind it (every ancestor's background composited, opacity
# included) falls below AA; SVG text is read by its fill.
CONTRAST_JS = """([normal, large]) => {
  const rgba = text => {
    const m = text && text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]));
  const luminance = rgb => {
    const [r, g, b] = rgb.map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const root = getComputedStyle(document.documentElement).colorScheme.includes('dark')
    && matchMedia('(prefers-color-scheme: dark)').matches ? [18, 18, 18] : [255, 255, 255];
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    const skipped = '[hidden], .sr-only, [disabled], [aria-disabled=true], title, script, style';
    // WCAG 1.4.3 exempts an inactive control: a disabled radio's label (天胡 for a seat that does not deal)
    if (!el.getClientRects().length || el.closest(skipped)) continue;
    if (el.closest('label')?.querySelector(':disabled')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    let back = root, opacity = 1, painted = false;
    for (const e of chain) {
      const s = getComputedStyle(e);
      opacity *= Number(s.opacity);
      painted ||= s.backgroundImage !== 'none';
      const colour = rgba(s.backgroundColor);
      if (colour && colour[3] > 0) back = over(colour, back);
    }
    const fg = rgba(el instanceof SVGElement ? style.fill : style.color);
    if (!fg || painted) continue;  // on a gradient (the hand's green cloth) no one colour is behind it
    const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity], back);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? large : normal;
    const got = ratio(shown, back);
    if (got < need) found.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} `
      + `"${walker.currentNode.textContent.trim().slice(0, 24)}" ${got.toFixed(2)}:1 < ${need}`);
  }
  return found;
}"""


@dataclass
class Table:
    """The demo group (three evenings) with a link of every kind and a stranger asked to join."""

    owner: Any
    friend: Any
    group: Group
    session: Session
    invites: dict[str, SessionInvite]


@pytest.fixture
def table(transactional_db: Any, settings: Any) -> Table:
    settings.DEBUG = True  # load_demo runs in development mode only
    call_command("load_demo")
    group = Group.objects.get(name=demo.GROUP)
    session = group.sessions.get(name=demo.SESSION)
    owner = group.memberships.get(role=Role.OWNER).user
    invites = {
        role: services.invite_create(actor=owner, session=session, role=role)
        for role in (Role.VIEWER, Role.SCOREKEEPER)
    }
    invites["expired"] = services.invite_create(actor=owner, session=session, role=Role.VIEWER)
    an_hour_ago = timezone.now() - timedelta(hours=1)
    SessionInvite.objects.filter(pk=invites["expired"].pk).update(expires_at=an_hour_ago)
    invites["revoked"] = services.invite_revoke(
        actor=owner, invite=services.invite_create(actor=owner, session=session, role=Role.VIEWER)
    )
    friend = make_user("friend")
    services.member_invite(actor=owner, group=group, username="friend", role=Role.SCOREKEEPER)
    return Table(owner, friend, group, session, invites)


def _join(kind: str) -> Callable[[Table], str]:
    return lambda table: reverse("invite-join", args=[table.invites[kind].token])


@dataclass(frozen=True)
class Visit:
    """How a page is reached: by whom (an attribute of Table, or None), at which path, with which status,
    and what is done there before it is judged; ``offline`` pages judge a page without a network, whose
    failed requests the browser reports."""

    user: str | None
    path: Callable[[Table], str]
    status: int = 200
    then: Callable[[Page, str], None] | None = None
    offline: bool = False
    needs_pyodide: bool = False
    # further states of the same page, each judged and photographed as <page>-<state> (the entry's steps)
    states: tuple[tuple[str, Callable[[Page, str], None]], ...] = ()


READY = {"zh": "离线计分已就绪", "en": "Offline scoring ready"}


def _worker_in_control(page: Page) -> None:
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def _score_offline(page: Page, language: str) -> None:
    _worker_in_control(page)
    expect(page.locator("#offline-scoring")).to_have_text(READY[language], timeout=OFFLINE_READY_MS)
    page.context.set_offline(True)
    page.reload()
    tap_tiles(page, "1s 1s 2s 2s 2s 3s 3s 3s 4s 5s 6s 9s 9s 9s")
    expect(page.locator("#result .result__offline")).to_be_visible(timeout=OFFLINE_READY_MS)


def _lose_the_network(page: Page, language: str) -> None:
    _worker_in_control(page)  # registered before the network goes (a failed update check is logged)
    page.context.set_offline(True)
    expect(page.locator("#offline-note")).to_be_visible(timeout=5000)


def _navigate_offline(page: Page, language: str) -> None:
    _worker_in_control(page)
    page.context.set_offline(True)
    page.goto(reverse("session-history", args=[Session.objects.get(name=demo.SESSION).pk]))
    expect(page.locator(".offline-page h1")).to_be_visible()


def _tap(page: Page, name: str, value: str) -> None:
    page.locator(f"label:has(input[name='{name}'][value='{value}']) span").first.click()


def _open_every_disclosure(page: Page, language: str) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(el => { el.open = true; })")


def _a_kong(page: Page, language: str) -> None:
    _tap(page, "ev_type", "kong")
    _tap(page, "kong_player", "1")


def _a_win(page: Page, language: str) -> None:
    _tap(page, "ev_type", "win")
    _tap(page, "winner_1", "on")
    _tap(page, "win_how", "discard:3")  # 阿美 (seat 2) has won already in the demo's hand


def _a_draw_with_long_patterns(page: Page, language: str) -> None:
    """Every seat ready, the longest patterns chosen (青龙七对, 对对胡), and a 根."""
    _tap(page, "ev_type", "draw")
    for seat in "013":
        _tap(page, f"draw_{seat}", "ready")
    page.locator("select[name='drawpattern_0']").select_option("qing_long_qi_dui")
    page.locator("select[name='drawpattern_1']").select_option("dui_dui_hu")
    _tap(page, "drawgen_0", "1")


def _the_demo_hand(table: Table) -> str:
    """The history as 保存更正 and 作废 leave it: jumped to a hand."""
    round_ = table.session.rounds.filter(position=demo.CORRECTION[0]).first()  # the one corrected
    assert round_ is not None
    return reverse("session-history", args=[table.session.pk]) + f"#hand-{round_.position}"


PAGES = {
    "invite": Visit("owner", lambda t: reverse("session-invite", args=[t.session.pk])),
    "seats": Visit("owner", lambda t: reverse("session-seats-page", args=[t.session.pk])),
    "join-viewer": Visit(None, _join(Role.VIEWER)),
    "join-scorekeeper": Visit(None, _join(Role.SCOREKEEPER)),
    "join-scorekeeper-account": Visit("friend", _join(Role.SCOREKEEPER)),
    "join-expired": Visit(None, _join("expired"), status=410),
    "join-revoked": Visit(None, _join("revoked"), status=410),
    "invitations": Visit("friend", lambda t: reverse("invitations-page")),
    "chart": Visit("owner", lambda t: reverse("session-chart", args=[t.session.pk])),
    "stats": Visit("owner", lambda t: reverse("group-stats", args=[t.group.pk])),
    "group": Visit("owner", lambda t: reverse("group-page", args=[t.group.pk])),
    "settle": Visit("owner", lambda t: reverse("session-settle", args=[t.session.pk])),
    "summary": Visit(None, lambda t: reverse("session-summary", args=[summary_token(t.session)])),
    "what-if": Visit(
        "owner", lambda t: reverse("session-what-if", args=[t.session.pk]) + "?rule_zimo_bonus=jia_fan"
    ),
    "what-if-month": Visit("owner", lambda t: reverse("group-what-if", args=[t.group.pk]) + "?preset=casual"),
    "home": Visit("owner", lambda t: reverse("home")),
    "calculator-offline": Visit(None, lambda t: "/", then=_score_offline, offline=True, needs_pyodide=True),
    "session-offline-note": Visit(
        "owner", lambda t: reverse("session-page", args=[t.session.pk]), then=_lose_the_network, offline=True
    ),
    "session-offline-page": Visit("owner", lambda t: "/", then=_navigate_offline, offline=True),
    # issue 18: the entry's steps, the start page and the calculator's house rules with every option shown
    "session": Visit(
        "owner",
        lambda t: reverse("session-page", args=[t.session.pk]),
        states=(("kong", _a_kong), ("win", _a_win), ("draw", _a_draw_with_long_patterns)),
    ),
    "start": Visit(
        "owner", lambda t: reverse("session-start", args=[t.group.pk]), then=_open_every_disclosure
    ),
    "calculator": Visit(None, lambda t: "/", then=_open_every_disclosure),
    "history-jump": Visit("owner", _the_demo_hand),
}

# Every CSP violation of a page, whether or not the browser also logs it.
CSP_LISTENER = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  event => window.__csp.push(`${event.violatedDirective} ${event.blockedURI}`));"""

# What chromium reports on its own: a page answered with an error status it was asked for, and, with the
# network gone, the requests that could not leave (htmx logs its sendError as well).
EXPECTED_STATUS = "Failed to load resource: the server responded with a status of {status}"
OFFLINE_NOISE = re.compile(r"ERR_INTERNET_DISCONNECTED|^htmx:(sendError|afterRequest), ")


def _expected(message: str, visit: Visit) -> bool:
    if visit.status != 200 and message.startswith(EXPECTED_STATUS.format(status=visit.status)):
        return True
    return visit.offline and bool(OFFLINE_NOISE.search(message))


def _untranslated(page: Page, table: Table) -> list[str]:
    """Latin words on a Chinese page that are no account's name and no known exception."""
    text = page.evaluate("document.body.innerText")
    words = set(re.findall(r"[A-Za-z][A-Za-z']{2,}", text))
    names = {table.owner.username, table.friend.username}
    return sorted(words - LATIN_IN_CHINESE - names)


def _judge(page: Page, table: Table, language: str, axe_source: str) -> dict[str, Any]:
    """One list for every page in the state it is in (UX.md, and issue 18's additions)."""
    problems: dict[str, Any] = {}
    problems["scrolls sideways"] = page.evaluate(WIDER_JS, PHONE["width"])
    problems["controls under 44 px (issue 18 #1)"] = page.evaluate(TARGETS_JS, TARGET)
    problems["cut short (issue 18 #6)"] = page.evaluate(CUT_JS)
    problems["a select's chosen label cut (issue 18 #10)"] = page.evaluate(SELECT_CUT_JS)
    problems["a wrapped label not centred"] = page.evaluate(WRAPPED_JS)
    if "#" in page.url:
        problems["hidden under the sticky bar after the jump (issue 18 #8)"] = page.evaluate(UNDER_BAR_JS)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems[f"hard to read ({scheme})"] = page.evaluate(CONTRAST_JS, [CONTRAST, LARGE_CONTRAST])
        page.evaluate(axe_source)
        problems[f"axe ({scheme}; issue 18 #13)"] = page.evaluate(AXE_JS)
    page.emulate_media(color_scheme="light")
    if language == "zh":
        problems["English left on a Chinese page"] = _untranslated(page, table)
    return problems


@pytest.mark.parametrize("language", LOCALES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_of_issue_9_reads_on_a_phone(
    browser: Browser, live_server: Any, table: Table, name: str, language: str, request: Any, axe_source: str
) -> None:
    visit = PAGES[name]
    if visit.needs_pyodide:
        request.getfixturevalue("pyodide")
    context = browser.new_context(
        base_url=live_server.url, locale=LOCALES[language], device_scale_factor=2, viewport=PHONE
    )
    try:
        user = getattr(table, visit.user) if visit.user else None
        if user is not None:
            client = Client()
            client.force_login(user)
            context.add_cookies(
                [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
            )
        context.add_init_script(CSP_LISTENER)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        response = page.goto(visit.path(table))
        assert response is not None and response.status == visit.status
        page.wait_for_load_state("load")
        if visit.then is not None:
            visit.then(page, language)
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans" if language == "zh" else "en")

        found: dict[str, Any] = {}
        for state, action in (("", None), *visit.states):
            if action is not None:
                action(page, language)
                page.wait_for_load_state("networkidle")
            shown = f"{name}-{state}" if state else name
            problems = _judge(page, table, language, axe_source)
            photograph(page, f"every-{shown}-{language}")
            found |= {f"{shown}: {problem}": found for problem, found in problems.items() if found}
        found["CSP violations"] = page.evaluate("window.__csp")
        found["console errors"] = [message for message in errors if not _expected(message, visit)]
        found = {problem: found for problem, found in found.items() if found}
        assert not found, json.dumps(found, ensure_ascii=False, indent=1)
    finally:
        context.set_offline(False)
        context.close()


# --- issue 18: a common win in reach, and a closed session noticed ---------------------------------------

REACH = {"width": 360, "height": 740}
# The chips of a common win after 胡, in the order a table taps them (小李 wins; 阿美 discards); 小李's
# 暗杠 is the event before, so the 杠上花 is a real one.
COMMON_WINS = {
    "dianpao-pinghu": (
        "label:has(input[name='winner_1']) span",
        "label:has(input[name='win_how'][value='discard:2']) span",
    ),
    "zimo-one-gen": (
        "label:has(input[name='winner_1']) span",
        "label:has(input[name='win_how'][value='self_draw']) span",
        "label:has(input[name='gen_1'][value='1']) span",
    ),
    "gangshanghua": (
        "label:has(input[name='winner_1']) span",
        "label:has(input[name='win_how'][value='self_draw']) span",
        "label:has(input[name='after_kong']) span",
    ),
}
# Where a control is, against what the sticky bars leave of the screen: the top bar above, the action bar
# below.
IN_REACH_JS = """el => {
  const box = el.getBoundingClientRect();
  const bar = document.querySelector('.entrybar').getBoundingClientRect();
  const top = document.querySelector('.topbar').getBoundingClientRect();
  return box.top >= top.bottom - 0.5 && box.bottom <= Math.min(bar.top, innerHeight) + 0.5
    ? '' : `${el.textContent.trim()} at ${box.top.toFixed(0)}-${box.bottom.toFixed(0)}, the screen `
      + `${top.bottom.toFixed(0)}-${Math.min(bar.top, innerHeight).toFixed(0)}`;
}"""


@pytest.fixture
def small_table(transactional_db: Any) -> tuple[Any, Any, Session]:
    """A group of four with a scorekeeper member, and a session whose hand began with 小李's 暗杠."""
    owner = make_user("owner")
    group, session = make_table(owner)
    keeper = make_user("keeper")
    invitation = services.member_invite(actor=owner, group=group, username="keeper", role=Role.SCOREKEEPER)
    services.invitation_accept(actor=keeper, invitation=invitation)
    kong = {"type": "kong", "player": 1, "kind": "concealed"}
    services.hand_event_add(actor=owner, session=session, event=kong, revision=0)
    return owner, keeper, session


@pytest.mark.parametrize("language", LOCALES)
def test_issue_18_2_a_common_win_is_in_reach_without_scrolling_once_the_win_panel_opens(
    phones: Phones, small_table: tuple[Any, Any, Session], language: str
) -> None:
    """At 360 x 740, from the tap on 胡: every chip of a 点炮 平胡, a 自摸 with one 根 and a 杠上花 is on
    screen above the action bar when its turn comes, tapped where it is (no scroll)."""
    owner, _keeper, session = small_table
    page = phones.open(owner, reverse("session-page", args=[session.pk]), locale=LOCALES[language])
    page.set_viewport_size(REACH)
    out_of_reach: dict[str, list[str]] = {}
    for win, taps in COMMON_WINS.items():
        page.reload()
        page.locator("label:has(input[name='ev_type'][value='win']) span").click()
        opened = page.evaluate("scrollY")
        missed = []
        for tap in taps:
            chip = page.locator(tap).first
            where = chip.evaluate(IN_REACH_JS)
            if where:
                missed.append(where)
            box = chip.bounding_box()
            assert box is not None
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # no scroll into view
            page.wait_for_load_state("networkidle")
        expect(page.locator(".entrybar__preview").first).to_be_visible()
        expect(page.locator(".entrybar__record")).to_be_in_viewport(ratio=1)
        if page.evaluate("scrollY") != opened:
            missed.append("the page scrolled")
        if missed:
            out_of_reach[win] = missed
        page.screenshot(path=f"/tmp/sczmj-reach-{win}-{language}.png", caret="initial")
    assert not out_of_reach, json.dumps(out_of_reach, ensure_ascii=False, indent=1)


def test_issue_18_3_a_members_page_shows_the_close_within_3_seconds_without_its_controls(
    phones: Phones, small_table: tuple[Any, Any, Session]
) -> None:
    owner, keeper, session = small_table
    page = phones.open(keeper, reverse("session-page", args=[session.pk]))
    expect(page.locator("#entry-form")).to_be_visible()
    services.session_close(actor=owner, session=session)
    expect(page.locator("#entry-form")).to_have_count(0, timeout=3000)
    expect(page.locator(".segmented--big")).to_have_count(0)
    expect(page.locator("#entry-history")).not_to_contain_text("暗杠")
    photograph(page, "every-session-closed-zh")


# --- issue 18: the English event tabs at 360 px ----------------------------------------------------------

# A tab of a segmented row whose words do not sit inside it with room to spare: the text's own width (a
# Range measures it whole) against the tab's box less its padding, and the tab against its neighbour.
CROWDED_JS = """room => [...document.querySelectorAll('.segmented')]
  .filter(row => row.getClientRects().length)
  .flatMap(row => [...row.querySelectorAll(':scope > label > span')].map((tab, i, tabs) => {
    const style = getComputedStyle(tab), text = document.createRange();
    text.selectNodeContents(tab);
    const words = text.getBoundingClientRect(), box = tab.getBoundingClientRect();
    const inside = box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const lines = new Set([...text.getClientRects()].map(line => Math.round(line.top))).size;
    const next = tabs[i + 1] && tabs[i + 1].getBoundingClientRect();
    const crowded = words.width + 2 * room > box.width || words.width > inside + 0.5 || lines > 1
      || (next && next.left < box.right);
    return crowded ? `"${tab.textContent.trim()}" ${words.width.toFixed(1)} px of text, ${lines} line(s), `
      + `in a ${box.width.toFixed(1)} px tab` : '';
  }))
  .filter(Boolean)"""
# Room each side of a tab's words, at least, so two tabs' words never run together.
TAB_ROOM = 4


@pytest.mark.parametrize("language", LOCALES)
def test_issue_18_4_the_event_tabs_do_not_crowd_at_360_px(
    phones: Phones, small_table: tuple[Any, Any, Session], language: str
) -> None:
    """杠 / 胡 / 流局 / 逃跑 / 罚分 and Kong / Win / Draw / Escape / Penalty: each tab's words on one
    line, inside the tab with room either side, at 360 px."""
    owner, _keeper, session = small_table
    page = phones.open(owner, reverse("session-page", args=[session.pk]), locale=LOCALES[language])
    page.set_viewport_size(PHONE)
    expect(page.locator(".segmented--big")).to_be_visible()
    crowded = page.evaluate(CROWDED_JS, TAB_ROOM)
    photograph(page, f"every-event-tabs-{language}")
    assert crowded == [], crowded
