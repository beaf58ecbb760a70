from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger (groups, sessions, rounds)"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import departures, planner

        departures.connect()
        post_migrate.connect(planner.after_migrate, sender=self)
