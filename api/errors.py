"""One shape for every API error, whichever layer found it.

``{"field": "concealed", "detail": "...", "detail_zh": "...", "errors": {"concealed": ["..."]},
"code": "..."}`` (plus ``"event"`` before ``code`` when a round's event is at fault). Engine errors,
serializer errors, malformed or oversized bodies, and DRF's own refusals (401, 403, 404, 405, 415,
429...) all come out this way, each with its own status, so a client needs one parser and may switch on
``code``. The refusals the API words itself are in ``MESSAGES``, the engines' catalogue's shape.
"""

import sys
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from calculator.engine import Catalogue, EngineError, Message

MESSAGES: Catalogue = {
    # DRF's refusals, by DRF's own codes, with fixed words: DRF words its own in the request's language and
    # a 404 names the model ("No Session matches the given query."): neither belongs in ``detail``, which
    # is English like every other ``detail``.
    "not_authenticated": Message(
        "Authentication credentials were not provided.", "未登录：身份认证信息未提供。"
    ),
    "authentication_failed": Message(
        "The credentials are not valid (user name, password or token).",
        "身份认证失败：用户名、密码或令牌不正确。",
    ),
    "permission_denied": Message(
        "You do not have permission to perform this action.", "没有权限执行此操作。"
    ),
    "not_found": Message("Not found.", "找不到该对象。"),
    "method_not_allowed": Message("This method is not allowed here.", "方法不允许。"),
    "not_acceptable": Message("Only JSON can be answered.", "只能以 JSON 应答。"),
    "unsupported_media_type": Message(
        "Unsupported media type: send JSON (application/json).",
        "不支持的媒体类型：请用 JSON。",
    ),
    "throttled": Message("Too many requests: try again later.", "请求太频繁，请稍后再试。"),
    # Any other refusal of DRF's, in its own words.
    "refused": Message("{words}", "{words}"),
    "body_not_json": Message("The body is not valid JSON: {detail}", "请求体不是有效的 JSON。"),
    "body_too_large": Message("The body is too large.", "请求体太大。"),
    "server_error": Message("Server error: the request was not completed.", "服务器出错，请求未完成。"),
    "database_unavailable": Message(
        "The database is not answering: try again in a moment.", "数据库暂时无法连接，请稍后再试。"
    ),
    # ``wait`` is ``minutes`` in English words, singular for 1 (sczmj_site/lockout.py, ``minutes_en``).
    "locked_out": Message(
        "Too many wrong passwords for this user name from this address: try again in {wait}.",
        "该用户名在此地址密码错误次数过多，请 {minutes} 分钟后再试。",
    ),
    "name_cooling_off": Message(
        "Too many wrong passwords for this user name from several addresses: try again in {wait}.",
        "该用户名从多个地址密码错误次数过多，请 {minutes} 分钟后再试。",
    ),
}


class ApiRefusal(EngineError):
    """A refusal the API words itself (``MESSAGES``), in the engines' error shape."""

    catalogue = MESSAGES


# DRF's refusals as the API answers them: their code and the field they concern.
REFUSALS: Mapping[type[exceptions.APIException], ApiRefusal] = {
    exceptions.NotAuthenticated: ApiRefusal("not_authenticated", field="credentials"),
    exceptions.AuthenticationFailed: ApiRefusal("authentication_failed", field="credentials"),
    exceptions.PermissionDenied: ApiRefusal("permission_denied", field="permission"),
    exceptions.NotFound: ApiRefusal("not_found", field="path"),
    exceptions.MethodNotAllowed: ApiRefusal("method_not_allowed", field="method"),
    exceptions.NotAcceptable: ApiRefusal("not_acceptable", field="accept"),
    exceptions.UnsupportedMediaType: ApiRefusal("unsupported_media_type", field="content_type"),
    exceptions.Throttled: ApiRefusal("throttled", field="body"),
}

