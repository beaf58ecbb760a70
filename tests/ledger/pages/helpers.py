"""What the page tests share: the text a person reads on a page, and a logged-in client."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from django.test import Client

ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


class _Text(HTMLParser):
    """Visible text: every text node outside <script>, <style> and <head>, plus the options of selects and
    the placeholders of boxes (a person reads those too)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head"):
            self._hidden += 1
        placeholder = dict(attrs).get("placeholder")
        if placeholder:
            self.parts.append(placeholder)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.parts.append(data.strip())


def visible_text(response: Any) -> str:
    parser = _Text()
    parser.feed(response.content.decode())
    return " ".join(parser.parts)


def errors_of(response: Any) -> list[str]:
    """The messages shown beside fields and above forms."""
    parser = _Errors()
    parser.feed(response.content.decode())
    return parser.errors


class _Errors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.errors: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if dict(attrs).get("role") == "alert" or self._depth:
            self._depth += 1
            if self._depth == 1:
                self.errors.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth and data.strip():
            self.errors[-1] = f"{self.errors[-1]} {data.strip()}".strip()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client
