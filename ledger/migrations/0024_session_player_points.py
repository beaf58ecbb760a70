"""The per-person running totals of a session read from an index alone (issue 16: 200 ms at 10,000 hands)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0023_kept_transfers'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='ledgerentry',
            index=models.Index(fields=['session', 'player', 'points'], name='ledger_session_player_points'),
        ),
    ]
