"""Start a session: the four players in seat order, the dealer, a preset, any option, optional coins.

The form is built from the engine's tables, never from a list of its own: every option of ``OPTIONS``
with its label and explanation in the page's language and each value named (``value_labels``, or the
few words below for yes/no, the cap and the penalties), every pattern of ``PATTERNS`` with its fan. An
option left at "as the preset" is not sent, so the preset decides it; a group's last session prefills
the seating, the rules that differed from their preset, and the coins, so a group that plays every
Friday starts with one tap.

Every value is checked twice: by the form (a message beside the field, in the page's language) and by
the engine when ``services.session_start_by_names`` builds the ``Rules``; a refusal of either stores
nothing (new players included).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from calculator.engine import (
    CAP,
    MAX_OPTION_VALUE,
    MAX_PATTERN_FAN,
    OPTIONS,
    PATTERNS,
    PRESET_RULES,
    Option,
    OptionKind,
    Preset,
    Rules,
)
from web.htmx import SignedInRequest
from web.language import page_language
from web.rules_form import PRESET_LABELS

from .. import selectors, services
from ..models import SEATS, WRITER_ROLES, Group, Session
from ..names import InvisibleCharacter, normal_name
from ..services import MAX_COINS, MAX_ROOM_COEFFICIENT
from .links import session_url
from .refusals import REFUSALS, ledger_words, refusal_message
from .words import fan_words, option_explanation, option_label, pattern_name, preset_summary, value_words

# The choices offered for the kinds that take a number the table picks from a short list; a session
# prefilled with another value gets it added (``_choices``).
CAP_CHOICES = ("none", "2", "4", "8", "16", "32", "64", "128", "256")
PENALTY_CHOICES = (CAP, "0", "1", "2", "4", "6", "8", "10", "12", "16", "20", "24", "32", "48", "64")
# Options a table changes most often, shown first; the others follow under "more rules".
COMMON_OPTIONS = ("base_points", "cap_multiplier", "zimo_bonus", "direct_kong", "mode", "dingque", "hai_di")


@dataclass(frozen=True, slots=True)
class Codec:
    """How one kind of option travels through the form: a value as the posted string and back, and the
    strings offered (None: a text box, checked by its form field)."""

    to_raw: Callable[[Any], str]
    from_raw: Callable[[str], Any]
    choices: Callable[[Option], tuple[str, ...]] | None


CODECS: Mapping[OptionKind, Codec] = {
    OptionKind.ENUM: Codec(str, str, lambda option: option.choices),
    OptionKind.BOOL: Codec(
        lambda value: "on" if value else "off", lambda raw: raw == "on", lambda _o: ("on", "off")
    ),
    OptionKind.ZERO_OR_ONE: Codec(str, int, lambda _o: ("1", "0")),
    OptionKind.CAP_MULTIPLIER: Codec(
        lambda value: "none" if value is None else str(value),
        lambda raw: None if raw == "none" else int(raw),
        lambda _o: CAP_CHOICES,
    ),
    OptionKind.PENALTY: Codec(str, lambda raw: raw if raw == CAP else int(raw), lambda _o: PENALTY_CHOICES),
    OptionKind.INT: Codec(str, int, None),
    OptionKind.RATE: Codec(str, str, None),
}


def _below_one(value: Decimal | None) -> None:
    if value is not None and value >= 1:
        raise ValidationError(_("Less than 1, for example 0.1 for a tenth."))


def _option_field(option: Option, preset_rules: Rules, language: str, initial: str | None) -> forms.Field:
    """The form field of one option: a choice among its named values, or a number box."""
    label = option_label(option, language)
    preset_value = getattr(preset_rules, option.key)
    # A select cannot wrap: its "as the preset" choice stays short and the preset's value is said beside it
    # (OptionRow.preset); a number box's placeholder still names the value.
    as_preset = _("As the preset: %(value)s") % {"value": value_words(option, preset_value, language)}
    codec = CODECS[option.kind]
    # a number the engine names value by value (起胡, 金钩钓's fan) is a choice among those names too
    named = tuple(str(value.value) for value in option.value_labels)
    offered_values = codec.choices(option) if codec.choices is not None else named
    if offered_values:
        offered = _choices(offered_values, initial)
        return forms.TypedChoiceField(
            label=label,
            required=False,
            choices=[("", _("As the preset"))]
            + [(raw, value_words(option, codec.from_raw(raw), language)) for raw in offered],
            coerce=codec.from_raw,
            empty_value=None,
        )
    placeholder = {
        "placeholder": as_preset,
        "inputmode": "decimal" if option.kind is OptionKind.RATE else "numeric",
    }
    if option.kind is OptionKind.RATE:
        return forms.DecimalField(
            label=label,
            required=False,
            min_value=Decimal(0),
            max_digits=6,
            decimal_places=4,
            validators=[_below_one],
            widget=forms.TextInput(attrs=placeholder),
        )
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=option.minimum,
        max_value=MAX_OPTION_VALUE,
        widget=forms.TextInput(attrs=placeholder),
    )


def _compared(name: str | None) -> str | None:
    """A seat's name as the ledger compares it (``小王`` + U+200B is ``小王``); one with an invisible
    character inside is left as typed for the service to refuse with its message."""
    try:
        return normal_name(name) if name else name
    except InvisibleCharacter:
        return name


def _choices(offered: Sequence[str], initial: str | None) -> tuple[str, ...]:
    return tuple(offered) if initial is None or initial in offered else (*offered, initial)


def _pattern_field(pattern: Any, preset_rules: Rules, language: str) -> forms.Field:
    as_preset = _("%(value)s (preset)") % {"value": fan_words(preset_rules.pattern_value(pattern.key))}
    return forms.TypedChoiceField(
        label=pattern_name(pattern, language),
        required=False,
        choices=[("", as_preset)] + [(str(fan), fan_words(fan)) for fan in range(1, MAX_PATTERN_FAN + 1)],
        coerce=int,
        empty_value=None,
    )


RULE_OPTIONS = tuple(option for option in OPTIONS if option.kind is not OptionKind.PATTERN_FAN)
PATTERN_OPTION = next(option for option in OPTIONS if option.kind is OptionKind.PATTERN_FAN)


class StartForm(forms.Form):
    """Tonight's session. Field names are stable (the browser tests and the whole-evening test use them):
    ``seat_0`` .. ``seat_3``, ``dealer``, ``preset``, ``rule_<option>``, ``pattern_<pattern>``, ``name``,
    ``coins``, ``room_coefficient``, ``balance_0`` .. ``balance_3``."""

    name = forms.CharField(label=gettext_lazy("Name of the session"), max_length=100)
    dealer = forms.TypedChoiceField(
        label=gettext_lazy("Who deals first"), coerce=int, widget=forms.RadioSelect, choices=()
    )
    preset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        widget=forms.RadioSelect,
        choices=[(preset.value, preset.value) for preset in Preset],
    )
    coins = forms.BooleanField(label=gettext_lazy("Play for coins"), required=False)
    room_coefficient = forms.IntegerField(
        label=gettext_lazy("Coins per point"),
        required=False,
        min_value=1,
        max_value=MAX_ROOM_COEFFICIENT,
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, language: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.language = language
        preset_rules = PRESET_RULES[self._chosen_preset()]
        for seat in range(SEATS):
            self.fields[f"seat_{seat}"] = forms.CharField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                max_length=50,
                widget=forms.TextInput(attrs={"list": "group-players", "autocomplete": "off"}),
            )
        for seat in range(SEATS):
            self.fields[f"balance_{seat}"] = forms.IntegerField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                required=False,
                min_value=0,
                max_value=MAX_COINS,
                widget=forms.TextInput(attrs={"inputmode": "numeric"}),
            )
        # self.fields types every field Field; these two are the ChoiceFields declared above
        self.fields["dealer"].choices = [(str(seat), self._seat_name(seat)) for seat in range(SEATS)]  # type: ignore[attr-defined]
        self.fields["preset"].choices = [(preset.value, PRESET_LABELS[preset]) for preset in Preset]  # type: ignore[attr-defined]
        for option in RULE_OPTIONS:
            initial = self.initial.get(f"rule_{option.key}")
            self.fields[f"rule_{option.key}"] = _option_field(option, preset_rules, language, initial)
        for pattern in PATTERNS:
            self.fields[f"pattern_{pattern.key}"] = _pattern_field(pattern, preset_rules, language)

    def _chosen_preset(self) -> Preset:
        """The preset as posted (when it is one) or as prefilled: "as the preset" names its values."""
        raw = self.data.get("preset") if self.is_bound else self.initial.get("preset")
        return Preset(raw) if raw in {preset.value for preset in Preset} else Preset.CHENGDU

    def _seat_name(self, seat: int) -> str:
        """A seat in the dealer choice: its player's name when the seat is prefilled."""
        return self.initial.get(f"seat_{seat}") or _("Seat %(n)s") % {"n": seat + 1}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        names = [_compared(cleaned.get(f"seat_{seat}")) for seat in range(SEATS)]
        for seat, name in enumerate(names):
            if name and name in names[:seat]:
                self.add_error(f"seat_{seat}", _("%(name)s already sits at another seat.") % {"name": name})
        if cleaned.get("coins"):
            for field in ("room_coefficient", *(f"balance_{seat}" for seat in range(SEATS))):
                if cleaned.get(field) is None and field not in self.errors:
                    self.add_error(field, _("Needed when playing for coins."))
        return cleaned

    # What the service takes -------------------------------------------------------------------------

    def player_names(self) -> list[str]:
        return [self.cleaned_data[f"seat_{seat}"] for seat in range(SEATS)]

    def rules(self) -> dict[str, Any]:
        """The preset plus every option the table changed (an option left "as the preset" is not sent)."""
        rules: dict[str, Any] = {"preset": self.cleaned_data["preset"]}
        for option in RULE_OPTIONS:
            value = self.cleaned_data.get(f"rule_{option.key}")
            if value is not None:
                rules[option.key] = str(value) if option.kind is OptionKind.RATE else value
        fans = {
            pattern.key: self.cleaned_data[f"pattern_{pattern.key}"]
            for pattern in PATTERNS
            if self.cleaned_data.get(f"pattern_{pattern.key}") is not None
        }
        if fans:
            rules[PATTERN_OPTION.key] = fans
        return rules

    def coin_settings(self) -> dict[str, Any] | None:
        if not self.cleaned_data.get("coins"):
            return None
        return {
            "room_coefficient": self.cleaned_data["room_coefficient"],
            "starting_balances": [self.cleaned_data[f"balance_{seat}"] for seat in range(SEATS)],
        }

    # What the page shows -------------------------------------------------------------------------------

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(SEATS)]

    def balance_fields(self) -> list[forms.BoundField]:
        return [self[f"balance_{seat}"] for seat in range(SEATS)]

    def common_options(self) -> list[OptionRow]:
        return self._option_rows(common=True)

    def other_options(self) -> list[OptionRow]:
        return self._option_rows(common=False)

    def _option_rows(self, *, common: bool) -> list[OptionRow]:
        preset_rules = PRESET_RULES[self._chosen_preset()]
        return [
            OptionRow(
                self[f"rule_{option.key}"],
                option_explanation(option, self.language),
                _("The preset: %(value)s")
                % {"value": value_words(option, getattr(preset_rules, option.key), self.language)},
            )
            for option in RULE_OPTIONS
            if (option.key in COMMON_OPTIONS) == common
        ]

    def pattern_rows(self) -> list[forms.BoundField]:
        return [self[f"pattern_{pattern.key}"] for pattern in PATTERNS]

    def pattern_label(self) -> str:
        return option_label(PATTERN_OPTION, self.language)

    def pattern_explanation(self) -> str:
        return option_explanation(PATTERN_OPTION, self.language)

    def preset_rows(self) -> list[tuple[Any, str]]:
        """Each preset's radio with its one-line description."""
        return [(choice, preset_summary(Preset(choice.data["value"]))) for choice in self["preset"]]


