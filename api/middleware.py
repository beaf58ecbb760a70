"""The API speaks English: ``detail`` is English and ``detail_zh`` Chinese, whatever the request's language.

The pages follow the visitor's language (Django's LocaleMiddleware, Chinese by default), but an API answer
carries both languages in fields of their own, so nothing in it may depend on ``Accept-Language``. DRF and
Django word their messages in the active language at the moment they raise (a serializer's "This field is
required.", a password validator's "This password is too short."), so under ``/api/`` English is made the
active language before any view runs.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .errors import under_api


class ApiInEnglishMiddleware:
    """After LocaleMiddleware: under ``/api/`` the active language is English for the whole request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if under_api(request):
            translation.activate("en")
            request.LANGUAGE_CODE = "en"
        return self.get_response(request)
