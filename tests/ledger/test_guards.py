"""The database guards the ledger: triggers refuse UPDATE and DELETE of ledger, coin and win rows whoever
sends them, every round version is sealed in a hash chain, and ``verify_ledger`` finds a row changed behind
the app's back (raw SQL with the trigger dropped). Runs on SQLite and on PostgreSQL alike."""

import importlib
import itertools
import json
from io import StringIO
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext

from ledger import integrity, services
from ledger.canonical import canonical
from ledger.integrity import digest_of, verify_session, version_contents
from ledger.models import CoinEntry, Group, LedgerEntry, Round, RoundVersion, Session, WinRecord
from tests.ledger.conftest import (
    DIRECT_KONG,
    DRAW_WITH_PIG,
    KONG_THEN_GANG_SHANG_PAO,
    SELF_DRAW_B,
    make_table,
)

GUARDED = [
    pytest.param("ledger_ledgerentry", "points = points + 1", id="ledger-entry"),
    pytest.param("ledger_coinentry", "coins = coins + 1", id="coin-entry"),
    pytest.param("ledger_winrecord", "fan = fan + 1", id="win-record"),
]


def raw(sql: str, *params: object) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def drop_guard(table: str) -> None:
    """Behind the app's back: the trigger goes (inside the test's transaction, so it comes back after)."""
    if connection.vendor == "sqlite":
        for operation in ("update", "delete"):
            raw(f"DROP TRIGGER ledger_append_only_{table}_{operation}")
    else:
        raw(f"DROP TRIGGER ledger_append_only_{table} ON {table}")


def verify(*arguments: str) -> str:
    """verify_ledger's report; raises CommandError (exit status 1) with the findings in its message."""
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_ledger", *arguments, stdout=out, stderr=err)
    except CommandError as error:
        raise CommandError(f"{error}\n{err.getvalue()}") from None
    return out.getvalue()


@pytest.fixture
def evening(owner):
    """A session with coins: four rounds, one corrected, one voided (so later coins are re-settled)."""
    group, session = make_table(owner, coins={"room_coefficient": 10, "starting_balances": [300, 100, 60, 0]})
    rounds = [
        services.round_record(actor=owner, session=session, body=body)[0]
        for body in (DIRECT_KONG, SELF_DRAW_B, KONG_THEN_GANG_SHANG_PAO, DRAW_WITH_PIG)
    ]
    services.round_correct(actor=owner, round_=rounds[1], body=KONG_THEN_GANG_SHANG_PAO)
    services.round_void(actor=owner, round_=rounds[0])
    return group, session


def test_a_clean_ledger_verifies(evening):
    assert "every hash chain holds" in verify()
    assert "every hash chain holds" in verify("--group", str(evening[0].pk))


def test_every_version_is_chained_to_the_one_before_it_in_its_session(evening):
    versions = list(RoundVersion.objects.filter(round__session=evening[1]).order_by("id"))
    assert len(versions) > 6
    assert versions[0].previous_digest == ""
    for before, after in itertools.pairwise(versions):
        assert after.previous_digest == before.digest != ""


@pytest.mark.parametrize(("table", "change"), GUARDED)
def test_the_database_refuses_a_raw_update(evening, table, change):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        raw(f"UPDATE {table} SET {change}")
    assert "every hash chain holds" in verify()


@pytest.mark.parametrize(("table", "change"), GUARDED)
def test_the_database_refuses_a_raw_delete(evening, table, change):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        raw(f"DELETE FROM {table}")
    assert "every hash chain holds" in verify()


def test_a_point_added_behind_the_apps_back_is_found(evening):
    """The tamper test: one ledger row gets a point more, through raw SQL with the trigger dropped."""
    round_ = Round.objects.get(session=evening[1], position=4)
    row = LedgerEntry.objects.filter(round=round_, is_house=False).order_by("id").first()
    drop_guard("ledger_ledgerentry")
    raw("UPDATE ledger_ledgerentry SET points = points + 1 WHERE id = %s", row.pk)
    with pytest.raises(CommandError) as found:
        verify()
    report = str(found.value)
    assert (
        f"round #4 version {row.round_version.version}: its rows or fields are not what was sealed" in report
    )
    assert "its points rows sum to 1, not 0" in report
    assert "round #4: its rows give points" in report  # the replay disagrees with the rows
    assert "its totals are points" in report


