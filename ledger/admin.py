"""The admin: groups, players and sessions are editable; rounds, versions and the ledger only viewable
(a round changes through the correct/void services, which write reversing entries)."""

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils.translation import gettext as _

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


class MembershipFormSet(BaseInlineFormSet):
    """The group's members as edited in the admin: whatever rows are changed or deleted, one owner stays
    (the rule ``services.groups._keep_an_owner`` keeps for the API and the pages)."""

    def clean(self) -> None:
        super().clean()
        kept = [form for form in self.forms if form.cleaned_data and not self._should_delete_form(form)]
        if not any(form.cleaned_data.get("role") == Role.OWNER for form in kept):
            raise ValidationError(_("A group needs at least one owner."), code="no_owner")


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = MembershipFormSet
    extra = 0


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ("name", "created")
    search_fields = ("name",)
    inlines = (MembershipInline, PlayerInline)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "group", "user")
    list_filter = ("group",)
    search_fields = ("name",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # Chosen when the player is added, never changed: moving a player would carry his seats, points and
        # wins into another group's standings and statistics.
        return () if obj is None else ("group",)


class SessionSeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = SessionSeat
    extra = 0


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
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


class RoundVersionInline(ReadOnlyAdminMixin, admin.StackedInline):
    model = RoundVersion
    extra = 0


@admin.register(Round)
class RoundAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("session", "position", "version", "voided", "dealer", "created")
    list_filter = ("voided", "session__group")
    inlines = (RoundVersionInline,)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
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
class CoinEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "session", "round", "seat", "is_house", "coins", "reverses")
    list_select_related = ("session", "round", "reverses")


@admin.register(WinRecord)
class WinRecordAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "session", "round", "version", "winner", "discarder", "self_draw", "fan")
    list_select_related = ("session", "round", "winner", "discarder")


@admin.register(HandInProgress)
class HandInProgressAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Viewable only: a change here would bypass the revision every phone at the table relies on."""

    list_display = ("session", "number", "dealer", "revision", "updated")
    list_select_related = ("session",)
