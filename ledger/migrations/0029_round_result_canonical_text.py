"""A round version's result kept as the canonical text its seal hashes (``ledger.canonical``), so that
``verify_ledger`` reads it as stored instead of decoding and encoding it again.

The column becomes text (PostgreSQL: ``jsonb`` cast to its text; SQLite: the text Django wrote), then each
stored result is written again as ``canonical`` of its value. The seals stay as they are: each hashed that
very text of the value already. Backwards the column becomes JSON again; its canonical text is JSON.
"""

import itertools

from django.db import migrations

import ledger.canonical
from ledger.canonical import canonical

BATCH = 2000  # versions written again per statement batch: a long session's results are 3 KB each


def write_canonical(apps, schema_editor):
    RoundVersion = apps.get_model("ledger", "RoundVersion")
    stored = RoundVersion.objects.filter(result__isnull=False).order_by("pk").values_list("pk", "result")
    table = RoundVersion._meta.db_table
    with schema_editor.connection.cursor() as cursor:
        for batch in itertools.batched(stored.iterator(chunk_size=BATCH), BATCH):
            cursor.executemany(
                f'UPDATE "{table}" SET "result" = %s WHERE "id" = %s',
                [(canonical(result), pk) for pk, result in batch],
            )


def result_as_jsonb(apps, schema_editor):
    """Backwards, on PostgreSQL: text becomes ``jsonb`` only through an explicit cast, which Django does not
    write between two fields that are JSONFields to it (``CanonicalJSONField``'s internal type). The
    reversed AlterField then finds the column ``jsonb`` already. SQLite's JSON column is text: nothing to
    do."""
    if schema_editor.connection.vendor == "postgresql":
        table = apps.get_model("ledger", "RoundVersion")._meta.db_table
        schema_editor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "result" TYPE jsonb USING "result"::jsonb')


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0028_round_kept_nets"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roundversion",
            name="result",
            field=ledger.canonical.CanonicalJSONField(blank=True, null=True),
        ),
        migrations.RunPython(write_canonical, result_as_jsonb),
    ]
