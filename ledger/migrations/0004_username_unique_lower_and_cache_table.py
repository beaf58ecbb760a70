"""Two things Django's own apps leave to the project, created here so ``migrate`` is the only setup step.

* Account names are unique case-insensitively: ``auth_user.username`` is unique only as typed, and the
  service's ``username__iexact`` check cannot stop two sign-ups racing (``RacerX`` and ``Racerx``). An
  index on LOWER(username) makes the database refuse the second (docs/ledger.md, "Accounts").
* The throttle counters live in Django's DatabaseCache, shared by every server process; its table is the
  one ``createcachetable`` makes from settings.CACHES (docs/ledger.md, "Throttles").
"""

from django.core.management import call_command
from django.db import migrations

LOWER_USERNAME_INDEX = "ledger_username_lower_unique"


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0003_version_kind_recoined"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {LOWER_USERNAME_INDEX} ON auth_user (LOWER(username))",
            f"DROP INDEX {LOWER_USERNAME_INDEX}",
        ),
        migrations.RunPython(create_cache_table, migrations.RunPython.noop),
    ]
