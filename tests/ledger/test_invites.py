"""Membership by consent and invite links: nobody joins a group without saying yes, a link carries only an
unguessable token, a revoked or expired link says so, and its QR code decodes to the link."""

import io
import re
from datetime import timedelta
from typing import Any

import cairosvg
import pytest
import zxingcpp
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from ledger import services
from ledger.models import GroupInvitation, Membership, Role, SessionInvite
from tests.ledger.conftest import client_for as api_client_for
from tests.ledger.conftest import make_user


def url(name: str, **kwargs: Any) -> str:
    return reverse(f"ledger:{name}", kwargs=kwargs)


def decode_qr(svg: str) -> list[str]:
    png = cairosvg.svg2png(bytestring=svg.encode(), output_width=330)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return [result.text for result in zxingcpp.read_barcodes(image)]


def client_for(user: Any) -> Any:
    client = api_client_for(user)
    client.default_format = "json"
    return client


@pytest.fixture
def api(owner: Any) -> Any:
    return client_for(owner)


@pytest.fixture(autouse=True)
def empty_throttles() -> None:
    cache.clear()


# --- invitations to a group -------------------------------------------------------------------------


def test_inviting_an_account_adds_nobody_until_it_accepts(api, group):
    friend = make_user("friend")
    response = api.post(url("member-list", group_id=group.pk), {"username": "friend", "role": "scorekeeper"})
    assert response.status_code == 201
    body = response.json()
    assert {"id", "username", "role", "created"} <= body.keys()  # the fields the answer always had
    assert (body["username"], body["role"], body["status"]) == ("friend", "scorekeeper", "pending")
    assert not Membership.objects.filter(user=friend).exists()
    assert client_for(friend).get(url("group-detail", group_id=group.pk)).status_code == 404

    inbox = client_for(friend).get(url("invitation-list")).json()["results"]
    assert [(item["group_name"], item["invited_by"]) for item in inbox] == [("周五麻将", "owner")]
    accepted = client_for(friend).post(url("invitation-accept", invitation_id=body["id"]))
    assert accepted.status_code == 200
    assert Membership.objects.get(user=friend, group=group).role == Role.SCOREKEEPER
    again = client_for(friend).post(url("invitation-accept", invitation_id=body["id"]))
    assert again.status_code == 409


def test_a_declined_invitation_adds_nobody(api, group):
    friend = make_user("friend")
    invitation_id = api.post(
        url("member-list", group_id=group.pk), {"username": "friend", "role": "owner"}
    ).json()["id"]
    assert client_for(friend).post(url("invitation-decline", invitation_id=invitation_id)).status_code == 200
    assert not Membership.objects.filter(user=friend).exists()
    assert GroupInvitation.objects.get(pk=invitation_id).status == "declined"


def test_only_the_account_invited_can_accept(api, group, owner):
    make_user("friend")
    other = make_user("other")
    invitation_id = api.post(
        url("member-list", group_id=group.pk), {"username": "friend", "role": "owner"}
    ).json()["id"]
    assert client_for(other).post(url("invitation-accept", invitation_id=invitation_id)).status_code == 404
    assert api.post(url("invitation-accept", invitation_id=invitation_id)).status_code == 403
    assert not Membership.objects.filter(user=other).exists()


def test_an_owner_withdraws_an_invitation(api, group):
    make_user("friend")
    invitation_id = api.post(
        url("member-list", group_id=group.pk), {"username": "friend", "role": "viewer"}
    ).json()["id"]
    assert api.post(url("invitation-decline", invitation_id=invitation_id)).status_code == 200


def test_the_same_account_is_asked_once_and_a_member_not_at_all(api, group, member_factory):
    make_user("friend")
    member_factory("keeper", Role.SCOREKEEPER)
    assert (
        api.post(url("member-list", group_id=group.pk), {"username": "friend", "role": "viewer"}).status_code
        == 201
    )
    again = api.post(url("member-list", group_id=group.pk), {"username": "Friend", "role": "viewer"})
    assert (again.status_code, again.json()["field"]) == (400, "username")
    member = api.post(url("member-list", group_id=group.pk), {"username": "keeper", "role": "viewer"})
    assert (member.status_code, member.json()["field"]) == (400, "username")


def test_guessing_user_names_is_throttled(api, group):
    answers = [
        api.post(
            url("member-list", group_id=group.pk), {"username": f"guess{n}", "role": "viewer"}
        ).status_code
        for n in range(21)
    ]
    assert answers[:20] == [400] * 20
    assert answers[20] == 429
    assert api.get(url("member-list", group_id=group.pk)).status_code == 200  # reading is not counted


