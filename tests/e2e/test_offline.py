"""Online and offline agree: the same hands, bad ones included, worked out by the server (CPython) and by the
offline engine in chromium (the same code in Pyodide), give the same fan, patterns, points and messages,
and the card drawn offline reads as the card the server draws."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from calculator.outcome import work_out_json

from .test_pages import browser_context_args  # noqa: F401 (the Chinese phone fixture)
from .test_pwa import OFFLINE_READY_MS, offline_ready

pytestmark = pytest.mark.e2e

FULL_FLUSH = {"concealed": "2344445678s", "win_tile": "8s", "melds": "碰9s"}  # 清一色 3 + 1根: 4 fan ×8
HANDS = [
    {"concealed": "11222333456999s"},
    {"concealed": "1111234567899s", "win_tile": "9s", "win_by": "discard"},
    {"concealed": "111m333m9m", "win_tile": "9m", "melds": "明杠5p 碰7p", "win_by": "discard"},
    {"concealed": "23445677筒345789条", "win_by": "self_draw"},
    {"concealed": "123s678s234m2m", "melds": "暗杠5s", "win_tile": "2m", "after_kong": "on"},
    {"concealed": "11112233445566s", "win_by": "discard", "last_tile": "on"},
    {"concealed": "11112233445566s", "preset": "casual"},
    {"concealed": "11223344556677p", "preset": "qq", "win_by": "robbing_kong"},
    {"concealed": "19m19p19s1m", "tian_hu": "on"},
    {**FULL_FLUSH, "win_by": "self_draw", "rule_base_points": "2"},
    {**FULL_FLUSH, "win_by": "self_draw", "rule_zimo_bonus": "none"},
    {**FULL_FLUSH, "rule_cap_multiplier": "4"},
    {"concealed": "12345678912345m"},
    {"concealed": "123m456m789p11s22s", "void_suit": "s"},
    {"concealed": "123m"},
    {"concealed": "123m456p789s11sx", "win_tile": "1s"},
    {"concealed": "123m456m789m11s222s", "win_tile": "2s"},
    {"concealed": "1111m22223333m4m", "win_tile": "1m"},
    {"concealed": "11s333s222s456s99s", "win_tile": "9s", "preset": "vegas"},
    {"concealed": "11s333s222s456s", "melds": "吃5p"},
    {"concealed": "11s333s222s456s", "melds": "碰5x"},
    {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rule_cap_multiplier": "3"},
    {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rule_base_points": "²"},
    {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rule_base_points": "9" * 5000},
    {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rule_pattern_fan": "[" * 100_000 + "]" * 100_000},
    {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rule_pattern_fan": '{"qing_yi_se": 5}'},
    {"concealed": "11s333s222s456s99s", "win_tile": "zz"},
    {"mode": "waits", "concealed": "1112345678999m"},
    {"mode": "waits", "concealed": "11123456789999m"},
    {"mode": "waits", "concealed": "3p2222334445699s", "void_suit": "p"},
    {"mode": "waits", "concealed": "147m258p369s1357m"},
    {"mode": "waits", "concealed": "123m456p789s1234m"},
    {"mode": "waits", "concealed": "1112345678999m", "preset": "casual"},
]
# One hand of each card the result can be: a win (gen, melds, self-draw bonus, cap), not a win, each kind of
# error, tiles missing, and the waits (listed, discards, a flower pig, not ready).
CARDS = [0, 1, 2, 6, 9, 11, 12, 13, 14, 15, 19, 27, 28, 29, 30]

START_WORKER = """async (engine) => {
  const worker = new Worker(engine.worker, { type: "module" });
  const next = () => new Promise(resolve => {
    worker.addEventListener("message", event => resolve(event.data), { once: true });
  });
  worker.postMessage({ boot: { indexURL: engine.indexURL, bundle: engine.bundle } });
  const booted = await next();
  if (!booted.booted) throw new Error(booted.failed);
  window.offlineEngine = async (form, language) => {
    worker.postMessage({ id: 1, form: form, language: language });
    const answer = await next();
    return answer.outcome ?? ("failed: " + answer.failed);
  };
}"""


def test_the_offline_engine_works_out_every_hand_as_the_server_does(phone_page: Page, live_server, pyodide):
    page = phone_page
    page.goto(f"{live_server.url}/")
    engine = json.loads(page.locator("#offline-scoring").get_attribute("data-engine"))
    page.evaluate(START_WORKER, engine)
    for language in ("zh-hans", "en"):
        for hand in HANDS:
            offline = page.evaluate(
                "([form, language]) => window.offlineEngine(form, language)", [hand, language]
            )
            assert json.loads(offline) == json.loads(work_out_json(json.dumps(hand), language)), (
                language,
                hand,
            )


def card_text(page: Page) -> str:
    """The result card's visible text, without the offline mark, spaces squeezed."""
    text = page.locator("#result").evaluate(
        "result => { const copy = result.cloneNode(true); copy.querySelector('.result__offline')?.remove();"
        " document.body.append(copy); const text = copy.innerText; copy.remove(); return text; }"
    )
    return re.sub(r"\s+", " ", text).strip()


SET_FORM = """(hand) => {
  const form = document.getElementById("hand-form");
  form.reset();
  for (const [name, value] of Object.entries(hand)) {
    const field = form.elements[name];
    if (field instanceof RadioNodeList) field.value = value;
    else if (field.type === "checkbox") field.checked = true;
    else field.value = value;
  }
  document.getElementById("result").dataset.old = "";
  htmx.trigger(form, "hand-changed");
}"""


def test_the_card_drawn_offline_reads_as_the_servers(phone_page: Page, live_server, pyodide):
    page = phone_page
    offline_ready(page, f"{live_server.url}/")
    for index in CARDS:
        hand = HANDS[index]
        page.evaluate(SET_FORM, hand)
        expect(page.locator("#result:not([data-old])")).to_be_attached()
        online = card_text(page)

        page.context.set_offline(True)
        page.evaluate(SET_FORM, hand)
        expect(page.locator("#result:not([data-old]) .result__offline")).to_be_attached(
            timeout=OFFLINE_READY_MS
        )
        assert card_text(page) == online, hand
        page.context.set_offline(False)
