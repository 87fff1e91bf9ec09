"""Tune the evaluation's road weights by what wins games: SPSA over self-play,
or over games against another engine.

Issue 40, part 3.  Fitting the weights to game outcomes failed (Texel,
``change-texel-eval.md``): predicting a result from static features is not
what a search's leaf values are for.  SPSA (simultaneous perturbation
stochastic approximation, as Stockfish's tuning on fishtest uses it) asks the
games instead.  Each iteration draws a random sign for every tuned weight,
builds two engines whose weights differ from the current ones by a factor
exp(+c_k) or exp(-c_k) in those directions, and plays a colour-swapped pair of
games between them from a random opening.  The pair's result R (points of the
"+" engine less those of the "-" engine, -2..2) moves each weight's logarithm
by a_k * (R / 2) * sign / (2 c_k), with the usual gains

    c_k = c / (k + 1) ** 0.101        a_k = a0 * (A + 1) ** 0.602 / (A + k + 1) ** 0.602

(A = a tenth of the iterations).  The weights are tuned as logarithms because
they span six orders of magnitude; f(5) and g(5) follow f(4) and g(4).

``--opponent SPEC`` (a player spec of the match runner, e.g. Cloudict's
``cmd:~/.cache/connect6-peers/cloudict 4``) tunes against that engine instead
of self-play: each iteration the "+" and the "-" engine each play a
colour-swapped pair against it from the same opening, and R is the "+" pair's
points less the "-" pair's (again -2..2).  Self-play learns to beat our own
engine; a change that wins there has often lost against Cloudict
(``tdleaf-1.md``), so this asks an opponent that plays otherwise.

The state (iteration, weights, every pair's result) is written after each
iteration to ``--state``; ``--resume`` goes on from it.  The result is a
candidate, not a default: it must pass the keep tests of
``bench/results/README.md`` like any other change.  Tuning uses its own
openings (``--openings``, default ``data/openings.txt``), never the keep tests'
verified openings or the held-out ones.

    python tools/spsa.py --iterations 400 --move-time 0.2 --concurrency 2 --state bench/out/spsa.json
    python tools/spsa.py --resume --state bench/out/spsa.json --iterations 800
    python tools/spsa.py --spec default:nodes=200000 --move-time 0 --opponent "cmd:$HOME/.cache/connect6-peers/cloudict 4" \
        --iterations 200 --state bench/out/spsa-cloudict.json
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
from _common import output_problem  # noqa: E402  (and connect6: the installed package, else this checkout)

import connect6  # noqa: E402
from connect6.options import Limits, parse_engine_spec  # noqa: E402
from connect6.records import parse_stone_list, replay  # noqa: E402
from connect6.match import GameJob, parse_player  # noqa: E402
from connect6.match import play_game as play_match_game  # noqa: E402
from connect6.records.openings import load_openings  # noqa: E402
from connect6.weights import PAPER, resolve_weights, weights_text  # noqa: E402

#: the weights that can be tuned: (vector, index); index 4 also sets index 5
TUNABLE: Dict[str, Tuple[int, int]] = {"f1": (0, 1), "f2": (0, 2), "f3": (0, 3), "f4": (0, 4),
                                       "g1": (1, 1), "g2": (1, 2), "g3": (1, 3), "g4": (1, 4)}
MAX_TURNS = 180                 # a game this long is scored a draw
HANG = 900.0                    # seconds an opponent without a time control may take for a move


def weights_of(theta: Dict[str, float], base=PAPER) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
    """The (f, g) vectors of the base with the tuned weights put in (rounded, at least 1)."""
    vectors = [list(base[0]), list(base[1])]
    for name, value in theta.items():
        v, i = TUNABLE[name]
        vectors[v][i] = max(1, int(round(value)))
        if i == 4:
            vectors[v][5] = vectors[v][4]
    return tuple(vectors[0]), tuple(vectors[1])


def play_game(black, white, opening: str, move_time: float, depth: int, spec: str) -> Optional[int]:
    """One game between engines of the ``spec`` profile with the weights
    ``black`` and ``white`` ((f, g) each) from ``opening`` (a stone list):
    0 black wins, 1 white wins, None a draw."""
    board = replay(parse_stone_list(opening))
    limits = Limits(depth=depth) if depth else Limits()
    engines = [connect6.make_engine(spec, limits, weights=black), connect6.make_engine(spec, limits, weights=white)]
    while not board.is_game_over() and len(board.move_stack) < MAX_TURNS:
        engine = engines[int(board.turn)]
        result = engine.search(board, time=move_time) if move_time else engine.search(board)
        board.push(result.move)
    outcome = board.outcome()
    return None if outcome is None or outcome.winner is None else int(outcome.winner)


def _game_job(args) -> Optional[int]:
    return play_game(*args)


def our_spec(state: dict, weights) -> str:
    """Our player's spec against the opponent: the state's profile spec with the
    road weights ``weights`` ((f, g)) and its move time or depth, if any (the
    opponent gets no time control: Cloudict cannot take one)."""
    items = [f"weights={weights_text(weights)}"]
    if state["move_time"]:
        items.append(f"time={state['move_time']:g}")
    if state["depth"]:
        items.append(f"depth={state['depth']}")
    spec = state["spec"]
    return f"{spec}{',' if ':' in spec else ':'}{','.join(items)}"


def opponent_jobs(plus, minus, opening: str, state: dict) -> List[GameJob]:
    """The "+" and the "-" engine's colour-swapped pairs against ``state["opponent"]``."""
    them = parse_player(state["opponent"])
    jobs = []
    for n, weights in enumerate((plus, minus)):
        ours = parse_player(our_spec(state, weights))
        for black in (True, False):
            jobs.append(GameJob(game=2 * n + (not black) + 1, pair=n + 1, a=ours, b=them, a_black=black,
                                opening=opening, seed=state["iteration"], hang_timeout=HANG))
    return jobs


