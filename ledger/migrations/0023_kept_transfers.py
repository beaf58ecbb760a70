"""Each session's settle-up transfers, kept under the key of what they are made from (ledger/debts.py):
derived rows, filled by the first read that needs them, so nothing is filled here."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0022_sitting'),
    ]

    operations = [
        migrations.CreateModel(
            name='KeptTransfers',
            fields=[
                ('session', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='kept_transfers', serialize=False, to='ledger.session')),
                ('key', models.CharField(max_length=64)),
                ('transfers', models.JSONField(default=list)),
            ],
        ),
    ]
