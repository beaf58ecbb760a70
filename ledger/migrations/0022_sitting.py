"""Who sat where when (``Sitting``): every session stored so far kept its four players all evening, so
each of its seats is one open sitting from hand 1. Then the figures (0021) are made from the ledger: they
count each player's hands through his sittings (``figures.rebuild``, through the models of this code, which
these tables match here): the session rows alone (``figures.rebuild_sessions``), the group rows being 0027's,
added up there from these."""

import django.db.models.deletion
from django.db import migrations, models


def seat_the_sessions_stored(apps, schema_editor):
    SessionSeat = apps.get_model("ledger", "SessionSeat")
    Sitting = apps.get_model("ledger", "Sitting")
    Sitting.objects.bulk_create(
        (
            Sitting(session_id=seat.session_id, seat=seat.seat, player_id=seat.player_id, first=1)
            for seat in SessionSeat.objects.all().iterator()
        ),
        batch_size=1000,
    )


def fill_figures(apps, schema_editor):
    from ledger import figures

    Session = apps.get_model("ledger", "Session")
    figures.rebuild_sessions(Session.objects.order_by("pk").values_list("pk", flat=True))


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0021_figures'),
    ]

    operations = [
        migrations.CreateModel(
            name='Sitting',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('first', models.PositiveIntegerField(default=1)),
                ('last', models.PositiveIntegerField(blank=True, null=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sittings', to='ledger.player')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sittings', to='ledger.session')),
            ],
            options={
                'ordering': ('session', 'first', 'seat'),
                'indexes': [models.Index(fields=['session', 'player'], name='sitting_session_player')],
                'constraints': [models.UniqueConstraint(fields=('session', 'seat', 'first'), name='sitting_one_spell_a_seat'), models.UniqueConstraint(condition=models.Q(('last__isnull', True)), fields=('session', 'seat'), name='sitting_one_open_a_seat'), models.CheckConstraint(condition=models.Q(('seat__gte', 0), ('seat__lt', 4)), name='sitting_seat_in_range'), models.CheckConstraint(condition=models.Q(('first__gte', 1), models.Q(('last__isnull', True), ('last__gte', models.F('first')), _connector='OR')), name='sitting_hands_in_order')],
            },
        ),
        migrations.RunPython(seat_the_sessions_stored, migrations.RunPython.noop),
        migrations.RunPython(fill_figures, migrations.RunPython.noop),
    ]
