"""Fuzzing the pages' forms through HTTP: the fields each page's own form offers (read from the page, so
the test follows the form as it changes), filled with the page's own values, other fields' values or
junk, and posted: every answer is the page (200, perhaps after a redirect) or the page with a message
(400), never a 500."""

import json
from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.fuzz.junk import json_values, tile_text

THROUGH_HTTP = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
PAGES = ("calculator-page", "round-page")


class FormFields(HTMLParser):
    """The named fields of the page's POST form, each with the values the page itself offers."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, list[str]] = {}
        self.buttons: list[tuple[str, str]] = []  # a browser sends the one that was pressed
        self._in_form = False
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "form" and attr.get("method", "").lower() == "post":
            self._in_form = True
        if not self._in_form:
            return
        if tag == "button" and attr.get("name"):
            self.buttons.append((attr["name"], attr.get("value", "")))
        elif tag in ("input", "textarea") and attr.get("name"):
            self.fields.setdefault(attr["name"], []).append(attr.get("value", ""))
        elif tag == "select" and attr.get("name"):
            self._select = attr["name"]
            self.fields.setdefault(self._select, [])
        elif tag == "option" and self._select:
            self.fields[self._select].append(attr.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._in_form = False


def form_fields(page: str) -> FormFields:
    parser = FormFields()
    parser.feed(Client().get(reverse(page)).content.decode())
    assert parser.fields, f"{page} shows no POST form with named fields"
    return parser


@st.composite
def submissions(draw: Any, form: FormFields) -> dict[str, str]:
    """Some of the form's fields, each with one of its own values, another field's value, or junk, and
    the button pressed (or none: Enter in a text box)."""
    fields = form.fields
    every_value = sorted({value for values in fields.values() for value in values})
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=len(fields)))
    values = {}
    for name in chosen:
        own = fields[name] or [""]
        value = draw(
            st.one_of(
                st.sampled_from(own),
                st.sampled_from(every_value or [""]),
                tile_text,
                json_values.map(json.dumps),  # the page keeps its round in hidden JSON fields
            )
        )
        values[name] = value
    pressed = draw(st.one_of(st.none(), st.sampled_from(form.buttons))) if form.buttons else None
    if pressed is not None:
        values[pressed[0]] = pressed[1]
    return values


def refused(form: FormFields) -> dict[str, str]:
    """Every field junk and the form's last button pressed: a post the page refuses (400). Run as an
    explicit example before the drawn ones, so that every run reaches the validation whatever those
    draw (one CI run on PostgreSQL, 2026-12-04, drew 60 that the calculator page all answered 200)."""
    name, value = form.buttons[-1]
    return {field: "x" for field in form.fields} | {name: value}


def post_form(url: str, data: Mapping[str, str]) -> Any:
    """POST the fields urlencoded by hand, as a hostile client may: a lone surrogate goes as the invalid
    UTF-8 bytes it would be (the test client's own encoder refuses to send them), a NUL as %00. A
    redirect (post/redirect/get) is followed, as a browser would, to the page it leads to."""
    client = Client()
    body = urlencode(data, encoding="utf-8", errors="surrogatepass")
    response = client.post(url, body, content_type="application/x-www-form-urlencoded")
    if response.status_code in (302, 303):
        response = client.get(response["Location"])
    return response


@pytest.mark.django_db
@pytest.mark.parametrize("page_name", PAGES)
def test_any_post_of_a_pages_form_gets_the_page_or_a_message(page_name: str):
    fields = form_fields(page_name)
    answers: list[int] = []

    @THROUGH_HTTP
    @given(data=submissions(fields))
    @example(data=refused(fields))
    def post(data: dict[str, str]) -> None:
        response = post_form(reverse(page_name), data)
        answers.append(response.status_code)
        assert response.status_code in (200, 400), (response.status_code, data)
        if response.status_code == 400:
            body = response.content.decode()
            assert 'role="alert"' in body, data  # the message the player sees, in the page's language

    post()
    assert len(answers) >= THROUGH_HTTP.max_examples // 2
    assert 400 in answers, "no post reached the page's refusal: the fuzz no longer reaches the validation"
