"""The hundredth evening (issue 16): the pages and API reads that look back cost the same whatever the group
has played. Each is read when the group holds 10 sessions and again when the same group holds 100 (and the
account is in 10 groups, then 100): the queries must be the same in number, and the time at 100 at most 10
times the time at 10 (a ratio within one run, never a time: the machine's speed cancels out). Before the
fixes the group page took 160 ms at 10 and 19 s at 100, the 走势 page of one session grew with every
other session of the database, home with every open session.

The data is seeded by the scale bench's bulk copies (bench/scale_seed.py), sealed as the services seal, so
``verify_session`` holds on every session, which is checked here too.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.scale_seed import add_account, add_group, add_member, add_sessions, record_template
from ledger import demo
from ledger.integrity import verify_session
from ledger.models import Session

SMALL, LARGE = 10, 100
HANDS = 8  # each session's: hand 4 corrected and hand 7 voided among them, coins on
LONG_HANDS = 20  # the session whose own pages are read while the database grows around it
RUNS = 3  # the least CPU time of three, so one slow moment of the machine does not count
MAX_RATIO = 10

# (name, URL, who reads it): the owner, or the account that is in every group (home).
READS = (
    ("group page", "/groups/{group}/", "owner"),
    ("group statistics page", "/groups/{group}/stats/", "owner"),
    ("API standings", "/api/v1/groups/{group}/standings/", "owner"),
    ("API statistics", "/api/v1/groups/{group}/statistics/", "owner"),
    ("API sessions", "/api/v1/groups/{group}/sessions/", "owner"),
    ("home", "/home/", "member"),
    ("session page", "/sessions/{session}/", "owner"),
    ("走势 chart page", "/sessions/{session}/chart/", "owner"),
    ("settle page", "/sessions/{session}/settle/", "owner"),
    ("API totals", "/api/v1/sessions/{session}/totals/", "owner"),
    ("API rounds", "/api/v1/sessions/{session}/rounds/", "owner"),
)


@dataclass
class Grown:
    ids: dict[str, int]
    clients: dict[str, Client]
    queries: dict[str, int] = field(default_factory=dict)  # at SMALL
    cpu: dict[str, float] = field(default_factory=dict)  # at SMALL, seconds
    long_sessions: list[int] = field(default_factory=list)

    def url(self, name: str) -> tuple[Client, str]:
        _, url, who = next(read for read in READS if read[0] == name)
        return self.clients[who], url.format(**self.ids)


def read(client: Client, url: str) -> tuple[int, float]:
    """The queries of one read (answered 200) and the least CPU time of ``RUNS`` more."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(RUNS):
        started = time.process_time()
        client.get(url)
        times.append(time.process_time() - started)
    return len(captured), min(times)


@pytest.fixture(scope="module")
def grown(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Grown]:
    """A group read at 10 sessions, then grown to 100 (and the account to 100 groups); rolled back after."""
    with django_db_blocker.unblock(), transaction.atomic():
        owner = add_account("scale-owner")
        member = add_account("scale-member")
        template_group, template_players = add_group(owner, "模板")
        with_coins = record_template(owner, template_group, template_players, coins=demo.COINS)
        without = record_template(owner, template_group, template_players, coins=None)
        group, players = add_group(owner, "周五麻将")
        add_sessions(with_coins, group, players, SMALL, hands=HANDS)
        marathon, marathon_players = add_group(owner, "长场")
        long = add_sessions(without, marathon, marathon_players, 1, hands=LONG_HANDS)[0]
        others = [add_group(owner, f"别的组{n}") for n in range(LARGE - 2)]
        for other, other_players in others[: SMALL - 2]:
            add_sessions(with_coins, other, other_players, 1, hands=2)
        add_member(member, [group.pk, marathon.pk, *(other.pk for other, _ in others[: SMALL - 2])])
        clients = {"owner": Client(), "member": Client()}
        clients["owner"].force_login(owner)
        clients["member"].force_login(member)
        grown = Grown(ids={"group": group.pk, "session": long.pk}, clients=clients)
        for name, *_ in READS:
            grown.queries[name], grown.cpu[name] = read(*grown.url(name))

        add_sessions(with_coins, group, players, LARGE - SMALL, hands=HANDS)
        for other, other_players in others[SMALL - 2 :]:
            add_sessions(with_coins, other, other_players, 1, hands=2)
        add_member(member, [other.pk for other, _ in others[SMALL - 2 :]])
        grown.long_sessions = [
            long.pk,
            add_sessions(without, marathon, marathon_players, 1, hands=10 * LONG_HANDS)[0].pk,
        ]
        assert Session.objects.filter(group=group).count() == LARGE
        yield grown
        transaction.set_rollback(True)


