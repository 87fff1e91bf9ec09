"""How did our engine spend its time, and which wins did it claim?  One row
per match folder (its ``games.jsonl``), read from the reports the records
keep (``evals``), with no search:

* our moves, their mean and median seconds, and how many ran to the move's
  time limit (at least 95% of the ``time=`` of our player's spec);
* the search's claims of a forced win (a winning score whose source is the
  alpha-beta search, finished or not, rather than the threat-space solver),
  the games they came in, how many vanished at our next turn (the next
  report was no longer a win: the claim was wrong or the opponent found a
  defence the search had not seen) and how many games with a claim were
  not won;
* the solver's wins, and the games lost.

    python tools/move_stats.py bench/results/games/cloudict-d5-80/t6.5/d5-default-t6.5 [MORE ...]
    python tools/move_stats.py --games DIR      # the same, one row per game with a claim or a loss

Turns count from 0 (the first stone, j10), as in tools/first_loss.py.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
import _common  # noqa: E402,F401  (connect6: the installed package, else this checkout)

from connect6.match import read_results  # noqa: E402
from connect6.options import parse_engine_spec  # noqa: E402
from connect6.result import forced_win  # noqa: E402

AT_LIMIT = 0.95                 # a move that took this share of its limit ran to it
SEARCH_SOURCES = ("search", "unfinished")


def our_side(record: Dict[str, Any]) -> str:
    """Our colour: the records call our engine player ``a``."""
    return record["a_color"]


def our_reports(record: Dict[str, Any]) -> List[int]:
    """The turns (from 0) of our moves that have a search report.  Black moves
    at the even turns; when player ``b`` is a built-in engine too, its turns
    have reports as well, and they are not ours."""
    parity = 0 if our_side(record) == "black" else 1
    return [i for i, e in enumerate(record.get("evals") or []) if e is not None and i % 2 == parity]


def move_limit(spec: str) -> Optional[float]:
    """The ``time=`` of a player spec, None if it has none or is not ours."""
    try:
        return parse_engine_spec(spec)[2].time
    except ValueError:
        return None


def game_stats(record: Dict[str, Any]) -> Dict[str, Any]:
    """Our reports of one game: times, claims, and whether claims vanished."""
    limit = move_limit(record["a"])
    evals = record.get("evals") or []          # records written before matches kept reports have none
    ours = our_reports(record)
    times = [record["times"][i] for i in ours if record["times"][i] is not None]
    claims = vanished = solver = 0
    first_claim = None
    for j, i in enumerate(ours):
        report = evals[i]
        if not forced_win(report["score"]):
            continue
        if report.get("source", "search") not in SEARCH_SOURCES:
            solver += 1
            continue
        claims += 1
        first_claim = i if first_claim is None else first_claim
        if j + 1 < len(ours) and not forced_win(evals[ours[j + 1]]["score"]):
            vanished += 1
    return {"game": record["game"], "times": times,
            "at_limit": sum(1 for t in times if limit and t >= AT_LIMIT * limit),
            "claims": claims, "vanished": vanished, "solver": solver, "first_claim": first_claim,
            "won": record["winner"] == "a", "lost": record["winner"] == "b"}


def folder_row(folder: Path) -> str:
    records = read_results(str(folder / "games.jsonl"))
    stats = [game_stats(r) for r in records]
    times = [t for s in stats for t in s["times"]]
    claimed = [s for s in stats if s["claims"]]
    mean = statistics.fmean(times) if times else 0.0
    median = statistics.median(times) if times else 0.0
    return (f"| {folder.name} | {len(records)} | {len(times)} | {mean:.2f} | {median:.2f} | "
            f"{sum(s['at_limit'] for s in stats)} | {sum(s['claims'] for s in stats)} | {len(claimed)} | "
            f"{sum(s['vanished'] for s in stats)} | {sum(1 for s in claimed if not s['won'])} | "
            f"{sum(1 for s in stats if s['solver'])} | {sum(1 for s in stats if s['lost'])} |")


def game_rows(folder: Path) -> List[str]:
    rows = []
    for record in read_results(str(folder / "games.jsonl")):
        s = game_stats(record)
        if not (s["claims"] or s["lost"]):
            continue
        result = "won" if s["won"] else "lost" if s["lost"] else "drawn"
        first = "-" if s["first_claim"] is None else f"turn {s['first_claim']} {record['moves'][s['first_claim']]}"
        rows.append(f"| {s['game']} | {our_side(record)} | {result} | {len(record['moves'])} | "
                    f"{s['claims']} | {s['vanished']} | {first} | {s['at_limit']} |")
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path, help="match folders (each with a games.jsonl)")
    ap.add_argument("--games", action="store_true", help="one row per game with a claim or a loss")
    args = ap.parse_args(argv)
    for folder in args.folders:
        if not (folder / "games.jsonl").is_file():
            ap.error(f"{folder}: no games.jsonl here")
    try:
        if args.games:
            for folder in args.folders:
                print(f"\n{folder}\n")
                print("| game | we | result | turns | claims | vanished | first claim | at limit |")
                print("|---|---|---|---|---|---|---|---|")
                print("\n".join(game_rows(folder)))
            return 0
        print("| folder | games | our moves | mean s | median s | at limit | claims | games with claims "
              "| vanished | claimed not won | games with solver wins | lost |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for folder in args.folders:
            print(folder_row(folder))
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        ap.error(f"{folder}: not a match record this tool can read ({type(exc).__name__}: {exc})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
