"""Schemathesis fuzzes every ledger operation of /api/schema/ in-process (WSGI): never a 5xx.

Requests carry the token of a user who owns a group with players, a session and rounds, and path ids are
pointed at that user's objects, so the bodies and queries are fuzzed against real data rather than
bouncing off 404s (the 404s of other groups' ids are tests/ledger/test_idor.py's job).
"""

import os
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from ledger import services
from ledger.models import Role
from tests.ledger.conftest import SELF_DRAW_B, client_for, make_table, make_user

LEDGER_PATHS = r"^/api/v1/(accounts|auth|groups|sessions|rounds)/"
# 300 on SQLite; the PostgreSQL pass of .ci/run repeats the same operations with a third of them (the
# refusals and shapes under test are the API's, and CI's 50 minutes hold both passes).
EXAMPLES_PER_OPERATION = 100 if os.environ.get("DATABASE_URL", "").startswith("postgres") else 300


@pytest.fixture
def owned(db: Any) -> dict[str, Any]:
    owner = make_user("fuzz-owner")
    group, session = make_table(owner)
    round_, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    friend = make_user("fuzz-friend")
    invitation = services.member_invite(actor=owner, group=group, username="fuzz-friend", role=Role.VIEWER)
    member = services.invitation_accept(actor=friend, invitation=invitation)
    make_user("fuzz-newcomer")
    pending = services.member_invite(actor=owner, group=group, username="fuzz-newcomer", role=Role.VIEWER)
    invite = services.invite_create(actor=owner, session=session, role="viewer")
    token = client_for(owner)._credentials["HTTP_AUTHORIZATION"]
    return {
        # Schemathesis' WSGI transport asks for gzip and hands the compressed bytes to the checks as they are.
        "headers": {"Authorization": token, "Accept-Encoding": "identity"},
        "ids": {
            "group_id": group.pk,
            "session_id": session.pk,
            "round_id": round_.pk,
            "member_id": member.pk,
            "invite_id": invite.pk,
            "invitation_id": pending.pk,
        },
    }


@pytest.fixture
def ledger_schema(db: Any) -> Any:
    # Like Django's test client: a request must not close the connection that holds the test's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler()).include(path_regex=LEDGER_PATHS)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_no_ledger_operation_answers_with_a_server_error(ledger_schema: Any, owned: dict[str, Any]) -> None:
    operations = [result.ok() for result in ledger_schema.get_all_operations()]
    assert len(operations) >= 20, "the ledger's operations should all be in the schema"
    sent: dict[str, int] = {}
    for operation in operations:
        fuzz(operation, owned, sent)
    assert {label: n for label, n in sent.items() if n < EXAMPLES_PER_OPERATION} == {}


def fuzz(operation: Any, owned: dict[str, Any], sent: dict[str, int]) -> None:
    """EXAMPLES_PER_OPERATION requests, valid and invalid, at one operation."""
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)
    )

    @given(case=cases)
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate],
        database=None,
    )
    def requests(case: Any) -> None:
        if case.path_parameters:
            case.path_parameters = {
                name: owned["ids"].get(name, value) for name, value in case.path_parameters.items()
            }
        response = case.call(headers=owned["headers"])
        sent[operation.label] = sent.get(operation.label, 0) + 1
        assert response.status_code < 500, f"{operation.label}: {response.status_code} {response.text[:500]}"

    requests()
