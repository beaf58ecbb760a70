"""The services: recording, correcting and voiding rounds, sessions, players and members."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Sum

from calculator.engine import OPTIONS, PATTERN_BY_KEY, PRESETS, EngineError, Preset, Rules
from calculator.engine.requests import _cached_rules
from ledger import selectors, services
from ledger.errors import IdempotencyKeyReusedError, RoundVoidedError, SessionClosedError
from ledger.models import LedgerEntry, Role, RoundVersion, Session, VersionKind
from tests.ledger.conftest import (
    DIRECT_KONG,
    DIRECT_KONG_NET,
    DRAW_WITH_PIG,
    DRAW_WITH_PIG_NET,
    KONG_THEN_GANG_SHANG_PAO,
    KONG_THEN_GANG_SHANG_PAO_NET,
    SELF_DRAW_B,
    SELF_DRAW_B_NET,
    make_table,
    make_user,
)


def points(session: Any) -> list[int]:
    return [seat.points for seat in selectors.session_totals(session).seats]


@pytest.mark.parametrize(
    ("body", "net"),
    [
        pytest.param(SELF_DRAW_B, SELF_DRAW_B_NET, id="self-draw"),
        pytest.param(KONG_THEN_GANG_SHANG_PAO, KONG_THEN_GANG_SHANG_PAO_NET, id="gang-shang-pao"),
        pytest.param(DIRECT_KONG, DIRECT_KONG_NET, id="direct-kong"),
        pytest.param(DRAW_WITH_PIG, DRAW_WITH_PIG_NET, id="draw-with-flower-pig"),
    ],
)
def test_recording_a_round_stores_its_transfers_as_balanced_entries(owner, session, body, net):
    round_, created = services.round_record(actor=owner, session=session, body=body)
    assert created
    assert points(session) == net
    assert LedgerEntry.objects.filter(round=round_).aggregate(total=Sum("points"))["total"] == 0
    transfers = RoundVersion.objects.get(round=round_).result["transfers"]
    assert LedgerEntry.objects.filter(round=round_).count() == 2 * len(transfers)


def test_positions_are_contiguous_from_one(owner, session):
    rounds = [services.round_record(actor=owner, session=session, body=SELF_DRAW_B)[0] for _ in range(3)]
    assert [r.position for r in rounds] == [1, 2, 3]


def test_the_same_idempotency_key_returns_the_stored_round(owner, session):
    first, created = services.round_record(
        actor=owner, session=session, body=SELF_DRAW_B, idempotency_key="k1"
    )
    again, created_again = services.round_record(
        actor=owner, session=session, body=SELF_DRAW_B, idempotency_key="k1"
    )
    assert (created, created_again) == (True, False)
    assert again.pk == first.pk
    assert points(session) == SELF_DRAW_B_NET


def test_the_same_idempotency_key_with_another_body_is_refused(owner, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B, idempotency_key="k1")
    with pytest.raises(IdempotencyKeyReusedError):
        services.round_record(actor=owner, session=session, body=DIRECT_KONG, idempotency_key="k1")
    assert points(session) == SELF_DRAW_B_NET


def test_an_invalid_round_stores_nothing(owner, session):
    bad = {"dealer": 0, "events": [{"type": "win", "from": 5, "winners": [{"player": 1, "fan": 2}]}]}
    with pytest.raises(EngineError) as caught:
        services.round_record(actor=owner, session=session, body=bad)
    assert caught.value.field.startswith("events[0]")
    assert not LedgerEntry.objects.exists()
    assert not session.rounds.exists()


def test_correcting_a_round_reverses_the_old_entries_and_writes_the_new(owner, session):
    round_, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    old_ids = set(LedgerEntry.objects.values_list("id", flat=True))
    services.round_correct(actor=owner, round_=round_, body=DIRECT_KONG)
    assert points(session) == DIRECT_KONG_NET
    reversals = LedgerEntry.objects.filter(reverses__isnull=False)
    assert set(reversals.values_list("reverses_id", flat=True)) == old_ids
    assert list(RoundVersion.objects.filter(round=round_).values_list("kind", flat=True)) == [
        VersionKind.RECORDED,
        VersionKind.CORRECTED,
    ]
    for version in RoundVersion.objects.filter(round=round_):
        assert version.entries.aggregate(total=Sum("points"))["total"] == 0


def test_a_second_correction_reverses_only_the_current_version(owner, session):
    round_, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    services.round_correct(actor=owner, round_=round_, body=DIRECT_KONG)
    services.round_correct(actor=owner, round_=round_, body=DRAW_WITH_PIG)
    assert points(session) == DRAW_WITH_PIG_NET
    round_.refresh_from_db()
    assert (round_.version, round_.events) == (3, DRAW_WITH_PIG["events"])


def test_voiding_a_round_cancels_its_points_and_keeps_its_history(owner, session):
    kept, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    voided, _ = services.round_record(actor=owner, session=session, body=DIRECT_KONG)
    services.round_void(actor=owner, round_=voided)
    assert points(session) == SELF_DRAW_B_NET
    assert selectors.session_totals(session).rounds == 1
    with pytest.raises(RoundVoidedError):
        services.round_correct(actor=owner, round_=voided, body=SELF_DRAW_B)
    assert kept.entries.count() == 2 * 6


def test_a_closed_session_takes_no_rounds_or_corrections(owner, session):
    round_, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    services.session_close(actor=owner, session=session)
    for attempt in (
        lambda: services.round_record(actor=owner, session=session, body=SELF_DRAW_B),
        lambda: services.round_correct(actor=owner, round_=round_, body=DIRECT_KONG),
        lambda: services.round_void(actor=owner, round_=round_),
    ):
        with pytest.raises(SessionClosedError):
            attempt()
    assert points(session) == SELF_DRAW_B_NET


def test_a_session_stores_every_value_of_its_rules(owner):
    chosen = {"preset": "casual", "base_points": 2, "pattern_fan": {"qi_dui": 4}}
    _, session = make_table(owner, rules=chosen)
    assert set(session.rules) == {"preset", *(option.key for option in OPTIONS)}
    fans = session.rules["pattern_fan"]
    assert set(fans) == set(PATTERN_BY_KEY)  # the defaults too, not only the overridden fans
    assert (fans["qi_dui"], fans["long_qi_dui"], fans["ping_hu"]) == (4, 4, 1)  # chosen, casual's, default
    assert (session.rules["base_points"], session.rules["cap_multiplier"]) == (2, 16)
    assert Rules.from_dict(session.rules).to_dict() | {"pattern_fan": {}} == Rules.from_dict(
        chosen
    ).to_dict() | {"pattern_fan": {}}


@pytest.fixture
def chengdu_preset_changed(monkeypatch: Any) -> None:
    """As if a later release made the chengdu preset's base 5 points (and no cached rules remembered it)."""
    monkeypatch.setitem(PRESETS, Preset.CHENGDU, {"base_points": 5})
    _cached_rules.cache_clear()
    yield
    _cached_rules.cache_clear()


