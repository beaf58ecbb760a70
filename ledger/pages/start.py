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
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from calculator.engine import (
    PATTERNS,
    PRESET_RULES,
    Preset,
    Rules,
)
from settlement.engine import FeeSplit
from web.htmx import SignedInRequest
from web.language import page_language
from web.rules_form import PRESET_LABELS

from .. import selectors, services
from ..models import SEATS, WRITER_ROLES, Group, Session
from ..names import InvisibleCharacter, normal_name, session_title
from ..services import MAX_COINS, MAX_FEE, MAX_ROOM_COEFFICIENT
from .fee import SPLIT_WORDS
from .links import session_url
from .refusals import REFUSALS, ledger_words, refusal_message
from .rule_fields import (
    CODECS,
    COMMON_OPTIONS,
    PATTERN_OPTION,
    RULE_OPTIONS,
    OptionRow,
    changed_rules,
    option_field,
    pattern_field,
)
from .words import fan_words, option_explanation, option_label, preset_summary, value_words


def _compared(name: str | None) -> str | None:
    """A seat's name as the ledger compares it (``小王`` + U+200B is ``小王``); one with an invisible
    character inside is left as typed for the service to refuse with its message."""
    try:
        return normal_name(name) if name else name
    except InvisibleCharacter:
        return name


class StartForm(forms.Form):
    """Tonight's session. Field names are stable (the browser tests and the whole-evening test use them):
    ``seat_0`` .. ``seat_3``, ``dealer``, ``preset``, ``rule_<option>``, ``pattern_<pattern>``, ``name``,
    ``coins``, ``room_coefficient``, ``balance_0`` .. ``balance_3``, ``fee_amount``, ``fee_split``."""

    name = forms.CharField(label=gettext_lazy("Name of the session"), max_length=100, required=False)
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
    # The table fee (台费): blank or 0 is none; who paid the room is said on 结算, once someone has.
    fee_amount = forms.IntegerField(
        label=gettext_lazy("Table fee"),
        required=False,
        min_value=0,
        max_value=MAX_FEE,
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    fee_split = forms.ChoiceField(
        label=gettext_lazy("Borne by"),
        widget=forms.RadioSelect,
        choices=list(SPLIT_WORDS.items()),
        required=False,
    )

    def __init__(self, *args: Any, language: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.language = language
        # Left blank, the session is named by its day in each reader's language (Session.title).
        self.fields["name"].widget.attrs["placeholder"] = session_title("", timezone.localdate(), 1)
        preset_rules = PRESET_RULES[self._chosen_preset()]
        for seat in range(SEATS):
            self.fields[f"seat_{seat}"] = forms.CharField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                max_length=50,
                widget=forms.TextInput(attrs={"list": "group-players", "autocomplete": "off"}),
            )
        if not self.initial.get("seat_0"):  # a first session: the names are the first thing to type
            self.fields["seat_0"].widget.attrs["autofocus"] = True
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
            # A select cannot wrap: its "as the preset" choice stays short and the preset's value is said
            # beside it (OptionRow.preset); a number box's placeholder still names the value.
            preset_value = value_words(option, getattr(preset_rules, option.key), language)
            self.fields[f"rule_{option.key}"] = option_field(
                option,
                language,
                self.initial.get(f"rule_{option.key}"),
                unchanged=_("As the preset"),
                placeholder=_("As the preset: %(value)s") % {"value": preset_value},
            )
        for pattern in PATTERNS:
            preset_fan = fan_words(preset_rules.pattern_value(pattern.key))
            self.fields[f"pattern_{pattern.key}"] = pattern_field(
                pattern, language, unchanged=_("%(value)s (preset)") % {"value": preset_fan}
            )

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
        return {"preset": self.cleaned_data["preset"], **changed_rules(self.cleaned_data)}

    def fee(self) -> dict[str, Any] | None:
        """The table fee as ``services.session_start`` takes it; None without one."""
        if not self.cleaned_data.get("fee_amount"):
            return None
        split = self.cleaned_data.get("fee_split") or FeeSplit.AA.value
        return {"amount": self.cleaned_data["fee_amount"], "split": split}

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


# The coins a table plays for unless it says otherwise (switched on in one tap, issue 18, point 14): RULES.md
# 8's room of 100 coins a point, and 200 points' cover each.
USUAL_ROOM_COEFFICIENT = 100
USUAL_STARTING_COINS = 20_000


def initial_from(last: Session | None) -> dict[str, Any]:
    """Tonight's form as the group's last session left it: seating, rules that differ from their preset,
    coins, the table fee. A group's first session starts from the default preset with empty seats, the
    usual coins (off until switched on) and no fee."""
    initial: dict[str, Any] = {
        "dealer": "0",
        "preset": Preset.CHENGDU.value,
        "fee_split": FeeSplit.AA.value,
        "room_coefficient": USUAL_ROOM_COEFFICIENT,
        **{f"balance_{seat}": USUAL_STARTING_COINS for seat in range(SEATS)},
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
    if last.fee_amount:
        initial |= {"fee_amount": last.fee_amount, "fee_split": last.fee_split}
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
    (re.compile(r"fee\.(amount|split)$"), lambda match: f"fee_{match[1]}"),
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
                fee=form.fee(),
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
