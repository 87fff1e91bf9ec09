"""Shared helpers of the benchmark scripts: data files, positions, timing."""
from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
try:
    import connect6  # the installed package (pip install .)
except ImportError:
    # not installed: a source checkout built in place (python setup.py build_ext --inplace)
    sys.path.insert(0, str(ROOT))
    import connect6  # noqa: E402
from connect6.records import load_openings, read_games_csv  # noqa: E402

HUMAN_GAMES = ROOT / "tests" / "data" / "human-games.csv"


def output_problem(path: "str | os.PathLike[str]") -> Optional[str]:
    """Why no file can be written at ``path`` (a folder is there, or its folder
    does not exist), or None.  Scripts check it before their work, so that a
    long run does not end in a traceback with nothing written."""
    text = os.fspath(path)
    if not text or os.path.isdir(text):
        return f"{text or repr(text)} is a folder, not a file"
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        return f"{text}: the folder {folder} does not exist"
    return None


def engine_player(spec: str):
    """The player spec of the built-in engine that ``spec`` names."""
    from connect6.match.players import parse_player
    player = parse_player(spec)
    if player.kind != "engine":
        raise SystemExit(f"--engine {spec!r}: a built-in engine's spec is needed (e.g. default:pvs=true)")
    return player


def own_time(text: str) -> Optional[float]:
    """The seconds per move a built-in engine's spec names itself (``default:time=3``), else None."""
    if text.startswith(("cmd:", "py:")):
        return None
    from connect6.options import parse_engine_spec
    return parse_engine_spec(text)[2].time


def timed_spec(text: str, seconds: float) -> str:
    """A built-in engine's player spec with ``seconds`` per move added
    (``default`` -> ``default:time=5``, ``default:width=8`` -> ``default:width=8,time=5``),
    unless it names its own time; ``cmd:`` and ``py:`` players unchanged."""
    if text.startswith(("cmd:", "py:")) or own_time(text) is not None:
        return text
    return f"{text}{',' if ':' in text else ':'}time={seconds:g}"


def human_games():
    return read_games_csv(HUMAN_GAMES)


def position_after(moves, turns: int):
    """The board after the first ``turns`` turns of a game (None if it ended sooner)."""
    board = connect6.Board()
    for m in moves[:turns]:
        board.push(m)
    if board.is_game_over() or len(board.move_stack) < turns:
        return None
    return board


def step_positions(count: int, step: int = 9, skip: int = 0) -> List["connect6.Board"]:
    """``count`` positions where ``step`` is the next turn to play (the paper's
    "step 9" = after 8 turns), from the human games in file order."""
    out = []
    for g in human_games()[skip:]:
        b = position_after(g.moves, step - 1)
        if b is not None:
            out.append(b)
            if len(out) == count:
                break
    return out


def machine() -> str:
    """The machine a figure was measured on; says so when the compiled core is a
    debug build (CONNECT6_DEBUG=1: every turn checked against a full rebuild,
    several times slower), whose timings and strength are not comparable."""
    from engine_core.position import debug_build
    text = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    if debug_build():
        print("warning: the compiled core is a DEBUG build (CONNECT6_DEBUG=1): timings are not comparable; "
              "rebuild with `python setup.py build_ext --inplace --force` or `pip install .`", file=sys.stderr)
        text += ", DEBUG build of the core"
    return text


def median(xs):
    return statistics.median(xs) if xs else float("nan")


# ----------------------------------------------------------------- game positions by step
def long_games(count: int, min_turns: int, skip: int = 0):
    """The first ``count`` human games (after ``skip``) that are still unfinished
    before turn ``min_turns``: ``[(label, moves)]``."""
    out = []
    for g in human_games()[skip:]:
        if len(g.moves) >= min_turns and position_after(g.moves, min_turns - 1) is not None:
            out.append((f"human:{g.game_id}", list(g.moves)))
            if len(out) == count:
                break
    return out


