"""The admin: groups, players and sessions are editable; rounds, versions and the ledger only viewable
(a round changes through the correct/void services, which write reversing entries)."""

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet, ModelForm
from django.http import HttpRequest
from django.utils.translation import gettext as _

from . import debts
from .models import (
    CoinEntry,
    Group,
    HandInProgress,
    LedgerEntry,
    Membership,
    Player,
    Role,
    Round,
    RoundVersion,
    Session,
    SessionSeat,
    WinRecord,
)


class ReadOnlyAdminMixin:
    """No add, change or delete: the rows are append-only history."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipFormSet(BaseInlineFormSet[Membership, Group, ModelForm[Membership]]):
    """The group's members as edited in the admin: whatever rows are changed or deleted, one owner stays
    (the rule ``services.groups._keep_an_owner`` keeps for the API and the pages)."""

    def clean(self) -> None:
        super().clean()
        # _should_delete_form: BaseFormSet's own test (can_delete and DELETE checked), which the stub omits
        kept = [form for form in self.forms if form.cleaned_data and not self._should_delete_form(form)]  # type: ignore[attr-defined]
        if not any(form.cleaned_data.get("role") == Role.OWNER for form in kept):
            raise ValidationError(_("A group needs at least one owner."), code="no_owner")


class MembershipInline(admin.TabularInline[Membership, Group]):
    model = Membership
    formset = MembershipFormSet
    extra = 0


class PlayerInline(admin.TabularInline[Player, Group]):
    model = Player
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin[Group]):
    list_display = ("name", "created")
    search_fields = ("name",)
    inlines = (MembershipInline, PlayerInline)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("name", "group", "user")
    list_filter = ("group",)
    search_fields = ("name",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # Chosen when the player is added, never changed: moving a player would carry his seats, points and
        # wins into another group's standings and statistics.
        return () if obj is None else ("group",)


class SessionSeatInline(ReadOnlyAdminMixin, admin.TabularInline[SessionSeat, Session]):
    model = SessionSeat
    extra = 0


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin[Session]):
    list_display = ("name", "group", "status", "created", "closed")
    list_filter = ("status", "group")
    readonly_fields = (
        "group",
        "rules",
        "coins_enabled",
        "room_coefficient",
        "starting_balances",
        "status",
        "closed",
    )
    inlines = (SessionSeatInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a session starts through the API (session_start checks its players and rules)

    # An edited fee, or a session gone, changes what its group still owes (ledger/debts.py, ``moved``);
    # the admin's change and delete views run in one transaction, the bulk deletion is given one.
    def save_model(self, request: HttpRequest, obj: Session, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        debts.moved(obj.group_id)

    def delete_model(self, request: HttpRequest, obj: Session) -> None:
        super().delete_model(request, obj)
        debts.moved(obj.group_id)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Session]) -> None:
        with transaction.atomic():
            groups = set(queryset.values_list("group_id", flat=True))
            super().delete_queryset(request, queryset)
            for group_id in sorted(groups):
                debts.moved(group_id)


class RoundVersionInline(ReadOnlyAdminMixin, admin.StackedInline[RoundVersion, Round]):
    model = RoundVersion
    extra = 0


@admin.register(Round)
class RoundAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Round]):
    list_display = ("session", "position", "version", "voided", "dealer", "created")
    list_filter = ("voided", "session__group")
    inlines = (RoundVersionInline,)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[LedgerEntry]):
    list_display = (
        "id",
        "session",
        "round",
        "round_version",
        "seat",
        "player",
        "is_house",
        "points",
        "reason",
        "event_index",
        "reverses",
    )
    list_filter = ("reason", "is_house", "session__group")
    list_select_related = ("session", "round", "round_version", "player", "reverses")


@admin.register(CoinEntry)
class CoinEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[CoinEntry]):
    list_display = ("id", "session", "round", "seat", "is_house", "coins", "reverses")
    list_select_related = ("session", "round", "reverses")


@admin.register(WinRecord)
class WinRecordAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[WinRecord]):
    list_display = ("id", "session", "round", "version", "winner", "discarder", "self_draw", "fan")
    list_select_related = ("session", "round", "winner", "discarder")


@admin.register(HandInProgress)
class HandInProgressAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[HandInProgress]):
    """Viewable only: a change here would bypass the revision every phone at the table relies on."""

    list_display = ("session", "number", "dealer", "revision", "updated")
    list_select_related = ("session",)
