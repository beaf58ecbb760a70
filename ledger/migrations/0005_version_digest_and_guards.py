"""The database guards the ledger (docs/ledger.md, "The database guards the ledger").

* Every round version gets its seal (``digest``, chained through ``previous_digest``); the versions already
  stored are sealed here, session by session in the order they were written.
* Triggers refuse every UPDATE and DELETE of ledger, coin and win rows, whoever sends it: the app's code
  already refuses, these stop raw SQL, another program, or a bug that bypasses the models. Both vendors
  raise an integrity error (Django's ``IntegrityError``). PostgreSQL's TRUNCATE is not a row operation and
  is not refused (it is how Django's test runner empties a database; only the database owner can run it).
"""

from django.db import migrations, models

from ledger.integrity import digest_of, version_contents

GUARDED_TABLES = ("ledger_ledgerentry", "ledger_coinentry", "ledger_winrecord")
OPERATIONS = ("UPDATE", "DELETE")

SQLITE_TRIGGER = """
CREATE TRIGGER ledger_append_only_{table}_{operation}
BEFORE {operation} ON {table}
BEGIN
    SELECT RAISE(ABORT, '{table} is append-only: {operation} refused (write a reversing entry)');
END
"""
POSTGRESQL_FUNCTION = """
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused (write a reversing entry)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END
$$
"""
POSTGRESQL_TRIGGER = """
CREATE TRIGGER ledger_append_only_{table}
BEFORE UPDATE OR DELETE ON {table}
FOR EACH ROW EXECUTE FUNCTION ledger_append_only()
"""


def _guard_sql(vendor):
    if vendor == "sqlite":
        return [
            SQLITE_TRIGGER.format(table=table, operation=operation)
            for table in GUARDED_TABLES
            for operation in OPERATIONS
        ]
    if vendor == "postgresql":
        return [POSTGRESQL_FUNCTION, *(POSTGRESQL_TRIGGER.format(table=table) for table in GUARDED_TABLES)]
    return []  # the project runs on SQLite and PostgreSQL only (ARCHITECTURE.md, "Persistence")


def _unguard_sql(vendor):
    if vendor == "sqlite":
        return [
            f"DROP TRIGGER ledger_append_only_{table}_{operation}"
            for table in GUARDED_TABLES
            for operation in OPERATIONS
        ]
    if vendor == "postgresql":
        return [
            *(f"DROP TRIGGER ledger_append_only_{table} ON {table}" for table in GUARDED_TABLES),
            "DROP FUNCTION ledger_append_only()",
        ]
    return []


def guard(apps, schema_editor):
    for statement in _guard_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement, params=None)


def unguard(apps, schema_editor):
    for statement in _unguard_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement, params=None)


def seal_existing(apps, schema_editor):
    RoundVersion = apps.get_model("ledger", "RoundVersion")
    rows = [
        apps.get_model("ledger", name).objects.all() for name in ("LedgerEntry", "CoinEntry", "WinRecord")
    ]
    for session_id in apps.get_model("ledger", "Session").objects.values_list("id", flat=True):
        previous = ""
        versions = RoundVersion.objects.filter(round__session_id=session_id)
        for version_id, sealed in version_contents(versions, *rows).items():
            digest = digest_of(previous, sealed.content)
            RoundVersion.objects.filter(pk=version_id).update(previous_digest=previous, digest=digest)
            previous = digest


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0004_username_unique_lower_and_cache_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundversion",
            name="digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="roundversion",
            name="previous_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RunPython(seal_existing, migrations.RunPython.noop),
        migrations.RunPython(guard, unguard),
    ]
