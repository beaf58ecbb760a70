"""Groups, sessions, rounds and the append-only ledger.

A round is stored as its events plus the transfers they produced. Each transfer becomes two
``LedgerEntry`` rows (the payer's negative, the receiver's positive; the house is a row with no seat), so
"every round balances, the house included" is ``Sum(points) == 0`` and a seat's total is one ``Sum``.
Correcting or voiding a round appends a new ``RoundVersion`` whose rows first reverse the previous
version's rows; no entry is ever updated or deleted, and totals stay plain sums over all rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from knox.models import AbstractAuthToken

from settlement.engine import SEATS as SEAT_ORDER
from settlement.engine import FeeSplit

from .canonical import CanonicalJSONField
from .names import session_title

SEATS = len(SEAT_ORDER)  # a count here (constraints, ranges): the engine's four seats
# An Idempotency-Key's characters at most: the column's width, which the API and a group file check first.
MAX_KEY_LENGTH = 255
WRITER_NAME_LENGTH = 150  # a writer's user name, as long as Django's user names may be
DEVICE_NAME_LENGTH = 60  # what a device logging in to the API calls itself ("小王的手机")


class Role(models.TextChoices):
    OWNER = "owner", "owner"
    SCOREKEEPER = "scorekeeper", "scorekeeper"
    VIEWER = "viewer", "viewer"


WRITER_ROLES = (Role.OWNER, Role.SCOREKEEPER)
FEE_SPLITS = [(split.value, split.value) for split in FeeSplit]


class Group(models.Model):
    """A circle of friends who play together."""

    name = models.CharField(max_length=100)
    created = models.DateTimeField(auto_now_add=True)
    # A group made by importing a group file (ledger/group_file.py): who imported it and when, and whether
    # its file's own chain did not hold, so it came in only because the importer asked to re-seal it.
    # Either way the writers and times its versions name are the file's claim, not this server's record.
    imported = models.DateTimeField(null=True, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resealed = models.BooleanField(default=False)
    # 谁还欠谁's revision (ledger/debts.py, ``KeptDebts``): moved by ``debts.moved``, in the same transaction,
    # by every write that can change one of the group's sessions' transfers or its payment marks. Never
    # set from a form (so never back to an older value, which could match a result kept before a write).
    debts_revision = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return self.name


def keep_every_group_a_member(collector: Any, field: Any, sub_objs: Any, using: str) -> None:
    """``Membership.user``'s on_delete: an account's memberships go with it (CASCADE), unless that would
    leave a group with no member at all, whom no ownership could pass to: then the deletion is refused,
    and the admin lists the membership as what protects the account (ledger/departures.py)."""
    leaving = {user.pk for user in collector.data.get(field.remote_field.model, ())}
    alone = [
        membership
        for membership in sub_objs
        if not Membership.objects.using(using)
        .filter(group_id=membership.group_id)
        .exclude(user_id__in=leaving)
        .exists()
    ]
    if alone:
        # Django's collector words the refusal itself, naming these memberships as what protects the
        # account (the admin lists them on its delete page).
        raise models.ProtectedError("the last member of a group", set(alone))
    models.CASCADE(collector, field, sub_objs, using)


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=keep_every_group_a_member, related_name="memberships"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=12, choices=Role.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        constraints = (
            models.UniqueConstraint(fields=("user", "group"), name="membership_once_per_group"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        )

    def __str__(self) -> str:
        return f"{self.user} in {self.group} ({self.role})"


class Player(models.Model):
    """A name at the table, optionally linked to an account."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=50)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        constraints = (models.UniqueConstraint(fields=("group", "name"), name="player_name_unique_in_group"),)

    def __str__(self) -> str:
        return self.name


class SessionStatus(models.TextChoices):
    OPEN = "open", "open"
    CLOSED = "closed", "closed"


