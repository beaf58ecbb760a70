"""Every page is served under the site's Content Security Policy and the usual protective headers."""

import re

import pytest
from django.test import Client

PAGES = ["/", "/round/", "/login/", "/signup/", "/admin/login/", "/api/docs/"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_a_page_carries_the_csp_with_a_fresh_nonce_and_no_unsafe_inline(path):
    first, second = Client().get(path), Client().get(path)
    assert first.status_code == 200
    policy = first["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "'unsafe-eval'" not in policy
    # WebAssembly may compile (the offline engine, docs/offline.md); JavaScript may not eval.
    script_src = re.search(r"script-src ([^;]*)", policy).group(1).split()
    assert "'wasm-unsafe-eval'" in script_src
    nonces = [
        re.search(r"'nonce-([^']+)'", answer["Content-Security-Policy"]).group(1)
        for answer in (first, second)
    ]
    assert nonces[0] != nonces[1]
    assert first["X-Frame-Options"] == "DENY"
    assert first["X-Content-Type-Options"] == "nosniff"
    assert first["Referrer-Policy"] == "same-origin"
