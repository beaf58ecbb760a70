from django.urls import path

from . import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="pwa-manifest"),
    path("sw.js", views.service_worker, name="pwa-service-worker"),
    path("favicon.ico", views.favicon, name="pwa-favicon"),
    path("offline/", views.offline, name="pwa-offline"),
    path("offline/engine.zip", views.engine_bundle, name="pwa-engine-bundle"),
]
