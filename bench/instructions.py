"""Instructions executed by fixed-depth searches, counted by valgrind's
callgrind: a speed figure that does not depend on the machine's load, for
comparing two builds (e.g. before and after a refactor) on a shared machine.

Searches the positions after 9 turns of the first ``--games`` human games
with the ``paper`` and ``default`` profiles at ``--depth``, and prints the
node counts (equal node counts: the same search) and the instructions spent
inside ``search_run`` (the compiled search, set-up excluded).  With
``--against DIR`` (another built checkout) both are measured and the ratio printed.

    python bench/instructions.py [--depth 4] [--games 3] [--against /path/to/other/checkout]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKLOAD = """
import connect6
from connect6.records import read_games_csv
# builds before connect6.make_engine (2026-11-26) are measured through the Engine constructor
make = getattr(connect6, "make_engine", None) or (lambda prof, **kw: connect6.Engine(profile=prof, **kw))
for g in read_games_csv({games!r})[:{count}]:
    b = connect6.Board()
    for m in g.moves[:9]:
        b.push(m)
    for prof in ("paper", "default"):
        r = make(prof, depth={depth}, width=10, scan="incremental").search(b)
        print(prof, r.nodes, r.tss_nodes)
"""


def measure(checkout: Path, depth: int, count: int):
    """(printed node counts, instructions inside search_run) for the built ``checkout``."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "workload.py"
        script.write_text(WORKLOAD.format(games=str(ROOT / "tests" / "data" / "human-games.csv"), count=count,
                                          depth=depth))
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONPATH=str(checkout))
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                            str(script)], capture_output=True, text=True, env=env, cwd=tmp)
        if p.returncode != 0:
            raise SystemExit(f"valgrind failed: {p.stderr[-2000:]}")
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(out)], capture_output=True, text=True)
    m = re.search(r"^\s*([\d,]+) \([\d.]+%\)\s+\S*search\.c:__pyx_f_11engine_core_6search_search_run\b",
                  ann.stdout, re.M)
    if not m:
        raise SystemExit("search_run not found in the profile (is the checkout built?)")
    return p.stdout.split(), int(m.group(1).replace(",", ""))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--against", type=Path, help="another built checkout to compare with")
    args = ap.parse_args(argv)
    if not shutil.which("valgrind"):
        ap.error("needs valgrind (apt-get install valgrind)")
    nodes, ir = measure(ROOT, args.depth, args.games)
    print(f"this checkout:  {ir:,} instructions in search_run; nodes {' '.join(nodes)}")
    if args.against:
        other_nodes, other_ir = measure(args.against.resolve(), args.depth, args.games)
        print(f"{args.against}:  {other_ir:,} instructions in search_run; nodes {' '.join(other_nodes)}")
        print(f"ratio this/other: {ir / other_ir:.4f}; same searches: {nodes == other_nodes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
