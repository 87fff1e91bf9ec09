"""Strength gauntlet: the default engine against the paper's engine and the
previous default, through the match runner.

Each engine under test (``--engine``, one or more: ablations) plays each
opponent ``--games`` colour-swapped games from data/openings-human.txt (the
most played openings of the human games, each won by both colours there;
tools/make_openings.py) at equal time per move (``--move-time``), or until an SPRT decides
(``--sprt elo0 elo1 alpha beta``); an engine whose spec names its own time
(``default:settle_percent=20,time=3.5``) plays at that time, for tests at
equal mean time rather than equal limits (the table gives each side's mean
time per move), and then the match sets no common limit.  Prints each match's score, Elo with its
95% interval, LOS and pair counts, and writes the markdown table to
``--out``/strength.md (default bench/results); the games (JSONL and SGF per
match) go to ``--games-dir`` (default bench/out/strength, not committed).

    python bench/strength.py [--games 80] [--move-time 1.0] [--opponents paper plain]
                             [--engine default] [--sprt 0 50 0.05 0.05]
                             [--out bench/results] [--games-dir bench/out/strength]

An external engine speaking the Cloudict/ConnectMore protocol joins the
gauntlet as an opponent ``cmd:"/path/to/engine --its-time-option"``: the
protocol has no time command, so the per-move limit (with a quarter of a
second of grace) is a hard timeout and the engine must be told a smaller
time of its own.  Ablations: ``--engine default default:tss_plies=0
default:tt_bits=0,killers=false --opponents paper``.

A change against the previous default (fishtest's way): ``--base REV`` adds
the engine of git revision REV as an opponent, built in a worktree under
bench/out/rev-SHA (kept for the next run).  Then every engine, those under
test too (from this checkout, built in place), plays over the engine
protocol on its own clock of ``--move-time`` per move, with the same
overheads on both sides and a hang timeout instead of a runner limit, e.g.
``python bench/strength.py --base HEAD~1 --opponents --games 40 --move-time 1
--openings data/openings-verified.txt --concurrency 1 --table change.md``.
``--resume`` continues a stopped run: each match goes on in its latest folder
under ``--games-dir`` (with the same settings).
"""
from __future__ import annotations

import argparse
import datetime
import glob
import hashlib
import itertools
import math
import os
import subprocess
import sys
import time
from pathlib import Path

from _common import ROOT, build_revision, machine, output_problem, own_time, timed_spec

from connect6.match import (
    Match, MatchConfig, SprtParams, format_summary, load_openings, parse_player, stop_on_sigterm,
)
from connect6.options import SCANS, parse_engine_spec

OPENINGS = ROOT / "data" / "openings-human.txt"


def protocol_player(spec: str, move_time: float, where: Path, name: str) -> str:
    """The built-in engine ``spec`` (PROFILE[:key=value,...]) as a player run
    over the engine protocol from the checkout at ``where``, told ``move_time``
    per move unless the spec names its own time (its own clock: no runner
    limit but a hang timeout)."""
    own = parse_engine_spec(spec)[2].time        # every option checked here, with its message
    head, _, rest = spec.partition(":")
    argv = [sys.executable, "-m", "connect6", "engine"]
    argv += ["--profile", "paper", "--scan", head] if head in SCANS else ["--profile", head]
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, _, value = (part.strip() for part in item.partition("="))
        if key == "depth":
            argv += ["--depth", value]
        elif key == "profile":
            argv[argv.index("--profile") + 1] = value
        elif key != "time":
            argv += ["--set", f"{key}={value}"]
    move_time = own or move_time
    argv += ["--time", f"{move_time:g}"]
    return f'cmd:"{" ".join(argv)}",dir={where},hang={max(30.0, 20 * move_time):g},name={name}'


def base_player(rev: str, move_time: float) -> str:
    """The ``default`` engine of git revision ``rev`` over the engine protocol:
    its tree checked out under bench/out/rev-SHA and its core built there in
    place (once)."""
    try:
        sha, where = build_revision(rev)
    except ValueError as exc:
        raise ValueError(f"--base {exc}") from None
    return protocol_player("default", move_time, where, f"base-{sha[:7]}")


def _forfeits(forfeits) -> str:
    """Non-six losses, e.g. "A: 1 time; B: 2 illegal", or "none"."""
    parts = [f"{side.upper()}: " + ", ".join(f"{n} {why}" for why, n in sorted(kinds.items()))
             for side, kinds in sorted(forfeits.items()) if kinds]
    return "; ".join(parts) or "none"


