"""What the ledger and page benches share: a child process on a throwaway SQLite file, and a table to seed.

A bench of the stored app runs its ``measure()`` in a child process (``python -m bench.<module>``) whose
Django is configured for a fresh SQLite file from the start, so it never touches the dev database; the
child prints its figures as JSON on its last line. DEBUG is off there unless asked for: a debug connection
logs every query, which costs time; the page benches ask for it, so that pages find their static files
where they are without a collectstatic (their figures then include that logging: they err high).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


def measure_in_child(
    module: str, *, debug: bool = False, database_url: str | None = None, tree: Path | None = None
) -> Any:
    """Run ``bench.<module>`` as a child on a throwaway SQLite file (or on ``database_url``, a database the
    caller made for it); its figures, read from its last line. ``tree``: the source tree it runs from
    (another commit's, checked out by the caller), this one's by default."""
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": database_url or f"sqlite:///{Path(folder) / f'{module}.sqlite3'}",
            "DJANGO_SETTINGS_MODULE": "sczmj_site.settings",
            "DJANGO_DEBUG": "1" if debug else "0",
            "DJANGO_SECRET_KEY": "bench-throwaway-key-" + secrets.token_urlsafe(32),
        }
        child = subprocess.run(
            [sys.executable, "-m", f"bench.{module}"],
            cwd=tree or Path(__file__).resolve().parent.parent,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if child.returncode != 0:
        raise RuntimeError(f"bench.{module} failed:\n{child.stderr[-3000:]}")
    return json.loads(child.stdout.strip().splitlines()[-1])


def seed_table(owner: Any, *, name: str, coins: Any = None) -> Any:
    """In the child: a group of the demo's four players with one open session; the session."""
    from ledger import demo, services

    group = services.group_create(actor=owner, name=name)
    players = [services.player_add(actor=owner, group=group, name=player) for player in demo.PLAYERS]
    return services.session_start(
        actor=owner, group=group, name=name, player_ids=[p.pk for p in players], coins=coins
    )
