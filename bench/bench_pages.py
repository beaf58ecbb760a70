"""The pages' weight: each page's HTML with the CSS and JS it loads, compressed, at most 150 KB (issue 8).

Runs in a child process against a throwaway SQLite file (never the dev database): an account with a group
of four players and one session with a few hands, then every page on main fetched through Django's test
client, logged in where the page needs it. A page's weight is its HTML plus every stylesheet and script it
links (``<link rel="stylesheet">``, ``<script src>``), each gzipped at level 9 as WhiteNoise serves them;
images (the tile faces, the icons) are left aside, as the target says. A page that does not answer 200 is a
miss, not a small figure.

    .venv/bin/python -m bench pages
"""

from __future__ import annotations

import gzip
import json
import secrets
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from .child import measure_in_child, seed_table

MAX_COMPRESSED_KB = 150
HANDS = 5

Row = tuple[str, str, str, str]


def run() -> tuple[str, list[Row]]:
    pages = measure_in_child("bench_pages", debug=True)  # static files found where they are
    return "Pages: HTML + CSS + JS, gzipped (images aside)", rows(pages)


def rows(pages: list[dict[str, Any]]) -> list[Row]:
    found = []
    for page in pages:
        kb = page["compressed"] / 1024
        ok = page["status"] == 200 and kb <= MAX_COMPRESSED_KB
        found.append(
            (
                f"{page['url']} ({page['files']} files, {page['raw'] / 1024:.0f} KB raw)",
                f"{kb:.1f} KB" if page["status"] == 200 else f"answered {page['status']}",
                f"<= {MAX_COMPRESSED_KB} KB",
                "ok" if ok else "MISSED",
            )
        )
    return found


class _Assets(HTMLParser):
    """The stylesheets and scripts a page loads."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script" and found.get("src"):
            self.urls.append(str(found["src"]))
        if tag == "link" and "stylesheet" in (found.get("rel") or "").split() and found.get("href"):
            self.urls.append(str(found["href"]))


def _compressed(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9))


def weigh(html: bytes) -> tuple[int, int, int]:
    """(files, raw bytes, gzipped bytes) of a page's HTML and the CSS and JS it links."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    parser = _Assets()
    parser.feed(html.decode())
    bodies = [html]
    for url in dict.fromkeys(parser.urls):  # each file once
        if not url.startswith(settings.STATIC_URL):
            raise RuntimeError(f"a page loads {url}, which is not one of our static files")
        path = finders.find(url.removeprefix(settings.STATIC_URL).split("?")[0])
        if path is None:
            raise RuntimeError(f"a page loads {url}, which the static files do not hold")
        bodies.append(Path(str(path)).read_bytes())
    return len(bodies), sum(map(len, bodies)), sum(map(_compressed, bodies))


def measure() -> list[dict[str, Any]]:
    """The child process: a group with a session, then every page fetched and weighed."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from ledger import demo, services

    call_command("migrate", verbosity=0)
    owner = services.account_create(username="bench-pages", password=secrets.token_urlsafe(16))
    session = seed_table(owner, name=demo.GROUP, coins=demo.COINS)
    group = session.group
    for index in range(HANDS):
        services.round_record(actor=owner, session=session, body=demo.ROUNDS[index])
    anonymous, member = Client(), Client()
    member.force_login(owner)
    pages = [
        (anonymous, "/"),
        (anonymous, "/round/"),
        (anonymous, "/signup/"),
        (anonymous, "/login/"),
        (anonymous, "/offline/"),
        (member, "/home/"),
        (member, f"/groups/{group.pk}/"),
        (member, f"/groups/{group.pk}/stats/"),
        (member, f"/groups/{group.pk}/start/"),
        (member, "/password/"),
        (member, f"/sessions/{session.pk}/"),
        (member, f"/sessions/{session.pk}/history/"),
        (member, f"/sessions/{session.pk}/settle/"),
        (member, f"/sessions/{session.pk}/invite/"),
    ]
    weighed = []
    for client, url in pages:
        response = client.get(url)
        files, raw, compressed = weigh(response.content) if response.status_code == 200 else (0, 0, 0)
        weighed.append(
            {"url": url, "status": response.status_code, "files": files, "raw": raw, "compressed": compressed}
        )
    return weighed


if __name__ == "__main__":
    print(json.dumps(measure()))
