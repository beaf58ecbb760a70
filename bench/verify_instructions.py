"""``verify_ledger``'s instructions on a long session, counted by valgrind's callgrind: the figure of its work
that the machine's load and speed do not move (the scale bench's row is CPU time, which moved 1.6-1.9x
between two machines of this workplace running the same code, docs/performance.md).

One child process under callgrind opens a copy of the scale bench's kept SQLite seed (``bench scale``
keeps it, bench/seed_cache.py), verifies the seed's shortest long session to warm up, then the long
session of ``SCZMJ_VERIFY_HANDS`` hands (2,000 unless told; 10,000 takes five times as long) inside one
``functools.reduce``, around which callgrind dumps its counter (as bench/instructions.py does): that
dump is the count. ``PYTHONHASHSEED`` is fixed and the cycle collector off, so runs agree to a few
hundredths of a percent (the copy's temporary path differs: 3,292,516,158 and 3,291,727,888 on one tree).
A verify that finds anything is no measure of a verify: it is refused.

    .venv/bin/python -m bench.verify_instructions         # under a minute
"""

from __future__ import annotations

import functools
import gc
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bench.instructions import DUMP_AROUND, counted

HANDS = int(os.environ.get("SCZMJ_VERIFY_HANDS", "2000"))


def child(warm_id: int, session_id: int) -> dict[str, int]:
    """Under callgrind: one warming verify, then the measured one alone in a ``functools.reduce``."""
    import django

    django.setup()
    from ledger.integrity import verify_session
    from ledger.models import Session

    list(verify_session(Session.objects.get(pk=warm_id)))
    session = Session.objects.get(pk=session_id)
    gc.collect()
    gc.disable()
    findings: list[object] = functools.reduce(lambda _, __: list(verify_session(session)), [0], [])
    gc.enable()
    return {"rounds": session.rounds.count(), "findings": len(findings)}


def kept_seed() -> tuple[Path, dict[int, int]]:
    """The kept SQLite seed of this tree (its key as ``bench scale`` makes it) and its long sessions' ids
    by their hands; exits naming the command that makes it when there is none."""
    import django

    django.setup()
    from . import seed_cache
    from .bench_scale import SIZES, hands_at

    found = seed_cache.key(SIZES, [hands_at(size) for size in SIZES], "sqlite")
    kept, sidecar = seed_cache.FOLDER / f"{found}.sqlite3", seed_cache.FOLDER / f"{found}.json"
    if not (kept.is_file() and sidecar.is_file()):
        sys.exit(
            f"no kept SQLite seed {found} in {seed_cache.FOLDER}: make it with "
            "SCZMJ_SCALE_DATABASES=sqlite SCZMJ_SCALE_ROWS=verify_ledger .venv/bin/python -m bench scale"
        )
    long_sessions = json.loads(sidecar.read_text())["seeded"]["long_sessions"]
    return kept, {int(hands): session for hands, session in long_sessions.items()}


def count(hands: int = HANDS) -> dict[str, float]:
    """The instructions of one ``verify_session`` of the seed's long session of ``hands`` hands."""
    kept, long_sessions = kept_seed()
    if hands not in long_sessions:
        raise RuntimeError(f"the seed has long sessions of {sorted(long_sessions)} hands, not {hands}")
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "seed.sqlite3"
        shutil.copyfile(kept, copy)
        arguments = [str(long_sessions[min(long_sessions)]), str(long_sessions[hands])]
        verified, totals = counted(
            "bench.verify_instructions", arguments, {"DATABASE_URL": f"sqlite:///{copy}"}
        )
    if len(totals) != 2:  # before the reduce, and the reduce (what follows it is the last, unnumbered)
        raise RuntimeError(f"callgrind wrote {len(totals)} dumps, not 2: is {DUMP_AROUND} a symbol here?")
    if verified["findings"]:
        raise RuntimeError(f"verify_session found {verified['findings']} problems in the seed's copy")
    instructions = totals[1]
    return {**verified, "instructions": instructions, "per_round": instructions / verified["rounds"]}


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sczmj_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(child(int(sys.argv[2]), int(sys.argv[3]))))
    else:
        print(json.dumps(count(), indent=1))
