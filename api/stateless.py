"""What the stateless calculator APIs of every app stand on (score, waits and rules in ``calculator``, settle
in ``settlement``): a lean view, the engine view (a body in, one engine call, its result out) with its
schema, the JSON writer and an OpenAPI example, so that neither app imports the other's API.
"""

import json
from collections.abc import Callable, Iterable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from .errors import ErrorSerializer
from .parsers import SiteJSONParser, read_json


class JsonOnly(DefaultContentNegotiation):
    """The calculators answer only in JSON, so the Accept header need not be parsed on every request."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))
        return first, first.media_type


class StatelessView(APIView):
    """Open to anyone: the calculators store nothing, so there is nothing to log in to or forge.

    The view path is kept lean because scoring itself takes tens of microseconds: no authentication, no
    throttling, no content negotiation, the JSON body read straight from the bytes and the result written
    straight to JSON (bench/bench_api.py measures what is left). Errors still go through DRF's renderer.
    """

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = ()
    parser_classes = (SiteJSONParser,)
    renderer_classes = (JSONRenderer,)
    content_negotiation_class = JsonOnly

    @staticmethod
    def payload(request: Request) -> Any:
        """The parsed JSON body. DRF's ``request.data`` costs more than scoring a hand (parser selection,
        a codecs reader, empty multi-dicts), so a plain JSON body is decoded here; any other content type
        goes to DRF, which answers 415."""
        if request.META.get("CONTENT_TYPE", "").partition(";")[0].strip() != "application/json":
            return request.data
        body = request.body
        if not body:
            return {}  # as DRF does: an empty body is an empty object, so the missing field is named
        return read_json(body)


class EngineView(StatelessView):
    """A POST whose whole work is one engine call: the body to the engine's ``*_from_payload``, its result
    back as JSON. A subclass names the call (``answer``) and its schema (``engine_schema``)."""

    answer: Callable[[Any], Any]

    def post(self, request: Request) -> HttpResponse:
        return json_response(self.answer(self.payload(request)).to_dict())


def engine_schema(
    *,
    operation_id: str,
    summary: str,
    description: str,
    request: type[Serializer[Any]],
    result: type[Serializer[Any]],
    examples: list[OpenApiExample],
) -> Callable[[type[EngineView]], type[EngineView]]:
    """The OpenAPI entry of an ``EngineView``: its result on a 200, the one error body on a 400."""
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            description=description,
            request=request,
            responses={200: result, 400: ErrorSerializer},
            examples=examples,
            tags=["calculators"],
        )
    )


def json_response(data: object) -> HttpResponse:
    """The result as JSON, written as DRF's JSONRenderer would (compact, UTF-8, no NaN) but without the
    per-request renderer, charset and indent lookups, which cost as much as scoring the hand."""
    return HttpResponse(json_bytes(data), content_type="application/json")


def json_bytes(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def example(
    name: str, summary: str, value: object, *, response: bool = False, status: int = 200
) -> OpenApiExample:
    return OpenApiExample(
        name,
        summary=summary,
        value=value,
        request_only=not response,
        response_only=response,
        status_codes=[str(status)] if response else None,
    )
