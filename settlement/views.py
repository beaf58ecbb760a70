from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse


def round_page(request: HttpRequest) -> HttpResponse:
    return TemplateResponse(request, "settlement/round.html", {})