def test_a_later_change_of_a_preset_changes_no_old_session(owner, request):
    _, session = make_table(owner, rules={"preset": "chengdu"})
    first, _ = services.round_record(actor=owner, session=session, body=DIRECT_KONG)
    request.getfixturevalue("chengdu_preset_changed")
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    services.round_correct(actor=owner, round_=first, body=KONG_THEN_GANG_SHANG_PAO)
    expected = [a + b for a, b in zip(SELF_DRAW_B_NET, KONG_THEN_GANG_SHANG_PAO_NET, strict=True)]
    assert points(session) == expected


def test_a_session_stored_with_only_overrides_still_settles_by_them(owner):
    _, session = make_table(owner)
    Session.objects.filter(pk=session.pk).update(rules={"preset": "chengdu", "base_points": 2})
    session.refresh_from_db()
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    assert points(session) == [2 * net for net in SELF_DRAW_B_NET]


def test_a_session_rejects_bad_rules_naming_the_option(owner):
    with pytest.raises(EngineError) as caught:
        make_table(owner, rules={"preset": "chengdu", "cap_multiplier": 3})
    assert caught.value.field == "rules.cap_multiplier"


@pytest.mark.parametrize(
    ("coins", "field"),
    [
        pytest.param(
            {"room_coefficient": 0, "starting_balances": [1, 1, 1, 1]}, "coins.room_coefficient", id="n=0"
        ),
        pytest.param(
            {"room_coefficient": 10, "starting_balances": [1, 1, 1]}, "coins.starting_balances", id="3"
        ),
        pytest.param(
            {"room_coefficient": 10, "starting_balances": [1, 1, 1, -1]}, "coins.starting_balances", id="neg"
        ),
    ],
)
def test_a_session_rejects_bad_coins(owner, coins, field):
    with pytest.raises(EngineError) as caught:
        make_table(owner, coins=coins)
    assert caught.value.field == field


