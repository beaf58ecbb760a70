"""The scale bench's data, seeded fast and reproducibly: evenings recorded once through the services, then
copied by bulk inserts, every copy sealed as the services seal, so ``verify_ledger`` passes on all of it.

1. Two template evenings of 20 hands are recorded through ``services`` (the demo's hands in turn, hand 4
   corrected and hand 7 voided): one with coins (a correction re-coins the hands after it), for the
   groups' sessions; one without, for the long sessions, whose hands are the template's repeated (coins
   would have to follow from the balances before each hand, which a repeat does not keep).
2. ``copy_evenings`` writes a template's rounds into other sessions with ``bulk_create``, batch by batch:
   rounds, versions (in the template's order of writing), ledger, coin and win rows, each reversal
   pointing at the copy of the row it reverses, each player the one who sits in that seat in the copy.
3. ``_seal`` chains the copied versions of each session in the order they were written, with the seal's
   own functions (``integrity.version_contents``, ``integrity.digest_of``), and moves each session's head.
4. ``figures.rebuild`` makes the copies' figures from their rows, as the services keep them while writing.

What is seeded (``seed``): a group per size with that many closed sessions (the newest left open), a
group of long open sessions (one per size, of 10, 200, 2,000 and 10,000 hands by default), filler groups
with one open session each so that one account is a member of 100 groups, and accounts in 1, 10 and 100
groups for the home page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from ledger import demo, figures, integrity, services
from ledger.models import (
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
    SessionStatus,
    Sitting,
    WinRecord,
)
from ledger.planner import refresh_statistics

TEMPLATE_HANDS = 20
CORRECTED, VOIDED = 4, 7  # the template's corrected and voided hands
PLAYERS = ("小王", "小李", "阿美", "老张", "老王", "小陈")  # a group's players; four sit each evening
BATCH_ROUNDS = 1000  # rounds copied per batch of bulk inserts
HOME_GROUPS = (1, 10, 100)


@dataclass
class Table:
    """A model's stored rows as the database holds them (column name -> value), by id, in id order."""

    model: type[Any]
    columns: tuple[str, ...]
    rows: list[dict[str, Any]]

    @classmethod
    def read(cls, model: type[Any], **where: int) -> Table:
        columns = _columns(model)
        # PostgreSQL hands jsonb back parsed: as text it is written back as it was read.
        cast = {
            f.column: "::text" for f in model._meta.concrete_fields if f.get_internal_type() == "JSONField"
        }
        selected = ", ".join(
            f'"{c}"{cast.get(c, "") if connection.vendor == "postgresql" else ""}' for c in columns
        )
        ((column, value),) = where.items()
        with connection.cursor() as cursor:
            cursor.execute(
                f'SELECT {selected} FROM "{model._meta.db_table}" WHERE "{column}" = %s ORDER BY "id"',
                [value],
            )
            return cls(model, columns, [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()])


@dataclass
class Template:
    """A recorded evening as rows: what each copy repeats."""

    rules: dict[str, Any]  # every value of the rules, as session_start stored them
    coins_enabled: bool
    seat_of_player: dict[int, int]
    position_of_round: dict[int, int]
    rounds: Table
    versions: Table  # in the order they were written
    entries: Table
    coins: Table
    wins: Table


def record_template(owner: Any, group: Group, players: Sequence[Player], *, coins: Any) -> Template:
    """Step 1: an evening through the services, with a correction and a void, then read back."""
    session = services.session_start(
        actor=owner, group=group, name="模板", player_ids=[p.pk for p in players[:4]], coins=coins
    )
    for hand in range(TEMPLATE_HANDS):
        services.round_record(actor=owner, session=session, body=demo.ROUNDS[hand % len(demo.ROUNDS)])
    _, body = demo.CORRECTION
    rounds = {r.position: r for r in Round.objects.filter(session=session)}
    services.round_correct(actor=owner, round_=rounds[CORRECTED], body=body)
    services.round_void(actor=owner, round_=Round.objects.get(pk=rounds[VOIDED].pk))
    services.session_close(actor=owner, session=session)
    return Template(
        rules=session.rules,
        coins_enabled=session.coins_enabled,
        seat_of_player=dict(SessionSeat.objects.filter(session=session).values_list("player_id", "seat")),
        position_of_round=dict(Round.objects.filter(session=session).values_list("id", "position")),
        rounds=Table.read(Round, session_id=session.pk),
        versions=_versions_of(session),
        entries=Table.read(LedgerEntry, session_id=session.pk),
        coins=Table.read(CoinEntry, session_id=session.pk),
        wins=Table.read(WinRecord, session_id=session.pk),
    )


