"""What the browser tests share beyond tests/conftest.py's ``phone_page``: several phones at one table, and
the offline engine's runtime."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page

from pwa.offline import runtime

# where tools/fetch_axe.py leaves its pinned version (and only that one)
AXE_ROOT = Path(__file__).resolve().parents[2] / "vendor" / "axe-core"


class Phones:
    """Browser contexts opened by a test, each a phone checked for console errors when the test ends."""

    def __init__(self, browser: Browser, base_url: str):
        self.browser, self.base_url = browser, base_url
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, user: Any, path: str, *, locale: str = "zh-CN") -> Page:
        """A new phone (a browser context of its own: its cookies, its htmx), logged in as ``user`` unless
        None, on ``path``."""
        context = self.browser.new_context(
            base_url=self.base_url,
            locale=locale,
            device_scale_factor=2,
            viewport={"width": 360, "height": 780},
        )
        self.contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies["sessionid"].value
            context.add_cookies([{"name": "sessionid", "value": cookie, "url": self.base_url}])
        page = context.new_page()
        page.on(
            "console", lambda message: self.errors.append(message.text) if message.type == "error" else None
        )
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.goto(path)
        page.evaluate("window.__sameDocument = true")  # gone if the page ever reloads
        return page


@pytest.fixture
def phones(browser: Browser, live_server: Any) -> Iterator[Phones]:
    opened = Phones(browser, live_server.url)
    yield opened
    for context in opened.contexts:
        context.close()
    assert opened.errors == [], f"the browser reported errors: {opened.errors}"


@pytest.fixture
def pyodide() -> None:
    """Offline scoring needs the runtime make setup fetches; CI (SCZMJ_REQUIRE_BROWSER) fails without it."""
    if runtime() is None:
        message = "Pyodide is not in vendor/pyodide: run make setup with a network (tools/fetch_pyodide.py)"
        if os.environ.get("SCZMJ_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core as tools/fetch_axe.py left it (make setup), for a test to inject: never from a CDN."""
    found = sorted(AXE_ROOT.glob("*/axe.min.js"))
    if not found:
        message = f"axe-core is not in {AXE_ROOT}: run make setup with a network (tools/fetch_axe.py)"
        if os.environ.get("SCZMJ_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return found[-1].read_text()


def _set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate(
        f"Object.defineProperty(document, 'hidden', {{value: {str(hidden).lower()}, configurable: true}});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )


def assert_polls_only_while_visible(page: Page) -> None:
    """static/js/live.js, on any live page: it polls while visible, sends nothing while hidden, and asks
    at once when shown again."""
    polls: list[str] = []
    page.on("request", lambda request: polls.append(request.url) if "/live/" in request.url else None)
    page.wait_for_timeout(2500)
    assert polls, "a visible page polls"
    _set_hidden(page, True)
    polls.clear()
    page.wait_for_timeout(4500)
    assert polls == []
    _set_hidden(page, False)
    page.wait_for_timeout(500)
    assert polls, "coming back asks at once"
