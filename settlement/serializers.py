"""The shapes of the settle API, for the OpenAPI schema only (``settlement.engine.requests`` validates)."""

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from api.hand_shapes import (
    SUIT_HELP,
    MeldSerializer,
    TilesField,
    rules_field,
    seat_field,
    void_suits_field,
)
from calculator.engine import MAX_OPTION_VALUE
from settlement.engine import EACH, HOUSE, DrawStatus, EventKind, KongKind, Reason


def with_from(
    serializer_class: type[serializers.Serializer[Any]], field: serializers.Field[Any, Any, Any, Any]
) -> None:
    """Declare the JSON field ``from``, a Python keyword that cannot be a class attribute."""
    serializer_class._declared_fields["from"] = field


class WinningHandSerializer(serializers.Serializer[Any]):
    concealed = TilesField(help_text="The winner's concealed tiles before the win, without win_tile.")
    melds = MeldSerializer(many=True, required=False, help_text="His shown melds.")
    win_tile = serializers.CharField(help_text="The winning tile. Required.")


class HeldHandSerializer(serializers.Serializer[Any]):
    concealed = TilesField(help_text="The concealed tiles held at the end: 13 - 3 x melds, or one more.")
    melds = MeldSerializer(many=True, required=False, help_text="His shown melds.")


class WinnerSerializer(serializers.Serializer[Any]):
    """One winner: his hand as tiles (the engine scores it) or its final fan entered by hand."""

    player = seat_field("The winner's seat.")
    hand = WinningHandSerializer(required=False, help_text="The winning hand as tiles; or give fan.")
    fan = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The hand's final fan entered by hand (gen, 杠上花/炮, 抢杠, 自摸加番 included); the "
        "engine adds 自摸加底 and the cap. Give hand or fan.",
    )
    tian_hu = serializers.BooleanField(required=False, default=False, help_text="天胡 (hands as tiles).")
    di_hu = serializers.BooleanField(required=False, default=False, help_text="地胡 (hands as tiles).")


class PlayerStateSerializer(serializers.Serializer[Any]):
    """An active player's position at a 流局 or a late escape: his tiles, or his status."""

    player = seat_field()
    hand = HeldHandSerializer(
        required=False,
        help_text="His tiles: the engine decides 花猪, readiness and best fan. Or give status.",
    )
    status = serializers.ChoiceField(
        choices=[status.value for status in DrawStatus],
        required=False,
        help_text="花猪 huazhu, 没叫 not_ready, or 有叫 ready (with fan).",
    )
    fan = serializers.IntegerField(
        min_value=1, required=False, help_text="status ready only: the best possible fan (查大叫)."
    )


class KongEventSerializer(serializers.Serializer[Any]):
    """刮风下雨: a kong and its payments (RULES.md 4.4)."""

    type = serializers.ChoiceField(choices=[EventKind.KONG.value], help_text="kong")
    player = seat_field("Who made the kong.")
    kind = serializers.ChoiceField(
        choices=[kind.value for kind in KongKind], help_text="直杠 direct, 弯杠 added or 暗杠 concealed."
    )
    tile = serializers.CharField(required=False, help_text="The kong's tile kind (optional; checks copies).")


with_from(
    KongEventSerializer, seat_field("direct only: the feeder who discarded the fourth tile.", required=False)
)


class WinEventSerializer(serializers.Serializer[Any]):
    """A win: one discard or robbed kong may have several winners (一炮多响)."""

    type = serializers.ChoiceField(choices=[EventKind.WIN.value], help_text="win")
    robbing_kong = serializers.BooleanField(
        required=False, default=False, help_text="抢杠胡: the winners robbed from's added kong."
    )
    after_kong = serializers.BooleanField(
        required=False,
        default=False,
        help_text="杠上花 (self-draw) or 杠上炮 (discard): the previous event was a kong by the self-drawer "
        "or by the discarder.",
    )
    last_tile = serializers.BooleanField(required=False, default=False, help_text="海底: on the last tile.")
    robbed_tile = serializers.CharField(
        required=False,
        help_text="robbing_kong only: the robbed 弯杠's tile, so an added kong of another tile entered just "
        "before stands.",
    )
    winners = WinnerSerializer(many=True, help_text="One entry per winner (several only on a discard).")


with_from(WinEventSerializer, seat_field("The discarder, or null for a self-draw.", allow_null=True))


class DrawEventSerializer(serializers.Serializer[Any]):
    """流局: the wall is exhausted; 查花猪, 查大叫 and 退税 run (RULES.md 5)."""

    type = serializers.ChoiceField(choices=[EventKind.DRAW.value], help_text="draw")
    players = PlayerStateSerializer(many=True, help_text="One entry per active player.")


class EscapeEventSerializer(serializers.Serializer[Any]):
    """逃跑: an active player leaves mid-round (RULES.md 6)."""

    type = serializers.ChoiceField(choices=[EventKind.ESCAPE.value], help_text="escape")
    player = seat_field("Who left.")
    tiles_left = serializers.IntegerField(min_value=0, help_text="Wall tiles left when he left.")
    players = PlayerStateSerializer(
        many=True,
        required=False,
        help_text="With 4 or fewer tiles left: the other active players' readiness, as in draw.",
    )


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 3},
            {"type": "string", "enum": [EACH, HOUSE]},
        ]
    }
)
class AdjustPayeeField(serializers.JSONField):
    """A seat, ``"each"`` (every other player in play) or ``"house"``."""