def test_a_session_needs_four_different_players_of_its_group(owner, group):
    other_group, _ = make_table(owner, group_name="别的组")
    strangers = list(other_group.players.values_list("id", flat=True))
    mine = list(group.players.values_list("id", flat=True))
    for ids, field in (
        (mine[:3], "players"),
        ([mine[0], *mine[:3]], "players"),
        ([*mine[:3], strangers[0]], "players[3]"),
    ):
        with pytest.raises(EngineError) as caught:
            services.session_start(actor=owner, group=group, name="x", player_ids=ids)
        assert caught.value.field == field


def test_coins_move_with_the_balances_before_each_round(owner):
    _, session = make_table(
        owner, coins={"room_coefficient": 100, "starting_balances": [1000, 1000, 300, 1000]}
    )
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # 500 from each, C has only 300
    coins = [seat.coins for seat in selectors.session_totals(session).seats]
    assert coins == [500, 2300, 0, 500]
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # C has nothing left to pay
    coins = [seat.coins for seat in selectors.session_totals(session).seats]
    assert coins == [0, 3300, 0, 0]


def coins_of(session: Any) -> list[int | None]:
    return [seat.coins for seat in selectors.session_totals(session).seats]


def concealed_kong(player: int) -> dict[str, Any]:
    return {"dealer": 0, "events": [{"type": "kong", "player": player, "kind": "concealed"}]}


def test_voiding_an_old_round_resettles_the_coins_of_the_rounds_after_it(owner):
    # 老张 starts broke, wins 60 coins with a kong, and spends 20 of them in the next round. Voiding his
    # kong would take back 60 he no longer has: the later round is settled again as if he had been broke.
    _, session = make_table(owner, coins={"room_coefficient": 10, "starting_balances": [3000, 1000, 300, 0]})
    services.round_record(actor=owner, session=session, body=concealed_kong(0))  # 老张 has nothing to pay
    his_kong, _ = services.round_record(actor=owner, session=session, body=concealed_kong(3))
    later, _ = services.round_record(actor=owner, session=session, body=concealed_kong(0))
    assert coins_of(session) == [3080, 940, 240, 40]
    services.round_void(actor=owner, round_=his_kong)
    assert coins_of(session) == [3080, 960, 260, 0]
    later.refresh_from_db()
    assert later.version == 2
    assert list(later.versions.values_list("kind", flat=True)) == [VersionKind.RECORDED, VersionKind.RECOINED]
    assert points(session) == [12, -4, -4, -4]  # a re-settlement of coins moves no points
    assert LedgerEntry.objects.filter(round=later).count() == 6


def test_correcting_an_old_round_leaves_later_rounds_alone_when_their_coins_do_not_change(owner):
    _, session = make_table(owner, coins={"room_coefficient": 100, "starting_balances": [10**6] * 4})
    first, _ = services.round_record(actor=owner, session=session, body=DIRECT_KONG)
    later, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    services.round_correct(actor=owner, round_=first, body=DRAW_WITH_PIG)
    later.refresh_from_db()
    assert later.version == 1
    assert coins_of(session) == [
        10**6 + 100 * (a + b) for a, b in zip(DRAW_WITH_PIG_NET, SELF_DRAW_B_NET, strict=True)
    ]


