"""``make bench``: runs every ``bench/bench_*.py`` module's ``run()`` once and prints its table.

Each ``run()`` returns a title and rows of (what, figure, target, verdict); nothing here is a test, and a
figure that misses its target is printed as such, not hidden. The last line says "every target met", or
names each row that missed (verdict ``MISSED``) and the exit status is 1, so a script can tell; a row
with no verdict is a figure for people.
"""

import importlib
import os
import pkgutil
import sys
import time
from pathlib import Path

import django


def print_table(title: str, rows: list[tuple[str, str, str, str]]) -> None:
    header = ("what", "figure", "target", "")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(4)]
    print(f"\n## {title}\n", flush=True)
    for row in [header, *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sczmj_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # as under make: the development key, no deployment needed
    # Before any bench module is imported: DRF's views module reads the authentication classes at import,
    # and the site's token authentication is a model, which needs the apps loaded.
    django.setup()
    package_dir = Path(__file__).parent
    names = sorted(
        info.name for info in pkgutil.iter_modules([str(package_dir)]) if info.name.startswith("bench_")
    )
    only = set(sys.argv[1:])
    missed: list[str] = []
    for name in names:
        if only and name.removeprefix("bench_") not in only:
            continue
        module = importlib.import_module(f"bench.{name}")
        started = time.perf_counter()
        title, rows = module.run()
        print_table(f"{title}  ({time.perf_counter() - started:.1f} s)", rows)
        missed += [
            f"{name.removeprefix('bench_')}: {row[0]} ({row[1]}; {row[2]})"
            for row in rows
            if row[3] == "MISSED"
        ]
    print(verdict(missed))
    return 1 if missed else 0


def verdict(missed: list[str]) -> str:
    """The last line: every target met, or each row that missed its target, named."""
    if not missed:
        return "\nevery target met"
    return f"\n{len(missed)} target(s) missed:\n" + "\n".join(f"- {row}" for row in missed)


if __name__ == "__main__":
    sys.exit(main())