class Session(models.Model):
    """One sitting of four players: its rules (every value, fixed when it starts) and optional coins."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sessions")
    # The name its table gave it, as typed; blank: it is named by its day, in each reader's language
    # (``title``, ledger/names.py), from the day it started and its place among the group's sessions that day.
    name = models.CharField(max_length=100, blank=True)
    day = models.DateField(default=timezone.localdate)
    day_number = models.PositiveSmallIntegerField(default=1)
    # Every value of the rules (services.sessions._every_value), so a later change of a preset never
    # reaches an old session; rows stored before held only the overrides, which Rules.from_dict reads the
    # same way.
    rules = models.JSONField(default=dict)
    coins_enabled = models.BooleanField(default=False)
    room_coefficient = models.PositiveIntegerField(null=True, blank=True)
    starting_balances = models.JSONField(null=True, blank=True)  # [int, int, int, int] when coins are on
    status = models.CharField(max_length=6, choices=SessionStatus.choices, default=SessionStatus.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    closed = models.DateTimeField(null=True, blank=True)
    # The head of the ledger (ledger/integrity.py, ledger/bounds.py), moved by every round version written:
    # the digest of the latest version (the chain's end), and the points and coins the rows have moved in
    # all (the sum of their absolute values, reversals included), which the bounds limit.
    ledger_digest = models.CharField(max_length=64, blank=True, default="")
    points_moved = models.BigIntegerField(default=0)
    coins_moved = models.BigIntegerField(default=0)
    # The read-only summary link (ledger/summary_links.py) signs the session's id with this number;
    # revoking the link moves it on, so every link signed before stops working.
    summary_link_revision = models.PositiveIntegerField(default=0)
    # The table fee (台费, settlement/engine/fee.py; docs/ledger.md, "The table fee"): an amount in the
    # session's unit (coins when it plays for coins), who bears it, and who paid the room (null: it is
    # still to be paid, to the house). It changes the settle-up, never a net or the ledger.
    fee_amount = models.PositiveBigIntegerField(default=0)
    fee_split = models.CharField(max_length=10, choices=FEE_SPLITS, default=FeeSplit.AA.value)
    fee_paid_by = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # What its ledger counts (ledger/figures.py), moved with the head by every round version written: its
    # rounds that are not voided (a session counts once it has one) and, of those, its hands (not
    # adjustments only).
    counted_rounds = models.PositiveIntegerField(default=0)
    counted_hands = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("-id",)
        constraints = (
            models.CheckConstraint(condition=Q(status__in=SessionStatus.values), name="session_status_known"),
            models.CheckConstraint(
                condition=Q(status=SessionStatus.OPEN, closed__isnull=True)
                | Q(status=SessionStatus.CLOSED, closed__isnull=False),
                name="session_closed_time_iff_closed",
            ),
            models.CheckConstraint(
                condition=Q(coins_enabled=False)
                | Q(room_coefficient__gte=1, starting_balances__isnull=False),
                name="session_coins_configured",
            ),
        )

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        return session_title(self.name, self.day, self.day_number)

    @property
    def named_by_day(self) -> bool:
        """Its title is its day: whatever shows the title says no date beside it."""
        return not self.name

    @property
    def is_open(self) -> bool:
        return self.status == SessionStatus.OPEN


class SessionSeat(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ("session", "seat")
        constraints = (
            models.UniqueConstraint(fields=("session", "seat"), name="seat_once_per_session"),
            models.UniqueConstraint(fields=("session", "player"), name="player_once_per_session"),
            models.CheckConstraint(condition=Q(seat__gte=0, seat__lt=SEATS), name="seat_in_range"),
        )

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.player_id}"


class Sitting(models.Model):
    """One player's spell in one seat of a session: hands ``first`` to ``last`` (null: he sits there now).

    ``SessionSeat`` is the table now (what the hand in progress and the table's pages read); the sittings
    are who sat where when: a round's seat-to-player map is the sittings its position falls in, and what a
    person played in a session (his hands, his totals, his place in its settle-up) is read through them, so
    everything follows the person, not the seat (docs/ledger.md, "Substitutes"). A session starts with
    four open sittings from hand 1; a change of seats (``services.session_seats_change``) closes the
    changed seats' and opens new ones from the hand about to be played, in the same transaction as the
    ``SessionSeat`` rows it rewrites.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="sittings")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="sittings")
    first = models.PositiveIntegerField(default=1)
    last = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ("session", "first", "seat")
        constraints = (
            models.UniqueConstraint(fields=("session", "seat", "first"), name="sitting_one_spell_a_seat"),
            models.UniqueConstraint(
                fields=("session", "seat"), condition=Q(last__isnull=True), name="sitting_one_open_a_seat"
            ),
            models.CheckConstraint(condition=Q(seat__gte=0, seat__lt=SEATS), name="sitting_seat_in_range"),
            models.CheckConstraint(
                condition=Q(first__gte=1) & (Q(last__isnull=True) | Q(last__gte=models.F("first"))),
                name="sitting_hands_in_order",
            ),
        )
        indexes = (models.Index(fields=("session", "player"), name="sitting_session_player"),)

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.player_id} from hand {self.first}"


