"""People come and go: deleting an account never deletes or orphans a group, ownership passes on (or the
deletion is refused, saying why), what it recorded keeps its name, and no path leaves a group ownerless."""

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import ProtectedError
from django.urls import reverse
from rest_framework.test import APIClient

from calculator.engine import EngineError
from ledger import services
from ledger.models import Group, Membership, Player, Role, RoundVersion
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user

pytestmark = pytest.mark.django_db


def role_of(user: Any, group: Group) -> str | None:
    membership = Membership.objects.filter(user=user, group=group).first()
    return membership.role if membership else None


@pytest.fixture
def table() -> dict[str, Any]:
    """老王 owns 周五麻将 and recorded a round; 小李 keeps score, 阿美 and 小张 watch (阿美 joined first)."""
    owner = make_user("laowang")
    group, session = make_table(owner)
    people = {"owner": owner, "group": group, "session": session}
    for name, role in (("amei", Role.VIEWER), ("xiaoli", Role.SCOREKEEPER), ("xiaozhang", Role.VIEWER)):
        people[name] = make_user(name)
        Membership.objects.create(user=people[name], group=group, role=role)  # joined (by invite)
    services.player_add(actor=owner, group=group, name="王", user=owner)
    people["round"] = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)[0]
    return people


def test_a_group_its_owner_leaves_passes_to_the_scorekeeper_of_longest_standing(table):
    table["owner"].delete()
    group = Group.objects.get(pk=table["group"].pk)
    assert role_of(table["xiaoli"], group) == Role.OWNER
    assert role_of(table["amei"], group) == Role.VIEWER
    assert group.sessions.count() == 1


def test_with_only_viewers_left_the_earliest_viewer_becomes_owner(table):
    services.member_remove(actor=table["owner"], membership=Membership.objects.get(user=table["xiaoli"]))
    table["owner"].delete()
    assert role_of(table["amei"], table["group"]) == Role.OWNER
    assert role_of(table["xiaozhang"], table["group"]) == Role.VIEWER


def test_what_they_recorded_keeps_their_name(table):
    scorekeeper = APIClient()
    scorekeeper.force_authenticate(table["xiaoli"])
    table["owner"].delete()
    version = RoundVersion.objects.get(round=table["round"])
    assert (version.created_by, version.created_by_name, version.writer_name) == (None, "laowang", "laowang")
    answer = scorekeeper.get(reverse("ledger:round-detail", args=[table["round"].pk])).json()
    assert answer["history"][0]["created_by"] == "laowang"
    player = Player.objects.get(group=table["group"], name="王")
    assert player.user is None  # the name at the table stays, with its points


def test_the_last_member_of_a_group_cannot_be_deleted_and_is_told_why():
    alone = make_user("alone")
    group, session = make_table(alone, group_name="独自")
    services.round_record(actor=alone, session=session, body=SELF_DRAW_B)
    with pytest.raises(ProtectedError, match=r"protected foreign keys: 'Membership.user'") as refusal:
        alone.delete()
    assert [str(membership) for membership in refusal.value.protected_objects] == ["alone in 独自 (owner)"]
    assert get_user_model().objects.filter(username="alone").exists()
    assert role_of(alone, group) == Role.OWNER


def test_deleting_every_member_of_a_group_at_once_is_refused(table):
    members = get_user_model().objects.filter(memberships__group=table["group"])
    with pytest.raises(ProtectedError):
        members.delete()
    assert Membership.objects.filter(group=table["group"]).count() == 4


def test_deleting_both_owners_at_once_leaves_the_group_an_owner(table):
    services.member_set_role(
        actor=table["owner"], membership=Membership.objects.get(user=table["xiaoli"]), role=Role.OWNER
    )
    get_user_model().objects.filter(username__in=["laowang", "xiaoli"]).delete()
    assert role_of(table["amei"], table["group"]) == Role.OWNER
    assert Membership.objects.filter(group=table["group"], role=Role.OWNER).count() == 1


