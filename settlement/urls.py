from django.urls import path

from . import views
from .api import api_patterns

page_patterns = [
    path("round/", views.round_page, name="round-page"),
]

urlpatterns = page_patterns + api_patterns
