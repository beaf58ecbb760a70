from django.apps import AppConfig


class SettlementConfig(AppConfig):
    name = "settlement"