def _columns(model: type[Any]) -> tuple[str, ...]:
    return tuple(f.column for f in model._meta.concrete_fields)


def _versions_of(session: Session) -> Table:
    table = Table(RoundVersion, _columns(RoundVersion), [])
    for round_id in Round.objects.filter(session=session).values_list("id", flat=True):
        table.rows += Table.read(RoundVersion, round_id=round_id).rows
    table.rows.sort(key=lambda row: row["id"])
    return table


@dataclass(frozen=True)
class Seeded:
    owner_id: int
    home_users: dict[int, int]  # groups the account is in -> its user id
    groups: dict[int, int]  # sessions in the group -> group id
    long_sessions: dict[int, int]  # hands in the session -> session id
    rounds: int


@dataclass(frozen=True)
class Copy:
    """Template hands repeated as positions ``first``..``first + count - 1`` of ``session``, where seat s
    holds ``players[s]``."""

    session: Session
    players: tuple[int, ...]
    first: int
    count: int


class Ids:
    """The next free id of each table: rows are written with their ids, so a reversal names its row."""

    def __init__(self) -> None:
        self.next: dict[type[Any], int] = {}

    def take(self, model: type[Any]) -> int:
        if model not in self.next:
            last = model.objects.aggregate(last=Max("id"))["last"] or 0
            self.next[model] = last + 1
        self.next[model] += 1
        return self.next[model] - 1


def copy_evenings(template: Template, copies: Iterable[Copy]) -> int:
    """Each copy written in batches of about ``BATCH_ROUNDS`` rounds; the rounds written."""
    ids = Ids()
    batch: list[Copy] = []
    written = 0
    for copy in copies:
        for start in range(copy.first, copy.first + copy.count, BATCH_ROUNDS):
            part = Copy(copy.session, copy.players, start, min(BATCH_ROUNDS, copy.first + copy.count - start))
            batch.append(part)
            if sum(p.count for p in batch) >= BATCH_ROUNDS:
                first = written == 0
                written += _copy_batch(template, batch, ids)
                batch = []
                if first:
                    # The statistics gathered after the migrations saw empty tables, and a planner that
                    # believes a table empty checks each foreign key at commit by scanning it: every later
                    # batch's commit then grows with all the rows before it. A PostgreSQL without
                    # autovacuum (this machine's) keeps them so: one commit had run 12 minutes of CPU when
                    # an ANALYZE from another connection let it and the rest of the seed finish in four
                    # (2026-12-06).
                    refresh_statistics()
    if batch:
        written += _copy_batch(template, batch, ids)
    if connection.vendor == "postgresql":
        models = [Round, RoundVersion, LedgerEntry, CoinEntry, WinRecord]
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(sql)
    return written


def _template_position(position: int) -> int:
    return (position - 1) % TEMPLATE_HANDS + 1


def _block_base(position: int) -> int:
    """The position before the first of the template's repeat that holds ``position``."""
    return position - _template_position(position)


