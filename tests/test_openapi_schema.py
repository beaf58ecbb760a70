"""The OpenAPI schema of the whole API builds without a warning, and the docs page works offline."""

import re

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from calculator.api import SCORE_EXAMPLES, WAITS_EXAMPLES
from settlement.api import SETTLE_EXAMPLES

STATELESS_OPERATIONS = {
    ("/api/v1/score/", "post"),
    ("/api/v1/waits/", "post"),
    ("/api/v1/settle/", "post"),
    ("/api/v1/rules/", "get"),
}


@pytest.fixture(scope="module")
def schema_text(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    # --fail-on-warn turns every drf-spectacular warning (an untyped field, a guessed view) into a failure,
    # for every endpoint of every app; --validate checks the result against the OpenAPI 3 meta-schema.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return path.read_text()


@pytest.fixture(scope="module")
def schema(schema_text) -> dict:
    import yaml

    return yaml.safe_load(schema_text)


def test_the_schema_lists_the_stateless_endpoints(schema):
    operations = {(path, method) for path, item in schema["paths"].items() for method in item}
    assert operations >= STATELESS_OPERATIONS


@pytest.mark.parametrize(("path", "method"), sorted(STATELESS_OPERATIONS))
def test_a_stateless_endpoint_needs_no_login_and_documents_its_errors(schema, path, method):
    operation = schema["paths"][path][method]
    assert operation.get("security") in ([], [{}], None) or {} in operation["security"]
    assert "200" in operation["responses"]
    if method == "post":
        assert operation["responses"]["400"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }


def test_every_request_field_is_documented(schema):
    undocumented = [
        f"{name}.{field}"
        for name, component in schema["components"]["schemas"].items()
        if name in {"ScoreRequestRequest", "WaitsRequestRequest", "SettleRequestRequest"}
        for field, spec in component.get("properties", {}).items()
        if not spec.get("description")
    ]
    assert undocumented == []


def test_the_docs_page_renders_without_any_external_host():
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui-bundle.js" in page
    external = re.findall(r"""(?:src|href)\s*=\s*["'](?:https?:)?//[^"']+""", page)
    assert external == []
    assert "cdn" not in page.lower()


def test_the_docs_page_inline_code_carries_the_csp_nonce():
    response = Client().get("/api/docs/")
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    inline_tags = re.findall(r"<(?:script|style)(?![^>]*\bsrc=)[^>]*>", response.content.decode())
    assert inline_tags
    assert all(f'nonce="{nonce}"' in tag for tag in inline_tags), inline_tags


@pytest.mark.e2e
def test_the_docs_page_lists_the_calculators_in_a_browser(live_server, phone_page):
    """Swagger UI really runs under the site's CSP (phone_page fails on any console error)."""
    phone_page.goto(f"{live_server.url}/api/docs/")
    for operation in ("/api/v1/score/", "/api/v1/waits/", "/api/v1/settle/", "/api/v1/rules/"):
        phone_page.get_by_text(operation, exact=True).first.wait_for()


def test_the_schema_endpoint_serves_the_same_paths(schema):
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    assert set(response.json()["paths"]) == set(schema["paths"])


STATELESS_PATHS = r"^/api/v1/(score|waits|settle|rules)/$"
DOCUMENTED_REQUESTS = {
    path: [example for example in examples if example.request_only]
    for path, examples in (
        ("/api/v1/score/", SCORE_EXAMPLES),
        ("/api/v1/waits/", WAITS_EXAMPLES),
        ("/api/v1/settle/", SETTLE_EXAMPLES),
    )
}
# Schema-valid bodies are mostly not real hands ("concealed": "self"), so a 400 for them is right; what must
# hold is that every answer is documented and has the documented shape.
CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


# Schemathesis' WSGI transport asks for gzip and hands the compressed bytes to the checks as they are.
UNCOMPRESSED = {"Accept-Encoding": "identity"}


@pytest.fixture
def stateless_schema():
    return schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler()).include(path_regex=STATELESS_PATHS)


def test_no_stateless_operation_answers_with_a_server_error(stateless_schema):
    """Schemathesis sends bodies built from the schema, valid and invalid: every answer is < 500, and
    every answer to a valid body matches the schema's description of it (status, content type, shape)."""
    operations = [result.ok() for result in stateless_schema.get_all_operations()]
    assert {(op.path, op.method.lower()) for op in operations} == STATELESS_OPERATIONS
    for operation in operations:
        fuzz(operation)


def test_every_documented_request_example_gets_a_documented_answer(stateless_schema):
    """The schema's own examples, sent as they stand: a 200 whose body has the documented shape."""
    operations = {op.path: op for op in (result.ok() for result in stateless_schema.get_all_operations())}
    for path, examples in DOCUMENTED_REQUESTS.items():
        operation = operations[path]
        for example in examples:
            case = operation.Case(body=example.value, media_type="application/json")
            response = case.call(headers=UNCOMPRESSED)
            assert response.status_code == 200, (path, example.name, response.text[:300])
            case.validate_response(response, checks=CONFORMANCE)


EXAMPLES_PER_MODE = 200


def fuzz(operation) -> None:
    """EXAMPLES_PER_MODE bodies valid by the schema, and as many invalid ones for a POST; every one really
    sent (counted), none answered with a 5xx, and a POST's bodies reach its parser (some 400s among them)."""
    statuses: dict[str, list[int]] = {"valid": [], "invalid": []}

    def send(case, mode: str):
        response = case.call(headers=UNCOMPRESSED)
        statuses[mode].append(response.status_code)
        assert response.status_code < 500, f"{operation.label}: {response.status_code} {response.text[:300]}"
        return response

    @given(case=operation.as_strategy(GenerationMode.POSITIVE))
    @settings(
        max_examples=EXAMPLES_PER_MODE, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    def valid_bodies(case) -> None:
        case.validate_response(send(case, "valid"), checks=CONFORMANCE)

    @given(case=operation.as_strategy(GenerationMode.NEGATIVE))
    @settings(
        max_examples=EXAMPLES_PER_MODE, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    def invalid_bodies(case) -> None:
        send(case, "invalid")

    valid_bodies()
    if operation.method.lower() != "post":
        return
    invalid_bodies()
    for mode, answers in statuses.items():
        assert len(answers) >= EXAMPLES_PER_MODE // 2, (operation.label, mode, len(answers))
        assert 400 in answers, (operation.label, mode, sorted(set(answers)))


def test_the_error_shape_documents_its_code(schema):
    """Issue 7: every error body carries ``code`` (added last, docs/errors.md lists them)."""
    error = schema["components"]["schemas"]["Error"]
    assert "code" in error["required"]
    assert error["properties"]["code"]["type"] == "string"
    assert "docs/errors.md" in error["properties"]["code"]["description"]
