"""The figures kept as the ledger is written (``Figures``, ``Session.counted_rounds`` and
``counted_hands``; ledger/figures.py, issue 16), made for the sessions already stored from their ledger,
and the index a player's biggest hand is read down.

The fill is 0022's: ``figures.rebuild``, the one definition of what the rows hold, reads the ledger's rows
through the models of this code, and they count a player's hands through his sittings (``Sitting``), which
0022 adds; a database that applied this migration before it moved is filled again there, the same rows.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0020_win_points"),
    ]

    operations = [
        migrations.CreateModel(
            name="Figures",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("rounds", models.IntegerField(default=0)),
                ("hands", models.IntegerField(default=0)),
                ("net", models.BigIntegerField(default=0)),
                ("kong_points", models.BigIntegerField(default=0)),
                ("huazhu", models.IntegerField(default=0)),
                ("chajiao", models.IntegerField(default=0)),
                ("wins", models.IntegerField(default=0)),
                ("self_draws", models.IntegerField(default=0)),
                ("paid", models.BigIntegerField(default=0)),
                ("fed", models.IntegerField(default=0)),
            ],
            options={
                "verbose_name_plural": "figures",
                "ordering": ("session", "player", "other"),
            },
        ),
        migrations.AddField(
            model_name="session",
            name="counted_hands",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="session",
            name="counted_rounds",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name="winrecord",
            index=models.Index(fields=["winner", "-fan", "id"], name="win_player_biggest"),
        ),
        migrations.AddField(
            model_name="figures",
            name="other",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="ledger.player"
            ),
        ),
        migrations.AddField(
            model_name="figures",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="ledger.player"
            ),
        ),
        migrations.AddField(
            model_name="figures",
            name="session",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="figures", to="ledger.session"
            ),
        ),
        migrations.AddConstraint(
            model_name="figures",
            constraint=models.UniqueConstraint(
                fields=("session", "player", "other"), name="figures_once_per_pair"
            ),
        ),
    ]