@dataclass(frozen=True, slots=True)
class OptionRow:
    field: forms.BoundField
    explanation: str
    preset: str  # what "as the preset" means here, said beside the select rather than cut inside it


def initial_from(last: Session | None) -> dict[str, Any]:
    """Tonight's form as the group's last session left it: seating, rules that differ from their preset,
    coins. A group's first session starts from the default preset with empty seats."""
    initial: dict[str, Any] = {
        "name": date_format(timezone.localdate(), "MONTH_DAY_FORMAT"),
        "dealer": "0",
        "preset": Preset.CHENGDU.value,
    }
    if last is None:
        return initial
    rules = Rules.from_dict(last.rules)
    preset_rules = PRESET_RULES[rules.preset]
    initial["preset"] = rules.preset.value
    initial |= {f"seat_{seat.seat}": seat.player.name for seat in last.seats.all()}
    for option in RULE_OPTIONS:
        value = getattr(rules, option.key)
        if value != getattr(preset_rules, option.key):
            initial[f"rule_{option.key}"] = CODECS[option.kind].to_raw(value)
    for pattern in PATTERNS:
        fan = rules.pattern_value(pattern.key)
        if fan != preset_rules.pattern_value(pattern.key):
            initial[f"pattern_{pattern.key}"] = str(fan)
    if last.coins_enabled:
        initial |= {"coins": True, "room_coefficient": last.room_coefficient}
        initial |= {f"balance_{seat}": balance for seat, balance in enumerate(last.starting_balances or ())}
    return initial