def self_play_games(path, count: int, turns: int, depth: int = 3, width: int = 10):
    """``count`` games from the openings in ``path``: each opening played on by the
    default engine at fixed ``depth`` and ``width`` (deterministic) until ``turns``
    turns or the end of the game: ``[(label, moves)]``."""
    from connect6.records import parse_stone_list, replay

    engine = connect6.make_engine(depth=depth, width=width)
    out = []
    for i, text in enumerate(load_openings(str(path))[:count]):
        board = replay(parse_stone_list(text))
        while len(board.move_stack) < turns and not board.is_game_over():
            board.push(engine.play(board))
        out.append((f"selfplay:{i + 1}", list(board.move_stack)))
    return out


def positions_by_step(games, max_step: int, min_step: int = 1):
    """``[(label, step, board)]``: the position before turn ``step`` (after
    ``step - 1`` turns) of each game, for every step it reaches unfinished."""
    out = []
    for label, moves in games:
        for step in range(min_step, max_step + 1):
            b = position_after(moves, step - 1)
            if b is not None:
                out.append((label, step, b))
    return out


def load_avg() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except (AttributeError, OSError):
        return "load average unknown"


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


NO_PLOT = ("matplotlib is not installed: wrote CSV and markdown only; "
           "for plots: pip install matplotlib  (or pip install \".[bench]\")")


def build_revision(rev: str) -> Tuple[str, Path]:
    """Git revision ``rev`` checked out under bench/out/rev-SHA and its core
    built there in place (once, a release build): (full sha, its tree)."""
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        raise ValueError(f"{rev!r}: not a commit of the git repository at {ROOT}")
    sha = found.stdout.strip()
    where = ROOT / "bench" / "out" / f"rev-{sha[:12]}"
    if not (where / ".built").exists():
        if not where.exists():
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), sha],
                           check=True, capture_output=True)
        print(f"building {rev} ({sha[:12]}) in {where} ...", flush=True)
        built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "--force"], cwd=where,
                               capture_output=True, text=True, env={**os.environ, "CONNECT6_DEBUG": ""})
        if built.returncode != 0:
            raise ValueError(f"{rev}: building its core failed:\n{built.stderr[-2000:]}")
        (where / ".built").touch()
    return sha, where


def measure_in(tree: Path, module: str, call: str) -> dict:
    """``module.call`` (a call of the bench script ``module`` that returns a
    JSON-able dict) evaluated in a fresh interpreter importing the core of
    ``tree`` (a built checkout, or the site-packages of an installed one)."""
    code = (f"import sys; sys.path[:0] = [{str(tree)!r}, {str(ROOT / 'bench')!r}]; import json, {module}; "
            f"print(json.dumps({module}.{call}))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"measuring {tree} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare_builds(module: str, call: str, base, rounds: int, line, base_call: Optional[str] = None) -> None:
    """Print ``line(name, cpu, result)`` for the core this interpreter imports
    (an installed package, or this checkout built in place) and, with ``base``
    (a git revision), for that revision's too (``base_call`` there, default
    ``call``), measured in ``rounds`` alternations so both see the same load;
    then the ratio of the median CPU seconds, whether the node totals match
    (they must when only speed changed) and, when the results list the
    ``moves`` chosen, how many are the same."""
    here = Path(connect6.__file__).resolve().parents[1]     # the build this interpreter imports
    if not base:
        r = measure_in(here, module, call)
        print(line("this tree", r["cpu"], r))
        return
    sha, where = build_revision(base)
    mine, theirs = [], []
    for _ in range(rounds):
        theirs.append(measure_in(where, module, base_call or call))
        mine.append(measure_in(here, module, call))
    cpu_mine = median([r["cpu"] for r in mine])
    cpu_theirs = median([r["cpu"] for r in theirs])
    print(line(sha[:12], cpu_theirs, theirs[0]))
    print(line("this tree", cpu_mine, mine[0]))
    print(f"speed-up: {cpu_theirs / cpu_mine:.2f}x (median CPU of {rounds} alternating rounds)"
          + ("" if mine[0]["nodes"] == theirs[0]["nodes"] else "; node totals differ: the search changed"))
    if "moves" in mine[0]:
        same = sum(a == b for a, b in zip(mine[0]["moves"], theirs[0]["moves"]))
        print(f"same moves: {same} of {len(mine[0]['moves'])}")
