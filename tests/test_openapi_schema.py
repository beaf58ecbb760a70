"""The OpenAPI schema of the whole API builds without a warning, and the docs page works offline."""

import re

import pytest
from django.core.management import call_command
from django.test import Client

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