def test_points_moved_between_two_seats_keeping_every_sum_at_zero_are_found(evening):
    """Balance holds and the session still sums to zero: only the seal and the replay can tell."""
    rows = list(LedgerEntry.objects.filter(round__position=2, is_house=False, reverses__isnull=True)[:2])
    drop_guard("ledger_ledgerentry")
    raw("UPDATE ledger_ledgerentry SET points = points + 5 WHERE id = %s", rows[0].pk)
    raw("UPDATE ledger_ledgerentry SET points = points - 5 WHERE id = %s", rows[1].pk)
    with pytest.raises(CommandError) as found:
        verify()
    report = str(found.value)
    assert "round #2 version" in report and "not what was sealed" in report
    assert "not 0" not in report


@pytest.mark.parametrize(("table", "column"), [("ledger_coinentry", "coins"), ("ledger_winrecord", "fan")])
def test_a_coin_or_win_row_changed_behind_the_apps_back_is_found(evening, table, column):
    model = {"ledger_coinentry": CoinEntry, "ledger_winrecord": WinRecord}[table]
    row = model.objects.filter(session=evening[1]).order_by("-id").first()
    drop_guard(table)
    raw(f"UPDATE {table} SET {column} = {column} + 1 WHERE id = %s", row.pk)
    with pytest.raises(CommandError, match="not what was sealed"):
        verify()


def test_a_rewritten_seal_breaks_the_chain_after_it(evening):
    """Whoever changes a row and recomputes its version's digest is caught by the next version's link."""
    version = RoundVersion.objects.filter(round__session=evening[1]).order_by("id")[2]
    row = LedgerEntry.objects.filter(round_version=version).order_by("id").first()
    drop_guard("ledger_ledgerentry")
    raw("UPDATE ledger_ledgerentry SET reason = 'win' WHERE id = %s", row.pk)
    versions = RoundVersion.objects.filter(pk=version.pk)
    sealed = version_contents(versions, LedgerEntry.objects, CoinEntry.objects, WinRecord.objects)[version.pk]
    raw(
        "UPDATE ledger_roundversion SET digest = %s WHERE id = %s",
        digest_of(sealed.previous_digest, sealed.content),
        version.pk,
    )
    with pytest.raises(CommandError) as found:
        verify()
    assert "the hash chain is broken" in str(found.value)
    assert "not what was sealed" not in str(found.value)


def test_a_round_whose_events_were_rewritten_is_found(evening):
    raw("UPDATE ledger_round SET dealer = 3 WHERE session_id = %s AND position = 2", evening[1].pk)
    with pytest.raises(CommandError, match="round #2: its events differ from those of its current version"):
        verify()


def test_verify_names_only_the_group_it_is_asked_about(evening, owner):
    _, other = make_table(owner, group_name="另一桌")
    services.round_record(actor=owner, session=other, body=SELF_DRAW_B)
    drop_guard("ledger_ledgerentry")
    raw("UPDATE ledger_ledgerentry SET points = 0 WHERE session_id = %s", other.pk)
    assert "every hash chain holds" in verify("--group", str(evening[0].pk))
    with pytest.raises(CommandError, match=f"group {other.group_id}, session {other.pk}"):
        verify("--group", str(other.group_id))
    with pytest.raises(CommandError, match="There is no group 999999"):
        verify("--group", "999999")


def test_a_group_with_recorded_rounds_cannot_be_deleted(evening, owner):
    """Reading decided: nothing deletes ledger rows, not even a cascade. The app refuses (PROTECT) and so
    does the database. (Today any session already keeps its group: its seats PROTECT the players.) A group
    with players and no session can still be deleted."""
    group, session = evening
    count = LedgerEntry.objects.count()
    with pytest.raises(ProtectedError):
        group.delete()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        raw("DELETE FROM ledger_ledgerentry WHERE session_id = %s", session.pk)
    assert LedgerEntry.objects.count() == count
    empty = services.group_create(actor=owner, name="空桌")
    services.player_add(actor=owner, group=empty, name="小王")
    empty.delete()
    assert not Group.objects.filter(pk=empty.pk).exists()


