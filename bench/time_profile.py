"""When does a timed search's move settle?  A profile for time management.

Each position of ``--games`` human games (turns 5 to ``--turns``) is searched
by an engine (``--engine``, default ``default``) for ``--time`` seconds, the
tables kept from move to move as in a game, and every finished iteration is
recorded: its depth, when it ended, its best pair and value.  Positions the
search decides by force (a forced win or loss, the solver's move) are left
out.  Then stop rules are replayed on these traces: a hard limit of a
fraction of the time, and rules that stop at the end of an iteration once
the elapsed time passes a share of the limit (all iterations, or only when
the best pair did not change in that iteration).  For each, printed: the
mean time a move would take, and how often its move is the one the whole
``--time`` search played (the reference: a deeper look at the same
position).  A rule that stops early on settled moves should keep more of the
reference's moves than a hard limit with the same mean time.

The replay is approximate: a search cut in the middle of an iteration may
play a later root pair that beat the previous best (source ``unfinished``);
the replay plays the last finished iteration's pair.

    python bench/time_profile.py [--games 3] [--turns 30] [--time 12] [--engine SPEC]
                                 [--skip N] [--save FILE] [--load FILE ...]
"""
from __future__ import annotations

import argparse
import json
import statistics

from _common import engine_player, long_games, machine, position_after

FIRST_TURN = 5
HARD_SHARES = (0.25, 0.35, 0.5, 0.7, 1.0)
SOFT_SHARES = (0.1, 0.15, 0.2, 0.3, 0.4, 0.5)


def profile(games: int, turns: int, seconds: float, spec: str, skip: int = 0) -> list:
    """The traces of the searches: ``{"game", "turn", "iterations": [[depth, t, move,
    score], ...], "move", "time", "source"}`` for each position not decided by force."""
    import connect6
    from connect6.options import Limits
    player = engine_player(spec)
    traces = []
    for game, moves in long_games(games, turns, skip):
        engines = (connect6.make_engine(player.engine_options), connect6.make_engine(player.engine_options))
        for turn in range(FIRST_TURN, turns + 1):
            board = position_after(moves, turn - 1)
            its = []
            r = engines[turn % 2].search(board, limits=Limits(time=seconds), info=lambda i: its.append(
                [i.depth, round(i.time_s, 4), str(i.pv[0]) if i.pv else None, i.score]))
            if r.win_in is not None or r.source == "solver" or len(its) < 2:
                continue
            traces.append({"game": game, "turn": turn, "iterations": its, "move": str(r.move),
                           "time": round(r.time_s, 4), "source": r.source})
            print(f"{game} turn {turn}: depth {its[-1][0]}, {len(its)} iterations, "
                  f"{r.time_s:.2f} s, {r.move} ({r.source})", flush=True)
    return traces


def replay(trace: dict, share: float, seconds: float, soft: float = 0.0, stable: bool = False):
    """(seconds, move) of a search of ``share`` x ``seconds`` stopped by the
    rule: at the end of the first iteration after the first that ends at or
    after ``soft`` x that time (when ``stable``, only if its best pair is the
    previous iteration's), else at that time (the whole search's move when
    ``share`` is 1)."""
    its, end, hard = trace["iterations"], trace["time"], share * seconds
    move = its[0][2]
    for k, (_, t, best, _) in enumerate(its):
        if t > hard:
            break
        move = best
        if k > 0 and soft > 0 and t >= soft * hard and (not stable or best == its[k - 1][2]):
            return t, move
    return min(hard, end), (trace["move"] if share >= 1 else move)


def table(traces: list, seconds: float) -> list:
    """Rows (rule, mean seconds, share of the reference's moves kept)."""
    def row(name, picks):
        return (name, statistics.mean(t for t, _ in picks),
                sum(m == tr["move"] for (_, m), tr in zip(picks, traces)) / len(traces))
    rows = [row(f"hard {share:g} x time", [replay(tr, share, seconds) for tr in traces]) for share in HARD_SHARES]
    for stable in (False, True):
        kind = "stable pair, " if stable else ""
        rows += [row(f"stop after {kind}{soft:g} x time", [replay(tr, 1.0, seconds, soft, stable) for tr in traces])
                 for soft in SOFT_SHARES]
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--skip", type=int, default=0, help="human games to pass over first")
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--time", type=float, default=12.0, help="seconds a search (the reference)")
    ap.add_argument("--engine", default="default", help="a built-in engine's player spec")
    ap.add_argument("--save", help="write the traces to this JSON file")
    ap.add_argument("--load", nargs="+", help="replay the traces of these JSON files (one time) instead of searching")
    args = ap.parse_args(argv)
    if not (args.games >= 1 and args.skip >= 0 and args.turns >= FIRST_TURN and 0 < args.time <= 3600):
        ap.error(f"need --games >= 1, --skip >= 0, --turns >= {FIRST_TURN}, --time in (0, 3600] seconds")
    try:
        engine_player(args.engine)
    except ValueError as e:
        ap.error(str(e))
    if args.load:
        traces = []
        for path in args.load:
            with open(path) as f:
                data = json.load(f)
            traces += data["traces"]
            seconds = data["time"]
    else:
        print(f"# {args.engine} at {args.time:g} s a move; {machine()}")
        traces, seconds = profile(args.games, args.turns, args.time, args.engine, args.skip), args.time
        if args.save:
            with open(args.save, "w") as f:
                json.dump({"time": seconds, "engine": args.engine, "traces": traces}, f)
    if not traces:
        print("no position left to profile (all decided by force)")
        return 1
    changed = sum(tr["source"] == "unfinished" for tr in traces)
    print(f"\n{len(traces)} positions not decided by force; the unfinished last iteration "
          f"changed the move in {changed}\n")
    print("| rule | mean time (s) | reference's move |\n|---|---|---|")
    for name, mean, kept in table(traces, seconds):
        print(f"| {name} | {mean:.2f} | {kept:.1%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