# --- invite links to a session ----------------------------------------------------------------------


def test_an_invite_link_carries_a_token_and_its_qr_code_decodes_to_it(api, session):
    response = api.post(url("invite-list", session_id=session.pk), {"role": "viewer", "expires_in_hours": 24})
    assert response.status_code == 201
    body = response.json()
    assert {"id", "role", "url", "qr_svg", "expires_at"} <= body.keys()
    assert body["status"] == "active"
    token = SessionInvite.objects.get(pk=body["id"]).token
    assert body["url"] == f"http://testserver/join/{token}/"
    assert len(token) >= 43  # 32 random bytes: the path holds the token and nothing else
    other = api.post(url("invite-list", session_id=session.pk), {"role": "viewer"}).json()
    assert other["url"] != body["url"]
    assert decode_qr(body["qr_svg"]) == [body["url"]]
    assert "style" not in body["qr_svg"] and "<script" not in body["qr_svg"]


def test_links_expire_after_the_hours_asked_for(api, session):
    before = timezone.now()
    body = api.post(
        url("invite-list", session_id=session.pk), {"role": "scorekeeper", "expires_in_hours": 6}
    ).json()
    expires = SessionInvite.objects.get(pk=body["id"]).expires_at
    assert timedelta(hours=6) <= expires - before < timedelta(hours=6, seconds=30)
    default = api.post(url("invite-list", session_id=session.pk), {"role": "viewer"}).json()
    assert SessionInvite.objects.get(pk=default["id"]).expires_at - before >= timedelta(hours=24)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"role": "owner"}, "role", id="no_owner_links"),
        pytest.param({"role": "viewer", "expires_in_hours": 0}, "expires_in_hours", id="zero_hours"),
        pytest.param({"role": "viewer", "expires_in_hours": 721}, "expires_in_hours", id="over_30_days"),
        pytest.param({"role": "viewer", "expires_in_hours": "soon"}, "expires_in_hours", id="not_a_number"),
        pytest.param({}, "role", id="no_role"),
    ],
)
def test_a_bad_invite_is_a_400_naming_the_field(api, session, body, field):
    response = api.post(url("invite-list", session_id=session.pk), body)
    assert (response.status_code, response.json()["field"]) == (400, field)
    assert not SessionInvite.objects.exists()


def test_viewers_neither_make_nor_see_links(session, member_factory, api):
    api.post(url("invite-list", session_id=session.pk), {"role": "scorekeeper"})
    viewer = client_for(member_factory("viewer"))
    assert viewer.post(url("invite-list", session_id=session.pk), {"role": "viewer"}).status_code == 403
    assert viewer.get(url("invite-list", session_id=session.pk)).status_code == 403


def test_the_owner_lists_and_revokes_links(api, session, member_factory):
    keeper = client_for(member_factory("keeper", Role.SCOREKEEPER))
    theirs = keeper.post(url("invite-list", session_id=session.pk), {"role": "viewer"}).json()
    listed = api.get(url("invite-list", session_id=session.pk)).json()["results"]
    assert [link["id"] for link in listed] == [theirs["id"]]
    assert listed[0]["created_by"] == "keeper"
    assert api.delete(url("invite-detail", invite_id=theirs["id"])).status_code == 204
    assert api.get(url("invite-list", session_id=session.pk)).json()["results"][0]["status"] == "revoked"


def test_a_scorekeeper_revokes_his_own_links_only(api, session, member_factory):
    keeper = client_for(member_factory("keeper", Role.SCOREKEEPER))
    owners = api.post(url("invite-list", session_id=session.pk), {"role": "viewer"}).json()
    own = keeper.post(url("invite-list", session_id=session.pk), {"role": "viewer"}).json()
    assert keeper.delete(url("invite-detail", invite_id=owners["id"])).status_code == 403
    assert keeper.delete(url("invite-detail", invite_id=own["id"])).status_code == 204


# --- opening a link ---------------------------------------------------------------------------------