@pytest.mark.django_db(transaction=True)  # as Django's own test cases flush: outside any transaction
def test_flush_empties_a_guarded_database_and_leaves_it_guarded(evening, owner):
    call_command("flush", interactive=False, verbosity=0)
    assert not LedgerEntry.objects.exists()
    _, session = make_table(owner.__class__.objects.create_user("again", password="x-long-pass-phrase"))
    services.round_record(actor=session.group.memberships.get().user, session=session, body=SELF_DRAW_B)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        raw("UPDATE ledger_ledgerentry SET points = 0")


def test_the_latest_version_removed_behind_the_apps_back_is_found(evening):
    """No later link points at the last version: the session's head does."""
    last = RoundVersion.objects.filter(round__session=evening[1]).order_by("-id").first()
    for table in ("ledger_ledgerentry", "ledger_coinentry", "ledger_winrecord"):
        drop_guard(table)
        raw(f"DELETE FROM {table} WHERE round_version_id = %s", last.pk)
    raw("DELETE FROM ledger_roundversion WHERE id = %s", last.pk)
    raw("UPDATE ledger_round SET version = version - 1 WHERE id = %s", last.round_id)
    with pytest.raises(CommandError) as found:
        verify()
    assert "the end of its hash chain is not its latest version" in str(found.value)
    assert "points and" in str(found.value) and "coins moved; its rows move" in str(found.value)


def test_loaddata_over_a_stored_ledger_row_is_refused(evening, tmp_path):
    """The issue's case: a fixture with an existing primary key would overwrite a ledger row."""
    row = LedgerEntry.objects.order_by("id").first()
    fixture = tmp_path / "row.json"
    out = StringIO()
    call_command("dumpdata", "ledger.ledgerentry", pks=str(row.pk), stdout=out)
    fixture.write_text(out.getvalue().replace(f'"points": {row.points}', '"points": 999'))
    with pytest.raises(IntegrityError, match="append-only"):
        call_command("loaddata", str(fixture), verbosity=0)
    assert LedgerEntry.objects.get(pk=row.pk).points == row.points


def test_verify_reads_a_session_in_nine_queries(evening):
    """Its versions, their three kinds of rows, the rounds and the totals (points and coins): the balance
    and each round's net are summed from the rows the seal reads, where they asked queries of their own."""
    session = Session.objects.get(pk=evening[1].pk)  # as stored now: the fixture's copy is older
    with CaptureQueriesContext(connection) as captured:
        assert list(verify_session(session)) == []
    assert len(captured) == 9


def findings_of(session: Session) -> list[str]:
    return [str(finding) for finding in verify_session(Session.objects.get(pk=session.pk))]


@pytest.mark.parametrize(
    ("table", "model", "moves"),
    [
        ("ledger_ledgerentry", LedgerEntry, True),
        ("ledger_coinentry", CoinEntry, True),
        ("ledger_winrecord", WinRecord, False),
    ],
)
def test_a_row_moved_to_another_round_behind_the_apps_back_is_found(evening, table, model, moves):
    """A row names its round beside its version, and the seal hashes only the version: a row whose round
    is not its version's is named; a ledger or coin row so moved also changes what both rounds' rows give
    (the pages add a round up by the rows naming it), which the replay finds."""
    group, session = evening
    row = model.objects.filter(session=session, round__position=3).order_by("id").first()
    elsewhere = Round.objects.get(session=session, position=4)
    drop_guard(table)
    raw(f"UPDATE {table} SET round_id = %s WHERE id = %s", elsewhere.pk, row.pk)
    findings = findings_of(session)
    where = f"group {group.pk}, session {session.pk} ({session.title})"
    stray = f"round #3 version {row.round_version.version}: its rows that name another round than its own: 1"
    assert f"{where}, {stray}" in findings
    replayed = [finding for finding in findings if "a replay of its events gives" in finding]
    assert [finding.split(":")[0] for finding in replayed] == (
        [f"{where}, round #3", f"{where}, round #4"] if moves else []
    )


