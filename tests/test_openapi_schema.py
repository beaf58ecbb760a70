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
    assert "swagger" in page.lower()
    external = re.findall(r"""(?:src|href)\s*=\s*["'](?:https?:)?//[^"']+""", page)
    assert external == []
    assert "cdn" not in page.lower()


def test_the_schema_endpoint_serves_the_same_paths(schema):
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    assert set(response.json()["paths"]) == set(schema["paths"])
