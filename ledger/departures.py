"""People come and go: when an account is deleted (the admin, a shell, any ORM path), no group is left
without an owner and nothing it recorded loses the name of who recorded it.

1. A group where it is the last member refuses the deletion (``models.keep_every_group_a_member``): there
   is nobody to pass the group to, and a group with no member is a ledger nobody can read.
2. Its round versions keep its user name in ``created_by_name`` before ``created_by`` is set to NULL.
3. Its memberships go with it; a group it alone owned passes to the remaining member who has been a
   scorekeeper longest, else to the viewer who has been a member longest.
4. Its players stay, with their names and history, unlinked from the account (``Player.user`` SET_NULL).

Removing a member or changing a role through the API, the pages or the admin's inline never drops the last
owner: those refuse instead (``services.groups._keep_an_owner``, ``admin.MembershipFormSet``).
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, pre_delete

from .models import Membership, Role, RoundVersion

HEIRS_FIRST = (Role.SCOREKEEPER, Role.VIEWER)


def keep_writer_names(sender: Any, instance: Any, **kwargs: Any) -> None:
    RoundVersion.objects.filter(created_by=instance, created_by_name="").update(
        created_by_name=instance.get_username()
    )


def pass_ownership_on(sender: Any, instance: Membership, **kwargs: Any) -> None:
    """After a membership goes, a group that has members but no owner gets one (step 3)."""
    remaining = Membership.objects.filter(group_id=instance.group_id)
    if remaining.filter(role=Role.OWNER).exists():
        return
    for role in HEIRS_FIRST:
        heir = remaining.filter(role=role).order_by("created", "id").first()
        if heir is not None:
            remaining.filter(pk=heir.pk).update(role=Role.OWNER)
            return


def connect() -> None:
    pre_delete.connect(keep_writer_names, sender=get_user_model(), dispatch_uid="ledger.keep_writer_names")
    post_delete.connect(pass_ownership_on, sender=Membership, dispatch_uid="ledger.pass_ownership_on")