def _seconds(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"


def folder_label(text: str) -> str:
    """``text`` as a folder name: letters and digits kept, the rest ``_``; one
    longer than 80 characters is cut to 71 and given 8 hex digits of its
    digest, so that two long specs that differ near the end stay apart."""
    label = "".join(ch if ch.isalnum() else "_" for ch in text)
    if len(label) <= 80:
        return label
    return label[:71] + "-" + hashlib.sha256(text.encode()).hexdigest()[:8]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", nargs="+", default=["default"],
                    help="the engine(s) under test, player specs; each plays every opponent (ablations)")
    ap.add_argument("--base", metavar="REV", help="add the engine of git revision REV as an opponent")
    ap.add_argument("--opponents", nargs="*", default=["paper", "plain"],
                    help="player specs, one argument each (default: paper plain)")
    ap.add_argument("--games", type=int, default=80, help="games per opponent (pairs: even)")
    ap.add_argument("--move-time", type=float, default=1.0, help="seconds per move for both sides")
    ap.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                    help="stop each match when the SPRT decides")
    ap.add_argument("--openings", default=str(OPENINGS))
    ap.add_argument("--concurrency", type=int, default=None, help="games at once (default: cores)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"), help="where the table goes")
    ap.add_argument("--table", default="strength.md", help="the table's file name in --out")
    ap.add_argument("--games-dir", default=str(ROOT / "bench" / "out" / "strength"),
                    help="where each match's games (JSONL, SGF) go")
    ap.add_argument("--resume", action="store_true",
                    help="continue each match in its latest folder under --games-dir (same settings)")
    args = ap.parse_args(argv)

    try:  # every player is checked before the first game
        own_times = any(own_time(p) is not None for p in [*args.engine, *args.opponents])
        if args.base:
            # all engines over the protocol, each on its own clock: the same overheads on both sides
            players = {e: protocol_player(e, args.move_time, ROOT, e) for e in [*args.engine, *args.opponents]}
            players["base"] = base_player(args.base, args.move_time)
            args.opponents = [*args.opponents, "base"]
        else:
            players = {p: timed_spec(p, args.move_time) for p in [*args.engine, *args.opponents]}
        if not args.opponents:
            raise ValueError("no opponent: name some with --opponents, or --base REV")
        engines = [(e, parse_player(players[e])) for e in args.engine]
        opponents = [(o, parse_player(players[o])) for o in args.opponents]
        openings = load_openings(args.openings)
    except (OSError, ValueError, subprocess.CalledProcessError) as exc:
        ap.error(str(exc))
    if args.games < 1:
        ap.error(f"--games must be at least 1, not {args.games}")
    if args.sprt:
        try:
            SprtParams(*args.sprt)
        except ValueError as exc:
            ap.error(f"--sprt: {exc}")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        ap.error(f"--out {args.out} is a file, not a folder")
    os.makedirs(args.out, exist_ok=True)
    problem = output_problem(os.path.join(args.out, args.table))
    if problem or os.path.basename(args.table) != args.table:
        ap.error(f"--table {args.table!r}: " + (problem or "a file name in --out, not a path"))
    os.makedirs(args.games_dir, exist_ok=True)
    now = datetime.datetime.now()
    stamp = now.strftime("%Y%m%d-%H%M%S")
    print(f"# strength gauntlet: {', '.join(args.engine)} at {args.move_time:g} s/move; {machine()}")
    rows = []
    stopped = None
    with stop_on_sigterm():         # kill PID (or Ctrl-C) ends the run with the table of the games finished
        for (engine, a), (opponent, b) in itertools.product(engines, opponents):
            config = MatchConfig(a=a, b=b, games=args.games, openings=openings,
                                 move_time=None if args.base or own_times else args.move_time,
                                 seed=args.seed, sprt=SprtParams(*args.sprt) if args.sprt else None)
            label = folder_label(f"{engine}-vs-{opponent}")
            earlier = sorted(glob.glob(os.path.join(glob.escape(args.games_dir), f"*-{label}"))) if args.resume else []
            out = earlier[-1] if earlier else os.path.join(args.games_dir, f"{stamp}-{label}")
            t0 = time.perf_counter()
            try:
                match = Match(config, out=out, resume=bool(earlier))
                stats = match.run(concurrency=args.concurrency, progress="plain")
            except (ValueError, OSError) as exc:   # other stored settings, another run's folder, a full disk
                ap.error(f"{out}: {exc}")
            print(format_summary(stats, a.label, b.label))
            elo, lo, hi, _ = stats.elo_estimate()
            shown = b.label if opponent == "base" or opponent.startswith(("cmd:", "py:")) else opponent
            rows.append((engine, shown, stats, elo, lo, hi, time.perf_counter() - t0))
            if match.interrupted:
                stopped = (engine, shown, stats.games, out)
                break

    def fmt(x):
        if math.isnan(x):
            return "-"
        return ("+inf" if x > 0 else "-inf") if math.isinf(x) else f"{round(x):+d}"

    several = len(engines) > 1
    title = "Strength" if several else f"Strength: `{args.engine[0]}`"
    timing = ("at the time per move each player names, else " if own_times else "at ") + f"{args.move_time:g} s per move"
    lines = [f"# {title} {timing}",
             "", f"Measured {now:%Y-%m-%d %H:%M} on {machine()}; openings {os.path.relpath(args.openings, ROOT)}, "
             f"colour-swapped pairs, at most {args.concurrency or os.cpu_count()} at once.", "",
             *([f"**Stopped** during `{stopped[0]}` against `{stopped[1]}`: its row holds the {stopped[2]} games "
                f"finished of {args.games} (games in `{os.path.relpath(stopped[3], ROOT)}`).", ""] if stopped else []),
             "| " + ("engine | " if several else "") + "opponent | games | W-L-D | score | Elo | 95% interval | LOS "
             "| pairs [LL, LD, WL+DD, WD, WW] | black : white wins | s/move (engine : opponent) | forfeits | run time |",
             "|" + "---|" * (12 + several)]
    for engine, opponent, st, elo, lo, hi, secs in rows:
        lines.append("| " + (f"`{engine}` | " if several else "") + f"`{opponent}` | {st.games} | "
                     f"{st.wins}-{st.losses}-{st.draws} | {100 * st.score:.1f}% | {fmt(elo)} | {fmt(lo)} .. {fmt(hi)} | {100 * st.los:.1f}% | {list(st.penta)} | "
                     f"{st.black_wins} : {st.white_wins} | {_seconds(st.mean_time('a'))} : {_seconds(st.mean_time('b'))} | "
                     f"{_forfeits(st.forfeits)} | {secs / 60:.1f} min |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, args.table), "w") as fh:
        fh.write(table)
    print()
    print(table)
    return 130 if stopped else 0


if __name__ == "__main__":
    raise SystemExit(main())