KEPT_NETS = (*(f"kept_net_{seat}" for seat in range(SEATS)), "kept_net_house")


def kept_net_field(seat: int | None) -> str:
    """The ``Round`` column keeping the net of ``seat`` (None: the house)."""
    return KEPT_NETS[SEATS if seat is None else seat]


class Round(models.Model):
    """A hand played in a session. Its current events mirror its latest version."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rounds")
    position = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    void_suits = models.JSONField(null=True, blank=True)
    events = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    voided = models.BooleanField(default=False)
    # Adjustments only (罚分, 诈胡 between hands; RULES.md 4.8): not a hand, so the statistics count no hand,
    # win or loss for it, while its points count in every total. Set from the engine's result at each write.
    adjustment = models.BooleanField(default=False)
    # Its current points per seat and the house's, kept by every write that changes them (record, correct,
    # void) from the transfers it stores: what its live ledger rows sum to (``selectors.round_net``;
    # ``verify_ledger`` compares them with the rows naming the round), so that a session's running totals
    # read one row a hand, not its 16 ledger rows (the 走势 page, issue 16). ``KEPT_NETS`` names them, the
    # house's last.
    kept_net_0 = models.BigIntegerField(default=0)
    kept_net_1 = models.BigIntegerField(default=0)
    kept_net_2 = models.BigIntegerField(default=0)
    kept_net_3 = models.BigIntegerField(default=0)
    kept_net_house = models.BigIntegerField(default=0)
    # NULL, not "": rounds recorded without a key must not collide in the unique constraint
    idempotency_key = models.CharField(max_length=MAX_KEY_LENGTH, null=True, blank=True)  # noqa: DJ001
    request_fingerprint = models.CharField(max_length=64)  # sha256 of the canonical request body
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("session", "position")
        constraints = (
            models.UniqueConstraint(fields=("session", "position"), name="round_position_unique"),
            models.UniqueConstraint(
                fields=("session", "idempotency_key"),
                condition=Q(idempotency_key__isnull=False),
                name="round_idempotency_key_unique",
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="round_position_from_one"),
            models.CheckConstraint(condition=Q(dealer__gte=0, dealer__lt=SEATS), name="round_dealer_seat"),
            models.CheckConstraint(condition=Q(version__gte=1), name="round_version_from_one"),
        )

    def __str__(self) -> str:
        return f"{self.session} #{self.position}"


class VersionKind(models.TextChoices):
    RECORDED = "recorded", "recorded"
    CORRECTED = "corrected", "corrected"
    VOIDED = "voided", "voided"
    RECOINED = "recoined", "recoined"  # coins re-settled because an earlier round changed; points untouched


class RoundVersion(models.Model):
    """One state of a round, as recorded, corrected or voided; never changed once written."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=9, choices=VersionKind.choices)
    dealer = models.PositiveSmallIntegerField()
    void_suits = models.JSONField(null=True, blank=True)
    events = models.JSONField()
    # the settle response; null for a void. Kept as the text its seal hashes (ledger/canonical.py).
    result = CanonicalJSONField(null=True, blank=True)
    # One per event: how the page entered it (the quick picker's taps), so the history explains the hand
    # as the page did when it was recorded; null or "" for none, and empty for rounds sent by the API.
    notes = models.JSONField(default=list, blank=True)
    coin_balances_before = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    # Who wrote it, by name, when no account of this server did: an imported group's history names the
    # writers of the server it came from (ledger/group_file.py). Not sealed, like created_by.
    created_by_name = models.CharField(max_length=WRITER_NAME_LENGTH, blank=True, default="")
    # The seal (ledger/integrity.py): a SHA-256 of this version and its rows, chained to the digest of the
    # session's version written before it. Set once, in the transaction that writes the version.
    previous_digest = models.CharField(max_length=64, blank=True, default="")
    digest = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ("round", "version")
        constraints = (
            models.UniqueConstraint(fields=("round", "version"), name="round_version_unique"),
            models.CheckConstraint(condition=Q(kind__in=VersionKind.values), name="round_version_kind_known"),
            models.CheckConstraint(
                condition=Q(kind=VersionKind.VOIDED) | Q(result__isnull=False),
                name="round_version_result_unless_void",
            ),
        )

    def __str__(self) -> str:
        return f"round {self.round_id} v{self.version} ({self.kind})"

    @property
    def writer_name(self) -> str | None:
        """Who wrote this version: the account's name, or the name kept when the account went (or when
        the version came from another server's export); None if nobody is known."""
        if self.created_by is not None:
            return str(self.created_by.get_username())
        return self.created_by_name or None