# An engine or service refusal names the API's field; the form's field for it (None: the whole form).
_FORM_FIELDS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str | None]], ...] = (
    (re.compile(r"rules\.preset$"), lambda _m: "preset"),
    (re.compile(r"rules\.pattern_fan\.(\w+)"), lambda match: f"pattern_{match[1]}"),
    (re.compile(r"rules\.(\w+)"), lambda match: f"rule_{match[1]}"),
    (re.compile(r"players\[(\d)\]"), lambda match: f"seat_{match[1]}"),
    (re.compile(r"coins\.room_coefficient"), lambda _m: "room_coefficient"),
    (re.compile(r"(name|dealer)$"), lambda match: match[1]),
)


def form_field_of(field: str, form: forms.Form) -> str | None:
    for pattern, name in _FORM_FIELDS:
        match = pattern.match(field)
        if match and name(match) in form.fields:
            return name(match)
    return None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_start(request: SignedInRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    language = page_language()
    last = selectors.group_last_session(group)
    if request.method != "POST":
        form = StartForm(initial=initial_from(last), language=language)
        return _page(request, group, form, first_run=last is None)
    form = StartForm(request.POST, initial=initial_from(last), language=language)
    if form.is_valid():
        try:
            session = services.session_start_by_names(
                actor=request.user,
                group=group,
                name=form.cleaned_data["name"],
                player_names=form.player_names(),
                rules=form.rules(),
                coins=form.coin_settings(),
                dealer=form.cleaned_data["dealer"],
            )
        except REFUSALS as error:
            form.add_error(form_field_of(getattr(error, "field", ""), form), refusal_message(error))
        else:
            return redirect(session_url(session))
    return _page(request, group, form, first_run=last is None, status=400)


def _page(
    request: SignedInRequest, group: Group, form: StartForm, *, first_run: bool, status: int = 200
) -> HttpResponse:
    role = selectors.role_in(user=request.user, group=group)
    context = {
        "group": group,
        "form": form,
        "first_run": first_run,
        "can_start": role in WRITER_ROLES,
        "role_refusal": ledger_words("role_forbids"),
        "players": selectors.group_players(group),
    }
    return render(request, "ledger/start/start.html", context, status=status)


urlpatterns = [
    path("groups/<ledger_id:group_id>/start/", session_start, name="session-start"),
]
