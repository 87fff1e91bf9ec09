"""``connect6 bench``: a fixed-depth search of 10 fixed positions.

The total node count (alpha-beta plus threat-space nodes) is a signature of the search: it changes only when
search behaviour changes.  The expected total for the default settings ships
with the package as ``connect6/data/bench_signature.txt`` (``bench/signature.txt``
in a checkout is a symbolic link to it: one file, one number), so
``connect6 bench --check`` works wherever the package is installed.  A commit
that changes search on purpose updates it and says so.  (In the manner of
Stockfish's ``bench``.)
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, Dict, List, Optional

from connect6._core import position as _position
from connect6.board import Board
from connect6.engine import make_engine
from connect6.options import PROFILES, SCANS
from connect6.version import read_signature

#: Ten positions from the human-games archive (game id, moves), steps 4..23.
BENCH_POSITIONS = [
    ("20", "j10 j11k10 i12i11"),
    ("162", "j10 k11k9 k10l10 m10l9 n11n9"),
    ("290", "j10 l11j9 k10l10 m10n9 k12k11 k9k13 j12m9"),
    ("418", "j10 j11k9 k11l12 m13l10 k13m11 n10k12 i9i10 h8i7 f10j8"),
    ("550", "j10 j9k10 l11k11 j11l12 l10k9 m9l8 m11j8 n12i7 n11i11"),
    ("675", "j10 k11i11 l11i12 j12k13 k14l14 j13l13 i13k10 h10j14 f8m11 h11g11 j11l9"),
    ("802", "j10 i11k11 j11j12 j9k10 k9i8 l11l9 l10m12 k12m10 n11j13 j15n9 o8l8 o10m8 l7n10"),
    ("943", "j10 j9i10 k8l9 k10m10 l10i8 l11k12 n9m12 j11j13 i14l13 n11k11 m11m8 h9h11 g8i11 h8h10 h7h13"),
    ("1073", "j10 k11i9 i11k9 l8h12 l10j8 m11i7 m10k10 n10i10 m9n11 k8i6 i5h11 g11f10 i13g9 e9e10 d8e11 d10f8 "
             "g7g10"),
    ("1465", "j10 i9k9 h9j8 j7i10 l9i8 k8j12 h11k10 h7i12 i11h12 f11h13 l7g11 l11i13 m8g13 f14k6 l6l5 l8n7 k5l4 "
             "l3j5 j4m7 i3n8 m4k4"),
]

DEFAULT_DEPTH = 4
DEFAULT_WIDTH = 10


def run(depth: int = DEFAULT_DEPTH, width: int = DEFAULT_WIDTH, profile: str = "default",
        scan: Optional[str] = None, report: Optional[Callable[[str], None]] = None) -> Dict[str, Any]:
    """Search every bench position; return ``{"nodes", "time_s", "positions": [...]}``."""
    engine = make_engine(None, profile=profile, depth=depth, width=width, scan=scan, book=False)   # never book moves
    rows: List[Dict[str, Any]] = []
    total_nodes = 0
    t0 = time.perf_counter()
    for i, (gid, moves) in enumerate(BENCH_POSITIONS, 1):
        board = Board(moves)
        r = engine.search(board)
        nodes = r.nodes + r.tss_nodes
        total_nodes += nodes
        rows.append(dict(game=gid, move=str(r.move), score=r.score, nodes=nodes, time_s=r.time_s))
        if report:
            report(f"position {i:2d}/{len(BENCH_POSITIONS)}  game {gid:>5}  best {str(r.move):<8} "
                   f"score {r.score_text:>10}  nodes {nodes:>8}  {r.time_s * 1000:8.1f} ms")
    elapsed = time.perf_counter() - t0
    return {"nodes": total_nodes, "time_s": elapsed, "positions": rows, "engine": repr(engine)}


def _check(nodes: int, args: argparse.Namespace) -> int:
    """Compare ``nodes`` with the shipped signature: 0 if equal, 1 on a mismatch, 2 if unreadable."""
    try:
        expected = read_signature()
    except (OSError, ValueError) as exc:
        print(f"connect6 bench --check: cannot read the signature ({exc})", file=sys.stderr)
        return 2
    if nodes != expected:
        settings = (args.depth, args.width, args.profile, args.scan)
        note = ("" if settings == (DEFAULT_DEPTH, DEFAULT_WIDTH, "default", None) else
                f" (the signature is for the defaults: --depth {DEFAULT_DEPTH} --width {DEFAULT_WIDTH} "
                "--profile default)")
        print(f"signature MISMATCH: expected {expected} nodes, got {nodes}{note}", file=sys.stderr)
        return 1
    print(f"signature OK ({expected} nodes)")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="connect6 bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help=f"turns (default {DEFAULT_DEPTH})")
    ap.add_argument("--width", type=int, default=DEFAULT_WIDTH, help=f"pairs per node (default {DEFAULT_WIDTH})")
    ap.add_argument("--profile", default="default", choices=sorted(PROFILES))
    ap.add_argument("--scan", choices=SCANS, help="scan mode (default: the profile's)")
    ap.add_argument("--check", action="store_true",
                    help="compare the total with the signature shipped in the package; exit 1 on a difference")
    args = ap.parse_args(argv)
    try:
        res = run(args.depth, args.width, args.profile, args.scan, report=print)
    except ValueError as exc:
        print(f"connect6 bench: {exc}", file=sys.stderr)
        return 2
    nps = res["nodes"] / res["time_s"] if res["time_s"] > 0 else 0.0
    print("=" * 40)
    print(f"Engine          : {res['engine']}")
    if _position.debug_build():
        print("Build           : DEBUG (CONNECT6_DEBUG=1, every turn checked): time not comparable")
    print(f"Total time (ms) : {res['time_s'] * 1000:.0f}")
    print(f"Nodes searched  : {res['nodes']}")
    print(f"Nodes/second    : {nps:.0f}")
    if args.check:
        return _check(res["nodes"], args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