def test_only_owners_manage_members(owner, group, member_factory):
    keeper = member_factory("keeper", Role.SCOREKEEPER)
    make_user("newcomer")
    newcomer = get_user_model().objects.get(username="newcomer")
    with pytest.raises(PermissionDenied):
        services.member_invite(actor=keeper, group=group, username="newcomer", role=Role.VIEWER)
    invitation = services.member_invite(actor=owner, group=group, username="newcomer", role=Role.VIEWER)
    membership = services.invitation_accept(actor=newcomer, invitation=invitation)
    with pytest.raises(PermissionDenied):
        services.member_set_role(actor=keeper, membership=membership, role=Role.OWNER)
    with pytest.raises(PermissionDenied):
        services.member_remove(actor=keeper, membership=membership)
    services.member_remove(actor=owner, membership=membership)
    assert not group.memberships.filter(user__username="newcomer").exists()


def test_the_last_owner_can_neither_leave_nor_step_down(owner, group):
    membership = group.memberships.get(user=owner)
    with pytest.raises(EngineError):
        services.member_set_role(actor=owner, membership=membership, role=Role.VIEWER)
    with pytest.raises(EngineError):
        services.member_remove(actor=owner, membership=membership)


def test_viewers_cannot_write(session, member_factory):
    viewer = member_factory("viewer")
    with pytest.raises(PermissionDenied):
        services.round_record(actor=viewer, session=session, body=SELF_DRAW_B)
    with pytest.raises(PermissionDenied):
        services.player_add(actor=viewer, group=session.group, name="新人")
    with pytest.raises(PermissionDenied):
        services.session_close(actor=viewer, session=session)


def test_a_player_name_is_unique_in_its_group(owner, group):
    with pytest.raises(EngineError) as caught:
        services.player_add(actor=owner, group=group, name="小王")
    assert caught.value.field == "name"


def test_account_create_refuses_a_taken_name_and_a_weak_password(db):
    services.account_create(username="alice", password="a-long-pass-phrase")
    with pytest.raises(EngineError) as taken:
        services.account_create(username="Alice", password="a-long-pass-phrase")
    with pytest.raises(EngineError) as weak:
        services.account_create(username="bob", password="123")
    assert (taken.value.field, weak.value.field) == ("username", "password")


def test_a_payment_too_large_to_store_is_a_400_on_its_event(owner):
    _, session = make_table(owner, rules={"preset": "chengdu", "base_points": 10000})
    huge = {"dealer": 0, "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 64}]}]}
    with pytest.raises(EngineError) as caught:
        services.round_record(actor=owner, session=session, body=huge)
    # the engine's own bound on one payment (10^10) now refuses it first, at the winner's fan
    assert caught.value.field.startswith("events[0]") and caught.value.event == 0


def test_a_nul_character_anywhere_in_a_round_is_refused(owner, session):
    body = {"dealer": 0, "events": [{"type": "kong", "player": 1, "kind": "added", "note": "a\x00b"}]}
    with pytest.raises(EngineError) as caught:
        services.round_record(actor=owner, session=session, body=body)
    assert caught.value.field == "events[0].note"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("\ud800", id="lone-high-surrogate"),
        pytest.param("\udfff", id="lone-low-surrogate"),
        pytest.param("小王\ud83d", id="cut-emoji"),
    ],
)
def test_the_idempotency_fingerprint_takes_any_text(text):
    body = {"dealer": 0, "events": [{"type": "win", "note": text}]}
    assert len(services.checks._fingerprint(body)) == 64
    assert services.checks._fingerprint(body) != services.checks._fingerprint({**body, "dealer": 1})


def test_a_lone_surrogate_anywhere_in_a_round_is_refused_not_a_crash(owner, session):
    body = {"dealer": 0, "events": [{**SELF_DRAW_B["events"][0], "note": "a\ud800b"}]}
    with pytest.raises(EngineError) as caught:
        services.round_record(actor=owner, session=session, body=body, idempotency_key="k")
    assert caught.value.field == "events[0].note"
