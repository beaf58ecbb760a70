"""Each round's current net per seat and the house's, kept on the round (``Round.kept_net_*``): filled
here for the rounds already stored, by one UPDATE whatever their number, from the sums that define them
(``selectors.round_net``: every row of the round, so the reversed versions' rows cancel)."""

from django.db import migrations, models

SEAT_NET = "COALESCE((SELECT SUM(entry.points) FROM ledger_ledgerentry AS entry WHERE entry.round_id = ledger_round.id AND {which}), 0)"  # noqa: E501
FILL = "UPDATE ledger_round SET " + ", ".join(
    [f"kept_net_{seat} = " + SEAT_NET.format(which=f"entry.seat = {seat}") for seat in range(4)]
    + ["kept_net_house = " + SEAT_NET.format(which="entry.is_house")]
)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0027_group_figures"),
    ]

    operations = [
        *(
            migrations.AddField(model_name="round", name=name, field=models.BigIntegerField(default=0))
            for name in ("kept_net_0", "kept_net_1", "kept_net_2", "kept_net_3", "kept_net_house")
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