def test_a_row_of_another_groups_session_moved_into_a_round_is_found_there(owner):
    """``verify_ledger --group`` checks one group's sessions: a row of another group's version moved into
    one of its rounds is read with them (as the pages read it with the round), named, and replayed."""
    _, mine = make_table(owner)
    other_group, theirs = make_table(owner, group_name="别的组")
    for session in (mine, theirs):
        services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    row = LedgerEntry.objects.filter(session=theirs, is_house=False).order_by("id").first()
    drop_guard("ledger_ledgerentry")
    raw(
        "UPDATE ledger_ledgerentry SET round_id = %s WHERE id = %s",
        Round.objects.get(session=mine).pk,
        row.pk,
    )
    findings = findings_of(mine)
    assert any("round #1: rows of another session's versions name it: 1" in finding for finding in findings)
    assert any("round #1: its rows give points" in finding for finding in findings), findings
    assert any(
        "its rows that name another round than its own: 1" in finding for finding in findings_of(theirs)
    )
    assert other_group.pk != mine.group_id


@pytest.mark.parametrize("seat", [None, 9])
def test_a_row_of_no_seat_is_found_not_a_crash(evening, seat):
    """The database refuses a ledger row that is neither a seat's nor the house's; with that check gone
    too, the check names the round instead of failing on the row."""
    _, session = evening
    row = (
        LedgerEntry.objects.filter(session=session, round__position=3, is_house=False).order_by("id").first()
    )
    drop_guard("ledger_ledgerentry")
    if connection.vendor == "sqlite":
        raw("PRAGMA ignore_check_constraints = 1")
    else:  # the deferred foreign-key checks of the rows written so far run first: ALTER waits for none
        raw("SET CONSTRAINTS ALL IMMEDIATE")
        raw("ALTER TABLE ledger_ledgerentry DROP CONSTRAINT ledger_entry_seat_or_house")
    try:
        raw("UPDATE ledger_ledgerentry SET seat = %s WHERE id = %s", seat, row.pk)
        findings = findings_of(session)
    finally:
        if connection.vendor == "sqlite":
            raw("PRAGMA ignore_check_constraints = 0")
    assert any("round #3 version" in finding and "not what was sealed" in finding for finding in findings)
    assert any("round #3: its rows give points" in finding for finding in findings), findings


def test_coin_rows_that_do_not_balance_are_named(evening):
    row = CoinEntry.objects.filter(session=evening[1], is_house=False).order_by("-id").first()
    drop_guard("ledger_coinentry")
    raw("UPDATE ledger_coinentry SET coins = coins + 1 WHERE id = %s", row.pk)
    findings = [str(finding) for finding in verify_session(Session.objects.get(pk=evening[1].pk))]
    version = row.round_version
    assert any(
        f"round #{version.round.position} version {version.version}: its coins rows sum to 1, not 0"
        in finding
        for finding in findings
    ), findings


@pytest.mark.parametrize(
    "value",
    [
        '一条龙 "quoted" \\ \n \u2028 \ud800',
        {"b": [1, 2.5, -0.0, 1e300, None, True, False], "a": {"清一色": 3, "z": [], "": {}}},
        [[0, False, 598, -4, "win", 0, 0, None]],
        12345678901234567890,
    ],
)
def test_canonical_is_the_stdlib_encoders_text(value):
    """canonical's reused C encoder writes what json.JSONEncoder(sort_keys, compact, ensure_ascii=False)
    writes: every stored seal was made by the latter."""
    encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(value) == encoder.encode(value)


def test_each_round_is_settled_and_a_row_changed_in_a_repeat_is_found(owner, monkeypatch):
    """Rounds of the same stored inputs are each settled (no memo of whole rounds: with coins the balances
    before each differ, and a benchmark of copied evenings would measure the memo), and a row changed in
    the last repeat is found there alone."""
    _, session = make_table(owner)
    bodies = (SELF_DRAW_B, DIRECT_KONG, SELF_DRAW_B, SELF_DRAW_B)
    rounds = [services.round_record(actor=owner, session=session, body=body)[0] for body in bodies]
    settle, settled = integrity._settle, []
    monkeypatch.setattr(integrity, "_settle", lambda *args: settled.append(args) or settle(*args))
    assert list(verify_session(Session.objects.get(pk=session.pk))) == []
    assert len(settled) == len(bodies)
    row = LedgerEntry.objects.filter(round=rounds[3], is_house=False).order_by("id").first()
    drop_guard("ledger_ledgerentry")
    raw("UPDATE ledger_ledgerentry SET points = points + 1 WHERE id = %s", row.pk)
    findings = [str(finding) for finding in verify_session(Session.objects.get(pk=session.pk))]
    assert any("round #4: its rows give points" in finding for finding in findings), findings
    assert not any("round #3" in finding or "round #1" in finding for finding in findings), findings


