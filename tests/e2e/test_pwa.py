"""The installable app in Debian's chromium: the worker installs, and with the network gone the calculator
page still opens while a page that needs the server says plainly that the phone is offline."""

import json

import pytest
from playwright.sync_api import Page, expect

from .test_pages import browser_context_args, photograph  # noqa: F401 (the Chinese phone fixture)

pytestmark = pytest.mark.e2e


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
    assert manifest["start_url"] == "/"
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
