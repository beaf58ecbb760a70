"""The ledger's refusals carry no HTTP status; the API gives each kind its status in one place."""

import ast
import inspect
from pathlib import Path

from ledger import errors
from ledger.api.refusals import STATUSES, status_of
from settlement.engine import DraftRefusal

ERRORS_FILE = Path(errors.__file__)


def refusal_kinds() -> list[type[errors.LedgerRefusal]]:
    return [
        kind
        for _, kind in inspect.getmembers(errors, inspect.isclass)
        if issubclass(kind, errors.LedgerRefusal) and kind.__module__ == errors.__name__
    ]


def test_the_domain_errors_import_no_web_framework_and_name_no_status():
    tree = ast.parse(ERRORS_FILE.read_text(encoding="utf-8"))
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    assert not {module for module in imported if module.split(".")[0] in ("rest_framework", "django")} - {
        "django.core.exceptions"  # Forbidden is Django's PermissionDenied: a refusal, not a status
    }
    assert [kind.__name__ for kind in refusal_kinds() if hasattr(kind, "status_code")] == []


def test_each_kind_of_refusal_has_its_status():
    samples = {
        errors.SessionClosedError(): 409,
        errors.RoundVoidedError(): 409,
        errors.StaleRoundError(): 409,
        errors.PaymentUndoneError(): 409,
        errors.IdempotencyKeyReusedError(): 422,
        errors.InvitationAnsweredError(): 409,
        errors.InviteUnusableError("expired"): 410,
        errors.StaleHandError(): 409,
        errors.HandRefusedError(DraftRefusal("nothing_to_undo", field="events")): 409,
        errors.SeatChangeRefusedError("seat_change_mid_hand"): 409,
    }
    assert {type(refusal) for refusal in samples} >= {
        kind for kind in refusal_kinds() if kind not in (errors.LedgerRefusal, errors.HandConflict)
    }
    assert {type(refusal).__name__: status_of(refusal) for refusal in samples} == {
        type(refusal).__name__: code for refusal, code in samples.items()
    }
    assert STATUSES[-1] == (errors.LedgerRefusal, 409), "the last row answers every other kind"
