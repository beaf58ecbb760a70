"""Shapes of the stored-data API. Input serializers only describe bodies for the schema and check the
envelope; the services (and the engine behind them) validate the meaning, with the same messages as
``POST /api/v1/settle/``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import Any

from django.utils import timezone, translation
from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from api.errors import ErrorSerializer
from api.hand_shapes import seat_field, void_suits_field
from settlement.engine import FeeSplit

from .invite_links import invite_url, qr_svg
from .models import (
    DEVICE_NAME_LENGTH,
    INVITE_ROLE_CHOICES,
    GroupInvitation,
    LedgerEntry,
    Membership,
    Player,
    Role,
    Round,
    RoundVersion,
    Session,
    SessionInvite,
)

# --- accounts --------------------------------------------------------------------------------------------


class AccountCreateSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})


class AccountSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()


class AuthTokenRequestSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})
    name = serializers.CharField(
        max_length=DEVICE_NAME_LENGTH,
        required=False,
        allow_blank=True,
        help_text="What this device is called in GET auth/tokens/, e.g. 小王的手机.",
    )


class AuthTokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`; shown only here.")
    id = serializers.CharField(help_text="This device's token in GET auth/tokens/ (not the token).")
    name = serializers.CharField()
    expiry = serializers.DateTimeField(
        allow_null=True,
        help_text="When it stops working unless used before; each use moves it (null: never).",
    )


class DeviceTokenSerializer(serializers.Serializer[Any]):
    """A device logged in to the API, as GET auth/tokens/ lists it: never its key."""

    id = serializers.CharField(source="token_key")
    name = serializers.CharField()
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)
    expiry = serializers.DateTimeField(allow_null=True)
    current = serializers.SerializerMethodField(help_text="The token this request was made with.")

    def get_current(self, token: Any) -> bool:
        return bool(token.pk == getattr(self.context.get("auth"), "pk", None))


# --- groups, members, players ---------------------------------------------------------------------------


class GroupCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=100)


class GroupSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    created = serializers.DateTimeField()
    role = serializers.ChoiceField(choices=Role.choices, help_text="Your role in this group.")


class MemberAddSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Role.choices)


class MemberRoleSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Role.choices)


class MembershipSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ("id", "username", "role", "created")


class ResetLinkSerializer(serializers.Serializer[Any]):
    """A one-time link that sets a new password for a member (ledger/reset_links.py): it works once, until
    ``expires``; setting the password or logging in spends it."""

    username = serializers.CharField()
    url = serializers.URLField()
    expires = serializers.DateTimeField()


class InvitationSerializer(serializers.ModelSerializer[GroupInvitation]):
    """An account asked to join a group. ``id``, ``username``, ``role`` and ``created`` are the fields a
    membership has, so a client of the members list reads both alike; ``id`` is the invitation's."""

    username = serializers.CharField(source="user.username")
    group_name = serializers.CharField(source="group.name")
    invited_by = serializers.CharField(source="invited_by.username", allow_null=True, default=None)

    class Meta:
        model = GroupInvitation
        fields = ("id", "username", "role", "created", "status", "group", "group_name", "invited_by")


class InviteCreateSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=INVITE_ROLE_CHOICES)
    expires_in_hours = serializers.IntegerField(
        required=False, help_text="How long the link works, in hours (1 to 720; 24 when left out)."
    )


class InviteSerializer(serializers.ModelSerializer[SessionInvite]):
    """A link to a session. ``url`` carries an unguessable token; ``qr_svg`` is that URL as inline SVG."""

    url = serializers.SerializerMethodField()
    qr_svg = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField(help_text="active, expired or revoked.")
    created_by = serializers.CharField(source="created_by.username", allow_null=True, default=None)

    class Meta:
        model = SessionInvite
        fields = ("id", "role", "url", "qr_svg", "expires_at", "status", "session", "created", "created_by")

    def get_url(self, invite: SessionInvite) -> str:
        return invite_url(self.context["request"], invite)

    def get_qr_svg(self, invite: SessionInvite) -> str:
        return qr_svg(self.get_url(invite))

    def get_status(self, invite: SessionInvite) -> str:
        return invite.state(timezone.now())


class PlayerCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=50)


class PlayerSerializer(serializers.ModelSerializer[Player]):
    username = serializers.CharField(source="user.username", allow_null=True, default=None)

    class Meta:
        model = Player
        fields = ("id", "name", "username", "created")


# --- sessions ------------------------------------------------------------------------------------------


class CoinsSetupSerializer(serializers.Serializer[Any]):
    room_coefficient = serializers.IntegerField(min_value=1, max_value=1_000_000)
    starting_balances = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10**12), min_length=4, max_length=4
    )


class SessionCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="Left out or blank: the session is named by its day, in each reader's language.",
    )
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10**18),
        min_length=4,
        max_length=4,
        help_text="Four player ids in seat order.",
    )
    rules = serializers.DictField(
        required=False, allow_null=True, help_text='A preset plus overrides, e.g. {"preset": "chengdu"}.'
    )
    coins = CoinsSetupSerializer(required=False, allow_null=True)
    fee = serializers.DictField(
        required=False,
        allow_null=True,
        help_text=(
            "The table fee, as POST sessions/{id}/fee/ takes it (amount, split, paid_by: one of the four "
            "players or null) and checked by the same rule; left out: none."
        ),
    )


class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


class TableFeeSerializer(serializers.Serializer[Any]):
    """A session's table fee, and the body of ``POST sessions/{id}/fee/`` (checked by the service)."""

    amount = serializers.IntegerField(
        help_text="In the session's unit (coins when it plays for coins); 0: none."
    )
    split = serializers.ChoiceField(
        choices=[split.value for split in FeeSplit],
        help_text="aa: everyone alike; top_winner: the biggest winner; winners: the winners in proportion.",
    )
    paid_by = serializers.IntegerField(
        allow_null=True, help_text="The player (id) who paid the room; null: the house is still owed it."
    )


class SessionSerializer(serializers.ModelSerializer[Session]):
    name = serializers.CharField(
        source="title",
        read_only=True,
        help_text="As a reader sees it: given_name, or else its day in English (the API's language).",
    )
    name_zh = serializers.SerializerMethodField(help_text="The same in Chinese: given_name, or 12月2日.")
    given_name = serializers.CharField(
        source="name", read_only=True, help_text="The name as typed; blank when named by its day."
    )
    day = serializers.DateField(read_only=True, help_text="The day the session started.")
    day_number = serializers.IntegerField(
        read_only=True, help_text="Its place among the group's sessions that day, from 1."
    )
    players = serializers.SerializerMethodField()
    coins = serializers.SerializerMethodField()
    fee = serializers.SerializerMethodField(help_text='The table fee (docs/ledger.md, "The table fee").')

    class Meta:
        model = Session
        fields = (
            "id",
            "group",
            "name",
            "name_zh",
            "given_name",
            "day",
            "day_number",
            "players",
            "rules",
            "coins",
            "status",
            "created",
            "closed",
            "fee",
        )

    @extend_schema_field(TableFeeSerializer())
    def get_fee(self, session: Session) -> dict[str, Any]:
        return {"amount": session.fee_amount, "split": session.fee_split, "paid_by": session.fee_paid_by_id}

    def get_name_zh(self, session: Session) -> str:
        with translation.override("zh-hans"):
            return session.title

    @extend_schema_field(SeatSerializer(many=True))
    def get_players(self, session: Session) -> list[dict[str, Any]]:
        # many=True makes a ListSerializer, whose data is a list; the stub types it as the class's own dict
        return SeatSerializer(session.seats.all(), many=True).data  # type: ignore[return-value]

    @extend_schema_field(CoinsSetupSerializer(allow_null=True))
    def get_coins(self, session: Session) -> dict[str, Any] | None:
        if not session.coins_enabled:
            return None
        return {"room_coefficient": session.room_coefficient, "starting_balances": session.starting_balances}


