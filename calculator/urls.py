from django.urls import path

from . import views
from .api import api_patterns

page_patterns = [
    path("", views.calculator_page, name="calculator-page"),
]

urlpatterns = page_patterns + api_patterns