def opponent_result(records: Sequence[dict]) -> float:
    """Points of the "+" engine's two games less the "-" engine's (a draw half a point)."""
    points = [1.0 if r["winner"] == "a" else 0.5 if r["winner"] is None else 0.0 for r in records]
    return points[0] + points[1] - points[2] - points[3]


def gains(k: int, iterations: int, c: float, a0: float) -> Tuple[float, float]:
    """(c_k, a_k) of iteration k (0-based)."""
    big_a = 0.1 * iterations
    return c / (k + 1) ** 0.101, a0 * (big_a + 1) ** 0.602 / (big_a + k + 1) ** 0.602


def step(theta: Dict[str, float], signs: Dict[str, int], result: float, c_k: float, a_k: float) -> Dict[str, float]:
    """The weights after a pair whose result (points of "+" less "-") is ``result``."""
    return {name: math.exp(math.log(value) + a_k * (result / 2) * signs[name] / (2 * c_k))
            for name, value in theta.items()}


def perturbed(theta: Dict[str, float], signs: Dict[str, int], c_k: float, sign: int) -> Dict[str, float]:
    return {name: value * math.exp(sign * c_k * signs[name]) for name, value in theta.items()}


def save_state(path: Path, state: dict) -> None:
    """Write the state file whole (a temporary file, then renamed)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(state, indent=1) + "\n")
    os.replace(tmp, path)


def _start_state(args, names: Sequence[str]) -> dict:
    base = resolve_weights(args.base)
    theta = {name: float(base[TUNABLE[name][0]][TUNABLE[name][1]]) for name in names}
    return {"base": args.base, "spec": args.spec, "params": list(names), "theta": theta, "start": dict(theta),
            "iteration": 0, "c": args.c, "a0": args.a0, "move_time": args.move_time, "depth": args.depth,
            "openings": args.openings, "seed": args.seed, "opponent": args.opponent, "pairs": []}


def state_openings(state: dict) -> List[str]:
    """The openings a tuning state names (a path relative to the repository, or absolute)."""
    path = state["openings"]
    return load_openings(path if os.path.isabs(path) else str(ROOT / path))


def run(state: dict, path: Path, iterations: int, concurrency: int, out=print) -> dict:
    """Play SPSA iterations until ``iterations`` are done, saving after each."""
    openings = state_openings(state)
    base = resolve_weights(state["base"])
    with ProcessPoolExecutor(max_workers=max(1, min(2, concurrency))) as pool:
        while state["iteration"] < iterations:
            k = state["iteration"]
            rng = random.Random(f"{state['seed']}:{k}")
            signs = {name: rng.choice((-1, 1)) for name in state["params"]}
            opening = rng.choice(openings)
            c_k, a_k = gains(k, iterations, state["c"], state["a0"])
            plus = weights_of(perturbed(state["theta"], signs, c_k, +1), base)
            minus = weights_of(perturbed(state["theta"], signs, c_k, -1), base)
            if state.get("opponent"):
                result = opponent_result(list(pool.map(play_match_game, opponent_jobs(plus, minus, opening, state))))
            else:
                common = (opening, state["move_time"], state["depth"], state["spec"])
                first, second = pool.map(_game_job, [(plus, minus) + common, (minus, plus) + common])
                result = ((first == 0) - (first == 1) + (second == 1) - (second == 0)) * 1.0
            state["theta"] = step(state["theta"], signs, result, c_k, a_k)
            state["pairs"].append({"k": k, "opening": opening, "signs": signs, "result": result})
            state["iteration"] = k + 1
            save_state(path, state)
            shown = " ".join(f"{n}={v:.1f}" for n, v in state["theta"].items())
            out(f"[{k + 1}/{iterations}] pair {result:+.0f}  {shown}")
    return state


def resumed_or_params(ap: argparse.ArgumentParser, args, path: Path) -> Tuple[Optional[dict], List[str]]:
    """With ``--resume`` (the state saved in ``path``, []); else (None, the
    weights ``--params`` names).  A missing state file to resume, an unknown
    weight, or a state file that exists without ``--resume`` ends the script."""
    if args.resume:
        if not path.exists():
            ap.error(f"--resume: no state file {path}")
        try:
            state = json.loads(path.read_text())
            if not isinstance(state, dict) or not isinstance(state.get("theta"), dict):
                raise ValueError("no tuning state in it")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            ap.error(f"--resume: {path} is not a state file this script wrote ({exc})")
        return state, []
    names = [n.strip() for n in args.params.split(",") if n.strip()]
    unknown = [n for n in names if n not in TUNABLE]
    if unknown or not names:
        ap.error(f"--params: unknown {', '.join(unknown) or '(none)'}; expected some of {', '.join(TUNABLE)}")
    if path.exists():
        ap.error(f"{path} exists: --resume it or choose another --state")
    if output_problem(path):
        ap.error(f"--state: {output_problem(path)}")
    try:
        resolve_weights(args.base)
        load_openings(args.openings if os.path.isabs(args.openings) else str(ROOT / args.openings))
    except (OSError, ValueError) as exc:
        ap.error(f"--base or --openings: {exc}")
    return None, names


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="the state file (JSON), written after every iteration")
    ap.add_argument("--resume", action="store_true", help="go on from --state")
    ap.add_argument("--iterations", type=int, default=400, help="game pairs in all")
    ap.add_argument("--params", default="f2,f3,f4,g2,g3,g4", help="weights tuned, of " + ",".join(TUNABLE))
    ap.add_argument("--base", default="paper", help="the weight set tuning starts from")
    ap.add_argument("--spec", default="default", help="the engine profile both sides use")
    ap.add_argument("--move-time", type=float, default=0.2,
                    help="seconds a move (0: --depth, or the spec's node limit, e.g. default:nodes=60000, "
                         "which makes the games the same on a busy machine)")
    ap.add_argument("--depth", type=int, default=0, help="a fixed depth instead of time (tests)")
    ap.add_argument("--openings", default="data/openings.txt")
    ap.add_argument("--c", type=float, default=0.3, help="perturbation of a weight's logarithm at k = 0")
    ap.add_argument("--a0", type=float, default=0.03, help="step of a logarithm for a won pair at k = 0")
    ap.add_argument("--concurrency", type=int, default=2,
                    help="games at once, at most 2 (an iteration is a pair, or two pairs with --opponent)")
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--opponent", help="a player spec to tune against (default: self-play)")
    args = ap.parse_args(argv)
    path = Path(args.state)
    state, names = resumed_or_params(ap, args, path)
    if state is None:
        try:
            node_limit = parse_engine_spec(args.spec)[2].nodes
        except ValueError as exc:
            ap.error(f"--spec: {exc}")
        if (not (args.move_time > 0 or args.depth > 0 or node_limit) or args.c <= 0 or args.a0 <= 0
                or args.iterations < 1):
            ap.error("need --move-time > 0, --depth > 0 or a --spec with nodes=N; --c > 0, --a0 > 0 "
                     "and --iterations >= 1")
        if args.opponent is not None:
            try:
                parse_player(args.opponent)
            except ValueError as exc:
                ap.error(f"--opponent: {exc}")
        state = _start_state(args, names)
        connect6.make_engine(args.spec, weights=weights_of(state["theta"], resolve_weights(args.base)))
    run(state, path, args.iterations, args.concurrency)
    print("weights:", weights_of(state["theta"], resolve_weights(state["base"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
