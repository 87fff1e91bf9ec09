"""How fast the record readers accept good input and reject bad input.

Times ``connect6.records.read_sgf`` and ``read_games_csv`` on inputs built in
memory (nothing is written except the CSV files, in a temporary folder):

* SGF games that are wrong at their 23rd move, followed by megabytes of
  further nodes (what a corrupted or hostile file looks like): a reader that
  validates while it reads stops at move 23; one that tokenises first pays
  for every byte.  Sizes above the per-game limit are refused before parsing.
* a valid game of just under the limit (a long comment in the root node);
* the human-games archive (``tests/data/human-games.csv``, about 1 MB) and
  a CSV with a single 20 MB line (refused, not read whole, by a reader with a
  line limit).

Each figure is the best of ``--repeat`` runs.  Prints a markdown table.

    PYTHONPATH=. python bench/records_speed.py            # about 10 s (more on a reader without limits)
    PYTHONPATH=. python bench/records_speed.py --smoke    # well under a second
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from connect6.records import RecordError, read_games_csv, read_sgf

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT / "tests" / "data" / "human-games.csv"
GOOD_TURNS = "j10 k11i11 h11i10 j9h10 j12k12 j13l12 g12h13 g14f11 h9n11 j11l9 m8n9 n10o10 m10o8 p7n8 " \
             "m9m11 m7m13 l7k6 j5l14 l11n12 n14o13 o15p16 q12r13"


def bad_sgf(size: int) -> str:
    """A game whose 23rd move is off the board, padded with further nodes to ``size`` characters."""
    nodes = []
    for i, turn in enumerate(GOOD_TURNS.split()):
        nodes.append(f";{'B' if i % 2 == 0 else 'W'}[{turn}]")
    head = "(;FF[4]PB[a]PW[b]" + "".join(nodes) + ";B[z99a1]"
    pad = ";W[a1b1];B[c1d1]"
    count = max(0, (size - len(head) - 1) // len(pad))
    return head + pad * count + ")"


def good_sgf(size: int) -> str:
    """A valid game of about ``size`` characters: a long comment in the root, then 22 turns."""
    body = "".join(f";{'B' if i % 2 == 0 else 'W'}[{t}]" for i, t in enumerate(GOOD_TURNS.split()))
    head = "(;FF[4]PB[a]PW[b]GC["
    return head + "x" * max(0, size - len(head) - len(body) - 2) + "]" + body + ")"


def best_time(function, repeat: int):
    """(best seconds, outcome) of calling ``function`` ``repeat`` times; outcome names a RecordError."""
    best = float("inf")
    outcome = "ok"
    for _ in range(repeat):
        t0 = time.perf_counter()
        try:
            function()
        except RecordError as exc:
            outcome = f"RecordError: {str(exc)[:70]}"
        except Exception as exc:  # noqa: BLE001 - a reader that lets something else escape is reported
            outcome = f"{type(exc).__name__} (not a RecordError): {str(exc)[:50]}"
        best = min(best, time.perf_counter() - t0)
    return best, outcome


def cases(smoke: bool, folder: Path):
    mb = 1_000_000
    sizes = [mb // 10] if smoke else [3 * mb, 5 * mb, 9 * mb // 10]
    for size in sizes:
        text = bad_sgf(size)
        yield f"SGF wrong at move 23, {len(text) / mb:.2f} MB", lambda text=text: read_sgf(text)
    text = good_sgf(mb // 10 if smoke else 9 * mb // 10)
    yield f"SGF valid, {len(text) / mb:.2f} MB (long comment)", lambda: read_sgf(text)
    if ARCHIVE.exists():
        yield f"CSV human games, {ARCHIVE.stat().st_size / mb:.2f} MB", lambda: read_games_csv(ARCHIVE)
    big = folder / "one-long-line.csv"
    length = mb if smoke else 20 * mb
    with open(big, "w") as fh:
        fh.write('game_id,stones,winner\n1,"' + "j10," * (length // 4) + 'j10",black\n')
    yield f"CSV one {length / mb:.0f} MB line", lambda: read_games_csv(big)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="runs per case, the best is shown (default 3)")
    ap.add_argument("--smoke", action="store_true", help="small inputs, one run each")
    args = ap.parse_args(argv)
    repeat = 1 if args.smoke else max(1, args.repeat)
    print("| input | time | outcome |")
    print("|---|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, function in cases(args.smoke, Path(tmp)):
            seconds, outcome = best_time(function, repeat)
            print(f"| {name} | {seconds * 1000:.1f} ms | {outcome} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