# --- rounds --------------------------------------------------------------------------------------------


class RoundBodySerializer(serializers.Serializer[Any]):
    """The body of ``POST /api/v1/settle/`` without ``rules`` and ``coins`` (the session supplies both)."""

    dealer = seat_field("The dealer's seat (0..3).")
    void_suits = void_suits_field(allow_null=True)
    events = serializers.ListField(
        child=serializers.DictField(), help_text="Events as in POST /api/v1/settle/."
    )


ROUND_BODY_EXAMPLE = OpenApiExample(
    "B self-draws a 清一色",
    value={
        "dealer": 0,
        "void_suits": ["s", "m", "p", "m"],
        "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 3}]}],
    },
    request_only=True,
)


class RoundSerializer(serializers.ModelSerializer[Round]):
    result = serializers.JSONField(
        allow_null=True, help_text="The settle response of the current version (null once voided)."
    )

    class Meta:
        model = Round
        fields: tuple[str, ...] = (
            "id",
            "session",
            "position",
            "version",
            "voided",
            "dealer",
            "void_suits",
            "events",
            "result",
            "created",
        )


class VersionEntrySerializer(serializers.ModelSerializer[LedgerEntry]):
    """A ledger row as its round version lists it."""

    event = serializers.IntegerField(source="event_index")
    house = serializers.BooleanField(source="is_house")

    class Meta:
        model = LedgerEntry
        fields = ("id", "seat", "player", "house", "points", "reason", "event", "transfer_index", "reverses")


class EntrySerializer(VersionEntrySerializer):
    """A ledger row in the session's ledger: the version's row with its round, version and player named."""

    position = serializers.IntegerField(source="round.position")
    version = serializers.IntegerField(source="round_version.version")
    player_name = serializers.CharField(source="player.name", allow_null=True, default=None)

    class Meta:
        model = LedgerEntry
        fields = (
            "id",
            "round",
            "position",
            "version",
            "seat",
            "player",
            "player_name",
            "house",
            "points",
            "reason",
            "event",
            "transfer_index",
            "reverses",
            "created",
        )


class RoundVersionSerializer(serializers.ModelSerializer[RoundVersion]):
    created_by = serializers.CharField(
        source="writer_name",
        allow_null=True,
        default=None,
        help_text="The user name of who wrote this version, kept when the account is deleted.",
    )
    entries = VersionEntrySerializer(many=True)

    class Meta:
        model = RoundVersion
        fields = (
            "version",
            "kind",
            "dealer",
            "void_suits",
            "events",
            "result",
            "coin_balances_before",
            "created_by",
            "created",
            "entries",
        )


class RoundDetailSerializer(RoundSerializer):
    history = RoundVersionSerializer(many=True, source="versions")

    class Meta(RoundSerializer.Meta):
        fields = (*RoundSerializer.Meta.fields, "history")


# --- totals, settle-up, standings ------------------------------------------------------------------------


class SeatTotalSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player_name")
    points = serializers.IntegerField()
    coins = serializers.IntegerField(allow_null=True, help_text="Coin balance now (null without coins).")


class TotalsSerializer(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(help_text="Rounds that count (voided ones do not).")
    seats = SeatTotalSerializer(many=True, help_text="The four seats now, each its player's total.")
    away = SeatTotalSerializer(
        many=True,
        help_text="Who played earlier and was substituted, in the order they left, at the seat each left "
        "(empty when nobody was).",
    )
    house = serializers.IntegerField(help_text="Burned points; the seats, away and the house sum to 0.")
    house_coins = serializers.IntegerField(allow_null=True)


class SettleUpPaymentSerializer(serializers.Serializer[Any]):
    from_ = serializers.JSONField(
        help_text="A place in the totals' seats then away: a seat (0..3), or 4 and on for who left."
    )
    from_name = serializers.CharField()
    from_player = serializers.IntegerField(help_text="The payer's player id.")
    to = serializers.JSONField(help_text='A place as `from`, or "house" for burned points.')
    to_name = serializers.CharField()
    to_player = serializers.IntegerField(
        allow_null=True, help_text="The payee's player id (null: the house)."
    )
    amount = serializers.IntegerField()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class SettleUpFeeSerializer(TableFeeSerializer):
    paid_by_seat = serializers.IntegerField(allow_null=True, help_text="paid_by's seat (null: the house).")
    shares = serializers.ListField(child=serializers.IntegerField(), help_text="Each seat's share.")


class SettleUpSerializer(serializers.Serializer[Any]):
    balances = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="What each seat's payments square: its net, less its share of the table fee, plus the "
        "fee for whoever paid the room.",
    )
    house = serializers.IntegerField(
        help_text="What the house is owed: burned points, and a fee not yet paid."
    )
    payments = SettleUpPaymentSerializer(many=True)
    fee = SettleUpFeeSerializer(allow_null=True, help_text="The table fee as it entered (null: none).")


