"""Gauntlet against Cloudict (Computer Olympiad gold 2011) through our own runner.

Cloudict cannot be given a time limit: it searches to a fixed depth.  So the
match gives it no move time (only a hang timeout, ``--hang``), gives our
engine ``--time`` seconds per move, and reports each side's mean and longest
time per move: "equal time" means our mean is no more than Cloudict's.

Build Cloudict first: ``bash ../shared/peers/build.sh`` prints the wrapper
(default ``~/.cache/connect6-peers/cloudict``); its engine is run through
``bench/cloudict_exec.sh``, so that a Cloudict that dies (it sometimes
segfaults) loses its game by a crash at once, not by a stall after ``--hang``.
Reported per depth: W-L-D,
score, Elo with its 95% interval, pentanomial pair counts, results by our
colour, the time per move of both sides, and the games each side lost by
forfeit (a crash, a stall past ``--hang``, an illegal move...; the W-L-D
counts them, as cutechess does, so "over the board" is the score without
them).  The table goes to
``--out``/``--table`` (default bench/results/cloudict.md); games to
``--games-dir``.

    python bench/cloudict.py --depths 4 5 6 --games 40 --time 3 \\
        [--engine default] [--cloudict ~/.cache/connect6-peers/cloudict] [--openings FILE [FILE ...]]

``--pool DIR [DIR ...]`` plays nothing: it reads the match folders of earlier
runs with the same two players (the folders under ``--games-dir``, e.g.
``bench/out/cloudict/d5-default-t6.5``) and prints their games as one row,
each run's pairs kept apart, with a row per run above it.  Players are the
same when the current build resolves their specs to the same engine, so a
candidate's run (``default:tt_parity=true``) pools with the default's once the
candidate is the default.  ``--pairs DIR [DIR ...]`` prints each opening pair's
results in each run (the players may differ, the openings may not) and counts
the games whose result differs: on a fixed opening set a run against this
deterministic opponent is close to a replay, so the games that change are what
a change did.  Each later run is compared with the first game by game: how
many results got better and how many worse, with the two-sided sign test's p
over those changed games, and turn by turn: how many games are the same to
the last stone, and the turn where each other game's moves part.

``--memo DIR [DIR ...]`` puts Cloudict behind ``bench/memo_engine.py``: where a
game reaches a position Cloudict (at the same depth) answered in the game
records under those folders, or earlier in the same match folder when it is
resumed, the recorded reply is played at once; elsewhere Cloudict itself
answers.  Cloudict keeps nothing between moves and reads no clock, so its
reply is a function of the position (the memo refuses records that answer
one position two ways), and a keep test whose games mostly follow an earlier
run's moves costs about half the time.  The memo is saved in the match folder
(``memo.json``); the table, ``--pool`` and ``--pairs`` give Cloudict's turns from
the memo the seconds they took when computed, while the records keep the
seconds they took in the match.

Before each depth's games (unless ``--no-calibrate``) the script times, one
process at a time, Cloudict at that depth and our ``connect6 bench`` on the
same fixed positions (``connect6.benchmark.BENCH_POSITIONS``) and writes both
into the table.  Cloudict's seconds tell the machine (Cloudict does not
change; it ran twice as fast on one machine as on others while our engine's
speed did not change), so "equal time" results compare only between runs
whose Cloudict times agree; our bench's seconds tell the build on it.

``--self`` plays Cloudict against itself at each of ``--depths``, one game on
each of the first ``--games`` / 2 openings (the openings of the gauntlet's
pairs; Cloudict is deterministic, so the colour-swapped game would be the same
game), and writes which colour wins each: where our engine loses a pair's game
with the colour that loses it here too, Cloudict in our place would have lost
it as well.  Games go to ``--games-dir``/``self-dD``; ``--resume`` plays only
the openings that folder has no game of.  ``--against-self MATCH SELF`` plays
nothing: for each game our engine lost in the match folder MATCH it prints
whether Cloudict's own game from that opening (the ``--self`` folder SELF, same
depth) wins the side we lost, and the turn where our game leaves it: whose
turn, our move and Cloudict's (a turn's two stones in either order are the
same turn, here and in ``--pairs``).
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import re
import shlex
import sys
import time
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import List

from _common import ROOT, machine, own_time, timed_spec
from memo_engine import MEMO_FILE, build_memo, folder_memo, with_memo_times

from connect6.benchmark import BENCH_POSITIONS, run as run_bench
from connect6.board import Board
from connect6.match import (
    GameJob, Match, MatchConfig, format_summary, load_openings, parse_player, play_game, stop_on_sigterm,
)
from connect6.match.stats import compute_stats
from connect6.match.store import ResultsDir, keep_record, write_file_atomic

OPENINGS = ROOT / "data" / "openings-verified.txt"
CLOUDICT = Path.home() / ".cache" / "connect6-peers" / "cloudict"
MEMO_SCRIPT = Path(__file__).resolve().parent / "memo_engine.py"
EXEC_SCRIPT = Path(__file__).resolve().parent / "cloudict_exec.sh"


def cloudict_command(wrapper: str, depth: int) -> List[str]:
    """The command that runs Cloudict at ``depth``.  build.sh's ``wrapper`` (its
    engine is cloudict.d/gameEngine beside it) outlives an engine that dies, so
    its engine is run through bench/cloudict_exec.sh instead, where the engine is
    the process the match talks to; any other wrapper is run as it is."""
    engine_dir = Path(os.path.abspath(wrapper)).parent / "cloudict.d"
    if (engine_dir / "gameEngine").is_file():
        return ["bash", str(EXEC_SCRIPT), str(engine_dir), str(depth)]
    return [wrapper, str(depth)]


def opponent(spec: str) -> str:
    """Cloudict's player spec as runs are compared: without the memo in front
    of it (see --memo), and build.sh's engine run through bench/cloudict_exec.sh
    named by build.sh's wrapper, as runs before that launcher named it."""
    if "memo_engine.py" in spec and " -- " in spec:
        spec = f"cmd:{spec.split(' -- ', 1)[1]}"
    words = shlex.split(spec[4:]) if spec.startswith("cmd:") else []
    if len(words) == 4 and words[0] == "bash" and words[1].endswith("/" + EXEC_SCRIPT.name):
        return f"cmd:{shlex.quote(str(Path(words[2]).parent / 'cloudict'))} {words[3]}"
    return spec