class HandInProgress(models.Model):
    """The hand being played at a session's table: a working area beside the ledger, not money yet.

    Its events are settled afresh on every read (the preview). When an event finishes the hand, the hand
    becomes a ``Round`` in the same transaction and this row starts the next one, so a session has one row
    all evening. ``revision`` grows with every change of the hand and of the session's ledger (a round
    recorded, corrected or voided, the session closed): a writer who saw an older revision is refused, and a
    poller learns from one indexed read whether anything changed.
    """

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="hand")
    number = models.PositiveIntegerField()  # the position its round will take (第N手)
    dealer = models.PositiveSmallIntegerField()
    void_suits = models.JSONField(null=True, blank=True)
    events = models.JSONField(default=list)  # settle events, in the order they happened
    notes = models.JSONField(default=list)  # one per event: the words the scorekeeper saw, or null
    undone = models.JSONField(
        default=list
    )  # [{"event", "note"}], most recently undone last: what redo replays
    revision = models.PositiveIntegerField(default=0)
    # The last write, so that its retry is answered instead of applied again (or refused as stale), and
    # the round it recorded or reopened (an undo right after it takes back only a round the hand recorded).
    last_key = models.CharField(max_length=300, null=True, blank=True)  # noqa: DJ001
    last_fingerprint = models.CharField(max_length=64, blank=True)
    last_round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The round this hand was before an undo took it back (voided while the hand is in progress again):
    # when the hand finishes again, it is a new version of that round.
    reopened = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "hands in progress"
        constraints = (
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_from_one"),
            models.CheckConstraint(condition=Q(dealer__gte=0, dealer__lt=SEATS), name="hand_dealer_seat"),
        )

    def __str__(self) -> str:
        return f"{self.session} hand {self.number} (revision {self.revision})"


