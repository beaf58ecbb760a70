"""Each win row keeps what its winner took for it (``WinRecord.points``), so a session's biggest hands are
an indexed read instead of a sum per win (issue 16).

The rows already stored are filled from the ledger: a win's points are its winner's ``win`` and
``self_draw_bonus`` rows of that event in the version that paid them, which is the win's own version, or
for a re-coined one (it moves no points) the latest version before it that did. The append-only triggers
refuse that UPDATE, so they are lifted for it and put back (0005's own statements). "Not a reversal" is
written ``COALESCE(reverses_id, 0) = 0``: as ``IS NULL`` SQLite's planner, without statistics, walks the
unique index of ``reverses`` (every live row of the database) once per win.
"""

from importlib import import_module

from django.db import migrations, models

guards = import_module("ledger.migrations.0005_version_digest_and_guards")

FILL = """
UPDATE ledger_winrecord SET points = COALESCE((
    SELECT SUM(entry.points) FROM ledger_ledgerentry entry
    WHERE entry.round_version_id = (
        SELECT MAX(paid.id) FROM ledger_roundversion paid
        WHERE paid.round_id = ledger_winrecord.round_id
          AND paid.version <= ledger_winrecord.version
          AND paid.kind <> 'recoined'
    )
      AND entry.event_index = ledger_winrecord.event_index
      AND entry.player_id = ledger_winrecord.winner_id
      AND entry.reason IN ('win', 'self_draw_bonus')
      AND COALESCE(entry.reverses_id, 0) = 0
), 0)
"""


def fill(apps, schema_editor):
    schema_editor.execute(FILL, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0019_device_token"),
    ]

    operations = [
        migrations.RunPython(guards.unguard, guards.guard),
        migrations.AddField(
            model_name="winrecord",
            name="points",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(guards.guard, guards.unguard),
        migrations.AddIndex(
            model_name="winrecord",
            index=models.Index(fields=["session", "-points"], name="win_session_biggest"),
        ),
    ]