def test_a_seat_stored_as_true_is_refused_by_the_replay(owner):
    """1 and true are one value to Python's ==, not to the engine (true is no seat)."""
    _, session = make_table(owner)
    for _ in range(2):
        services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    version = RoundVersion.objects.filter(round__session=session).order_by("-id").first()
    events = [{"type": "win", "from": None, "winners": [{"player": True, "fan": 3}]}]
    raw("UPDATE ledger_roundversion SET events = %s WHERE id = %s", json.dumps(events), version.pk)
    findings = [str(finding) for finding in verify_session(Session.objects.get(pk=session.pk))]
    assert any("round #2: the engine refuses its stored events" in finding for finding in findings), findings


def stored_result(version: RoundVersion) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT result FROM ledger_roundversion WHERE id = %s", [version.pk])
        ((text,),) = cursor.fetchall()
    return text


def test_a_result_is_stored_as_the_text_its_seal_hashes_and_any_other_text_is_found(owner):
    """The column holds canonical(result) (ledger/canonical.py), which the check hashes as it reads it:
    the same value written out otherwise is a change of what was sealed, as a changed value is."""
    _, session = make_table(owner)
    for body in (SELF_DRAW_B, DIRECT_KONG):
        services.round_record(actor=owner, session=session, body=body)
    version = RoundVersion.objects.get(round__session=session, round__position=2)
    assert stored_result(version) == canonical(version.result)
    assert list(verify_session(Session.objects.get(pk=session.pk))) == []
    expected = [
        f"group {session.group_id}, session {session.pk} ({session.title}), round #2 version 1: "
        "its rows or fields are not what was sealed when it was written"
    ]
    for text in (json.dumps(version.result, indent=2), canonical({**version.result, "house": 1})):
        raw("UPDATE ledger_roundversion SET result = %s WHERE id = %s", text, version.pk)
        findings = [str(finding) for finding in verify_session(Session.objects.get(pk=session.pk))]
        assert findings == expected


def test_results_stored_before_migration_0029_are_written_again_as_their_canonical_text(owner):
    """As Django's JSONField wrote them (json.dumps: spaces, keys in the engine's order), then the
    migration's pass; the seals made before hold after it, and the sealing of history (migration 0005,
    which reads a historical JSON column) hashes the same contents as the check does now."""
    migration = importlib.import_module("ledger.migrations.0029_round_result_canonical_text")
    _, session = make_table(owner)
    for body in (SELF_DRAW_B, DIRECT_KONG, DRAW_WITH_PIG):
        services.round_record(actor=owner, session=session, body=body)
    versions = RoundVersion.objects.filter(round__session=session)
    for version in versions:
        raw(
            "UPDATE ledger_roundversion SET result = %s WHERE id = %s", json.dumps(version.result), version.pk
        )
    assert list(verify_session(Session.objects.get(pk=session.pk)))
    migration.write_canonical(django_apps, SimpleNamespace(connection=connection))
    assert [stored_result(version) for version in versions] == [canonical(v.result) for v in versions]
    assert list(verify_session(Session.objects.get(pk=session.pk))) == []
    before = MigrationExecutor(connection).loader.project_state(("ledger", "0028_round_kept_nets")).apps
    historical = [
        before.get_model("ledger", name).objects.all()
        for name in ("RoundVersion", "LedgerEntry", "CoinEntry", "WinRecord")
    ]
    then = version_contents(historical[0].filter(round__session_id=session.pk), *historical[1:])
    now = version_contents(
        versions, LedgerEntry.objects.all(), CoinEntry.objects.all(), WinRecord.objects.all()
    )
    assert {pk: sealed.content for pk, sealed in then.items()} == {
        pk: sealed.content for pk, sealed in now.items()
    }
