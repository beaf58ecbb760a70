"""A session's name (issue 18, point 11): one the table typed stays as typed; one left blank is the
session's day in each reader's language, told apart from the group's other sessions that day, and the
summary says the date once. Names an older version baked in its creator's language are named by their
day again (migration 0017, and an imported file)."""

from importlib import import_module

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from ledger import services
from ledger.models import Session
from tests.ledger.conftest import NAMES, client_for
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text

name_by_day = import_module("ledger.migrations.0017_session_named_by_day").name_by_day


def day_in(language: str) -> str:
    with translation.override(language):
        return date_format(timezone.localdate(), "MONTH_DAY_FORMAT")


@pytest.fixture
def group(owner):
    return services.group_create(actor=owner, name="周五麻将")


def start_page(client, group, headers=None, name=""):
    fields = {"name": name, "dealer": "0", "preset": "chengdu"}
    fields |= {f"seat_{seat}": player for seat, player in enumerate(NAMES)}
    response = client.post(reverse("session-start", args=[group.pk]), fields, **(headers or {}))
    assert response.status_code == 302, response.content.decode()
    return Session.objects.filter(group=group).first()


def test_issue_18_11_a_session_left_unnamed_is_named_in_each_readers_language(owner, group):
    client = logged_in(owner)
    session = start_page(client, group, ENGLISH)  # an English creator
    assert session.name == ""
    page = reverse("session-page", args=[session.pk])
    chinese, english = visible_text(client.get(page)), visible_text(client.get(page, **ENGLISH))
    assert day_in("zh-hans") in chinese and day_in("en") not in chinese
    assert day_in("en") in english


def test_issue_18_11_a_typed_name_stays_as_typed(owner, group):
    client = logged_in(owner)
    session = start_page(client, group, name="周五")
    page = reverse("session-page", args=[session.pk])
    assert session.title == "周五"
    assert "周五" in visible_text(client.get(page, **ENGLISH))


def test_issue_18_11_two_sessions_on_one_day_are_told_apart(owner, group):
    client = logged_in(owner)
    first, second = start_page(client, group), start_page(client, group)
    with translation.override("zh-hans"):
        assert (first.title, second.title) == (day_in("zh-hans"), f"{day_in('zh-hans')} · 第2场")
    with translation.override("en"):
        assert second.title == f"{day_in('en')} · session 2"
    listed = visible_text(client.get(reverse("group-page", args=[group.pk])))
    assert f"{day_in('zh-hans')} · 第2场" in listed


def test_issue_18_11_the_summary_says_the_date_once(owner, group):
    client = logged_in(owner)
    session = start_page(client, group)
    settle = client.get(reverse("session-settle", args=[session.pk]))
    assert settle.context["summary"].splitlines()[0] == f"周五麻将 · {day_in('zh-hans')}"
    assert str(timezone.localdate().year) not in visible_text(settle)
    typed = start_page(client, group, name="周五")
    heading = client.get(reverse("session-settle", args=[typed.pk])).context["summary"].splitlines()[0]
    assert heading.startswith("周五麻将 · 周五 · ") and str(timezone.localdate().year) in heading


def test_issue_18_11_the_api_names_the_session_in_english_and_chinese(owner, group):
    api = client_for(owner)
    players = [services.player_add(actor=owner, group=group, name=name).pk for name in NAMES]
    created = api.post(
        reverse("ledger:session-list", args=[group.pk]), {"players": players}, format="json", **ENGLISH
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["name"], body["given_name"], body["day_number"]) == (day_in("en"), "", 1)
    assert body["day"] == timezone.localdate().isoformat()
    assert body["name_zh"] == day_in("zh-hans")
    typed = api.post(
        reverse("ledger:session-list", args=[group.pk]), {"name": " 周五 ", "players": players}, format="json"
    )
    assert [typed.json()[field] for field in ("name", "name_zh", "given_name", "day_number")] == [
        "周五",
        "周五",
        "周五",
        2,
    ]


@pytest.mark.parametrize(
    ("stored", "kept"),
    [
        pytest.param("day:en", "", id="baked-in-english"),
        pytest.param("day:zh-hans", "", id="baked-in-chinese"),
        pytest.param("iso", "", id="the-evenings-iso-day"),
        pytest.param("周五", "周五", id="a-typed-name"),
    ],
)
def test_issue_18_11_a_stored_day_name_is_named_by_its_day_again(owner, group, stored, kept):
    today = timezone.localdate()
    baked = {"day:en": day_in("en"), "day:zh-hans": day_in("zh-hans"), "iso": today.isoformat()}
    players = [services.player_add(actor=owner, group=group, name=name).pk for name in NAMES]
    sessions = [services.session_start(actor=owner, group=group, player_ids=players) for _ in range(2)]
    Session.objects.filter(pk__in=[s.pk for s in sessions]).update(
        name=baked.get(stored, stored), day="2000-01-01", day_number=9
    )
    name_by_day(apps, None)
    first, second = (Session.objects.get(pk=s.pk) for s in sessions)
    assert (first.name, first.day, first.day_number) == (kept, today, 1)
    assert (second.day, second.day_number) == (today, 2)
