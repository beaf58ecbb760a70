"""The tap's one read of the session's table (``selectors.table_of``), written in SQL: it gives the models
the ORM gives, field for field (JSON, dates, times, booleans converted as Django converts them), on SQLite
and PostgreSQL; only a member's sessions; each seat's running points."""

import pytest
from django.forms.models import model_to_dict

from ledger import selectors, services
from ledger.models import Group, HandInProgress, Session
from tests.ledger.conftest import SELF_DRAW_B, SELF_DRAW_B_NET, make_table, make_user

pytestmark = pytest.mark.django_db


def fields_of(instance):
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


@pytest.fixture(
    params=[None, {"room_coefficient": 10, "starting_balances": [100] * 4}], ids=["points", "coins"]
)
def table(request):
    owner = make_user("owner")
    _group, session = make_table(owner, coins=request.param)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    services.hand_setup(
        actor=owner,
        session=session,
        revision=selectors.session_hand_revision(session),
        void_suits=["m", None, "s", "p"],
    )
    services.hand_event_add(
        actor=owner,
        session=session,
        event={"type": "kong", "player": 1, "kind": "concealed"},
        revision=selectors.session_hand_revision(session),
        note="小李 暗杠",
    )
    return owner, session


def test_the_read_gives_the_models_the_orm_gives(table):
    owner, session = table
    read = selectors.table_of(user=owner, session_id=session.pk)
    assert read is not None
    assert fields_of(read.session) == fields_of(Session.objects.get(pk=session.pk))
    assert fields_of(read.session.group) == fields_of(Group.objects.get(pk=session.group_id))
    hand = HandInProgress.objects.get(session=session)
    assert read.hand is not None and fields_of(read.hand) == fields_of(hand)
    assert read.hand.void_suits == ["m", None, "s", "p"] and read.hand.notes == ["小李 暗杠"]
    assert read.hand.session is read.session and read.session.is_open
    assert read.role == "owner"
    assert read.players == tuple(seat.player_id for seat in selectors.session_seats(session))
    assert read.names == ("小王", "小李", "阿美", "老张")
    assert read.points == tuple(SELF_DRAW_B_NET)


def test_another_groups_session_is_not_read(table):
    _owner, session = table
    assert selectors.table_of(user=make_user("stranger"), session_id=session.pk) is None


def test_a_session_without_a_hand_row_reads_none(table):
    owner, session = table
    HandInProgress.objects.filter(session=session).delete()
    read = selectors.table_of(user=owner, session_id=session.pk)
    assert read is not None and read.hand is None and model_to_dict(read.session)["id"] == session.pk