# --- debts: what each settle-up asked, what was marked paid, what is still owed (ledger/debts.py) -------

UNIT_HELP = '"points", or "coins" for a session that plays for coins (its coins\' settle-up).'


class PairFieldsSerializer(serializers.Serializer[Any]):
    """A pair of players read from the one who pays (``from_player``, a player id, not a seat)."""

    from_player = serializers.IntegerField(source="payer.player_id")
    from_name = serializers.CharField(source="payer.name")
    to_player = serializers.IntegerField(source="payee.player_id")
    to_name = serializers.CharField(source="payee.name")
    unit = serializers.CharField(help_text=UNIT_HELP)


class PairDebtSerializer(PairFieldsSerializer):
    session = serializers.IntegerField(source="session_id")
    asked = serializers.IntegerField(help_text="What the session's settle-up asks from_player to pay now.")
    paid = serializers.IntegerField(help_text="What marks say from_player has paid to_player (net).")
    left = serializers.IntegerField(
        help_text="asked - paid; negative after a correction: to_player has that much to return."
    )


class OwingSerializer(PairFieldsSerializer):
    amount = serializers.IntegerField(help_text="Still owed, netted over every session (always > 0).")


class PaymentMarkSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    session = serializers.IntegerField(source="session_id")
    from_player = serializers.IntegerField(source="payer_id")
    from_name = serializers.CharField(source="payer.name")
    to_player = serializers.IntegerField(source="payee_id")
    to_name = serializers.CharField(source="payee.name")
    amount = serializers.IntegerField(help_text="Paid; negative for the reversal that undoes a mark.")
    marked_by = serializers.CharField(source="marked_by_name")
    created = serializers.DateTimeField()
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    undone = serializers.SerializerMethodField()

    def get_undone(self, mark: Any) -> bool:
        return hasattr(mark, "reversed_by")


class PaymentMarkCreateSerializer(serializers.Serializer[Any]):
    """The body of ``POST sessions/{id}/payments/`` (checked by ``services.payment_mark``)."""

    from_player = serializers.IntegerField(help_text="The player who paid (a player id).")
    to_player = serializers.IntegerField(help_text="The player paid.")
    amount = serializers.IntegerField(help_text="1 to what is left between the two in that direction.")


class SessionDebtsSerializer(serializers.Serializer[Any]):
    session = serializers.IntegerField()
    unit = serializers.CharField(help_text=UNIT_HELP)
    pairs = PairDebtSerializer(many=True, help_text="Each pair's account in this session.")
    carried = PairDebtSerializer(many=True, help_text="What the group's other sessions leave unpaid.")
    corrected_after_marks = serializers.BooleanField(
        help_text="A hand was corrected or voided after the first payment was marked."
    )
    marks = PaymentMarkSerializer(many=True, help_text="Every mark and reversal, newest first.")


class GroupDebtsSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    owed = OwingSerializer(many=True, help_text="Who still owes whom, across every session of the group.")


class StandingSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    sessions = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    standings = StandingSerializer(many=True)


# The statistics' answers hold a figure per session per player: at a thousand sessions DRF's walk of every
# field of every one took most of the answer's time (issue 16). The per-session rows are written out here;
# the fields stay declared for the schema, and tests/ledger/test_statistics.py holds the answer to DRF's walk
# of them.


