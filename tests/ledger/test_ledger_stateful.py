"""Hypothesis drives a session through random records, corrections, voids and a close, and after every
step checks the ledger's invariants: every round and the whole ledger sum to zero (house included), the
totals equal a replay of the stored events, coins are neither created, lost nor overdrawn, and no row was
ever changed or removed."""

from typing import Any

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from calculator.engine import EngineError
from ledger import selectors, services
from ledger.errors import SessionClosedError
from ledger.models import CoinEntry, LedgerEntry, Round
from settlement.engine import settle_round
from tests.ledger.conftest import make_table, make_user

SEATS = (0, 1, 2, 3)
STARTING = [3000, 1000, 300, 0]  # small and uneven, so players run short and the coin rules bite


@st.composite
def round_bodies(draw: Any) -> dict[str, Any]:
    """Mostly valid rounds (kongs, wins on a discard, self-draws, a 流局) and now and then a broken one."""
    active = list(SEATS)
    events: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 5))):
        if len(active) < 2:
            break
        kind = draw(st.sampled_from(("kong", "discard", "self_draw")))
        player = draw(st.sampled_from(active))
        others = [seat for seat in active if seat != player]
        if kind == "kong":
            kong = draw(st.sampled_from(("concealed", "added", "direct")))
            event = {"type": "kong", "player": player, "kind": kong}
            if kong == "direct":
                event["from"] = draw(st.sampled_from(others))
            events.append(event)
            continue
        if kind == "discard":
            won = draw(
                st.lists(
                    st.sampled_from(others),
                    min_size=1,
                    max_size=min(2, 4 - len(SEATS) + len(others)),
                    unique=True,
                )
            )
            won.sort(key=lambda seat: (seat - player) % 4)
            events.append(
                {
                    "type": "win",
                    "from": player,
                    "winners": [{"player": seat, "fan": draw(st.integers(1, 6))} for seat in won],
                }
            )
        else:
            won = [player]
            events.append(
                {"type": "win", "from": None, "winners": [{"player": player, "fan": draw(st.integers(1, 6))}]}
            )
        active = [seat for seat in active if seat not in won]
        if len(active) <= 1:
            break
    if len(active) >= 2 and draw(st.booleans()):
        statuses = st.sampled_from(
            ({"status": "huazhu"}, {"status": "not_ready"}, {"status": "ready", "fan": 2})
        )
        events.append({"type": "draw", "players": [{"player": seat, **draw(statuses)} for seat in active]})
    dealer = draw(st.sampled_from((0, 1, 2, 3, 4)))  # 4 is not a seat: an invalid body now and then
    return {"dealer": dealer, "events": events}


class LedgerMachine(RuleBasedStateMachine):
    owner: Any = None

    def __init__(self) -> None:
        super().__init__()
        _, self.session = make_table(
            self.owner, coins={"room_coefficient": 10, "starting_balances": STARTING}
        )
        self.rounds: list[Round] = []
        self.closed = False
        self.seen: dict[int, tuple[Any, ...]] = {}

    def _attempt(self, write: Any) -> Any:
        before = LedgerEntry.objects.count()
        try:
            return write()
        except EngineError:
            assert LedgerEntry.objects.count() == before, "a rejected round stored entries"
        except SessionClosedError:
            assert self.closed
            assert LedgerEntry.objects.count() == before
        return None

    @rule(body=round_bodies())
    def record(self, body: dict[str, Any]) -> None:
        stored = self._attempt(
            lambda: services.round_record(actor=self.owner, session=self.session, body=body)
        )
        if stored is not None:
            self.rounds.append(stored[0])

    @precondition(lambda self: self.rounds)
    @rule(data=st.data(), body=round_bodies())
    def correct(self, data: Any, body: dict[str, Any]) -> None:
        round_ = data.draw(st.sampled_from(self.rounds))
        if Round.objects.get(pk=round_.pk).voided:
            return
        self._attempt(lambda: services.round_correct(actor=self.owner, round_=round_, body=body))

    @precondition(lambda self: self.rounds)
    @rule(data=st.data())
    def void(self, data: Any) -> None:
        round_ = data.draw(st.sampled_from(self.rounds))
        self._attempt(lambda: services.round_void(actor=self.owner, round_=round_))

    @precondition(lambda self: len(self.rounds) >= 3)  # closing early would leave little else to try
    @rule()
    def close(self) -> None:
        services.session_close(actor=self.owner, session=self.session)
        self.closed = True

    @invariant()
    def every_round_and_the_whole_ledger_balance(self) -> None:
        entries = LedgerEntry.objects.filter(session=self.session)
        assert (entries.aggregate(total=Sum("points"))["total"] or 0) == 0
        unbalanced = entries.values("round", "round_version").annotate(total=Sum("points")).exclude(total=0)
        assert not unbalanced.exists()

    @invariant()
    def totals_equal_a_replay_of_the_stored_events(self) -> None:
        expected, house = [0, 0, 0, 0], 0
        for round_ in Round.objects.filter(session=self.session, voided=False):
            result = settle_round(
                dealer=round_.dealer,
                events=round_.events,
                rules=self.session.rules,
                void_suits=round_.void_suits,
            )
            expected = [total + net for total, net in zip(expected, result.net, strict=True)]
            house += result.house
        totals = selectors.session_totals(self.session)
        assert [seat.points for seat in totals.seats] == expected
        assert totals.house == house

    @invariant()
    def coins_are_never_created_lost_or_overdrawn(self) -> None:
        coins = CoinEntry.objects.filter(session=self.session)
        assert not coins.values("round_version").annotate(total=Sum("coins")).exclude(total=0).exists()
        totals = selectors.session_totals(self.session)
        balances = [seat.coins for seat in totals.seats]
        assert min(balances) >= 0
        assert sum(balances) + totals.house_coins == sum(STARTING)

    @invariant()
    def no_entry_was_ever_changed_or_removed(self) -> None:
        now = {
            row[0]: row[1:]
            for row in LedgerEntry.objects.filter(session=self.session).values_list(
                "id", "round_version_id", "seat", "points", "reason", "event_index", "reverses_id"
            )
        }
        for entry_id, values in self.seen.items():
            assert now.get(entry_id) == values
        self.seen = now


@pytest.mark.django_db
def test_the_ledger_keeps_its_invariants_through_any_sequence_of_writes():
    LedgerMachine.owner = make_user("owner")
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=12,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
