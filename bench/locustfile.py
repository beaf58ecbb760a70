"""The users of ``make loadtest`` (``bench/loadtest.py`` starts the server, seeds the tables and runs this).

Half the users keep score, one per table: each plays the demo evening's hands through the hand-in-progress
API as the session page does, event by event (``GET …/hand/`` for the revision, ``PATCH …/hand/`` for the
dealer and 定缺, then ``POST …/hand/events/`` per event, a short pause between events); the event that
finishes a hand records its round (201). The other half watch, one per table: they open the session as a
page would load it (the session, its totals, a page of its rounds) and then poll the hand with the ETag
they hold (``If-None-Match``: 304 while nothing changed), reopening the session now and then. Tables,
tokens and the hands come from the plan file the seeding step wrote (``SCZMJ_LOADTEST_PLAN``), so this
file imports nothing of the project.
"""

from __future__ import annotations

import itertools
import json
import os
import uuid
from pathlib import Path
from typing import Any

from locust import HttpUser, between, task

PLAN: dict[str, Any] = json.loads(Path(os.environ["SCZMJ_LOADTEST_PLAN"]).read_text())
HANDS: list[dict[str, Any]] = PLAN["hands"]  # the demo evening's hands (ledger/demo.py), played in turn
EVENT = "record an event (POST hand/events/: 200)"
FINISH = "record a hand: its last event (POST hand/events/: 201, the round)"
POLL = "poll the hand (GET hand/, If-None-Match)"
_SCOREKEPT = itertools.cycle(PLAN["tables"])
_WATCHED = itertools.cycle(PLAN["tables"])


class TableUser(HttpUser):
    abstract = True
    wait_time = between(0.5, 1.5)

    def sit_at(self, table: dict[str, Any]) -> None:
        self.client.headers["Authorization"] = f"Token {table['token']}"
        self.base = f"/api/v1/sessions/{table['session']}"


class Scorekeeper(TableUser):
    def on_start(self) -> None:
        self.sit_at(next(_SCOREKEPT))
        self.hands = itertools.cycle(HANDS)

    def _write(self, method: str, path: str, body: dict[str, Any], name: str, expected: int) -> int | None:
        """One write with a fresh Idempotency-Key; the hand's new revision, None when it failed."""
        headers = {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        data = json.dumps(body, ensure_ascii=False).encode()
        with self.client.request(
            method, f"{self.base}/{path}", data=data, headers=headers, name=name, catch_response=True
        ) as response:
            if response.status_code != expected:
                response.failure(f"{response.status_code}, expected {expected}: {response.text[:300]}")
                return None
            answer = response.json()
            return int(answer["hand"]["revision"] if "round" in answer else answer["revision"])

    @task
    def play_a_hand(self) -> None:
        hand = next(self.hands)
        opened = self.client.get(f"{self.base}/hand/", name="open the hand (GET hand/)")
        if opened.status_code != 200:
            return
        setup = {
            "dealer": hand["dealer"],
            "void_suits": hand.get("void_suits"),
            "revision": opened.json()["revision"],
        }
        revision = self._write("PATCH", "hand/", setup, "choose dealer and 定缺 (PATCH hand/)", 200)
        events = hand["events"]
        for number, event in enumerate(events, start=1):
            if revision is None:
                return
            self.wait()
            last = number == len(events)
            body = {"event": event, "revision": revision}
            revision = self._write(
                "POST", "hand/events/", body, FINISH if last else EVENT, 201 if last else 200
            )


class Watcher(TableUser):
    def on_start(self) -> None:
        self.sit_at(next(_WATCHED))
        self.etag = ""
        self.open_the_session()

    def open_the_session(self) -> None:
        self.client.get(f"{self.base}/", name="open: the session (GET sessions/{id}/)")
        self.client.get(f"{self.base}/totals/", name="open: its totals (GET totals/)")
        self.client.get(f"{self.base}/rounds/?limit=10", name="open: a page of its rounds (GET rounds/)")

    @task(10)
    def poll(self) -> None:
        with self.client.get(
            f"{self.base}/hand/", headers={"If-None-Match": self.etag}, name=POLL, catch_response=True
        ) as response:
            if response.status_code not in (200, 304):
                response.failure(f"{response.status_code}: {response.text[:300]}")
                return
            self.etag = response.headers.get("ETag", self.etag)

    @task(1)
    def reopen(self) -> None:
        self.open_the_session()
