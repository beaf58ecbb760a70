"""Moving a group from the pages: the owner downloads the group file from the group page; anyone logged in
imports one into a new group of theirs; a refused file is the page with the reason, nothing stored."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ledger import group_file, services
from ledger.api import GroupImportThrottle
from ledger.models import Group, LedgerEntry, Role
from tests.ledger.conftest import SELF_DRAW_B, client_for, make_table, make_user
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text


@pytest.fixture
def table(owner):
    group, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    return group


def join(owner, group, user, role) -> None:
    """Membership by consent: the owner invites the account and it accepts."""
    invitation = services.member_invite(actor=owner, group=group, username=user.username, role=role)
    services.invitation_accept(actor=user, invitation=invitation)


def upload(content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("group.json", content, content_type="application/json")


def test_the_owner_finds_the_download_and_the_import_on_the_group_page(owner, table):
    text = visible_text(logged_in(owner).get(reverse("group-page", args=[table.pk])))
    assert "下载组文件" in text and "导入一个组" in text
    viewer = make_user("viewer")
    join(owner, table, viewer, Role.VIEWER)
    assert "下载组文件" not in visible_text(logged_in(viewer).get(reverse("group-page", args=[table.pk])))


def test_the_download_is_the_group_file_and_only_for_owners(owner, table):
    response = logged_in(owner).get(reverse("group-export-file", args=[table.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="sczmj-group-{table.pk}.json"'
    file = json.loads(response.content)
    assert file["format"] == "sczmj-group" and len(file["sessions"]) == 1
    join(owner, table, make_user("keeper"), Role.SCOREKEEPER)
    assert (
        logged_in(Group.objects.get(pk=table.pk).memberships.get(role="scorekeeper").user)
        .get(reverse("group-export-file", args=[table.pk]))
        .status_code
        == 403
    )
    assert (
        logged_in(make_user("stranger")).get(reverse("group-export-file", args=[table.pk])).status_code == 404
    )


def test_an_imported_file_becomes_a_new_group_of_the_importer(owner, table):
    content = json.dumps(group_file.group_export(actor=owner, group=table)).encode()
    mover = make_user("mover")
    response = logged_in(mover).post(reverse("group-import-page"), {"file": upload(content)}, follow=True)
    moved = Group.objects.exclude(pk=table.pk).get()
    assert response.redirect_chain[-1][0] == reverse("group-page", args=[moved.pk])
    assert "已导入 周五麻将" in visible_text(response)
    assert list(moved.memberships.values_list("user__username", flat=True)) == ["mover"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"\xff\xfe not text", "This is not a group file: it is not JSON text", id="not-text"),
        pytest.param(b"{", "This is not a group file: it is not JSON text", id="not-json"),
        # Deep enough to exhaust Python's recursion in json.loads: a 500 before the page shared the API's
        # reader; 40 levels parse, but nest deeper than any group file (the API's 32).
        pytest.param(b"[" * 100_000 + b"]" * 100_000, "nests more than 32 deep", id="nested-past-recursion"),
        pytest.param(b"[" * 40 + b"]" * 40, "nests more than 32 deep", id="nested-past-the-apis-depth"),
        pytest.param(b'{"a": NaN}', "not JSON text", id="nan-as-the-api-refuses-it"),
        pytest.param(b'{"format": "csv"}', "This is not a group file", id="not-a-group-file"),
    ],
)
def test_a_refused_file_is_the_page_with_the_reason_and_nothing_stored(owner, table, content, message):
    groups, rows = Group.objects.count(), LedgerEntry.objects.count()
    response = logged_in(make_user("mover")).post(
        reverse("group-import-page"), {"file": upload(content)}, **ENGLISH
    )
    assert response.status_code == 400
    assert message in visible_text(response)
    assert (Group.objects.count(), LedgerEntry.objects.count()) == (groups, rows)


def test_a_file_whose_figures_differ_names_where(owner, table):
    file = group_file.group_export(actor=owner, group=table)
    file["sessions"][0]["totals"]["points"] = [0, 0, 0, 0]
    response = logged_in(make_user("mover")).post(
        reverse("group-import-page"), {"file": upload(json.dumps(file).encode())}
    )
    assert response.status_code == 400
    text = visible_text(response)
    assert "第 1 场：文件中的数字与重算各手牌的结果不一致（重算得到 分数 -5 15 -5 -5，房间 0）" in text
    assert "sessions" not in text and "totals" not in text and "[" not in text


def test_a_hand_the_engine_refuses_is_named_as_a_player_counts(owner, table):
    file = group_file.group_export(actor=owner, group=table)
    file["sessions"][0]["rounds"][0]["versions"][0]["events"][0]["from"] = 1
    response = logged_in(make_user("mover")).post(
        reverse("group-import-page"), {"file": upload(json.dumps(file).encode())}, **ENGLISH
    )
    assert "session 1 · hand 1 · version 1: A player cannot win on his own discard." in visible_text(response)


def test_the_import_page_asks_for_a_file(owner):
    response = logged_in(owner).get(reverse("group-import-page"))
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.content.decode()
    missing = logged_in(owner).post(reverse("group-import-page"), {})
    assert missing.status_code == 400


def test_the_page_takes_no_larger_file_than_the_api_takes_a_body(owner, table, settings):
    """Before, the page took 20 MB while the API refused a body over 2.5 MB (413)."""
    content = json.dumps(group_file.group_export(actor=owner, group=table)).encode()
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(content) - 1
    mover = make_user("mover")
    api = client_for(mover).post(reverse("ledger:group-import"), content, content_type="application/json")
    page = logged_in(mover).post(reverse("group-import-page"), {"file": upload(content)}, **ENGLISH)
    assert (api.status_code, page.status_code) == (413, 413)
    assert "This file is larger than a group file may be" in visible_text(page)
    assert Group.objects.count() == 1
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(content) + 1024  # the body is the file and the form around it
    assert logged_in(mover).post(reverse("group-import-page"), {"file": upload(content)}).status_code == 302


def test_the_page_and_the_api_count_imports_against_one_throttle(owner, table, monkeypatch):
    """Before, 25 page imports in a minute went through while the API allowed 20 an hour."""
    monkeypatch.setattr(GroupImportThrottle, "rate", "2/hour")
    content = json.dumps(group_file.group_export(actor=owner, group=table)).encode()
    mover = make_user("mover")
    api = client_for(mover).post(reverse("ledger:group-import"), content, content_type="application/json")
    assert api.status_code == 201
    assert logged_in(mover).post(reverse("group-import-page"), {"file": upload(content)}).status_code == 302
    third = logged_in(mover).post(reverse("group-import-page"), {"file": upload(content)}, **ENGLISH)
    assert third.status_code == 429
    assert "Too many imports from this account" in visible_text(third)
    again = client_for(mover).post(reverse("ledger:group-import"), content, content_type="application/json")
    assert again.status_code == 429
    assert Group.objects.filter(memberships__user=mover).count() == 2


def test_a_changed_file_is_refused_unless_re_sealed_and_the_group_says_so(owner, table):
    file = group_file.group_export(actor=owner, group=table)
    file["sessions"][0]["rounds"][0]["versions"][0]["created_by"] = "阿美"  # who wrote it, changed
    content = json.dumps(file).encode()
    mover = make_user("mover")
    refused = logged_in(mover).post(reverse("group-import-page"), {"file": upload(content)})
    assert refused.status_code == 400
    assert "第 1 场 · 第 1 手 · 第 1 版：文件的校验链在这里对不上" in visible_text(refused)
    assert "重新封存" in visible_text(refused)
    assert Group.objects.count() == 1
    taken = logged_in(mover).post(
        reverse("group-import-page"), {"file": upload(content), "reseal": "on"}, follow=True
    )
    moved = Group.objects.exclude(pk=table.pk).get()
    assert (moved.imported_by, moved.resealed) == (mover, True)
    assert "由 mover 于" in visible_text(taken) and "重新封存" in visible_text(taken)
