"""要是…: a session, or a month of the group's sessions, settled again under another preset or changed
options, read-only (``web.whatif`` replays; nothing is stored, nothing is written).

- ``/sessions/<id>/what-if/`` from 结算, ``/groups/<id>/what-if/?month=2026-12`` from the group page;
- the choices are a GET form (``preset``, ``zimo_bonus``, ``cap``), each "as played" by default, so a
  link says which rules it asks about and Back works;
- the answer: each player's net as played and under the other rules, the difference, the hands that moved
  most with each explained under the other rules (the history's own partial), and any hand the other
  rules refuse, with the engine's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from calculator.engine import OPTIONS, EngineError, Preset, Rules
from web.entry.explain import event_views
from web.htmx import SignedInRequest
from web.language import page_language
from web.rules_form import PRESET_LABELS
from web.whatif import PlayedHand, WhatIf, what_if

from .. import selectors
from ..models import Group, Session
from ..periods import next_month, within_days
from .words import option_label, value_words

OPTION = {option.key: option for option in OPTIONS}
CAPS = (None, 4, 8, 16, 32, 64)  # 封顶: none, then the multipliers tables choose (4番封顶 is ×16)


def _choices(language: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each choice of the form with its players' words; "" is "as played"."""
    as_played = ("", _("As played"))
    zimo = OPTION["zimo_bonus"]
    return {
        "preset": (as_played, *((preset.value, str(PRESET_LABELS[preset])) for preset in Preset)),
        "zimo_bonus": (
            as_played,
            *(
                (str(value.value), value.label_zh if language.startswith("zh") else value.label)
                for value in zimo.value_labels
            ),
        ),
        "cap": (
            as_played,
            *(
                ("none" if cap is None else str(cap), value_words(OPTION["cap_multiplier"], cap, language))
                for cap in CAPS
            ),
        ),
    }


def asked(data: Mapping[str, Any], language: str) -> dict[str, str]:
    """The choices asked, each one of the form's or "" (anything else is read as "as played")."""
    choices = _choices(language)
    return {
        name: value if value in dict(options) else ""
        for name, options in choices.items()
        for value in [str(data.get(name, ""))]
    }


def overrides(choice: Mapping[str, str]) -> dict[str, Any]:
    changed: dict[str, Any] = {}
    if choice["zimo_bonus"]:
        changed["zimo_bonus"] = choice["zimo_bonus"]
    if choice["cap"]:
        changed["cap_multiplier"] = None if choice["cap"] == "none" else int(choice["cap"])
    return changed


def other_rules(played: Mapping[str, Any], choice: Mapping[str, str]) -> Rules:
    """The rules asked about: the preset chosen (or the session's own rules), with the options changed."""
    base = {"preset": choice["preset"]} if choice["preset"] else dict(played)
    return Rules.from_dict({**base, **overrides(choice)})


def played_hands(sessions: Any) -> list[PlayedHand]:
    """Every counted hand of ``sessions`` as recorded (two queries whatever their number)."""
    seats = selectors.seated(sessions)
    hands = []
    for version in selectors.counted_versions(sessions):
        session = version.round.session
        seated = seats[session.pk]
        hands.append(
            PlayedHand(
                key=(session.pk, version.round.position),
                label=f"{session.name} · " + _("hand %(n)s") % {"n": version.round.position},
                players=tuple(seat.player_id for seat in seated),
                names=tuple(seat.player.name for seat in seated),
                dealer=version.dealer,
                void_suits=version.void_suits,
                events=tuple(version.events),
                notes=tuple(note or "" for note in version.notes),
                net=tuple(int(net) for net in (version.result or {}).get("net", [0] * len(seated))),
                played_rules=session.rules,
            )
        )
    return hands


def _explained(answer: WhatIf, choice: Mapping[str, str], language: str) -> list[dict[str, Any]]:
    """The hands that moved most, each with its nets under both rules and its events under the other."""
    shown = []
    for replayed in answer.biggest:
        hand = replayed.hand
        rules = other_rules(hand.played_rules, choice)
        shown.append(
            {
                "label": hand.label,
                "rows": [
                    (name, before, after, after - before)
                    for name, before, after in zip(hand.names, hand.net, replayed.net, strict=True)
                ],
                "events": event_views(replayed.result or {}, hand.notes, hand.names, rules, language),
            }
        )
    return shown


def _answer(
    request: HttpRequest, *, title: str, subtitle: str, sessions: Any, back: str, extra: Mapping[str, Any]
) -> HttpResponse:
    language = page_language()
    choice = asked(request.GET, language)
    context: dict[str, Any] = {
        "title": title,
        "subtitle": subtitle,
        "back": back,
        "choice": choice,
        "choices": _choices(language),
        "asked_anything": any(choice.values()),
        "labels": option_words(language),
        **extra,
    }
    if context["asked_anything"]:
        hands = played_hands(sessions)
        try:
            answer = what_if(hands, lambda hand: other_rules(hand.played_rules, choice))
        except EngineError as error:  # rules the engine refuses (none of the form's choices should)
            context["refusal"] = error.localized(language)
        else:
            context.update(
                hands=len(hands),
                players=answer.players,
                explained=_explained(answer, choice, language),
                refused=[(replayed.hand.label, replayed.refusal) for replayed in answer.refused],
            )
    return render(request, "ledger/whatif/whatif.html", context)


@login_required
@require_safe
def session_what_if(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    return _answer(
        request,
        title=session.name,
        subtitle=session.group.name,
        sessions=Session.objects.filter(pk=session.pk),
        back=reverse("session-settle", args=[session.pk]),
        extra={"action": reverse("session-what-if", args=[session.pk])},
    )


def month_of(raw: str, today: date) -> date:
    """The first day of the month asked (``2026-12``), or of this one when it cannot be read or lies
    outside the days a period may name."""
    try:
        first = datetime.strptime(raw, "%Y-%m").date()
    except ValueError:
        return today.replace(day=1)
    return first if within_days(first) else today.replace(day=1)


@login_required
@require_safe
def group_what_if(request: SignedInRequest, group_id: int) -> HttpResponse:
    group: Group = selectors.group_get(user=request.user, group_id=group_id)
    first = month_of(str(request.GET.get("month", "")), timezone.localdate())
    start = timezone.make_aware(datetime.combine(first, datetime.min.time()))
    end = timezone.make_aware(datetime.combine(next_month(first), datetime.min.time()))
    sessions = selectors.group_sessions(group).filter(created__gte=start, created__lt=end).order_by()
    return _answer(
        request,
        title=group.name,
        subtitle=first.strftime("%Y-%m"),
        sessions=sessions,
        back=reverse("group-page", args=[group.pk]),
        extra={"action": reverse("group-what-if", args=[group.pk]), "month": first.strftime("%Y-%m")},
    )


def option_words(language: str) -> dict[str, str]:
    return {key: option_label(OPTION[key], language) for key in ("zimo_bonus", "cap_multiplier")}


urlpatterns = [
    path("sessions/<ledger_id:session_id>/what-if/", session_what_if, name="session-what-if"),
    path("groups/<ledger_id:group_id>/what-if/", group_what_if, name="group-what-if"),
]
