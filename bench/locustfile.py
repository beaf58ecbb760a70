"""The users of ``make loadtest`` (``bench/loadtest.py`` starts the server, seeds the tables and runs this).

Half the users keep score: each records hands of its table's session, one request per finished hand, as
a phone does when 胡 or 流局 ends a hand (``POST /api/v1/sessions/{id}/rounds/`` with an Idempotency-Key;
the hand-in-progress API is not on main yet). The other half watch: they open the session as a page would
load it (the session, its running totals, a page of its rounds) and then poll its totals, as the live view
will once its poll endpoint lands. Tables, tokens and the hands to record come from the plan file the
seeding step wrote (``SCZMJ_LOADTEST_PLAN``), so this file imports nothing of the project; two
scorekeepers share each table, so the session lock is contended.
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
_TABLES = itertools.cycle(PLAN["tables"])
HANDS: list[dict[str, Any]] = PLAN["hands"]  # the demo evening's hands (ledger/demo.py), recorded in turn
RECORD = "record a hand (POST rounds/)"
POLL = "poll the totals (GET totals/)"


class TableUser(HttpUser):
    abstract = True

    def on_start(self) -> None:
        table = next(_TABLES)
        self.session = table["session"]
        self.client.headers["Authorization"] = f"Token {table['token']}"
        self.base = f"/api/v1/sessions/{self.session}"


class Scorekeeper(TableUser):
    wait_time = between(0.5, 1.5)

    def on_start(self) -> None:
        super().on_start()
        self.hands = itertools.cycle(HANDS)

    @task
    def record_a_hand(self) -> None:
        body = json.dumps(next(self.hands), ensure_ascii=False)
        headers = {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        with self.client.post(
            f"{self.base}/rounds/", data=body.encode(), headers=headers, name=RECORD, catch_response=True
        ) as response:
            if response.status_code != 201:
                response.failure(f"{response.status_code}: {response.text[:200]}")


class Watcher(TableUser):
    wait_time = between(0.5, 1.5)

    def on_start(self) -> None:
        super().on_start()
        self.open_the_session()

    def open_the_session(self) -> None:
        self.client.get(f"{self.base}/", name="open: the session (GET sessions/{id}/)")
        self.client.get(f"{self.base}/totals/", name="open: its totals (GET totals/)")
        self.client.get(f"{self.base}/rounds/?limit=10", name="open: a page of its rounds (GET rounds/)")

    @task(10)
    def poll(self) -> None:
        self.client.get(f"{self.base}/totals/", name=POLL)

    @task(1)
    def reopen(self) -> None:
        self.open_the_session()
