"""A group's figures added up over its sessions (``GroupFigures``; ledger/figures.py, issue 16), filled for
the groups stored so far from their session rows (``Figures``, made by 0022): one grouped INSERT ... SELECT,
the sums ``figures.added_up`` defines, written out here as the tables stand at this migration."""

import django.db.models.deletion
from django.db import migrations, models

FILL = """
INSERT INTO ledger_groupfigures (group_id, player_id, other_id, sessions, rounds, hands, net, kong_points,
    huazhu, chajiao, wins, self_draws, paid, fed)
SELECT session.group_id, figures.player_id, figures.other_id,
    SUM(CASE WHEN figures.player_id = figures.other_id AND figures.rounds > 0 THEN 1 ELSE 0 END),
    SUM(figures.rounds), SUM(figures.hands), SUM(figures.net), SUM(figures.kong_points),
    SUM(figures.huazhu), SUM(figures.chajiao), SUM(figures.wins), SUM(figures.self_draws),
    SUM(figures.paid), SUM(figures.fed)
FROM ledger_figures AS figures JOIN ledger_session AS session ON session.id = figures.session_id
GROUP BY session.group_id, figures.player_id, figures.other_id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0026_group_debts"),
    ]

    operations = [
        migrations.CreateModel(
            name="GroupFigures",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("sessions", models.IntegerField(default=0)),
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
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="ledger.group"
                    ),
                ),
                (
                    "other",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="ledger.player"
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="ledger.player"
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "group figures",
                "ordering": ("group", "player", "other"),
                "constraints": [
                    models.UniqueConstraint(
                        fields=("group", "player", "other"), name="group_figures_once_per_pair"
                    )
                ],
            },
        ),
        migrations.RunSQL(FILL, reverse_sql=migrations.RunSQL.noop),
    ]
