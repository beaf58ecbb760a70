"""Instructions per call, counted by valgrind's callgrind: a figure the machine's load does not move.

One child process under callgrind builds the calls of ``bench.workload``, warms each operation up on hands
of its own, then runs each measured batch inside one ``functools.reduce``; callgrind writes its counter
out and starts afresh on entering and on leaving that C function (``--dump-before`` and ``--dump-after``),
so each batch has a dump of its own and the interpreter's start-up, the imports, the table building and the
warm-up count in the dumps between. A batch's count less the count of a batch of empty calls of the same
length, divided by its length, is the cost of one call (``PYTHONHASHSEED`` fixed and the garbage collector
off while counting, as in ``timeit``, so a run gives the same figures every time).

    .venv/bin/python -m bench.instructions                 # every count as JSON (about a minute)
    .venv/bin/python -m bench.instructions score_hand      # some of them (while making one faster)
"""

from __future__ import annotations

import functools
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.workload import WARM_HANDS, calls

HANDS = 150  # measured hands per operation; different ones warm each one up
ROUNDS = 8  # the bench round is one fixed round: a few settlements give its exact mean
DUMP_AROUND = "functools_reduce"  # the C function each batch runs in: callgrind dumps around it
ROOT = Path(__file__).resolve().parent.parent


def _run_batch(calls: list[Callable[[], object]]) -> None:
    functools.reduce(lambda _, call: call(), calls, None)


def child(names: list[str]) -> list[tuple[str, int]]:
    """Under callgrind: warm each operation, then one reduce per batch; returns (name, calls) in order."""
    warm = calls(WARM_HANDS)
    measured = calls(HANDS, skip=2 * WARM_HANDS)
    sizes = {"settle_round": ROUNDS}
    order = []
    for name, batch in measured.items():
        if names and name not in names:
            continue
        for call in warm[name][: sizes.get(name, WARM_HANDS)]:
            call()
        batch = batch[: sizes.get(name, HANDS)]
        floor = measured["empty"][: len(batch)]
        gc.collect()
        gc.disable()
        _run_batch(floor)
        _run_batch(batch)
        gc.enable()
        order += [("empty", len(floor)), (name, len(batch))]
    return order


def _dump_totals(folder: Path) -> list[int]:
    """The collected instructions of each dump, in dump order (``cg.out.1``, ``cg.out.2``...)."""
    dumps = sorted(folder.glob("cg.out.*"), key=lambda path: int(path.suffix[1:]))
    totals = []
    for dump in dumps:
        found = re.search(r"^summary:\s*(\d+)", dump.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError(f"no summary line in {dump}")
        totals.append(int(found.group(1)))
    return totals


def counted(module: str, arguments: list[str], env: dict[str, str] | None = None) -> tuple[Any, list[int]]:
    """``python -m module --child *arguments`` run under callgrind, its counter dumped before and after
    each ``functools.reduce`` (``PYTHONHASHSEED`` fixed, ``env`` added): what the child printed last, read
    as JSON, and the instructions of each dump in order."""
    if shutil.which("valgrind") is None:
        raise RuntimeError("valgrind is not installed: apt-get install valgrind")
    with tempfile.TemporaryDirectory() as folder:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--dump-before={DUMP_AROUND}",
            f"--dump-after={DUMP_AROUND}",
            f"--callgrind-out-file={Path(folder) / 'cg.out'}",
            sys.executable,
            "-m",
            module,
            "--child",
            *arguments,
        ]
        environment = {**os.environ, "PYTHONHASHSEED": "0", **(env or {})}
        done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the callgrind run failed:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1]), _dump_totals(Path(folder))


def counts(names: tuple[str, ...] = ()) -> dict[str, float]:
    """Instructions per call of each operation of ``bench.workload`` (or of ``names``), net of the empty
    call."""
    order, totals = counted("bench.instructions", list(names))
    batches = totals[1::2]  # before the first batch, a batch, between two batches, a batch, ...
    if len(totals) != 2 * len(order) or not all(batches):
        raise RuntimeError(
            f"callgrind wrote {len(totals)} dumps for {len(order)} batches: does {sys.executable} "
            f"have the symbol {DUMP_AROUND}?"
        )
    per_call: dict[str, float] = {}
    for index in range(0, len(order), 2):
        (_, floor_calls), (name, calls) = order[index], order[index + 1]
        per_call[name] = (batches[index + 1] - batches[index]) / calls
        per_call[f"{name}_floor"] = batches[index] / floor_calls
    return per_call


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(child(sys.argv[2:])))
    else:
        print(json.dumps(counts(tuple(sys.argv[1:])), indent=1))
