"""A session's ledger rows in the order written, for the API's pages of them (issue 16: PostgreSQL walked the
primary key from the first row of the database, 121 ms a page at 1,000 sessions)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0024_session_player_points'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='ledgerentry',
            index=models.Index(fields=['session', 'id'], name='ledger_session_in_order'),
        ),
    ]