def test_a_viewer_link_shows_the_table_without_an_account(client, owner, session):
    invite = services.invite_create(actor=owner, session=session, role="viewer")
    response = client.get(f"/join/{invite.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    html = response.content.decode()
    assert "第一场" in html and "小王" in html and "老张" in html


def test_a_revoked_or_expired_link_says_so_and_an_unknown_one_is_not_found(client, owner, session):
    revoked = services.invite_create(actor=owner, session=session, role="viewer")
    services.invite_revoke(actor=owner, invite=revoked)
    expired = services.invite_create(actor=owner, session=session, role="scorekeeper", expires_in_hours=1)
    SessionInvite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    gone = client.get(f"/join/{revoked.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert gone.status_code == 410 and "已被撤销" in gone.content.decode()
    late = client.get(f"/join/{expired.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert late.status_code == 410 and "已过期" in late.content.decode()
    unknown = client.get("/join/not-a-token/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert unknown.status_code == 404 and "不存在" in unknown.content.decode()
    assert "第一场" not in gone.content.decode()


def test_a_scorekeeper_link_asks_to_log_in_then_joins_on_the_visitors_say_so(client, owner, session):
    invite = services.invite_create(actor=owner, session=session, role="scorekeeper")
    link = f"/join/{invite.token}/"
    anonymous = client.get(link, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert f"?next={link.replace('/', '%2F')}" in anonymous
    visitor = make_user("visitor")
    client.force_login(visitor)
    assert "记分员" in client.get(link, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert not Membership.objects.filter(user=visitor).exists()  # opening the link is not saying yes
    assert client.post(link).status_code == 200
    assert Membership.objects.get(user=visitor, group=session.group).role == Role.SCOREKEEPER


def test_a_scorekeeper_link_never_lowers_an_owner(client, owner, session):
    invite = services.invite_create(actor=owner, session=session, role="scorekeeper")
    client.force_login(owner)
    client.post(f"/join/{invite.token}/")
    assert Membership.objects.get(user=owner, group=session.group).role == Role.OWNER


def test_a_revoked_scorekeeper_link_joins_nobody(client, owner, session):
    invite = services.invite_create(actor=owner, session=session, role="scorekeeper")
    services.invite_revoke(actor=owner, invite=invite)
    visitor = make_user("visitor")
    client.force_login(visitor)
    assert client.post(f"/join/{invite.token}/").status_code == 410
    assert not Membership.objects.filter(user=visitor).exists()


# --- the invite page --------------------------------------------------------------------------------


def test_the_invite_page_makes_a_link_and_shows_its_qr_code(client, owner, session):
    client.force_login(owner)
    page = f"/sessions/{session.pk}/invite/"
    response = client.post(page, {"role": "viewer", "expires_in_hours": "24"}, follow=True)
    html = response.content.decode()
    invite = SessionInvite.objects.get()
    assert f"http://testserver/join/{invite.token}/" in html
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    assert decode_qr(svg) == [f"http://testserver/join/{invite.token}/"]
    client.post(f"/invites/{invite.pk}/revoke/")
    invite.refresh_from_db()
    assert invite.revoked_at is not None


def test_the_invite_page_is_for_writers(client, session, member_factory):
    client.force_login(member_factory("viewer"))
    assert client.get(f"/sessions/{session.pk}/invite/").status_code == 403
    client.force_login(make_user("stranger"))
    assert client.get(f"/sessions/{session.pk}/invite/").status_code == 404


def test_the_invitations_page_accepts(client, owner, group):
    friend = make_user("friend")
    invitation = services.member_invite(actor=owner, group=group, username="friend", role="viewer")
    client.force_login(friend)
    assert "周五麻将" in client.get("/invitations/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    client.post(f"/invitations/{invitation.pk}/accept/")
    assert Membership.objects.get(user=friend).role == Role.VIEWER


def test_signing_up_from_a_link_comes_back_to_it(client, owner, session):
    invite = services.invite_create(actor=owner, session=session, role="scorekeeper")
    link = f"/join/{invite.token}/"
    body = {"username": "newbie", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    response = client.post(f"/signup/?next={link}", {**body, "next": link})
    assert response.status_code == 302 and response["Location"] == link


def test_signing_up_never_sends_anyone_to_another_site(client):
    body = {"username": "newbie", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    response = client.post("/signup/", {**body, "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_issue_18_7_joining_by_a_scorekeeper_link_leads_on_to_the_session(client, owner, session):
    """Once a member (just joined, or already one), the page links to the session itself (point 7)."""
    invite = services.invite_create(actor=owner, session=session, role="scorekeeper")
    link, session_page = f"/join/{invite.token}/", reverse("session-page", args=[session.pk])
    client.force_login(make_user("visitor"))
    assert f'href="{session_page}"' not in client.get(link).content.decode()  # not before saying yes
    for answer in (client.post(link, HTTP_ACCEPT_LANGUAGE="zh-hans"), client.get(link)):
        page = answer.content.decode()
        assert f'href="{session_page}"' in page and f"去记分：{session.name}" in page