class AppendOnlyQuerySet[M: models.Model](models.QuerySet[M]):
    """Bulk changes of ledger rows are refused: the ledger only grows."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: write a reversing entry instead")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: write a reversing entry instead")

    # bulk_update would go through update(); refuse it by name too, so the message says why.
    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: write a reversing entry instead")


class AppendOnlyError(Exception):
    """An attempt to change or remove a ledger row."""


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are append-only: they are never updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: they are never deleted")


def round_live_rows_index(prefix: str) -> models.Index:
    """A round's rows that reverse nothing (``round = ? AND reverses IS NULL``): how a correction, a void
    and the points a winner took find the rows still to cancel or count. Without it SQLite's planner took
    the unique index of ``reverses`` for ``IS NULL`` and walked every such row of the database, per round
    (issue 16: 29 s for the 走势 page of a 2,000-hand session)."""
    return models.Index(fields=("round", "reverses"), name=f"{prefix}_round_live_rows")


class LedgerEntry(AppendOnlyModel):
    """One side of one transfer: a seat's (or the house's) points, signed.

    A reversing entry repeats the row it cancels with the sign flipped and ``reverses`` pointing at it.
    """

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="entries")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="entries")
    round_version = models.ForeignKey(RoundVersion, on_delete=models.PROTECT, related_name="entries")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # null: the house
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    is_house = models.BooleanField(default=False)
    points = models.BigIntegerField()
    reason = models.CharField(max_length=20)
    event_index = models.PositiveSmallIntegerField()
    transfer_index = models.PositiveIntegerField()  # position of the transfer in the settle result
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        verbose_name_plural = "ledger entries"
        constraints = (
            models.CheckConstraint(
                condition=Q(is_house=True, seat__isnull=True, player__isnull=True)
                | Q(is_house=False, seat__gte=0, seat__lt=SEATS, player__isnull=False),
                name="ledger_entry_seat_or_house",
            ),
        )
        indexes = (
            # Covering indexes for the totals: per seat in a session, per person in a session (the running
            # totals since substitutes: without it SQLite read each of a 10,000-hand session's 90,000
            # rows from the table, 200 ms of every totals read), per player across a group.
            models.Index(fields=("session", "seat", "points"), name="ledger_session_seat_points"),
            models.Index(fields=("session", "player", "points"), name="ledger_session_player_points"),
            models.Index(fields=("player", "session", "points"), name="ledger_player_points"),
            # A session's rows in the order written, as the API's ledger pages them: PostgreSQL otherwise
            # walked the primary key from the database's first row, filtering by session, to the first
            # rows of a late session (issue 16: 121 ms for a page of 100 at 1,000 sessions).
            models.Index(fields=("session", "id"), name="ledger_session_in_order"),
            round_live_rows_index("ledger"),
        )

    def __str__(self) -> str:
        return f"{'house' if self.is_house else f'seat {self.seat}'} {self.points:+d} ({self.reason})"


class CoinEntry(AppendOnlyModel):
    """One seat's (or the house's) coin movement in one round version; reversed like ledger entries."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="coin_entries")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="coin_entries")
    round_version = models.ForeignKey(RoundVersion, on_delete=models.PROTECT, related_name="coin_entries")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # null: the house
    is_house = models.BooleanField(default=False)
    coins = models.BigIntegerField()
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        verbose_name_plural = "coin entries"
        constraints = (
            models.CheckConstraint(
                condition=Q(is_house=True, seat__isnull=True)
                | Q(is_house=False, seat__gte=0, seat__lt=SEATS),
                name="coin_entry_seat_or_house",
            ),
        )
        indexes = (
            models.Index(fields=("session", "seat", "coins"), name="coin_session_seat_coins"),
            round_live_rows_index("coin"),
        )

    def __str__(self) -> str:
        return f"{'house' if self.is_house else f'seat {self.seat}'} {self.coins:+d} coins"


class WinRecord(AppendOnlyModel):
    """One winner of one win event in one round version: what the statistics count.

    Rows of superseded or voided versions stay; statistics count only a round's current, unvoided
    version (``is_current`` is derived in the query, never stored).
    """

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="wins")
    round_version = models.ForeignKey(RoundVersion, on_delete=models.PROTECT, related_name="wins")
    version = models.PositiveIntegerField()
    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="wins")
    event_index = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="wins")
    discarder = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="deal_ins"
    )
    self_draw = models.BooleanField()
    fan = models.PositiveSmallIntegerField()
    # What the winner took for this win (the win and its 自摸加底) as its version pays it: the session's
    # biggest hands are read in this order (issue 16: summed per win at read, 3 s at 10,000 hands).
    points = models.BigIntegerField(default=0)

    class Meta:
        ordering = ("id",)
        constraints = (
            models.CheckConstraint(
                condition=Q(self_draw=True, discarder__isnull=True)
                | Q(self_draw=False, discarder__isnull=False),
                name="win_record_discarder_iff_not_self_draw",
            ),
        )
        indexes = (
            # A session's biggest hands (the 走势 page): its wins most points first.
            models.Index(fields=("session", "-points"), name="win_session_biggest"),
            # A player's biggest hand (统计): his wins most fan first, the first of equals first.
            models.Index(fields=("winner", "-fan", "id"), name="win_player_biggest"),
        )

    def __str__(self) -> str:
        return f"round {self.round_id} v{self.version}: player {self.winner_id} won {self.fan} fan"