class AdjustEventSerializer(serializers.Serializer[Any]):
    """罚分 / 诈胡 / a side bet: points no rule computes (RULES.md 4.8)."""

    type = serializers.ChoiceField(choices=[EventKind.ADJUST.value], help_text="adjust")
    to = AdjustPayeeField(
        help_text='A seat, "each" (every other player in play, the full amount each) or "house".'
    )
    amount = serializers.IntegerField(
        min_value=1, max_value=MAX_OPTION_VALUE, help_text="Whole b each payee gets."
    )
    reason = serializers.CharField(
        max_length=80, help_text="诈胡, 罚分 or the table's own words (1 to 80 characters)."
    )


with_from(AdjustEventSerializer, seat_field("Who pays."))


EVENT_SERIALIZERS: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {
    "kong": KongEventSerializer,
    "win": WinEventSerializer,
    "draw": DrawEventSerializer,
    "escape": EscapeEventSerializer,
    "adjust": AdjustEventSerializer,
}


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Event", serializers=EVENT_SERIALIZERS, resource_type_field_name="type", many=True
    )
)
class EventsField(serializers.JSONField):
    """The round's events in the order they happened."""


class CoinsRequestSerializer(serializers.Serializer[Any]):
    balances = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=4,
        max_length=4,
        help_text="Each seat's coin balance before the round.",
    )
    room_coefficient = serializers.IntegerField(min_value=1, help_text="N: coins per point.")


class SettleRequestSerializer(serializers.Serializer[Any]):
    """One round: its dealer, the void suits, the events in order; optionally coins."""

    rules = rules_field()
    dealer = seat_field("The dealer (庄) of this round. Required.")
    void_suits = void_suits_field(
        help_text=f"Each seat's declared void suit (定缺): {SUIT_HELP}, or null when unknown.",
    )
    events = EventsField(
        help_text="kong, win, draw, escape and adjust events in the order they happened. Required."
    )
    coins = CoinsRequestSerializer(
        required=False, help_text="Coin balances and the room coefficient; the tax rate comes from rules."
    )


@extend_schema_field(
    {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3}, {"type": "string", "enum": ["house"]}]}
)
class PayeeField(serializers.JSONField):
    """A seat, or ``"house"`` for a burned penalty."""


class TransferSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField(help_text="The index of the event that caused it.")
    to = PayeeField(help_text='The receiving seat, or "house" for a burned penalty.')
    points = serializers.IntegerField(help_text="Points, always positive.")
    reason = serializers.ChoiceField(
        choices=[reason.value for reason in Reason], help_text="Why it was paid."
    )
    detail = serializers.DictField(
        required=False, help_text="What the page needs to explain it: the kong, its kind and tile, the fan..."
    )
    note = serializers.CharField(
        required=False, help_text="adjust only: the event's reason, as the table wrote it."
    )


with_from(TransferSerializer, seat_field("The paying seat."))


class HandScoreSerializer(serializers.Serializer[Any]):
    player = seat_field("The winner.")
    fan = serializers.IntegerField(help_text="The fan, never capped (as scored from tiles, or as entered).")
    multiplier = serializers.IntegerField(help_text="2^(fan-1), never capped.")
    pattern = serializers.CharField(
        allow_null=True, help_text="The base pattern's key; null for a fan entered."
    )
    points = serializers.IntegerField(
        required=False, help_text="What one payer pays, capped, before 自摸加底."
    )
    # the response's field is called source, as DRF calls a field's attribute path
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=["hand", "fan"], required=False, help_text="Scored from tiles (hand) or entered (fan)."
    )


class EventReportSerializer(serializers.Serializer[Any]):
    """What one event did; more keys by type (a kong's points, a win's situation, a draw's players)."""

    index = serializers.IntegerField(help_text="The event's index.")
    type = serializers.ChoiceField(choices=list(EVENT_SERIALIZERS), required=False, help_text="Its type.")
    scores = HandScoreSerializer(many=True, help_text="Each winner of a win event, as scored.")


class CoinsResultSerializer(serializers.Serializer[Any]):
    change = serializers.ListField(child=serializers.IntegerField(), help_text="Each seat's coin change.")
    house = serializers.IntegerField(help_text="What the house keeps (tax and burned points).")
    balances = serializers.ListField(child=serializers.IntegerField(), help_text="Balances after the round.")
    paid = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="What each loser paid (capped by balance).",
    )
    shares = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Each winner's share of the pool, before tax.",
    )
    pool = serializers.IntegerField(required=False, help_text="What the losers paid in all.")
    tax = serializers.IntegerField(required=False, help_text="The tax the house took from the winners.")


class RoundResultSerializer(serializers.Serializer[Any]):
    transfers = TransferSerializer(many=True, help_text="Every payment, in order, with its event and reason.")
    net = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's sum of transfers; net plus house sums to 0."
    )
    house = serializers.IntegerField(help_text="Points burned to the house.")
    events = EventReportSerializer(many=True, help_text="What each event did, and how each winner scored.")
    winners = serializers.ListField(child=seat_field(), help_text="The winners in the order they won.")
    finished = serializers.BooleanField(help_text="Whether the round has ended.")
    next_dealer = seat_field(
        "The next dealer; null while unfinished and under the dice rule.", allow_null=True
    )
    state = serializers.DictField(
        required=False,
        help_text="The round after its last event: active seats, winners, escaped, every kong payment "
        "and its state (paid, transferred, refunded).",
    )
    coins = CoinsResultSerializer(required=False, help_text="Only when coins were sent.")