class SessionNetSerializer(serializers.Serializer[Any]):
    session = serializers.IntegerField(source="session_id")
    name = serializers.CharField()
    points = serializers.IntegerField()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return {"session": instance.session_id, "name": str(instance.name), "points": int(instance.points)}


class BiggestHandSerializer(serializers.Serializer[Any]):
    fan = serializers.IntegerField()
    pattern = serializers.CharField(
        allow_null=True,
        help_text="The engine's pattern key when the hand was scored from its tiles, or null.",
    )
    points = serializers.IntegerField(source="win.points", help_text="What the winner took for it.")
    session = serializers.IntegerField(source="session_id")
    position = serializers.IntegerField(help_text="The hand's number in its session.")


class PlayerStatisticsSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    hands_won = serializers.IntegerField(source="wins")
    self_draws = serializers.IntegerField()
    dealt_in = serializers.IntegerField(
        source="deal_ins", help_text="Wins on this player's discard (one per winner)."
    )
    biggest_fan = serializers.IntegerField(source="biggest.fan", allow_null=True)
    kong_points = serializers.IntegerField(help_text="Net points from kong payments, transfers and refunds.")
    sessions = SessionNetSerializer(many=True, source="session_nets")
    # added with the statistics page (docs/ledger.md): the same selector, more of its figures
    sessions_played = serializers.IntegerField(
        source="sessions", help_text="Sessions he sat in that have a hand that counts."
    )
    hands_played = serializers.IntegerField(source="hands", help_text="Counted hands of those sessions.")
    huazhu = serializers.IntegerField(help_text="Hands in which he paid for 查花猪.")
    chajiao = serializers.IntegerField(help_text="Hands in which he paid for 查大叫.")
    net = serializers.IntegerField(help_text="Points across the group's sessions.")
    average_net = serializers.DecimalField(
        max_digits=24,
        decimal_places=1,
        coerce_to_string=False,
        allow_null=True,
        help_text="Net per session played, to one decimal; null before his first session.",
    )
    biggest_hand = BiggestHandSerializer(source="biggest", allow_null=True)


class PlayerPointsSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    points = serializers.IntegerField()


class SessionStandingsSerializer(serializers.ListSerializer[Any]):
    """The standings, the site's time zone looked up once for the list: DRF's DateTimeField asks asgiref's
    Local for it on every row (a fifth of the answer's time at 1,000 sessions)."""

    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        zone = timezone.get_current_timezone()
        return [_standing(standing, zone) for standing in data]


class SessionStandingSerializer(serializers.Serializer[Any]):
    session = serializers.IntegerField(source="session_id")
    name = serializers.CharField()
    created = serializers.DateTimeField()
    hands = serializers.IntegerField(help_text="Hands that count.")
    nets = serializers.SerializerMethodField(help_text="Each seated player's net in this session.")
    totals = serializers.SerializerMethodField(help_text="Every player's total after this session.")

    class Meta:
        list_serializer_class = SessionStandingsSerializer

    # The schema reads these two; ``_standing`` writes the answer.
    @extend_schema_field(PlayerPointsSerializer(many=True))
    def get_nets(self, standing: Any) -> list[dict[str, int]]:
        return _points(standing.nets)

    @extend_schema_field(PlayerPointsSerializer(many=True))
    def get_totals(self, standing: Any) -> list[dict[str, int]]:
        return _points(standing.totals)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return _standing(instance, timezone.get_current_timezone())


def _standing(standing: Any, zone: tzinfo) -> dict[str, Any]:
    """A ``statistics.SessionStanding`` as ``SessionStandingSerializer`` declares it."""
    return {
        "session": standing.session_id,
        "name": str(standing.name),
        "created": _iso_8601(standing.created, zone),
        "hands": int(standing.hands),
        "nets": _points(standing.nets),
        "totals": _points(standing.totals),
    }


