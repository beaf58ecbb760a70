"""The installable app in Debian's chromium: the worker installs, and with the network gone the calculator
still scores a hand (Pyodide running the server's engine in the browser) while a page that needs the server
says plainly that the phone is offline."""

import json
import time

import pytest
from playwright.sync_api import Page, expect

from calculator.outcome import work_out

from .test_pages import browser_context_args, photograph, tap_tiles  # noqa: F401 (the Chinese phone fixture)

pytestmark = pytest.mark.e2e

# Storing 13 MB and starting Pyodide on a loaded 2-core machine: generous, as a failure is then real.
OFFLINE_READY_MS = 120_000


CACHED_PATHS = """caches.keys()
  .then(names => Promise.all(names.map(name => caches.open(name).then(cache => cache.keys()))))
  .then(lists => lists.flat().map(request => new URL(request.url).pathname))"""


def install_worker(page: Page, url: str) -> None:
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_the_manifest_is_linked_and_installable(phone_page: Page, live_server):
    page = phone_page
    page.goto(f"{live_server.url}/")
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["start_url"] == "/app/"
    for icon in manifest["icons"]:
        assert page.request.get(f"{live_server.url}{icon['src']}").status == 200
    assert page.request.get(f"{live_server.url}/favicon.ico").status == 200
    assert page.request.head(f"{live_server.url}/").status == 200


def test_offline_the_calculator_opens_and_a_session_page_says_it_is_offline(phone_page: Page, live_server):
    page = phone_page
    install_worker(page, f"{live_server.url}/")
    cached = page.evaluate(CACHED_PATHS)
    assert "/" in cached and "/static/css/site.css" in cached, json.dumps(cached)

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/")
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#offline-note")).to_be_visible()
    expect(page.locator(".pick[data-tile='1s']")).to_be_visible()  # the tile faces come from the cache
    assert page.evaluate("document.querySelector(\".pick[data-tile='1s'] img\").naturalWidth") > 0

    page.goto(f"{live_server.url}/round/")
    expect(page.locator(".offline-page h1")).to_have_text("没有网络")
    photograph(page, "offline")
    page.context.set_offline(False)


def offline_ready(page: Page, url: str) -> None:
    """Open the calculator online and wait until it says that it scores offline (the runtime is stored)."""
    install_worker(page, url)
    expect(page.locator("#offline-scoring")).to_have_text("离线计分已就绪", timeout=OFFLINE_READY_MS)


def test_offline_the_installed_calculator_still_scores_a_hand(phone_page: Page, live_server, pyodide):
    page = phone_page
    offline_ready(page, f"{live_server.url}/")

    page.context.set_offline(True)
    page.reload()
    started = time.monotonic()
    tap_tiles(page, "1s 1s 2s 2s 2s 3s 3s 3s 4s 5s 6s 9s 9s 9s")
    result = page.locator("#result")
    expect(result.locator(".result__offline")).to_have_text("离线计算", timeout=OFFLINE_READY_MS)
    expect(result).to_contain_text("清一色")
    expect(result.locator(".verdict__fan")).to_contain_text("3 番")
    expect(result.locator(".verdict__points .big")).to_have_text("4")
    print(f"offline: the first hand scored {time.monotonic() - started:.1f} s after the page opened")
    photograph(page, "calculator-offline")

    # A typo gets the message the server gives for it.
    page.locator("input[name=concealed]").fill("1112223334445x")
    expect(result.locator(".alert strong")).to_have_text("这手牌无法计算")
    expect(result.locator(".alert p")).to_have_text(
        work_out({"concealed": "1112223334445x"}, "zh-hans")[1].error
    )

    page.context.set_offline(False)
    page.locator(".langswitch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.context.set_offline(True)
    page.reload()
    tap_tiles(page, "1s 1s 2s 2s 2s 3s 3s 3s 4s 5s 6s 9s 9s 9s")
    expect(result.locator(".result__offline")).to_have_text("Scored offline", timeout=OFFLINE_READY_MS)
    expect(result).to_contain_text("Full flush")
    expect(result.locator(".verdict__fan")).to_contain_text("3 fan")
    photograph(page, "calculator-offline-en")
    page.context.set_offline(False)


# Chromium reports the data saver only when the phone's settings have it on: the test says so itself.
DATA_SAVER = "Object.defineProperty(navigator, 'connection', {value: {saveData: true}, configurable: true})"


def test_under_the_data_saver_offline_scoring_waits_for_its_button(phone_page: Page, live_server, pyodide):
    page = phone_page
    runtime_asked: list[str] = []
    page.context.on(
        "request",
        lambda request: runtime_asked.append(request.url) if "/static/pyodide/" in request.url else None,
    )
    page.context.add_init_script(DATA_SAVER)
    install_worker(page, f"{live_server.url}/")
    expect(page.locator("#offline-scoring")).to_contain_text("已开启省流量")
    download = page.get_by_role("button", name="下载离线计分")
    expect(download).to_be_visible()
    page.wait_for_timeout(1000)  # time enough for a download that should not start
    assert runtime_asked == []
    assert not [path for path in page.evaluate(CACHED_PATHS) if "/static/pyodide/" in path]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(page, "calculator-data-saver")

    page.locator(".langswitch button").click()
    expect(page.get_by_role("button", name="Download offline scoring")).to_be_visible()
    expect(page.locator("#offline-scoring")).to_contain_text("Data saver is on")
    assert runtime_asked == []
    photograph(page, "calculator-data-saver-en")

    page.get_by_role("button", name="Download offline scoring").click()
    expect(page.locator("#offline-scoring")).to_have_text("Offline scoring ready", timeout=OFFLINE_READY_MS)
    expect(page.get_by_role("button", name="Download offline scoring")).to_be_hidden()
    assert runtime_asked, "the button fetches the runtime"
    assert [path for path in page.evaluate(CACHED_PATHS) if path.endswith("pyodide.asm.wasm")]