@transaction.atomic  # one commit a batch, not one a row
def _copy_batch(template: Template, batch: list[Copy], ids: Ids) -> int:
    """One batch: each table's rows copied with their links moved to the copies, then sealed."""
    out: dict[type[Any], list[tuple[Any, ...]]] = defaultdict(list)
    versions: list[tuple[int, int]] = []  # (new version id, session id), in the order written
    rounds = 0
    for copy in batch:
        last = copy.first + copy.count - 1
        for base in range(_block_base(copy.first), _block_base(last) + 1, TEMPLATE_HANDS):
            wanted = {
                round_id
                for round_id, position in template.position_of_round.items()
                if copy.first <= base + position <= last
            }
            moved: dict[str, dict[int, int]] = {"round": {}, "version": {}, "entry": {}, "coin": {}}
            session = copy.session.pk

            def player(player_id: int | None, players: tuple[int, ...] = copy.players) -> int | None:
                return None if player_id is None else players[template.seat_of_player[player_id]]

            for row in template.rounds.rows:
                if row["id"] in wanted:
                    moved["round"][row["id"]] = new = ids.take(Round)
                    position = base + template.position_of_round[row["id"]]
                    out[Round].append(
                        _row(template.rounds, row, id=new, session_id=session, position=position)
                    )
                    rounds += 1
            for row in template.versions.rows:
                if row["round_id"] in wanted:
                    moved["version"][row["id"]] = new = ids.take(RoundVersion)
                    out[RoundVersion].append(
                        _row(template.versions, row, id=new, round_id=moved["round"][row["round_id"]])
                    )
                    versions.append((new, session))
            for table, key, model in (
                (template.entries, "entry", LedgerEntry),
                (template.coins, "coin", CoinEntry),
            ):
                for row in table.rows:
                    if row["round_id"] in wanted:
                        moved[key][row["id"]] = new = ids.take(model)
                        links = {
                            "id": new,
                            "session_id": session,
                            "round_id": moved["round"][row["round_id"]],
                            "round_version_id": moved["version"][row["round_version_id"]],
                            "reverses_id": None
                            if row["reverses_id"] is None
                            else moved[key][row["reverses_id"]],
                        }
                        if model is LedgerEntry:
                            links["player_id"] = player(row["player_id"])
                        out[model].append(_row(table, row, **links))
            for row in template.wins.rows:
                if row["round_id"] in wanted:
                    out[WinRecord].append(
                        _row(
                            template.wins,
                            row,
                            id=ids.take(WinRecord),
                            session_id=session,
                            round_id=moved["round"][row["round_id"]],
                            round_version_id=moved["version"][row["round_version_id"]],
                            winner_id=player(row["winner_id"]),
                            discarder_id=player(row["discarder_id"]),
                        )
                    )
    for table in (template.rounds, template.versions, template.entries, template.coins, template.wins):
        _insert(table, out[table.model])
    _seal(versions)
    return rounds


def _row(table: Table, row: dict[str, Any], **changed: Any) -> tuple[Any, ...]:
    return tuple(changed[c] if c in changed else row[c] for c in table.columns)


def _insert(table: Table, rows: list[tuple[Any, ...]]) -> None:
    columns = ", ".join(f'"{c}"' for c in table.columns)
    marks = ", ".join(["%s"] * len(table.columns))
    with connection.cursor() as cursor:
        cursor.executemany(f'INSERT INTO "{table.model._meta.db_table}" ({columns}) VALUES ({marks})', rows)


def _seal(versions: list[tuple[int, int]]) -> None:
    """Step 3: each version chained to the one written before it in its session, the session's head moved."""
    heads = {
        row["id"]: row
        for row in Session.objects.filter(pk__in={session for _, session in versions}).values(
            "id", "ledger_digest", "points_moved", "coins_moved"
        )
    }
    sealed = integrity.version_contents(
        RoundVersion.objects.filter(pk__in=[version for version, _ in versions]),
        LedgerEntry.objects.all(),
        CoinEntry.objects.all(),
        WinRecord.objects.all(),
    )
    digests = []
    for version, session in versions:  # in the order written, as their ids are
        head, seal = heads[session], sealed[version]
        digest = integrity.digest_of(head["ledger_digest"], seal.content)
        digests.append((head["ledger_digest"], digest, version))
        head["ledger_digest"] = digest
        head["points_moved"] += seal.points_moved
        head["coins_moved"] += seal.coins_moved
    table = RoundVersion._meta.db_table
    with connection.cursor() as cursor:
        cursor.executemany(
            f'UPDATE "{table}" SET "previous_digest" = %s, "digest" = %s WHERE "id" = %s', digests
        )
    for session_id, head in heads.items():
        Session.objects.filter(pk=session_id).update(
            ledger_digest=head["ledger_digest"],
            points_moved=head["points_moved"],
            coins_moved=head["coins_moved"],
        )


# --- what the scale bench (and tests/ledger/test_scale.py) seeds ------------------------------------------


