"""The scale bench's seeded database, kept and reused: seeding 36,350 rounds takes minutes (154 s on a quiet
machine, 1,335 s under load), and what it writes changes only when the seed's code or the schema does.

A seed is kept under a key, a digest of what determines it: ``bench/scale_seed.py``, every installed app's
migrations, the project's models, the sizes seeded, Django's version and the database's vendor. A seed
whose key matches is copied instead of seeded: on SQLite the file, written by ``VACUUM INTO`` right after
seeding (before any page is read or any group imported), copied over the child's empty file; on
PostgreSQL a template database, made by ``CREATE DATABASE ... TEMPLATE`` from the seeded one, then the
bench's database made again from it. What the seed returned (``scale_seed.Seeded``: the ids the bench
reads) is kept beside it as JSON.

A copy is checked before it is used: ``verify_session`` on the sessions of the two groups of the fewest
sessions and on the shortest long session (the services and the seal may have changed since, which the
key does not cover); a finding throws the copy away and seeds afresh. ``SCZMJ_SCALE_RESEED=1`` seeds
afresh whatever is kept. ``SCZMJ_SCALE_CACHE`` names the folder (default ``~/.cache/sczmj-bench-scale``);
``KEEP`` seeds are kept per vendor, the least recently used dropped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from .scale_seed import Seeded

ROOT = Path(__file__).resolve().parent.parent
FOLDER = Path(os.environ.get("SCZMJ_SCALE_CACHE", Path.home() / ".cache" / "sczmj-bench-scale"))
RESEED = os.environ.get("SCZMJ_SCALE_RESEED", "") not in ("", "0")
KEEP = 3  # seeds kept per vendor
TEMPLATE_PREFIX = "sczmj_scale_"


def key(sizes: tuple[int, ...], hands: list[int], vendor: str) -> str:
    """The digest of what the seed depends on (run after ``django.setup()``: the apps name the files)."""
    import django
    from django.apps import apps

    files = [ROOT / "bench" / "scale_seed.py"]
    for app in apps.get_app_configs():
        path = Path(app.path)
        files += sorted((path / "migrations").glob("*.py"))
        # the project's own models, not an installed package's: a venv inside the checkout is no part of it,
        # and a worktree using another checkout's venv must find the same key
        if path.is_relative_to(ROOT) and "site-packages" not in path.parts:
            files += [path / "models.py", *sorted((path / "models").glob("*.py"))]
    digest = hashlib.sha256(repr((sizes, hands, vendor, django.get_version())).encode())
    for file in files:
        if file.is_file():
            digest.update(str(file.relative_to(file.parent.parent)).encode() + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _sidecar(found: str) -> Path:
    return FOLDER / f"{found}.json"


def _sqlite_file(found: str) -> Path:
    return FOLDER / f"{found}.sqlite3"


def _template(found: str) -> str:
    return f"{TEMPLATE_PREFIX}{found}"


def _server(url: str) -> tuple[str, str]:
    """A PostgreSQL URL's server part (its maintenance database) and its database's name."""
    server, name = url.rsplit("/", 1)
    return f"{server}/postgres", name


def _admin(url: str) -> Any:
    import psycopg

    return psycopg.connect(_server(url)[0], autocommit=True, connect_timeout=5)


def restore(found: str) -> tuple[Seeded, float] | None:
    """The kept seed of key ``found`` copied into this process's database (not yet connected to), with the
    seconds its seeding took; None when there is none (or ``RESEED``)."""
    from django.db import connection

    sidecar = _sidecar(found)
    if RESEED or not sidecar.is_file():
        return None
    kept = json.loads(sidecar.read_text())
    if connection.vendor == "sqlite":
        if not _sqlite_file(found).is_file():
            return None
        shutil.copyfile(_sqlite_file(found), connection.settings_dict["NAME"])
    else:
        url = os.environ["DATABASE_URL"]
        name = _server(url)[1]
        with _admin(url) as admin:
            kept_as = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [_template(found)])
            if kept_as.fetchone() is None:
                return None
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_template(found)}"')
    sidecar.touch()  # used: the last to be dropped
    return Seeded(**{k: _int_keys(v) for k, v in kept["seeded"].items()}), float(kept["seed_s"])


def _int_keys(value: Any) -> Any:
    """JSON keeps a dict's keys as text; Seeded's are numbers of sessions, hands or groups."""
    return {int(k): v for k, v in value.items()} if isinstance(value, dict) else value


def holds(seeded: Seeded) -> bool:
    """A copy's seal and replay still hold under this tree's code (a sample: see the module's docstring)."""
    from ledger.integrity import verify_session
    from ledger.models import Session

    smallest = [seeded.groups[size] for size in sorted(seeded.groups)[:2]]
    sample = [
        *Session.objects.filter(group_id__in=smallest),
        Session.objects.get(pk=seeded.long_sessions[min(seeded.long_sessions)]),
    ]
    return not any(True for session in sample for _ in verify_session(session))


def store(found: str, seeded: Seeded, seed_s: float) -> None:
    """The database as seeded, kept under ``found``; then the least recently used beyond ``KEEP`` dropped."""
    from django.db import connection

    FOLDER.mkdir(parents=True, exist_ok=True)
    partial = FOLDER / f".{found}.{os.getpid()}"  # written whole, then renamed: two benches may race
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM INTO %s", [str(partial)])
        partial.replace(_sqlite_file(found))
    else:
        url = os.environ["DATABASE_URL"]
        connection.close()  # a template is copied only while nobody is connected to it
        with _admin(url) as admin:
            building = f"{_template(found)}_{os.getpid()}"
            admin.execute(f'CREATE DATABASE "{building}" TEMPLATE "{_server(url)[1]}"')
            admin.execute(f'DROP DATABASE IF EXISTS "{_template(found)}" WITH (FORCE)')
            admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{_template(found)}"')
    record = {"seeded": dataclasses.asdict(seeded), "seed_s": seed_s, "vendor": connection.vendor}
    partial.write_text(json.dumps(record))
    partial.replace(_sidecar(found))
    _drop_beyond_keep(connection.vendor)


def _drop_beyond_keep(vendor: str) -> None:
    kept = sorted(
        (path for path in FOLDER.glob("*.json") if json.loads(path.read_text()).get("vendor") == vendor),
        key=lambda path: path.stat().st_mtime,
        reverse=True,
    )
    for sidecar in kept[KEEP:]:
        found = sidecar.stem
        sidecar.unlink(missing_ok=True)
        if vendor == "sqlite":
            _sqlite_file(found).unlink(missing_ok=True)
        else:
            with _admin(os.environ["DATABASE_URL"]) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{_template(found)}" WITH (FORCE)')


def seeded_or_restored(sizes: tuple[int, ...], hands: list[int]) -> tuple[Seeded, str]:
    """What the bench reads: the kept seed when its key matches and it holds, else seeded now (and kept);
    beside it a line for the table saying which and how long it took."""
    from django.core.management import call_command
    from django.db import connection

    from .scale_seed import seed

    found = key(sizes, hands, connection.vendor)
    started = time.perf_counter()
    restored = restore(found)
    if restored is not None:
        seeded, seed_s = restored
        call_command("migrate", verbosity=0)  # nothing to apply: the migrations are in the key
        if holds(seeded):
            copied = time.perf_counter() - started
            return seeded, f"kept seed {found} copied in {copied:.0f} s (seeded in {seed_s:.0f} s)"
        connection.close()
        if connection.vendor == "sqlite":
            for suffix in ("", "-wal", "-shm"):
                Path(f"{connection.settings_dict['NAME']}{suffix}").unlink(missing_ok=True)
        else:
            url = os.environ["DATABASE_URL"]
            with _admin(url) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{_server(url)[1]}" WITH (FORCE)')
                admin.execute(f'CREATE DATABASE "{_server(url)[1]}"')
        started = time.perf_counter()
    call_command("migrate", verbosity=0)
    seeded = seed(sizes, hands)
    seed_s = time.perf_counter() - started
    store(found, seeded, seed_s)
    return seeded, f"seeded in {seed_s:.0f} s, kept as {found}"