def test_the_admin_shows_why_an_account_cannot_be_deleted(admin_client):
    alone = make_user("alone")
    make_table(alone, group_name="独自")
    url = reverse("admin:auth_user_delete", args=[alone.pk])
    page = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "would require deleting the following protected related objects" in page
    assert "alone in 独自 (owner)" in page
    admin_client.post(url, {"post": "yes"})
    assert get_user_model().objects.filter(pk=alone.pk).exists()


def test_the_admin_deletes_an_account_and_the_group_passes_on(admin_client, table):
    url = reverse("admin:auth_user_delete", args=[table["owner"].pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert role_of(table["xiaoli"], table["group"]) == Role.OWNER


def membership_form(group: Group, changes: dict[int, dict[str, str]]) -> dict[str, str]:
    """The admin's change form of ``group`` as posted, each membership row changed as ``changes`` says."""
    memberships = list(group.memberships.order_by("id"))
    form = {
        "name": group.name,
        "memberships-TOTAL_FORMS": str(len(memberships)),
        "memberships-INITIAL_FORMS": str(len(memberships)),
        "players-TOTAL_FORMS": "0",
        "players-INITIAL_FORMS": "0",
    }
    for index, membership in enumerate(memberships):
        row = {"id": str(membership.pk), "group": str(group.pk), "user": str(membership.user_id)}
        row |= {"role": membership.role, **changes.get(membership.user_id, {})}
        form |= {f"memberships-{index}-{key}": value for key, value in row.items()}
    return form


@pytest.mark.parametrize(
    "change", [{"DELETE": "on"}, {"role": Role.VIEWER}], ids=["remove-the-owner", "demote-the-owner"]
)
def test_the_admins_membership_inline_cannot_remove_the_last_owner(admin_client, table, change):
    group = table["group"]
    url = reverse("admin:ledger_group_change", args=[group.pk])
    page = admin_client.post(url, membership_form(group, {table["owner"].pk: change}))
    assert page.status_code == 200
    assert "每个组至少要有一位组长（owner）。" in page.content.decode()
    assert role_of(table["owner"], group) == Role.OWNER


def test_the_admins_inline_may_hand_ownership_over_in_one_save(admin_client, table):
    group = table["group"]
    url = reverse("admin:ledger_group_change", args=[group.pk])
    changes = {table["owner"].pk: {"role": Role.VIEWER}, table["xiaoli"].pk: {"role": Role.OWNER}}
    assert admin_client.post(url, membership_form(group, changes)).status_code == 302
    assert (role_of(table["owner"], group), role_of(table["xiaoli"], group)) == (Role.VIEWER, Role.OWNER)


def test_a_group_added_in_the_admin_needs_an_owner(admin_client):
    form = {
        "name": "无主",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "players-TOTAL_FORMS": "0",
        "players-INITIAL_FORMS": "0",
    }
    page = admin_client.post(reverse("admin:ledger_group_add"), form)
    assert "每个组至少要有一位组长（owner）。" in page.content.decode()
    assert not Group.objects.filter(name="无主").exists()


@pytest.mark.django_db(transaction=True)
def test_two_owners_demoting_each_other_at_the_same_moment_leave_one_owner():
    """The group row is locked before the owners are counted, so the second demotion sees the first."""
    first, second = make_user("first"), make_user("second")
    group = services.group_create(actor=first, name="两位组长")
    Membership.objects.create(user=second, group=group, role=Role.OWNER)
    barrier = threading.Barrier(2)

    def demote(actor: Any, other: Any) -> str:
        barrier.wait()
        try:
            membership = Membership.objects.get(user=other, group=group)
            services.member_set_role(actor=actor, membership=membership, role=Role.VIEWER)
        except (EngineError, PermissionDenied) as refusal:
            return "PermissionDenied" if isinstance(refusal, PermissionDenied) else "EngineError"
        finally:
            connection.close()
        return "done"

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = sorted(pool.map(lambda pair: demote(*pair), [(first, second), (second, first)]))
    assert outcomes[1] == "done" and outcomes[0] in {"EngineError", "PermissionDenied"}
    assert Membership.objects.filter(group=group, role=Role.OWNER).count() == 1