def add_account(username: str) -> Any:
    """An account with no usable password: the bench logs it in by force, and hashing one costs seconds."""
    user = get_user_model()(username=username)
    user.set_unusable_password()
    user.save()
    return user


def add_group(owner: Any, name: str) -> tuple[Group, list[Player]]:
    group = Group.objects.create(name=name)
    Membership.objects.create(user=owner, group=group, role=Role.OWNER)
    players = Player.objects.bulk_create(Player(group=group, name=name) for name in PLAYERS)
    return group, players


def add_sessions(
    template: Template,
    group: Group,
    players: Sequence[Player],
    count: int,
    *,
    hands: int = TEMPLATE_HANDS,
    open_last: bool = True,
) -> list[Session]:
    """``count`` more sessions of ``hands`` hands in the group (the last left open, with its hand in
    progress), the four seated moving round its players evening by evening; the sessions."""
    coins = template.coins_enabled
    if coins and hands > TEMPLATE_HANDS:
        # A repeat's coins would be settled against the balances its template started from, not these.
        raise ValueError(f"a session with coins copies at most {TEMPLATE_HANDS} hands")
    before = Session.objects.filter(group=group).count()
    now = timezone.now()
    made = Session.objects.bulk_create(
        Session(
            group=group,
            name=f"第{before + number + 1}场",
            rules=template.rules,
            coins_enabled=coins,
            room_coefficient=demo.COINS["room_coefficient"] if coins else None,
            starting_balances=demo.COINS["starting_balances"] if coins else None,
            status=SessionStatus.OPEN if open_last and number == count - 1 else SessionStatus.CLOSED,
            closed=None if open_last and number == count - 1 else now,
        )
        for number in range(count)
    )
    copies, seats = [], []
    for number, session in enumerate(made, start=before):
        chosen = tuple(players[(number + seat) % len(players)].pk for seat in range(4))
        seats += [SessionSeat(session=session, seat=seat, player_id=pk) for seat, pk in enumerate(chosen)]
        copies.append(Copy(session, chosen, 1, hands))
    SessionSeat.objects.bulk_create(seats)
    # who sat where when: each seat's player all evening (models.Sitting), as session_start writes it
    Sitting.objects.bulk_create(
        Sitting(session_id=seat.session_id, seat=seat.seat, player_id=seat.player_id) for seat in seats
    )
    copy_evenings(template, copies)
    figures.rebuild(session.pk for session in made)  # what the round services keep as they write
    if open_last:
        HandInProgress.objects.create(session=made[-1], number=hands + 1, dealer=0)
    return made


def add_member(user: Any, groups: Iterable[int]) -> None:
    Membership.objects.bulk_create(
        Membership(user=user, group_id=group_id, role=Role.SCOREKEEPER) for group_id in groups
    )


def seed(sizes: Sequence[int], hands: Sequence[int]) -> Seeded:
    """Everything the scale bench reads, in one database (see the module's docstring)."""
    owner = add_account("bench-scale")
    group, players = add_group(owner, "模板")
    with_coins = record_template(owner, group, players, coins=demo.COINS)
    without = record_template(owner, group, players, coins=None)
    groups: dict[int, int] = {}
    for size in sizes:
        sized, sized_players = add_group(owner, f"{size}场的组")
        groups[size] = sized.pk
        add_sessions(with_coins, sized, sized_players, size)
    for number in range(max(0, max(HOME_GROUPS) - len(sizes) - 2)):
        other, other_players = add_group(owner, f"别的组{number + 1}")
        add_sessions(with_coins, other, other_players, 1)
    marathon, marathon_players = add_group(owner, "长场")
    long_sessions = {
        count: add_sessions(without, marathon, marathon_players, 1, hands=count)[0].pk for count in hands
    }
    # The newest groups first: the account in one group is in the long sessions' group.
    newest = list(Group.objects.filter(memberships__user=owner).order_by("-id").values_list("id", flat=True))
    home_users = {}
    for count in HOME_GROUPS:
        user = add_account(f"home-{count}")
        add_member(user, newest[:count])
        home_users[count] = user.pk
    return Seeded(
        owner_id=owner.pk,
        home_users=home_users,
        groups=groups,
        long_sessions=long_sessions,
        rounds=Round.objects.count(),
    )
