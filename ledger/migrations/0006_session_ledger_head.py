"""The session's ledger head (docs/ledger.md, "The database guards the ledger" and "Bounds"): the digest of
its latest round version and the points and coins its rows have moved, filled in here for the sessions
already stored."""

from django.db import migrations, models
from django.db.models import Sum
from django.db.models.functions import Abs


def fill_heads(apps, schema_editor):
    Session = apps.get_model("ledger", "Session")
    RoundVersion = apps.get_model("ledger", "RoundVersion")
    moved = {
        name: dict(
            apps.get_model("ledger", name)
            .objects.values("session")
            .annotate(moved=Sum(Abs(column)))
            .values_list("session", "moved")
            .order_by()
        )
        for name, column in (("LedgerEntry", "points"), ("CoinEntry", "coins"))
    }
    for session_id in Session.objects.values_list("id", flat=True):
        last = RoundVersion.objects.filter(round__session_id=session_id).order_by("-id").first()
        Session.objects.filter(pk=session_id).update(
            ledger_digest=last.digest if last else "",
            points_moved=moved["LedgerEntry"].get(session_id) or 0,
            coins_moved=moved["CoinEntry"].get(session_id) or 0,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0005_version_digest_and_guards"),
    ]

    operations = [
        migrations.AddField(
            model_name="session",
            name="coins_moved",
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="session",
            name="ledger_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="session",
            name="points_moved",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunPython(fill_heads, migrations.RunPython.noop),
    ]
