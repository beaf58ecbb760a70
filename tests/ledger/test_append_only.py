"""No ledger row is ever updated or deleted: corrections and voids append reversing rows instead."""

import pytest

from ledger import services
from ledger.models import AppendOnlyError, CoinEntry, LedgerEntry, WinRecord
from tests.ledger.conftest import SELF_DRAW_B, make_table

APPEND_ONLY = [
    pytest.param(LedgerEntry, id="ledger-entry"),
    pytest.param(CoinEntry, id="coin-entry"),
    pytest.param(WinRecord, id="win-record"),
]


@pytest.fixture
def rows(owner):
    _, session = make_table(owner, coins={"room_coefficient": 10, "starting_balances": [100, 100, 100, 100]})
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)


@pytest.mark.parametrize("model", APPEND_ONLY)
def test_saving_a_stored_row_again_is_refused(rows, model):
    row = model.objects.first()
    with pytest.raises(AppendOnlyError):
        row.save()


@pytest.mark.parametrize("model", APPEND_ONLY)
def test_deleting_a_row_is_refused(rows, model):
    with pytest.raises(AppendOnlyError):
        model.objects.first().delete()


@pytest.mark.parametrize("model", APPEND_ONLY)
def test_bulk_updates_and_deletes_are_refused(rows, model):
    count = model.objects.count()
    with pytest.raises(AppendOnlyError):
        model.objects.all().update(id=0)
    with pytest.raises(AppendOnlyError):
        model.objects.filter(pk__gt=0).delete()
    with pytest.raises(AppendOnlyError):
        model.objects.bulk_update(list(model.objects.all()), ["id"])
    assert model.objects.count() == count


def test_related_managers_refuse_too(rows):
    entry = LedgerEntry.objects.first()
    with pytest.raises(AppendOnlyError):
        entry.round.entries.all().delete()
    with pytest.raises(AppendOnlyError):
        entry.session.entries.update(points=0)