def cloudict_player(args, depth: int, out: str):
    """Cloudict at ``depth`` as the match's player b; with ``--memo``, behind
    bench/memo_engine.py with a memo of its replies in the records under the
    --memo folders and ``out`` (the match's own, when resumed), read from
    ``out``/memo.json -> (the player spec, the memo or None).  The caller
    writes the memo there (:func:`write_memo`) once the match has accepted
    the folder: a run it refuses must leave another run's folder as it was."""
    label = f"cloudict-d{depth}"
    command = shlex.join(cloudict_command(args.cloudict, depth))
    if not args.memo:
        return parse_player(f"cmd:{command}").with_label(label), None
    try:
        memo = build_memo([*args.memo, out], label)
    except (OSError, ValueError, KeyError) as exc:
        raise SystemExit(f"--memo: {exc}") from None
    path = os.path.join(out, MEMO_FILE)
    print(f"# memo: {len(memo['replies'])} replies of {label} from {', '.join(args.memo)}", flush=True)
    spec = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(MEMO_SCRIPT))} {shlex.quote(path)} -- {command}"
    return parse_player(spec).with_label(label), memo


def write_memo(memo, out: str) -> None:
    """``out``/memo.json, which the memo player of :func:`cloudict_player` reads."""
    os.makedirs(out, exist_ok=True)
    write_file_atomic(os.path.join(out, MEMO_FILE), json.dumps(memo))


def by_colour(records):
    """Our (player a's) wins-losses-draws with black and with white."""
    tally = {"black": [0, 0, 0], "white": [0, 0, 0]}
    for r in records:
        k = 0 if r["winner"] == "a" else (1 if r["winner"] == "b" else 2)
        tally[r["a_color"]][k] += 1
    return {c: "-".join(map(str, v)) for c, v in tally.items()}