class FigureCounts(models.Model):
    """What a row of figures counts (``figures.COUNTS``), a session's (``Figures``) or a group's added up
    (``GroupFigures``). ``other`` is the player himself on his own row (his record), another player on a
    row of the pair (what he paid that player, the wins he fed him)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rounds = models.IntegerField(default=0)  # his counted rounds (not voided): he played the session
    hands = models.IntegerField(default=0)  # of those, the hands (not adjustments only)
    net = models.BigIntegerField(default=0)
    kong_points = models.BigIntegerField(default=0)  # the net of his kong rows (刮风下雨)
    huazhu = models.IntegerField(default=0)  # hands in which he paid for 查花猪
    chajiao = models.IntegerField(default=0)  # hands in which he paid for 查大叫
    wins = models.IntegerField(default=0)
    self_draws = models.IntegerField(default=0)
    paid = models.BigIntegerField(default=0)  # a pair's row: the points he paid ``other``, still paid
    fed = models.IntegerField(default=0)  # a pair's row: wins ``other`` took on his discards (点炮)

    class Meta:
        abstract = True


class Figures(FigureCounts):
    """A player's figures in one session, kept by every round write so that no read sums a group's
    ledger (ledger/figures.py, issue 16).

    Derived, never a fact: ``figures.rebuild`` makes them again from the ledger and ``figures.drift``
    (``verify_ledger``) names any that differ from it.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="figures")

    class Meta:
        ordering = ("session", "player", "other")
        verbose_name_plural = "figures"
        constraints = (
            models.UniqueConstraint(fields=("session", "player", "other"), name="figures_once_per_pair"),
        )

    def __str__(self) -> str:
        return f"session {self.session_id}: player {self.player_id} / {self.other_id}"


class GroupFigures(FigureCounts):
    """A group's figures added up over all its sessions, kept beside ``Figures`` so that the standings and
    the all-time statistics read a few rows a player whatever the number of sessions (ledger/figures.py,
    issue 16): each count is the sum of the group's ``Figures`` rows of the same (player, other), and
    ``sessions`` (own rows only) the sessions in which his own row counts a round.

    Derived, never a fact: ``figures.rebuild`` makes them again from the session rows and ``figures.drift``
    (``verify_ledger``) names any that differ from what those add up to.
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    sessions = models.IntegerField(default=0)  # his own row: the sessions he played (rounds > 0)

    class Meta:
        ordering = ("group", "player", "other")
        verbose_name_plural = "group figures"
        constraints = (
            models.UniqueConstraint(fields=("group", "player", "other"), name="group_figures_once_per_pair"),
        )

    def __str__(self) -> str:
        return f"group {self.group_id}: player {self.player_id} / {self.other_id}"


# --- invites: membership by consent ----------------------------------------------------------------------


INVITE_ROLES = (Role.VIEWER, Role.SCOREKEEPER)
INVITE_ROLE_CHOICES = [(role.value, role.label) for role in INVITE_ROLES]


class SessionInvite(models.Model):
    """A link to one session's table: its opener watches it live (viewer) or joins the group to keep score.

    The link carries ``token`` alone (256 random bits), never an id, so links cannot be enumerated. An
    invite stops working when it expires or is revoked; the row stays, so the link can say which.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="invites")
    role = models.CharField(max_length=12, choices=Role.choices)
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-id",)
        constraints = (
            models.CheckConstraint(
                condition=Q(role__in=INVITE_ROLES), name="invite_role_viewer_or_scorekeeper"
            ),
        )

    def __str__(self) -> str:
        return f"{self.role} invite to {self.session_id}"

    def state(self, now: datetime) -> str:
        """``active``, or why the link no longer works: ``revoked`` (checked first) or ``expired``."""
        if self.revoked_at is not None:
            return "revoked"
        return "expired" if self.expires_at <= now else "active"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", "pending"
    ACCEPTED = "accepted", "accepted"
    DECLINED = "declined", "declined"  # by the account asked, or withdrawn by an owner


