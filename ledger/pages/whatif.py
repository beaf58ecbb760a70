"""要是…: a session, or a month of the group's sessions, settled again under another preset or changed
options, read-only (``web.whatif`` replays; nothing is stored, nothing is written).

- ``/sessions/<id>/what-if/`` from 结算, ``/groups/<id>/what-if/?month=2026-12`` from the group page;
- the choices are a GET form: a preset and every option of the engine's table with every pattern's fan
  (``rule_fields``, the start form's fields), each "as played" when left empty, so a link says which rules
  it asks about and Back works; a value the form or the engine refuses is said beside its field (400),
  and nothing is replayed;
- the answer: each player's net as played and under the other rules, the difference, the hands that moved
  most with each explained under the other rules (the history's own partial), and any hand the other
  rules refuse, with the engine's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from calculator.engine import PATTERNS, EngineError, Preset, Rules, rules_from
from web.entry.explain import event_views
from web.htmx import SignedInRequest
from web.language import page_language
from web.rules_form import PRESET_LABELS
from web.whatif import PlayedHand, WhatIf, what_if

from .. import selectors
from ..models import SEATS, Group, Session
from ..periods import next_month, within_days
from .rule_fields import (
    COMMON_OPTIONS,
    PATTERN_OPTION,
    RULE_OPTIONS,
    OptionRow,
    changed_rules,
    option_field,
    pattern_field,
)
from .words import fan_words, option_explanation, option_label, pattern_name, value_words

# Links shared before every option was offered named two of them so; they still ask the same.
LEGACY_NAMES = {"zimo_bonus": "rule_zimo_bonus", "cap": "rule_cap_multiplier"}


class WhatIfForm(forms.Form):
    """The rules asked about: a preset (or the rules as played) and any option or pattern fan changed;
    every field empty is "as played". Field names are the start form's (``rule_<option>``,
    ``pattern_<pattern>``), so a link says which rules it asks about."""

    def __init__(self, data: Mapping[str, Any], *, played: Rules | None, language: str) -> None:
        super().__init__({LEGACY_NAMES.get(name, name): value for name, value in data.items()})
        self.language = language
        self.played = played
        self.fields["preset"] = forms.ChoiceField(
            label=_("Preset"),
            required=False,
            choices=[("", _("As played")), *((preset.value, PRESET_LABELS[preset]) for preset in Preset)],
        )
        placeholder = _("As played")
        for option in RULE_OPTIONS:
            self.fields[f"rule_{option.key}"] = option_field(
                option, language, None, unchanged=_("As played"), placeholder=placeholder
            )
        for pattern in PATTERNS:
            self.fields[f"pattern_{pattern.key}"] = pattern_field(pattern, language, unchanged=_("As played"))

    def changed(self) -> dict[str, Any]:
        return changed_rules(self.cleaned_data)

    def asked_anything(self) -> bool:
        return self.is_valid() and bool(self.cleaned_data["preset"] or self.changed())

    def other_rules(self, played: Mapping[str, Any]) -> Rules:
        """The rules asked about: the preset chosen (or the session's own rules), with the options changed."""
        preset = self.cleaned_data["preset"]
        return Rules.from_dict({**({"preset": preset} if preset else dict(played)), **self.changed()})

    # What the page shows -------------------------------------------------------------------------------

    def asked_words(self) -> str:
        """What was asked, in a line (``家庭休闲 · 自摸奖励 自摸加番``): the rules' part folds away once
        answered, so the answer says which rules it is under."""
        preset = self.cleaned_data["preset"]
        parts = [str(PRESET_LABELS[Preset(preset)])] if preset else []
        changed = self.changed()
        parts += [
            f"{option_label(option, self.language)} {value_words(option, changed[option.key], self.language)}"
            for option in RULE_OPTIONS
            if option.key in changed
        ]
        fans = changed.get(PATTERN_OPTION.key, {})
        parts += [
            f"{pattern_name(pattern, self.language)} {fan_words(fans[pattern.key])}"
            for pattern in PATTERNS
            if pattern.key in fans
        ]
        return " · ".join(parts)

    def _rows(self, *, common: bool) -> list[OptionRow]:
        return [
            OptionRow(
                self[f"rule_{option.key}"], option_explanation(option, self.language), self._played(option)
            )
            for option in RULE_OPTIONS
            if (option.key in COMMON_OPTIONS) == common
        ]

    def _played(self, option: Any) -> str:
        """What "as played" is, for one session (a month's sessions may each have played another way)."""
        if self.played is None:
            return ""
        return _("As played: %(value)s") % {
            "value": value_words(option, getattr(self.played, option.key), self.language)
        }

    def common_options(self) -> list[OptionRow]:
        return self._rows(common=True)

    def other_options(self) -> list[OptionRow]:
        return self._rows(common=False)

    def pattern_rows(self) -> list[forms.BoundField]:
        return [self[f"pattern_{pattern.key}"] for pattern in PATTERNS]

    def pattern_label(self) -> str:
        return option_label(PATTERN_OPTION, self.language)


def played_hands(sessions: Any) -> list[PlayedHand]:
    """Every counted hand of ``sessions`` as recorded, each seat named by who sat there for that hand (a
    substitute's hands are his: docs/ledger.md, "Substitutes"). Two queries whatever their number."""
    spells = selectors.sittings(sessions)
    hands = []
    for version in selectors.counted_versions(sessions):
        session, position = version.round.session, version.round.position
        sat = [selectors.sitter(spells.get(session.pk, ()), seat, position) for seat in range(SEATS)]
        hands.append(
            PlayedHand(
                key=(session.pk, position),
                label=f"{session.title} · " + _("hand %(n)s") % {"n": position},
                players=tuple(spell.player_id if spell else 0 for spell in sat),
                names=tuple(spell.player.name if spell else "" for spell in sat),
                dealer=version.dealer,
                void_suits=version.void_suits,
                events=tuple(version.events),
                notes=tuple(note or "" for note in version.notes),
                net=tuple(int(net) for net in (version.result or {}).get("net", [0] * SEATS)),
                played_rules=session.rules,
            )
        )
    return hands


def _explained(answer: WhatIf, form: WhatIfForm, language: str) -> list[dict[str, Any]]:
    """The hands that moved most, each with its nets under both rules and its events under the other."""
    shown = []
    for replayed in answer.biggest:
        hand = replayed.hand
        rules = form.other_rules(hand.played_rules)
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
    request: HttpRequest,
    *,
    title: str,
    subtitle: str,
    sessions: Any,
    played: Rules | None,
    back: str,
    extra: Mapping[str, Any],
) -> HttpResponse:
    language = page_language()
    form = WhatIfForm(request.GET, played=played, language=language)
    context: dict[str, Any] = {
        "title": title,
        "subtitle": subtitle,
        "back": back,
        "form": form,
        "asked_anything": form.asked_anything(),
        **extra,
    }
    if context["asked_anything"]:
        hands = played_hands(sessions)
        try:
            answer = what_if(hands, lambda hand: form.other_rules(hand.played_rules))
        except EngineError as error:  # rules the engine refuses as a whole (each field was checked)
            context["refusal"] = error.localized(language)
        else:
            context.update(
                hands=len(hands),
                players=answer.players,
                explained=_explained(answer, form, language),
                refused=[(replayed.hand.label, replayed.refusal) for replayed in answer.refused],
            )
    return render(request, "ledger/whatif/whatif.html", context, status=400 if form.errors else 200)


@login_required
@require_safe
def session_what_if(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    return _answer(
        request,
        title=session.title,
        subtitle=session.group.name,
        sessions=Session.objects.filter(pk=session.pk),
        played=rules_from(session.rules),
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
        played=None,
        back=reverse("group-page", args=[group.pk]),
        extra={"action": reverse("group-what-if", args=[group.pk]), "month": first.strftime("%Y-%m")},
    )


urlpatterns = [
    path("sessions/<ledger_id:session_id>/what-if/", session_what_if, name="session-what-if"),
    path("groups/<ledger_id:group_id>/what-if/", group_what_if, name="group-what-if"),
]
