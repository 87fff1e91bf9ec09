"""What running games on more workers buys, and what the runner costs per game.

Plays the same fixed-depth match (deterministic games, the same seed) on a
process pool of 1 and 2 workers and, when Dask's distributed scheduler is
installed (``pip install ".[cluster]"``), on a ``LocalCluster`` of 1 and 2
worker processes (``--cluster local:N``).  For each it reports:

* games per hour (wall clock, from the first game submitted to the last
  record written, worker start-up included: that is what a user waits);
* the driver's CPU time per game (``time.process_time`` of this process
  during the run): scheduling, collecting records, statistics and writing
  ``games.jsonl`` and the SGF files -- the cost of the runner itself, which
  bounds how many workers one driver can feed.

The games are short (depth-1 players) so that the overhead shows; long
games only make the per-game overhead smaller next to the game.  Prints a
markdown table.  On the 2 shared cores of the project machine 2 workers
cannot be twice as fast as 1.

    PYTHONPATH=. python bench/runner_scale.py                # 24 games per setting, about a minute
    PYTHONPATH=. python bench/runner_scale.py --games 8      # a quick look
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

import _common  # noqa: F401  (puts a source checkout on the path)
from connect6.match import Match, MatchConfig, parse_player

PLAYERS = ("local:depth=1,width=4", "default:depth=1")


def play(games: int, workers: int, cluster: bool, seed: int) -> dict:
    """One match: (games per hour, driver CPU seconds per game, wall seconds)."""
    config = MatchConfig(a=parse_player(PLAYERS[0]), b=parse_player(PLAYERS[1]), games=games, seed=seed)
    with tempfile.TemporaryDirectory() as out:
        match = Match(config, out=os.path.join(out, "m"))
        cpu0, wall0 = time.process_time(), time.perf_counter()
        if cluster:
            from connect6.match.cluster import open_cluster
            with open_cluster(f"local:{workers}") as c:
                stats = match.run(executor=c.executor, concurrency=c.slots, progress="none")
        else:
            stats = match.run(concurrency=workers, progress="none")
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    if stats.games != games or match.failures:
        raise SystemExit(f"only {stats.games} of {games} games were played ({match.failures} failures)")
    return {"games_per_hour": games / wall * 3600, "driver_cpu_ms": cpu / games * 1000, "wall_s": wall}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="games per setting (default 24)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cluster", action="store_true", help="only the process pool")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    settings = [("process pool", False)]
    if not args.no_cluster:
        try:
            import distributed  # noqa: F401
            settings.append(("Dask LocalCluster", True))
        except ImportError:
            print('(Dask is not installed: pip install ".[cluster]" for the cluster rows)\n')
    print(f"{args.games} games of {PLAYERS[0]} vs {PLAYERS[1]}, {os.cpu_count()} CPUs\n")
    print("| executor | workers | games/hour | driver CPU ms/game | wall s |")
    print("|---|---|---|---|---|")
    for name, cluster in settings:
        for workers in (1, 2):
            r = play(args.games, workers, cluster, args.seed)
            print(f"| {name} | {workers} | {r['games_per_hour']:.0f} | {r['driver_cpu_ms']:.1f} | "
                  f"{r['wall_s']:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
