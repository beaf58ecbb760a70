"""A group's 谁还欠谁 kept under a revision its writes move (ledger/debts.py): derived rows, filled by the
first read that needs them, so nothing is filled here; every group starts at revision 0 with none kept."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0025_ledger_session_in_order'),
    ]

    operations = [
        migrations.CreateModel(
            name='KeptDebts',
            fields=[
                ('group', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='kept_debts', serialize=False, to='ledger.group')),
                ('revision', models.BigIntegerField()),
                ('form', models.PositiveSmallIntegerField()),
                ('net', models.JSONField(default=list)),
            ],
        ),
        migrations.AddField(
            model_name='group',
            name='debts_revision',
            field=models.BigIntegerField(default=0, editable=False),
        ),
    ]
