"""Groups and their members: a group, its players, asking an account in, its roles, keeping an owner."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from calculator.engine import EngineError

from ..errors import Forbidden, InvitationAnsweredError, LedgerError
from ..models import WRITER_ROLES, Group, GroupInvitation, InvitationStatus, Membership, Player, Role
from .checks import _required_text, _unique_or, require_role


@transaction.atomic
def group_create(*, actor: User, name: object) -> Group:
    """A new group; its creator is its first owner."""
    group = Group.objects.create(name=_required_text(name, "name", 100))
    Membership.objects.create(user=actor, group=group, role=Role.OWNER)
    return group


@transaction.atomic
def member_invite(*, actor: User, group: Group, username: str, role: str) -> GroupInvitation:
    """Ask an account to join ``group``: it becomes a member only when it accepts (``invitation_accept``).

    Owners only. The API throttles this per owner, so user names cannot be probed in bulk.
    """
    require_role(actor=actor, group=group, roles=(Role.OWNER,))
    _check_role(role)
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise LedgerError("no_such_account", field="username", username=username)

    def already_asked() -> EngineError:
        return LedgerError("already_invited", field="username", username=user.get_username())

    if Membership.objects.filter(user=user, group=group).exists():
        raise LedgerError("already_a_member_named", field="username", username=user.get_username())
    if GroupInvitation.objects.filter(user=user, group=group, status=InvitationStatus.PENDING).exists():
        raise already_asked()
    with _unique_or(already_asked):
        return GroupInvitation.objects.create(group=group, user=user, role=role, invited_by=actor)


@transaction.atomic
def invitation_accept(*, actor: User, invitation: GroupInvitation) -> Membership:
    """The account asked says yes: it joins with the role it was offered (or keeps a higher one)."""
    invitation = _pending_invitation(invitation)
    if invitation.user_id != actor.pk:
        raise Forbidden("only_the_invited_accepts")
    invitation.status = InvitationStatus.ACCEPTED
    invitation.answered = timezone.now()
    invitation.save(update_fields=["status", "answered"])
    return _join(user=actor, group=invitation.group, role=invitation.role)


@transaction.atomic
def invitation_decline(*, actor: User, invitation: GroupInvitation) -> GroupInvitation:
    """The account asked says no, or an owner of the group withdraws the question."""
    invitation = _pending_invitation(invitation)
    if invitation.user_id != actor.pk:
        require_role(actor=actor, group=invitation.group, roles=(Role.OWNER,))
    invitation.status = InvitationStatus.DECLINED
    invitation.answered = timezone.now()
    invitation.save(update_fields=["status", "answered"])
    return invitation


def _pending_invitation(invitation: GroupInvitation) -> GroupInvitation:
    locked = GroupInvitation.objects.select_for_update().select_related("group").get(pk=invitation.pk)
    if locked.status != InvitationStatus.PENDING:
        raise InvitationAnsweredError()
    return locked


ROLE_RANK = {Role.VIEWER: 0, Role.SCOREKEEPER: 1, Role.OWNER: 2}


def _join(*, user: User, group: Group, role: str) -> Membership:
    """``user`` in ``group`` with at least ``role``: an existing member is raised to it, never lowered."""
    membership = Membership.objects.select_for_update().filter(user=user, group=group).first()
    if membership is None:
        with _unique_or(lambda: LedgerError("already_a_member", field="user")):
            return Membership.objects.create(user=user, group=group, role=role)
    if ROLE_RANK[Role(role)] > ROLE_RANK[Role(membership.role)]:
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_set_role(*, actor: User, membership: Membership, role: str) -> Membership:
    require_role(actor=actor, group=membership.group, roles=(Role.OWNER,))
    _check_role(role)
    if membership.role == Role.OWNER and role != Role.OWNER:
        _keep_an_owner(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, actor: User, membership: Membership) -> None:
    require_role(actor=actor, group=membership.group, roles=(Role.OWNER,))
    if membership.role == Role.OWNER:
        _keep_an_owner(membership)
    membership.delete()


def _keep_an_owner(membership: Membership) -> None:
    """400 unless another owner stays. The group row is locked first, so two owners demoting each other at
    the same moment are counted one after the other and the second is refused (on PostgreSQL; SQLite's
    IMMEDIATE transactions already run one at a time)."""
    Group.objects.select_for_update().filter(pk=membership.group_id).first()
    others = Membership.objects.filter(group_id=membership.group_id, role=Role.OWNER).exclude(
        pk=membership.pk
    )
    if not others.exists():
        raise LedgerError("last_owner", field="role")


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise LedgerError("role_unknown", field="role", choices=", ".join(Role.values))


@transaction.atomic
def player_add(*, actor: User, group: Group, name: object, user: User | None = None) -> Player:
    require_role(actor=actor, group=group, roles=WRITER_ROLES)
    name = _required_text(name, "name", 50)

    def name_taken() -> EngineError:
        return LedgerError("player_name_taken", field="name", name=name)

    if Player.objects.filter(group=group, name=name).exists():
        raise name_taken()
    with _unique_or(name_taken):
        return Player.objects.create(group=group, name=name, user=user)