@pytest.mark.parametrize("name", [read[0] for read in READS])
def test_a_read_asks_as_many_queries_at_100_sessions_as_at_10(grown: Grown, db: Any, name: str) -> None:
    queries, _ = read(*grown.url(name))
    assert queries == grown.queries[name]


@pytest.mark.parametrize("name", [read[0] for read in READS])
def test_a_read_at_100_sessions_takes_at_most_ten_times_its_time_at_10(
    grown: Grown, db: Any, name: str
) -> None:
    _, cpu = read(*grown.url(name))
    assert cpu <= MAX_RATIO * grown.cpu[name], (
        f"{name}: {cpu * 1000:.0f} ms, {grown.cpu[name] * 1000:.0f} ms at 10"
    )


def test_home_asks_at_most_15_queries_in_100_groups(grown: Grown, db: Any) -> None:
    queries, _ = read(*grown.url("home"))
    assert queries <= 15


def test_verify_ledger_reads_a_session_in_the_same_queries_whatever_its_length(grown: Grown, db: Any) -> None:
    counts = []
    for session in Session.objects.filter(pk__in=grown.long_sessions).order_by("id"):
        with CaptureQueriesContext(connection) as captured:
            assert list(verify_session(session)) == []
        counts.append(len(captured))
    assert counts[0] == counts[1]  # 20 hands and 200


def test_every_seeded_session_holds_its_seal_and_its_replay(grown: Grown, db: Any) -> None:
    group_sessions = Session.objects.filter(group_id=grown.ids["group"]).order_by("id")
    assert [finding for session in group_sessions for finding in verify_session(session)] == []


def test_the_kept_seeds_key_moves_with_what_determines_the_seed(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bench import seed_cache

    (tmp_path / "bench").mkdir()
    seeder = tmp_path / "bench" / "scale_seed.py"
    seeder.write_text("one seeder")
    monkeypatch.setattr(seed_cache, "ROOT", tmp_path)
    first = seed_cache.key((1, 10), [10, 200], "sqlite")
    assert seed_cache.key((1, 10), [10, 200], "sqlite") == first
    assert seed_cache.key((1, 10, 100), [10, 200, 2000], "sqlite") != first
    assert seed_cache.key((1, 10), [10, 200], "postgresql") != first
    seeder.write_text("another seeder")
    assert seed_cache.key((1, 10), [10, 200], "sqlite") != first


def test_the_bench_holds_a_read_to_its_growth_per_what_it_shows() -> None:
    from bench import bench_scale

    def at(ms: float, kb: float) -> dict[str, Any]:
        return {"server_ms": ms, "gzip": kb * 1024}

    assert bench_scale._growth(at(50, 6), at(150, 6)) == 3  # the same answer, three times the time
    assert bench_scale._growth(at(50, 6), at(150, 60)) == pytest.approx(0.3)  # it shows ten times more
    assert bench_scale._growth(at(50, 6), at(150, 3)) == 3  # a smaller answer excuses nothing
    # the least of the repeats, where the run had some: a run slowed by the machine's other work is no growth
    assert bench_scale._growth({**at(9, 6), "least_ms": 4}, {**at(8, 6), "least_ms": 6}) == 1.5