def _iso_8601(moment: datetime, zone: tzinfo) -> str:
    """What DRF's DateTimeField writes (ISO 8601, the site's setting): the moment in ``zone``, UTC as Z."""
    written = moment.astimezone(zone).isoformat()
    return written[:-6] + "Z" if written.endswith("+00:00") else written


def _points(by_player: Mapping[int, int]) -> list[dict[str, int]]:
    return [{"player": player, "points": points} for player, points in by_player.items()]


class PeriodPlayerSerializer(serializers.Serializer[Any]):
    """A ``periods.PeriodPlayer``: one player's figures over the period."""

    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    sessions = serializers.IntegerField(help_text="Counted sessions of the period he sat in.")
    net = serializers.IntegerField()
    kong_points = serializers.IntegerField(help_text="Kong money (刮风下雨) over the period.")
    huazhu = serializers.IntegerField(help_text="Hands in which he paid for 查花猪.")
    winning_run = serializers.IntegerField(help_text="The most sessions in a row he ended ahead.")


class FedSerializer(serializers.Serializer[Any]):
    from_ = serializers.IntegerField(source="from_", help_text="The discarder (a player id).")
    to = serializers.IntegerField(help_text="The winner he fed (a player id).")
    count = serializers.IntegerField(help_text="Wins on his discards, one per winner paid (点炮).")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class BetweenSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(help_text="The lower player id of the pair.")
    other = serializers.IntegerField(help_text="The higher player id of the pair.")
    net = serializers.IntegerField(
        help_text="``player``'s net against ``other``: what other paid him less what he paid other."
    )


class PeriodSerializer(serializers.Serializer[Any]):
    """A ``periods.PeriodFigures``: the figures over the period asked (``?period=``)."""

    key = serializers.CharField(help_text="all, this_month, last_month, this_year or range.")
    start = serializers.DateField(allow_null=True, help_text="The first day counted (null: from the start).")
    end = serializers.DateField(allow_null=True, help_text="The first day not counted (null: up to now).")
    sessions = serializers.IntegerField(help_text="Counted sessions started in the period.")
    players = PeriodPlayerSerializer(many=True)
    fed = FedSerializer(many=True)
    between = BetweenSerializer(many=True)
    kong_kings = serializers.ListField(
        child=serializers.IntegerField(), help_text="杠王: the most kong money."
    )
    huazhu_kings = serializers.ListField(
        child=serializers.IntegerField(), help_text="花猪王: the most 花猪 hands."
    )
    longest_run = serializers.ListField(
        child=serializers.IntegerField(), help_text="The longest run of winning sessions: who holds it."
    )
    records = PlayerStatisticsSerializer(
        many=True, help_text="Each player's record over the period, in the shape of the top-level players."
    )
    standings = SessionStandingSerializer(
        many=True,
        help_text="The standings over the period, session by session (totals from 0 at its first session), "
        "in the shape of the top-level sessions.",
    )


def period_body(figures: Any, records: Any) -> dict[str, Any]:
    """``periods.PeriodFigures`` and the period's ``statistics.GroupStatistics`` as ``PeriodSerializer``
    reads them."""
    return {
        "records": records.players,
        "standings": records.sessions,
        "key": figures.period.key,
        "start": figures.period.start,
        "end": figures.period.end,
        "sessions": figures.sessions,
        "players": figures.players,
        "fed": [{"from_": a, "to": b, "count": n} for (a, b), n in sorted(figures.fed.items())],
        "between": [{"player": a, "other": b, "net": n} for (a, b), n in sorted(figures.between.items())],
        "kong_kings": list(figures.kong_kings),
        "huazhu_kings": list(figures.huazhu_kings),
        "longest_run": list(figures.longest_run),
    }


class StatisticsSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    players = PlayerStatisticsSerializer(many=True)
    sessions = SessionStandingSerializer(
        many=True, help_text="The standings session by session: the counted sessions in the order played."
    )
    period = PeriodSerializer(
        help_text="The figures over the period asked by ?period= (this_month, last_month, this_year, or "
        "range with ?from=&to=, both days counted; all by default), with who fed whom and the pairs' nets."
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        """DRF's answer, but a period whose records and standings are the all-time players and sessions
        (the period ``all``: the very same, none read again) gets the lists already written for them."""
        period = instance["period"]
        if period["records"] is not instance["players"] or period["standings"] is not instance["sessions"]:
            return super().to_representation(instance)
        answer = super().to_representation({**instance, "period": {**period, "records": (), "standings": ()}})
        answer["period"]["records"], answer["period"]["standings"] = answer["players"], answer["sessions"]
        return answer


# --- the hand in progress --------------------------------------------------------------------------------


class HandSerializer(serializers.Serializer[Any]):
    """A ``selectors.HandState``: the hand being played, with the settlement of its events so far."""

    session = serializers.IntegerField(source="session_id")
    number = serializers.IntegerField(
        help_text="The hand's number in the session (第N手): its round's position."
    )
    dealer = serializers.IntegerField(help_text="The dealer's seat (0..3).")
    void_suits = serializers.JSONField(help_text="Four void suits (定缺: m, p, s or null), or null.")
    events = serializers.ListField(child=serializers.DictField(), help_text="Settle events so far, in order.")
    notes = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="One per event: the note sent with it, or null.",
    )
    revision = serializers.IntegerField(
        help_text="Grows with every change of the hand and of the session's ledger: send it with each write."
    )
    can_undo = serializers.BooleanField()
    can_redo = serializers.BooleanField()
    preview = serializers.JSONField(
        help_text="The settle response of the events so far (transfers, net, finished…), as POST settle/."
    )


class HandEventSerializer(serializers.Serializer[Any]):
    event = serializers.DictField(help_text="One settle event, as in POST /api/v1/settle/.")
    revision = serializers.IntegerField(
        min_value=0, help_text="The revision of the hand the event was entered on."
    )
    note = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=1000,
        help_text="What the scorekeeper saw, kept with the event.",
    )


class HandRevisionSerializer(serializers.Serializer[Any]):
    revision = serializers.IntegerField(min_value=0)


class HandSetupSerializer(serializers.Serializer[Any]):
    dealer = seat_field("The dealer's seat (0..3).", required=False)
    void_suits = void_suits_field(allow_null=True)
    revision = serializers.IntegerField(min_value=0)


class SeatsChangeSerializer(serializers.Serializer[Any]):
    """``POST sessions/{id}/seats/``: from the hand about to be played, a seat's player changes or two seats
    swap; exactly one of ``player``, ``name`` and ``swap``."""

    seat = seat_field("The seat that changes (0..3).")
    player = serializers.IntegerField(required=False, help_text="A player of the group who takes the seat.")
    name = serializers.CharField(
        required=False, help_text="Or the player's name: a name the group does not know becomes a player."
    )
    swap = seat_field("Or the seat (0..3) it swaps with.", required=False)
    revision = serializers.IntegerField(min_value=0)


class SeatsChangedSerializer(serializers.Serializer[Any]):
    seats = SeatSerializer(many=True, help_text="The table as it now sits, in seat order.")
    from_hand = serializers.IntegerField(help_text="The hand from which it sits so (the hand in progress).")
    hand = HandSerializer(help_text="The hand in progress, its revision moved on.")


class HandFinishedSerializer(serializers.Serializer[Any]):
    round = RoundSerializer(help_text="The round the finished hand became, as POST …/rounds/ answers it.")
    hand = HandSerializer(help_text="The next hand, with the suggested dealer.")


class HandReopenedSerializer(serializers.Serializer[Any]):
    hand = HandSerializer(
        help_text="The hand in progress again, its finishing event undone (redo records it)."
    )
    reopened_round = serializers.IntegerField(
        help_text="The id of the round the hand had become: voided now (a reversal version)."
    )


class HandConflictSerializer(ErrorSerializer):
    """A 409 of the hand in progress: the error, with the hand as it stands now to start again from."""

    hand = HandSerializer(help_text="The hand as it stands now.")
