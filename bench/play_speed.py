"""Speed of the default engine as it plays: fixed-depth searches along human
games, with the tables kept from move to move as in timed play; optionally
against an earlier revision in the same run.

Each of ``--games`` human games (the first that last ``--turns`` turns) is
replayed from turn 5 to turn ``--turns``; two engines, one per colour, search
every position of their colour to ``--depth`` (a timed search with the depth
as its limit, so the transposition and solver tables carry over as in a real
game).  Printed: positions, nodes (alpha-beta plus solver), CPU seconds and
nodes per CPU second.  With ``--base REV`` the same is measured for the core
of git revision REV (built under bench/out/rev-SHA), alternating ``--rounds``
times, and the ratio of the median CPU seconds is printed.  The node totals
match when only speed changed, and the moves chosen are compared.

``--engine SPEC`` measures another engine than ``default`` (a player spec of
the built-in engine, e.g. ``default:pvs=true``); ``--base-engine SPEC`` the
one measured in the base revision (default: the same).  Two option sets of
one build are compared with ``--base HEAD --engine default:pvs=true
--base-engine default``.  A spec with a node limit (``default:nodes=1500000``)
searches each position to that many nodes (alpha-beta's and the solver's) instead of ``--depth``
(deepening as in timed play, with fresh tables, so the count of moves that
differ between two builds shows how often a change of the timed code paths
changes the move).

The timed search's limit (an hour, which a fixed depth reaches first) also
sets the solver budgets that grow with the move's time (``tss_four_budget``,
``reply_four_budget``): at an hour they are what an hour a move would give,
and the solver's root calls take most of the time.  ``--no-clock`` searches
each position to ``--depth`` with no time limit instead (one iteration, the
budgets of a 3 s move), so the figures are alpha-beta's: use it to compare
two ways of searching the tree, e.g. ``--base HEAD --no-clock --engine
default:threat_frontier=true --base-engine default``.

    python bench/play_speed.py [--games 3] [--turns 30] [--depth 8] [--base REV] [--rounds 2]
                               [--engine SPEC] [--base-engine SPEC] [--no-clock]
"""
from __future__ import annotations

import argparse
import time

from _common import compare_builds, engine_player, long_games, machine, position_after

FIRST_TURN = 5          # the positions searched begin after the opening's 4 turns
TIME_CAP = 3600.0       # a timed search's limit that a fixed depth always reaches first


def measure(games: int, turns: int, depth: int, spec: str = "default", clock: bool = True) -> dict:
    """Search the positions of the games with the core importable here and
    the engine ``spec``; nodes, CPU seconds and the moves chosen (``clock``:
    a timed search to the depth, else the depth alone)."""
    import connect6
    from connect6.options import Limits
    player = engine_player(spec)
    options, node_limit = player.engine_options, player.limits.nodes
    nodes = positions = 0
    cpu = 0.0
    chosen = []
    for _, moves in long_games(games, turns):
        engines = (connect6.make_engine(options), connect6.make_engine(options))
        for turn in range(FIRST_TURN, turns + 1):
            board = position_after(moves, turn - 1)
            start = time.process_time()
            if node_limit is None and not clock:
                r = engines[turn % 2].search(board, depth=depth)
            elif node_limit is None:
                r = engines[turn % 2].search(board, depth=depth, time=TIME_CAP)
            else:
                r = engines[turn % 2].search(board, limits=Limits(nodes=node_limit))
            cpu += time.process_time() - start
            nodes += r.nodes + r.tss_nodes
            positions += 1
            chosen.append(str(r.move))
    return {"positions": positions, "nodes": nodes, "cpu": cpu, "moves": chosen}


def line(name: str, cpu: float, r: dict) -> str:
    return (f"{name:>14}: {r['positions']} positions, {r['nodes']} nodes, {cpu:.2f} s CPU, "
            f"{r['nodes'] / cpu:,.0f} nodes/s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--turns", type=int, default=30, help="the last turn searched in each game")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--base", metavar="REV", help="also measure the core of git revision REV")
    ap.add_argument("--rounds", type=int, default=2, help="alternations with --base (medians compared)")
    ap.add_argument("--engine", default="default", metavar="SPEC", help="the built-in engine measured here")
    ap.add_argument("--base-engine", metavar="SPEC", help="the one measured in --base (default: --engine)")
    ap.add_argument("--no-clock", action="store_true",
                    help="fixed-depth searches with no time limit (the solver budgets of a short move)")
    args = ap.parse_args(argv)
    if not (args.games >= 1 and args.turns >= FIRST_TURN and 1 <= args.depth <= 30 and args.rounds >= 1):
        ap.error(f"need --games >= 1, --turns >= {FIRST_TURN}, --depth 1..30, --rounds >= 1")
    base_engine = args.base_engine or args.engine
    try:
        players = [engine_player(spec) for spec in (args.engine, base_engine)]
    except ValueError as e:
        ap.error(str(e))
    limited = players[0].limits.nodes is not None
    how = "to its node limit, fresh tables" if limited else f"depth {args.depth}, tables kept between moves"
    if args.no_clock and not limited:
        how += ", no clock"
    print(f"# {args.engine}" + (f" against {base_engine} of {args.base}" if args.base else "")
          + f", {how}, turns {FIRST_TURN}-{args.turns} of {args.games} human games; {machine()}")
    call = f"measure({args.games}, {args.turns}, {args.depth}, {{!r}}, clock={not args.no_clock})"
    compare_builds("play_speed", call.format(args.engine), args.base, args.rounds, line,
                   base_call=call.format(base_engine))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
