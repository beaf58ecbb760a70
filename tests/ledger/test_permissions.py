"""Roles: viewers only read, scorekeepers record, only owners manage members."""

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledger import services
from ledger.models import Role
from tests.ledger.conftest import SELF_DRAW_B, client_for, make_user
from tests.ledger.test_idor import (
    CASES,
    first_payment,
    path_of,
)  # the one table of every ledger route and method


def url(name: str, **kwargs: Any) -> str:
    return reverse(f"ledger:{name}", kwargs=kwargs)


@pytest.fixture
def recorded(owner: Any, session: Any) -> Any:
    return services.round_record(actor=owner, session=session, body=SELF_DRAW_B)[0]


def writes(session: Any, round_: Any, membership: Any) -> list[tuple[str, str, Any]]:
    group_id = session.group_id
    mark = first_payment(membership.user, session)
    payment = {"from_player": mark.payer_id, "to_player": mark.payee_id, "amount": 1}
    return [
        ("post", url("session-payments", session_id=session.pk), payment),
        ("post", url("session-fee", session_id=session.pk), {"amount": 40, "split": "aa", "paid_by": None}),
        ("post", url("payment-undo", mark_id=mark.pk), None),
        ("post", url("player-list", group_id=group_id), {"name": "新人"}),
        ("post", url("session-list", group_id=group_id), {"name": "x", "players": [1, 2, 3, 4]}),
        ("post", url("round-list", session_id=session.pk), SELF_DRAW_B),
        ("post", url("round-correct", round_id=round_.pk), SELF_DRAW_B),
        ("post", url("round-void", round_id=round_.pk), None),
        ("post", url("session-close", session_id=session.pk), None),
        ("post", url("member-list", group_id=group_id), {"username": "owner", "role": "viewer"}),
        ("patch", url("member-detail", group_id=group_id, member_id=membership.pk), {"role": "viewer"}),
        ("delete", url("member-detail", group_id=group_id, member_id=membership.pk), None),
    ]


def reads(session: Any, round_: Any) -> list[str]:
    return [
        url("group-detail", group_id=session.group_id),
        url("member-list", group_id=session.group_id),
        url("player-list", group_id=session.group_id),
        url("session-list", group_id=session.group_id),
        url("group-standings", group_id=session.group_id),
        url("group-statistics", group_id=session.group_id),
        url("session-detail", session_id=session.pk),
        url("round-list", session_id=session.pk),
        url("session-ledger", session_id=session.pk),
        url("session-totals", session_id=session.pk),
        url("session-settle-up", session_id=session.pk),
        url("session-debts", session_id=session.pk),
        url("group-debts", group_id=session.group_id),
        url("session-export", session_id=session.pk),
        url("round-detail", round_id=round_.pk),
    ]


def test_a_viewer_reads_everything(session, recorded, member_factory):
    client = client_for(member_factory("viewer"))
    for path in reads(session, recorded):
        assert client.get(path).status_code == 200, path


def test_a_viewer_writes_nothing(session, recorded, member_factory, owner):
    client = client_for(member_factory("viewer"))
    for method, path, body in writes(session, recorded, session.group.memberships.get(user=owner)):
        response = getattr(client, method)(path, body, format="json")
        assert response.status_code == 403, (method, path)
    recorded.refresh_from_db()
    assert (recorded.version, session.rounds.count(), session.group.players.count()) == (1, 1, 4)


def test_a_scorekeeper_records_but_cannot_manage_members(session, recorded, member_factory, owner):
    client = client_for(member_factory("keeper", Role.SCOREKEEPER))
    assert (
        client.post(url("round-list", session_id=session.pk), SELF_DRAW_B, format="json").status_code == 201
    )
    make_user("friend")
    response = client.post(
        url("member-list", group_id=session.group_id), {"username": "friend", "role": "viewer"}, format="json"
    )
    assert response.status_code == 403


def test_an_owner_invites_promotes_and_removes_members(api, group):
    friend = make_user("friend")
    invited = api.post(
        url("member-list", group_id=group.pk), {"username": "friend", "role": "viewer"}, format="json"
    )
    assert invited.status_code == 201
    assert not group.memberships.filter(user=friend).exists()  # nobody joins without saying yes
    accepted = client_for(friend).post(url("invitation-accept", invitation_id=invited.json()["id"]))
    assert accepted.status_code == 200
    member_id = accepted.json()["id"]
    promoted = api.patch(
        url("member-detail", group_id=group.pk, member_id=member_id), {"role": "scorekeeper"}, format="json"
    )
    assert promoted.json()["role"] == "scorekeeper"
    assert api.delete(url("member-detail", group_id=group.pk, member_id=member_id)).status_code == 204
    assert not group.memberships.filter(user__username="friend").exists()


def test_the_last_owner_cannot_step_down(api, group, owner):
    membership = group.memberships.get(user=owner)
    response = api.patch(
        url("member-detail", group_id=group.pk, member_id=membership.pk), {"role": "viewer"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "role"


def test_anonymous_requests_are_refused_everywhere_but_sign_up_and_token(session, recorded, owner):
    objects = {
        "mark": first_payment(owner, session),
        "group": session.group,
        "session": session,
        "round": recorded,
        "membership": session.group.memberships.first(),
        "invite": services.invite_create(actor=owner, session=session, role="viewer"),
        "invitation": services.member_invite(
            actor=owner, group=session.group, username=make_user("friend").username, role="viewer"
        ),
    }
    anonymous = APIClient()
    for param in CASES:
        name, method = param.values
        path = reverse(f"ledger:{name}", kwargs=path_of(objects, name))
        response = getattr(anonymous, method)(path, SELF_DRAW_B if method == "post" else None, format="json")
        assert response.status_code == 401, (method, path)
    assert anonymous.get(reverse("ledger:group-list")).status_code == 401
    assert anonymous.get(reverse("ledger:invitation-list")).status_code == 401
