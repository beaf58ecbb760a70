from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from .health import healthz

urlpatterns = [
    path("", include("calculator.urls")),
    path("", include("settlement.urls")),
    path("", include("ledger.urls")),
    path("", include("ledger.pages.accounts")),
    path("", include("ledger.pages.home")),
    path("", include("ledger.pages.group")),
    path("", include("ledger.pages.stats")),
    path("", include("ledger.pages.start")),
    path("", include("ledger.pages.session")),
    path("", include("ledger.pages.evening")),
    path("", include("ledger.pages.history")),
    path("", include("ledger.pages.settle")),
    path("", include("ledger.pages.debts")),
    path("", include("ledger.pages.fee")),
    path("", include("ledger.pages.card")),
    path("", include("ledger.pages.whatif")),
    path("", include("ledger.pages.chart")),
    path("", include("ledger.pages.moving")),
    path("", include("pwa.urls")),
    path("", include("ledger.pages.invites")),
    path("", include("ledger.pages.seats")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]

# Under /api/ a URL that matches nothing is a JSON 404 in the API's one error shape, a crash a JSON 500.
handler404 = "api.errors.page_not_found"
handler500 = "api.errors.server_error"
