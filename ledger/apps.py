from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger (groups, sessions, rounds)"

    def ready(self) -> None:
        from . import departures

        departures.connect()