# DRF's validation messages by code, in Chinese (the serializers add no messages of their own).
VALIDATION_ZH: Mapping[str, str] = {
    "required": "缺少必填字段。",
    "null": "此字段不能为 null。",
    "blank": "此字段不能为空。",
    "invalid": "值无效。",
    "max_length": "太长了。",
    "min_length": "太短了。",
    "max_value": "数值太大。",
    "min_value": "数值太小。",
    "max_string_length": "数值太大。",
    "invalid_choice": "不是有效的选项。",
    "not_a_list": "应为列表。",
    "not_a_dict": "应为对象。",
    "empty": "不能为空列表。",
    "does_not_exist": "对象不存在。",
    "incorrect_type": "类型不正确。",
    "unique": "该值已存在。",
    "date": "日期格式不正确。",
    "datetime": "日期时间格式不正确。",
    "max_digits": "数字位数太多。",
    "max_decimal_places": "小数位数太多。",
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    worded = getattr(exc, "error", None)
    if isinstance(exc, PermissionDenied) and isinstance(worded, EngineError):
        return Response(safe(worded_refusal(worded)), status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, EngineError):
        return Response(safe(exc.to_dict()), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, exceptions.ParseError):
        return Response(
            safe(error_body("body_not_json", "body", detail=exc.detail)), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("body_too_large", "body"), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = validation_body(exc.detail)
    elif not _is_shaped(response.data):
        response.data = refusal_body(_as_api_exception(exc), response.data)
    response.data = safe(response.data)
    return response


def under_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: under ``/api/`` a URL no view matches (an id that is not a number or is 19 digits
    long, a misspelt path) is the API's 404 in the one shape, like a missing object; elsewhere the page."""
    if under_api(request):
        return _json(refusal_body(exceptions.NotFound(), None), status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception)


# A database that does not answer (down, restarting, unreachable, SQLite's lock held too long) is an
# outage the app recovers from by itself: 503 and when to try again, not a 500 (a bug).
OUTAGES = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 10


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a crash under ``/api/`` is still JSON a client can parse (no traceback, no HTML);
    a database outage, wherever it was met (a view, the session or log-in middleware), is 503 with
    ``Retry-After``, in the one shape under ``/api/`` and as a page of its own elsewhere."""
    if isinstance(sys.exc_info()[1], OUTAGES):
        response: HttpResponse = (
            _json(error_body("database_unavailable", "body"), status.HTTP_503_SERVICE_UNAVAILABLE)
            if under_api(request)
            else render(request, "503.html", status=status.HTTP_503_SERVICE_UNAVAILABLE)
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if under_api(request):
        return _json(error_body("server_error", "body"), status.HTTP_500_INTERNAL_SERVER_ERROR)
    return defaults.server_error(request)


def _json(body: dict[str, Any], status_code: int) -> JsonResponse:
    return JsonResponse(
        body, status=status_code, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")}
    )


def error_body(code: str, field: str, **params: Any) -> dict[str, Any]:
    """The body of the API's own refusal ``code`` (``MESSAGES``) about ``field``."""
    return ApiRefusal(code, field=field, **params).to_dict()


def worded_refusal(error: EngineError) -> dict[str, Any]:
    """A 403 the project words itself (the ledger's ``Forbidden``): DRF's 403 with its code, the words
    English in ``detail`` and Chinese in ``detail_zh``, like every other refusal."""
    body = REFUSALS[exceptions.PermissionDenied].to_dict()
    words = {"detail": error.message, "detail_zh": error.message_zh, "errors": {error.field: [error.message]}}
    return body | {"field": error.field} | words


def refusal_body(exc: exceptions.APIException, data: Any) -> dict[str, Any]:
    """A DRF refusal (401, 403, 404, 405, ...) in the one shape, with fixed English and Chinese. A refusal
    worded by the project itself (``Forbidden("role_forbids")``) keeps its own words."""
    message = str(data.get("detail", "")) if isinstance(data, Mapping) else str(data)
    for kind, refusal in REFUSALS.items():
        if isinstance(exc, kind):
            body = refusal.to_dict()
            if kind is exceptions.PermissionDenied and message and message != str(kind.default_detail):
                body |= {"detail": message, "errors": {refusal.field: [message]}}
            return body
    return error_body("refused", "body", words=message or str(exc.default_detail))


def _as_api_exception(exc: Exception) -> exceptions.APIException:
    """The exception as DRF answered it: Django's Http404 and PermissionDenied become DRF's own."""
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied()
    return exc if isinstance(exc, exceptions.APIException) else exceptions.APIException()


def _is_shaped(data: Any) -> bool:
    """Already in the one shape (a refusal of the ledger's own carries its body ready-made)."""
    return isinstance(data, Mapping) and "field" in data and "detail_zh" in data


def validation_body(detail: Any) -> dict[str, Any]:
    """Flatten DRF's nested error detail into ``errors`` keyed by dotted field paths."""
    errors: dict[str, list[str]] = {}
    codes: dict[str, str] = {}
    _flatten(detail, "", errors, codes)
    field, messages = next(iter(errors.items()), ("body", ["Invalid input."]))
    code = codes.get(field) or "invalid"
    message_zh = VALIDATION_ZH.get(codes.get(field, ""), messages[0])
    return {"field": field, "detail": messages[0], "detail_zh": message_zh, "errors": errors, "code": code}


def _flatten(detail: Any, prefix: str, errors: dict[str, list[str]], codes: dict[str, str]) -> None:
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = prefix if key == "non_field_errors" and prefix else (f"{prefix}.{key}" if prefix else key)
            _flatten(value, name, errors, codes)
    elif isinstance(detail, list) and detail and all(isinstance(item, str) for item in detail):
        for item in detail:
            _add(item, prefix, errors, codes)
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if value:
                _flatten(value, f"{prefix}[{index}]", errors, codes)
    else:
        _add(detail, prefix, errors, codes)


def _add(message: Any, prefix: str, errors: dict[str, list[str]], codes: dict[str, str]) -> None:
    field = prefix or "body"
    errors.setdefault(field, []).append(str(message))
    codes.setdefault(field, getattr(message, "code", "") or "")


def safe(data: Any) -> Any:
    """The body with every string encodable as UTF-8: a lone surrogate an input smuggled into a message
    becomes its ``\\udXXX`` escape instead of failing the whole response."""
    if isinstance(data, str):
        return data.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(data, Mapping):
        return {safe(key): safe(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [safe(item) for item in data]
    return data


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error answer of every API, the calculators' and the ledger's, whatever its status: the field
    at fault and what is wrong with it, in English and Chinese."""

    field = serializers.CharField(
        help_text="The field at fault as a dotted path: concealed, melds[1].kind, rules.cap_multiplier, "
        "events[3].winners[0].hand.concealed; body when the body itself is wrong; for a refusal, what "
        "was refused (credentials, permission, path, method...)."
    )
    detail = serializers.CharField(help_text="What is wrong, in English.")
    detail_zh = serializers.CharField(help_text="What is wrong, in Chinese (中文说明).")
    # The API's field is called errors (API.md), as DRF calls a serializer's own validation errors.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text="The same message keyed by field, for form libraries.",
    )
    event = serializers.IntegerField(
        required=False,
        help_text="When one event of a round is at fault (settle, a round recorded or corrected): its "
        "index in the round's events.",
    )
    code = serializers.CharField(
        help_text="What is wrong as a stable code (fifth_copy, player_has_won, session_closed, not_found...; "
        "a serializer's refusal gives DRF's own: required, invalid...; docs/errors.md lists every one): a "
        "client may switch on it, the words may change."
    )