class GroupInvitation(models.Model):
    """An owner's request that an account join a group: nothing changes until that account accepts."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=12, choices=Role.choices)
    status = models.CharField(
        max_length=8, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-id",)
        constraints = (
            models.CheckConstraint(condition=Q(role__in=Role.values), name="invitation_role_known"),
            models.CheckConstraint(
                condition=Q(status__in=InvitationStatus.values), name="invitation_status_known"
            ),
            models.CheckConstraint(
                condition=Q(status=InvitationStatus.PENDING, answered__isnull=True)
                | (~Q(status=InvitationStatus.PENDING) & Q(answered__isnull=False)),
                name="invitation_answered_iff_not_pending",
            ),
            models.UniqueConstraint(
                fields=("group", "user"),
                condition=Q(status=InvitationStatus.PENDING),
                name="invitation_one_pending_per_group_and_user",
            ),
        )

    def __str__(self) -> str:
        return f"{self.user} invited to {self.group} as {self.role} ({self.status})"


class PaymentMark(AppendOnlyModel):
    """A payment toward a session's settle-up, as its payer or payee said it happened (ledger/debts.py).

    What is owed is never stored: it is the session's settle-up, derived from its nets. A mark is a fact
    (this much passed from ``payer`` to ``payee``, said by ``marked_by`` at ``created``). Undoing a mark
    appends its reversal (the amount negated, ``reverses`` pointing at it), never an update.
    """

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="payment_marks")
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField()
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    marked_by_name = models.CharField(max_length=WRITER_NAME_LENGTH)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        constraints = (
            models.CheckConstraint(condition=~Q(payer=models.F("payee")), name="payment_between_two"),
            models.CheckConstraint(
                condition=Q(reverses__isnull=True, amount__gt=0) | Q(reverses__isnull=False, amount__lt=0),
                name="payment_mark_or_its_reversal",
            ),
        )

    def __str__(self) -> str:
        return f"{self.amount:+d} ({self.marked_by_name})"


class KeptTransfers(models.Model):
    """What a session's settle-up asks, player to player (ledger/debts.py, step 1), kept so that a group's
    谁还欠谁 does not settle up every one of its sessions on each read. Derived, never a fact: ``key``
    digests everything the transfers are made from (``debts.transfers_key``); a read takes a row only while
    its key is the session's now, and settles the session afresh (and keeps that) otherwise."""

    session = models.OneToOneField(
        Session, on_delete=models.CASCADE, primary_key=True, related_name="kept_transfers"
    )
    key = models.CharField(max_length=64)
    transfers = models.JSONField(default=list)  # [[payer's player id, payee's, amount], ...] in order

    def __str__(self) -> str:
        return f"{self.session_id}: {self.transfers}"


class KeptDebts(models.Model):
    """A group's 谁还欠谁 netted across its sessions (ledger/debts.py, step 4), kept so that a read does not
    walk every session. Derived, never a fact: a read takes it only while ``revision`` is the group's
    ``debts_revision`` and ``form`` is ``debts.TRANSFERS_FORM``, and computes it afresh (and keeps that)
    otherwise."""

    group = models.OneToOneField(Group, on_delete=models.CASCADE, primary_key=True, related_name="kept_debts")
    revision = models.BigIntegerField()
    form = models.PositiveSmallIntegerField()
    # [[the lower player id, the higher, the unit, what low owes high], ...]: the pairs not square, in the
    # order the walk first met them (the order of the answer's ties)
    net = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"{self.group_id} at {self.revision}: {self.net}"


class DeviceToken(AbstractAuthToken):
    """One API token per device that logged in (``POST auth/token/``), kept as knox keeps it: a SHA-512
    digest and the key's first characters to find it by, never the key (a dump of the database holds no
    usable token). ``name`` is what the device called itself; ``last_used`` moves with knox's renewal
    (at most once a minute), and so does ``expiry``: a token dies ``REST_KNOX["TOKEN_TTL"]`` after its last
    use (docs/security.md, "API tokens")."""

    name = models.CharField(max_length=DEVICE_NAME_LENGTH, blank=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created",)
