"""Instructions per call, counted by valgrind's callgrind: a figure the machine's load does not move.

One child process under callgrind builds the calls of ``bench.workload``, warms each operation up on hands
of its own, then runs each measured batch inside one ``functools.reduce``: callgrind collects only inside
that C function (``--collect-atstart=no --toggle-collect=functools_reduce``) and writes one dump per call
of it (``--dump-after``), so the interpreter's start-up, the imports, the table building and the warm-up
count nowhere. A batch's count less the count of a batch of empty calls of the same length, divided by
its length, is the cost of one call (``PYTHONHASHSEED`` fixed and the garbage collector off while
counting, as in ``timeit``, so a run gives the same figures every time).

    .venv/bin/python -m bench.instructions      # prints the counts as JSON (about a minute)
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
from pathlib import Path

HANDS = 150  # measured hands per operation; a different 30 warm each one up
WARM_HANDS = 30
ROUNDS = 8  # the bench round is one fixed round: a few settlements give its exact mean
TOGGLE = "functools_reduce"
ROOT = Path(__file__).resolve().parent.parent


def _batch_sizes() -> dict[str, int]:
    return {"settle_round": ROUNDS}


def _run_batch(calls: list) -> None:
    functools.reduce(lambda _, call: call(), calls, None)


def child() -> list[tuple[str, int]]:
    """Under callgrind: warm every operation, then one reduce per batch; returns (name, calls) in order."""
    from bench.workload import calls

    warm = calls(WARM_HANDS)
    measured = calls(HANDS, skip=WARM_HANDS)
    sizes = _batch_sizes()
    order = []
    for name, batch in measured.items():
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


def counts() -> dict[str, float]:
    """Instructions per call of each operation of ``bench.workload``, net of the empty call."""
    if shutil.which("valgrind") is None:
        raise RuntimeError("valgrind is not installed: apt-get install valgrind")
    with tempfile.TemporaryDirectory() as folder:
        command = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            f"--toggle-collect={TOGGLE}",
            f"--dump-after={TOGGLE}",
            f"--callgrind-out-file={Path(folder) / 'cg.out'}",
            sys.executable,
            "-m",
            "bench.instructions",
            "--child",
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the callgrind run failed:\n{done.stderr[-3000:]}")
        order = json.loads(done.stdout.strip().splitlines()[-1])
        totals = _dump_totals(Path(folder))
    if len(totals) != len(order) or not all(totals):
        raise RuntimeError(
            f"callgrind wrote {len(totals)} dumps for {len(order)} batches: does {sys.executable} "
            f"have the symbol {TOGGLE}?"
        )
    per_call: dict[str, float] = {}
    for index in range(0, len(order), 2):
        (_, floor_calls), (name, calls) = order[index], order[index + 1]
        per_call[name] = (totals[index + 1] - totals[index]) / calls
        per_call[f"{name}_floor"] = totals[index] / floor_calls
    return per_call


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        print(json.dumps(child()))
    else:
        print(json.dumps(counts(), indent=1))
