"""One shape for every API error, whichever layer found it.

``{"field": "concealed", "detail": "...", "detail_zh": "...", "errors": {"concealed": ["..."]}}`` (plus
``"event"`` when a round's event is at fault). Engine errors, serializer errors and malformed bodies all
come out this way with status 400, so a client needs one parser.
"""

from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from calculator.engine.errors import EngineError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, EngineError):
        return Response(exc.to_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, exceptions.ParseError):
        return Response(
            error_body("body", f"The body is not valid JSON: {exc.detail}", "请求体不是有效的 JSON。"),
            status=status.HTTP_400_BAD_REQUEST,
        )
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ValidationError):
        response.data = validation_body(exc.detail)
    return response


def error_body(field: str, message: str, message_zh: str | None = None) -> dict[str, Any]:
    return EngineError(field, message, message_zh).to_dict()


def validation_body(detail: Any) -> dict[str, Any]:
    """Flatten DRF's nested error detail into ``errors`` keyed by dotted field paths."""
    errors: dict[str, list[str]] = {}
    _flatten(detail, "", errors)
    field, messages = next(iter(errors.items()), ("body", ["Invalid input."]))
    return {"field": field, "detail": messages[0], "detail_zh": messages[0], "errors": errors}


def _flatten(detail: Any, prefix: str, errors: dict[str, list[str]]) -> None:
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = prefix if key == "non_field_errors" and prefix else (f"{prefix}.{key}" if prefix else key)
            _flatten(value, name, errors)
    elif isinstance(detail, list) and detail and all(isinstance(item, str) for item in detail):
        errors.setdefault(prefix or "body", []).extend(str(item) for item in detail)
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if value:
                _flatten(value, f"{prefix}[{index}]", errors)
    else:
        errors.setdefault(prefix or "body", []).append(str(detail))