def row(depth, engine, stats, records, secs):
    elo, lo, hi, _ = stats.elo_estimate()
    colour = by_colour(records)

    def fmt(x):
        return "-" if x != x else (("+inf" if x > 0 else "-inf") if abs(x) == float("inf") else f"{round(x):+d}")

    def tm(side):
        return f"{stats.mean_time(side):.2f} / {stats.move_times[side][2]:.1f}" if stats.move_times[side][0] else "-"

    def lost(side):
        return stats.forfeit_summary(side) or "0"
    return (f"| {depth} | `{engine}` | {stats.games} | {stats.wins}-{stats.losses}-{stats.draws} | "
            f"{100 * stats.score:.1f}% | {fmt(elo)} ({fmt(lo)} .. {fmt(hi)}) | {list(stats.penta)} | "
            f"{colour['black']} | {colour['white']} | {tm('a')} | {tm('b')} | "
            f"{'-' if secs is None else f'{secs / 60:.0f} min'} | {lost('a')} / {lost('b')} |")


HEADER = ["| Cloudict depth | ours | games | W-L-D | score | Elo (95%) | pairs [LL, LD, WL+DD, WD, WW] "
          "| ours as black W-L-D | ours as white W-L-D | our s/move | Cloudict s/move | run time "
          "| games lost by forfeit, ours / Cloudict's |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]


def read_runs(folders, flag):
    """[(folder, match.json, finished games)] of earlier runs' match folders; a
    folder that is not one, or cannot be read, ends the script naming it."""
    runs = []
    for folder in folders:
        results = ResultsDir(folder)
        try:
            config = results.read_config()
            records = results.read_games()
        except (OSError, ValueError) as exc:
            raise SystemExit(f"{flag}: {folder} cannot be read: {exc}")
        if config is None:
            raise SystemExit(f"{flag}: {folder} holds no match.json: not a match folder")
        if not isinstance(config, dict) or not isinstance(config.get("a"), str) or not isinstance(config.get("b"), str):
            raise SystemExit(f"{flag}: {folder}/match.json does not name the two players (a, b)")
        if not records:
            raise SystemExit(f"{flag}: {folder} holds no finished game")
        for r in records:           # what the tables read beyond the fields every record has
            times = r.get("times", r.get("moves"))         # times, when a record has them, one a move
            if (r.get("a_color") not in ("black", "white") or not isinstance(r.get("moves"), list)
                    or not isinstance(times, list) or len(times) != len(r["moves"])):
                raise SystemExit(f"{flag}: {folder}, game {r.get('game')}: not a record of this runner "
                                 "(it needs a_color, and moves and times of one length)")
        try:        # Cloudict's turns from a memo take the time they took to compute
            memo = folder_memo(folder)
            if memo is not None:
                records = with_memo_times(records, memo)
        except (OSError, ValueError, KeyError) as exc:
            raise SystemExit(f"{flag}: {os.path.join(folder, MEMO_FILE)} cannot be read: {exc}")
        runs.append((folder, config, records))
    return runs


def resolved(spec: str):
    """A player spec as the current build reads it, every field but its text and
    label: two specs that differ only in how they say it resolve alike."""
    return dataclasses.replace(parse_player(spec), text="", label="")


def exact_name(record):
    """The name our engine gave in a game record when it says the build and
    options (``connect6-VERSION PROFILE[:...] (bench N)``), else None (records
    from before 2fd79fb name less)."""
    names, colour = record.get("names"), record.get("a_color")
    name = names.get(colour) if isinstance(names, dict) and isinstance(colour, str) else None
    return name if isinstance(name, str) and name.startswith("connect6-") and "(bench " in name else None


def exact_names(records) -> set:
    """The exact names (see exact_name) our engine gave in ``records``."""
    return {exact_name(r) for r in records} - {None}


#: match.json's settings that decide how a game is played or forfeited: pooled runs share them
PLAY_SETTINGS = ("move_time", "game_time", "time_margin", "hang_timeout")


def pool(folders) -> str:
    """One table of the games in the match ``folders`` (the same two players, as
    the current build resolves their specs: ``default:tt_parity=true`` pools with
    ``default`` once that is the default; and where the games record our
    engine's build and options, the same in every game): a row per run, then all
    of them as one match, each run's pairs numbered apart."""
    real = [os.path.realpath(f) for f in folders]
    twice = sorted({f for f, r in zip(folders, real) if real.count(r) > 1})
    if twice:
        raise SystemExit(f"--pool: {', '.join(twice)} given twice: its games would count twice")
    runs = read_runs(folders, "--pool")
    for key in PLAY_SETTINGS:
        values = {json.dumps(c.get(key)) for _, c, _ in runs}
        if len(values) > 1:
            raise SystemExit(f"--pool: the folders' games were played with different {key}: "
                             + "; ".join(f"{f}: {c.get(key)!r}" for f, c, _ in runs))
    try:
        players = {(resolved(c["a"]), resolved(opponent(c["b"]))) for _, c, _ in runs}
    except ValueError as exc:
        raise SystemExit(f"--pool: a folder's player cannot be read: {exc}")
    if len(players) > 1:
        raise SystemExit("--pool: the folders hold matches of different players: "
                         + "; ".join(f"{f}: {c['a']} against {c['b']}" for f, c, _ in runs))
    played = {f: exact_names(records) for f, _, records in runs}
    if len(set().union(*played.values())) > 1:
        raise SystemExit("--pool: our engine played as different builds or settings: "
                         + "; ".join(f"{f}: {', '.join(sorted(n))}" for f, n in played.items() if n))
    a, b = runs[0][1]["a"], runs[0][1]["b"]
    depth = b.split()[-1]
    lines, pooled, offset = list(HEADER), [], 0
    for folder, config, records in runs:
        lines.append(row(depth, f"{config['a']} ({folder})", compute_stats(records), records, None))
        pooled += [dict(r, pair=r["pair"] + offset) for r in records]
        offset += max(r["pair"] for r in records)
    lines.append(row(depth, f"{a}, {len(runs)} runs pooled", compute_stats(pooled), pooled, None))
    note = ("" if len({c["a"] for _, c, _ in runs}) == 1 else
            "\nThe runs name our player differently; the current build resolves the names to the same "
            "engine.\n")
    unnamed = [f for f, _, records in runs if any(exact_name(r) is None for r in records)]
    if unnamed:
        note += ("\nSome games of " + ", ".join(unnamed) + " do not record our engine's build and options "
                 "(games played before 2fd79fb name only its profile): for those only the specs were compared.\n")
    return "\n".join(lines) + "\n" + note


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven
    when a changed game is as likely to go either way."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def pair_results(folders) -> str:
    """Each opening pair's results in each run (players may differ, openings may
    not): our result as Black then as White, W, L or D (``.``: not played), and
    the pairs whose results differ between the runs."""
    runs = read_runs(folders, "--pairs")
    openings = {}
    for folder, config, _ in runs:
        for i, opening in enumerate(config.get("pair_openings") or []):
            if openings.setdefault(i + 1, opening) != opening:
                raise SystemExit(f"--pairs: pair {i + 1} of {folder} opens with {opening}, "
                                 f"another run's with {openings[i + 1]}: not the same openings")
    pairs = sorted({r["pair"] for _, _, records in runs for r in records})
    lines = ["| run | " + " | ".join(map(str, pairs)) + " |", "|---" * (len(pairs) + 1) + "|"]
    seen, played = [], []
    for folder, config, records in runs:
        got = {(r["pair"], r["a_color"]): "W" if r["winner"] == "a" else ("L" if r["winner"] == "b" else "D")
               for r in records}
        played.append({(r["pair"], r["a_color"]): r.get("moves") for r in records})
        cells = [got.get((p, "black"), ".") + got.get((p, "white"), ".") for p in pairs]
        seen.append(cells)
        lines.append(f"| `{config['a']}` ({folder}) | " + " | ".join(cells) + " |")
    differs = [[len({c[i][k] for c in seen} - {"."}) > 1 for k in (0, 1)] for i in range(len(pairs))]
    lines.append("| differ | " + " | ".join("*" if any(d) else "" for d in differs) + " |")
    out = "\n".join(lines) + f"\n\nGames whose result differs between the runs: {sum(map(sum, differs))}.\n"
    rank = {"L": 0, "D": 1, "W": 2}
    for (folder, config, _), cells, moves in list(zip(runs, seen, played))[1:]:
        # each later run against the first, on the games both played: results, then turns
        better = worse = 0
        for first, later in zip(seen[0], cells):
            for k in (0, 1):
                if first[k] in rank and later[k] in rank:
                    better += rank[later[k]] > rank[first[k]]
                    worse += rank[later[k]] < rank[first[k]]
        name = f"`{config['a']}` ({folder})"
        out += (f"{name} against the first run: {better} game(s) better, {worse} worse; "
                f"sign test p = {sign_test(better, worse):.3f} (two-sided).\n")
        out += parting(played[0], moves, name)
    return out


def _stones(turn: str) -> frozenset:
    """A recorded turn's cells (``k7k8``: k7 and k8), in either order."""
    return frozenset(re.findall(r"[a-z]\d+", turn))


def first_difference(one: list, other: list) -> int | None:
    """The turn at which two games' turns first differ, counted as the records'
    ``moves`` and the loss tools count them (0: Black's first stone), a game
    that ends earlier differing at the turn it lacks; None when they are turn
    for turn the same.  A turn's two stones may come in either order."""
    for turn, (a, b) in enumerate(zip(one, other)):
        if a != b and _stones(a) != _stones(b):
            return turn
    return None if len(one) == len(other) else min(len(one), len(other))


def parting(first: dict, later: dict, name: str) -> str:
    """One line: of the games both runs played (and recorded the turns of), how
    many are turn for turn the same, and for each other game (pair, then B or W
    for our colour) the turn where the later run's moves leave the first's."""
    both = sorted(k for k in first.keys() & later.keys() if first[k] and later[k])
    if not both:
        return ""
    parts = [(k, first_difference(first[k], later[k])) for k in both]
    apart = [f"{p}{colour[0].upper()} {turn}" for (p, colour), turn in parts if turn is not None]
    return (f"{name} against the first run, turn for turn: {len(both) - len(apart)} of {len(both)} games the same"
            + (f"; the others part at (pair, our colour, turn from 0) {', '.join(apart)}" if apart else "") + ".\n")


def _self_games(folder: str) -> tuple:
    """(depth, {opening: record}) of a ``--self`` folder; one that is not ends the script naming it."""
    results = ResultsDir(folder)
    try:
        config, records = results.read_config(), results.read_games()
    except (OSError, ValueError) as exc:
        raise SystemExit(f"--against-self: {folder} cannot be read: {exc}")
    if not isinstance(config, dict) or not isinstance(config.get("depth"), int) or "self" not in config:
        raise SystemExit(f"--against-self: {folder} is not a folder of Cloudict against itself (--self)")
    return config["depth"], {r["opening"]: r for r in records if isinstance(r.get("opening"), str)}


def against_self(match: str, self_folder: str) -> str:
    """Each game our engine lost in the match folder ``match``, against
    Cloudict's own game from the same opening (``self_folder``, written by
    ``--self`` at the same depth): whether Cloudict's play wins the side we
    lost, and the turn where our game leaves its game (our move there and
    Cloudict's), counted in our turns out of the opening."""
    (_, config, records), = read_runs([match], "--against-self")
    depth, own = _self_games(self_folder)
    them = {str(r.get("white") if r.get("a_color") == "black" else r.get("black")) for r in records}
    if them != {f"cloudict-d{depth}"}:
        raise SystemExit(f"--against-self: {match} plays {', '.join(sorted(them))}, "
                         f"{self_folder} is Cloudict depth {depth} against itself")
    lines = [f"Our losses in {match} (`{config['a']}`) against Cloudict depth {depth}'s own game from the same "
             f"opening ({self_folder}); turns counted from 0 (Black's first stone):", "",
             "| game | pair | ours | Cloudict's own game | parts at turn | whose turn | our move | Cloudict's |",
             "|---:|---:|---|---|---:|---|---|---|"]
    lost = sorted((r for r in records if r["winner"] == "b"), key=lambda r: r["game"])
    takeable = firsts = 0
    for r in lost:
        mine = r.get("a_color")
        g = own.get(r.get("opening"))
        if g is None:
            lines.append(f"| {r['game']} | {r['pair']} | {mine} | not played | | | | |")
            continue
        wins = g["result"] == mine
        takeable += wins
        ours, its = r.get("moves") or [], g.get("moves") or []
        turn = first_difference(ours, its)
        if turn is None or turn >= min(len(ours), len(its)):
            lines.append(f"| {r['game']} | {r['pair']} | {mine} | {'wins' if wins else 'loses'} this side "
                         f"| {turn if turn is not None else '-'} | (a game ends) | | |")
            continue
        first = 1 + len(g["opening"].split(",")) // 2         # the opening's turns (a half turn counts)
        whose = "black" if turn % 2 == 0 else "white"
        if whose == mine:
            nth = len([t for t in range(first, turn + 1) if (t % 2 == 0) == (mine == "black")])
            firsts += wins and nth == 1
            whose = f"ours, our {_ordinal(nth)} out of the opening"
        else:
            whose = "Cloudict's"
        lines.append(f"| {r['game']} | {r['pair']} | {mine} | {'wins' if wins else 'loses'} this side | {turn} "
                     f"| {whose} | {ours[turn]} | {its[turn]} |")
    lines += ["", f"{len(lost)} games lost; {takeable} on sides Cloudict's own play wins ({firsts} of them "
              f"part from its game at our first turn out of the opening), "
              f"{sum(g.get('opening') in own for g in lost) - takeable} on sides it loses too.", ""]
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def calibrate(cloudict: str, depth: int, hang: float) -> str:
    """One line for the table: the seconds Cloudict at ``depth`` takes over the
    bench positions (one move each) and the seconds our ``connect6 bench``
    takes over the same positions, measured one after the other."""
    from connect6.protocol import EngineError, ProtocolEngine
    ours = run_bench()
    spent = 0.0
    try:
        with ProtocolEngine.popen(cloudict_command(cloudict, depth), timeout=60.0) as engine:
            for _, moves in BENCH_POSITIONS:
                t0 = time.perf_counter()
                engine.play(Board(moves), time_limit=hang)
                spent += time.perf_counter() - t0
    except EngineError as exc:
        raise SystemExit(f"calibration: Cloudict depth {depth} failed: {exc}") from None
    return (f"Calibration (before the games, one process at a time, the {len(BENCH_POSITIONS)} `connect6 bench` "
            f"positions): Cloudict depth {depth} {spent:.2f} s, our `connect6 bench` {ours['time_s']:.2f} s "
            f"({ours['nodes'] / ours['time_s']:,.0f} nodes/s).")


def all_openings(paths: List[str]) -> List[str]:
    """The openings of the files ``paths``, one file's after another's; a file
    that cannot be read or holds a broken opening ends the run, named."""
    try:
        return [opening for path in paths for opening in load_openings(path)]
    except (OSError, ValueError) as exc:    # both name the file (and a broken opening's line)
        raise SystemExit(f"--openings: {exc}") from None


def named(paths: List[str]) -> str:
    """The opening files as a table names them."""
    return " + ".join(os.path.relpath(path, ROOT) for path in paths)


def self_play(args, depth: int):
    """Cloudict at ``depth`` against itself on the first ``--games`` / 2 openings
    (see the module's docstring) -> (a table row per opening and the winning
    colours counted, whether Ctrl-C or SIGTERM stopped it)."""
    spec = parse_player(f"cmd:{shlex.join(cloudict_command(args.cloudict, depth))}").with_label(f"cloudict-d{depth}")
    openings = all_openings(args.openings)[:max(1, args.games // 2)]
    store = ResultsDir(os.path.join(args.games_dir, f"self-d{depth}"))
    if store.holds_games() and not args.resume:
        raise SystemExit(f"{store.out} already holds games: --resume to continue it, or another --games-dir")
    done = {r["pair"]: r for r in store.read_games()}
    for pair, record in done.items():
        if pair > len(openings) or record.get("opening") != openings[pair - 1]:
            raise SystemExit(f"{store.out}: its game {pair} opens with {record.get('opening')}, "
                             f"not with opening {pair} of {named(args.openings)}: another opening set")
    try:
        store.open({"self": spec.text, "depth": depth, "openings": openings})
    except (ValueError, OSError) as exc:
        raise SystemExit(str(exc)) from None
    stop = threading.Event()        # set on Ctrl-C or SIGTERM: the games stop before their next turn
    jobs = [GameJob(game=i + 1, pair=i + 1, a=spec, b=spec, a_black=True, opening=op, seed=args.seed,
                    hang_timeout=args.hang, stop=stop) for i, op in enumerate(openings) if i + 1 not in done]
    with stop_on_sigterm(), ThreadPoolExecutor(args.concurrency) as workers:
        try:
            for future in as_completed([workers.submit(play_game, job) for job in jobs]):
                record = future.result()
                if record is not None:
                    keep_record(done, store, record)
                    print(f"pair {record['pair']}: {record['result']} ({record['termination']}, "
                          f"{len(record['moves'])} turns)", flush=True)
        except KeyboardInterrupt:
            stop.set()
        finally:
            store.close()
    lines = [f"### Cloudict depth {depth} against itself", "", "| pair | opening | winner | turns | how |",
             "|---:|---|---|---:|---|"]
    for pair in sorted(done):
        r = done[pair]
        lines.append(f"| {pair} | {r['opening']} | {r['result']} | {len(r['moves'])} | {r['reason']} |")
    wins = {c: sum(r["result"] == c for r in done.values()) for c in ("black", "white", "draw")}
    lines += ["", f"Black wins {wins['black']}, White {wins['white']}, drawn {wins['draw']}, "
              f"of {len(done)} openings ({named(args.openings)})"
              + (f"; **stopped** with {len(openings) - len(done)} not played (`--resume` plays them)."
                 if stop.is_set() else "."), ""]
    return "\n".join(lines), stop.is_set()


def self_tables(args) -> int:
    """``--self``: Cloudict against itself at each depth; the tables go to
    ``--out``/``--table``.  130 when stopped (Ctrl-C, SIGTERM), else 0."""
    parts, stopped = [f"# Cloudict against itself; {machine()}\n"], False
    for depth in args.depths:
        text, stopped = self_play(args, depth)
        parts.append(text)
        if stopped:
            break
    table = "\n".join(parts)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, args.table), "w") as fh:
        fh.write(table)
    print(table, end="")
    return 130 if stopped else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depths", nargs="+", type=int, default=[4, 5, 6])
    ap.add_argument("--engine", default="default", help="our player spec (a built-in profile)")
    ap.add_argument("--time", type=float, default=3.0, help="our seconds per move")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--cloudict", default=str(CLOUDICT), help="the wrapper build.sh printed")
    ap.add_argument("--hang", type=float, default=300.0, help="seconds Cloudict may take for one move")
    ap.add_argument("--openings", nargs="+", metavar="FILE", default=[str(OPENINGS)],
                    help="opening files, their openings played in turn (a pair each)")
    ap.add_argument("--concurrency", type=int, default=1, help="games at once (default 1: timing is fair)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true", help="continue the matches in --games-dir")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    ap.add_argument("--table", default="cloudict.md")
    ap.add_argument("--games-dir", default=str(ROOT / "bench" / "out" / "cloudict"))
    ap.add_argument("--pool", nargs="+", metavar="DIR", help="print earlier runs' match folders as one")
    ap.add_argument("--pairs", nargs="+", metavar="DIR", help="print each opening pair's results in earlier runs")
    ap.add_argument("--self", action="store_true", help="Cloudict against itself, one game an opening")
    ap.add_argument("--against-self", nargs=2, metavar=("MATCH", "SELF"),
                    help="our lost games in the match folder MATCH against Cloudict's own games from the same "
                         "openings (a --self folder of the same depth): print where each left its game")
    ap.add_argument("--memo", nargs="+", metavar="DIR",
                    help="answer Cloudict's turns in positions it answered in these folders' game records "
                         "from those records (bench/memo_engine.py); it is deterministic")
    ap.add_argument("--no-calibrate", dest="calibrate", action="store_false",
                    help="skip timing Cloudict and our bench on fixed positions before each depth's games")
    args = ap.parse_args(argv)
    if args.pool or args.pairs or args.against_self:
        print(pool(args.pool) if args.pool else pair_results(args.pairs) if args.pairs
              else against_self(*args.against_self), end="")
        return 0
    if not os.access(args.cloudict, os.X_OK):
        ap.error(f"{args.cloudict} is not an executable: build it with ../shared/peers/build.sh")
    if args.self:
        return self_tables(args)
    seconds = own_time(args.engine)
    if seconds is not None:                 # default:time=8 plays at 8 s: the table and folder say so
        args.time = seconds
    spec = timed_spec(args.engine, args.time)
    ours = parse_player(spec)
    openings = all_openings(args.openings)
    now = datetime.datetime.now()
    print(f"# {args.engine} at {args.time:g} s/move against Cloudict; {machine()}")
    rows, played, calibrations = [], set(), []
    stopped = None
    with stop_on_sigterm():         # kill PID (or Ctrl-C) ends the run with the table of the games finished
        for depth in args.depths:
            label = f"d{depth}-{args.engine}-t{args.time:g}".replace(":", "_").replace("/", "_")   # weights hold '/'
            out = os.path.join(args.games_dir, label)
            them, memo = cloudict_player(args, depth, out)
            if args.calibrate:
                calibrations.append(calibrate(args.cloudict, depth, args.hang))
                print(calibrations[-1], flush=True)
            config = MatchConfig(a=ours, b=them, games=args.games, openings=openings, move_time=None,
                                 hang_timeout=args.hang, seed=args.seed)
            t0 = time.perf_counter()
            try:
                match = Match(config, out=out, resume=args.resume)
                if memo is not None:
                    write_memo(memo, out)
                stats = match.run(concurrency=args.concurrency, progress="plain")
            except (ValueError, OSError) as exc:    # another run's folder, other settings, a full disk
                raise SystemExit(f"{out}: {exc}") from None
            records = match.results()   # the games asked for: a resumed folder may hold more
            if memo is not None:        # Cloudict's time: what its replies took to compute
                records = with_memo_times(records, memo)
                stats = compute_stats(records)
            print(format_summary(stats, ours.label, them.label))
            rows.append(row(depth, spec, stats, records, time.perf_counter() - t0))
            played |= exact_names(records)
            if match.interrupted:
                stopped = (depth, stats.games)
                break
    lines = [f"# Against Cloudict: `{args.engine}` at {args.time:g} s per move", "",
             f"Measured {now:%Y-%m-%d %H:%M} on {machine()}; openings {named(args.openings)}, "
             f"colour-swapped pairs, {args.concurrency} game(s) at once; Cloudict at a fixed depth "
             f"(no time limit, hang timeout {args.hang:g} s).  Time per move: mean / longest, seconds.", "",
             *([f"**Stopped** during the depth-{stopped[0]} match: its row holds the {stopped[1]} games "
                f"finished of {args.games} (`--resume` with the same `--games-dir` continues it).", ""]
               if stopped else []),
             *(c for cal in calibrations for c in (cal, "")),
             *HEADER] + rows
    if played:      # what played, as the game records name it (a resumed run may mix builds)
        lines += ["", "Our engine as the games record it: " + "; ".join(f"`{n}`" for n in sorted(played))
                  + ("  **More than one: this run mixes builds or settings.**" if len(played) > 1 else "")]
    table = "\n".join(lines) + "\n"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, args.table), "w") as fh:
        fh.write(table)
    print(table)
    return 130 if stopped else 0


if __name__ == "__main__":
    raise SystemExit(main())
