"""The result explains every point: transfer details, event summaries, the state, JSON all the way."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from settlement.engine import settle_round

from .rounds import by_fan, by_hand, draw, escape, kong, position, settle, status, win
from .test_worked_examples import API_EXAMPLE

A, B, C, D = 0, 1, 2, 3


def test_the_result_is_plain_json_with_the_api_fields():
    body = settle_round(**API_EXAMPLE).to_dict()
    assert json.loads(json.dumps(body, ensure_ascii=False)) == body
    assert {
        "transfers",
        "net",
        "house",
        "events",
        "winners",
        "finished",
        "next_dealer",
        "coins",
        "state",
    } <= set(body)
    assert all({"event", "from", "to", "points", "reason", "detail"} <= set(t) for t in body["transfers"])


def test_each_event_summary_says_what_it_decided():
    body = settle(
        kong(B, "direct", "9s", feeder=A),
        win(A, by_hand(C, "234m567m789m11p55p", "5p")),
        draw(position(A, "123p456p789p1155m"), status(B, "ready", 2), status(D, "huazhu")),
    ).to_dict()
    kong_summary, win_summary, draw_summary = body["events"]
    assert (kong_summary["type"], kong_summary["kind"], kong_summary["tile"], kong_summary["from"]) == (
        "kong",
        "direct",
        "9s",
        A,
    )
    score = win_summary["scores"][0]
    assert (
        win_summary["type"],
        win_summary["win_by"],
        score["pattern"],
        score["pattern_name"],
        score["won"],
    ) == ("win", "discard", "ping_hu", "平胡", True)
    players = {entry["player"]: entry for entry in draw_summary["players"]}
    assert players[A]["status"] == "ready" and players[A]["waits"] and players[A]["source"] == "hand"
    assert (players[B]["status"], players[B]["fan"], players[B]["points"]) == ("ready", 2, 2)
    assert players[D]["status"] == "huazhu"


def test_an_escape_summary_keeps_tiles_left():
    summary = settle(escape(C, 12)).to_dict()["events"][0]
    assert (summary["type"], summary["player"], summary["tiles_left"], summary["winner"]) == (
        "escape",
        C,
        12,
        False,
    )


def test_the_state_lists_active_players_and_kong_payments():
    state = settle(kong(B, "added", "3s"), win(None, by_fan(C, 1))).to_dict()["state"]
    assert (state["active"], state["winners"], state["finished"]) == ([A, B, D], [C], False)
    assert [payment["payer"] for payment in state["kong_payments"]] == [A, C, D]


def test_the_engine_imports_no_web_framework():
    package = Path(__file__).resolve().parents[3] / "settlement" / "engine"
    for source in package.glob("*.py"):
        if source.name == "requests.py":  # the API's request parser, not the engine proper
            continue
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(
                name.split(".")[0] in {"django", "rest_framework", "django_htmx"} for name in names
            ), source.name
