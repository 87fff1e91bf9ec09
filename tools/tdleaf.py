"""Tune the road weights toward the search's own values: TD-leaf(lambda) over self-play.

Issue 40, part 3.  Fitting the weights to game outcomes failed (Texel), and
SPSA over game results (``tools/spsa.py``) found the paper's weights near a
flat optimum at 0.2 s.  TD-leaf (Baxter, Tridgell and Weaver's KnightCap, as
NCTU6 tuned its evaluation) asks for something else: that the value a search
gives a position agree with the value it gives the position a turn later, and
the last one with the result.

Each iteration plays ``--games`` self-play games from random openings of
``--openings`` (never the keep tests' verified or held-out ones), both sides
with the current weights at a fixed ``--depth``.  At every turn t the search
gives a value J_t for the side to move and a principal variation; the PV's
last position (the leaf) is where J_t came from, and there

    V_L = sum_n f(n) * live_L(n) - sum_n g(n) * live_O(n)

(L the colour that moved last at the leaf, O the other; live_x(n) its live
roads of n stones) and J_t = +-V_L.  A turn counts only when that holds
exactly (a PV cut short by a table entry, or a value from a threat-space win,
gives no leaf to learn from).  Values are squashed from Black's side,
v_t = tanh(J_t / S) (S = ``--scale``).

The temporal differences are taken along each colour's own turns (as
KnightCap took them along its own moves), not from one turn to the next: a
search to a fixed depth values the side to move consistently high or low by
the parity of its depth (about +360 at depth 3 and -230 at depth 4 on the
first turns of four games), so from one turn to the next the values swing by
that bias and the differences would fit the bias, not the position.  Along
Black's turns and along White's, each ending at the result (+1 Black won, -1
White, 0 drawn), with d_t = v_{t+1} - v_t in that chain, every tuned weight's
logarithm moves along

    sum_t  dv_t/dlog w  *  sum_{j >= t} lambda^(j - t) d_j

summed over both chains and the iteration's games.  The step is that gradient
divided by its running root mean square (each weight apart) times ``--rate``, so that
weights six orders of magnitude apart move alike; f(5) and g(5) follow f(4)
and g(4).  Reported per iteration: the mean squared TD error (sum of d_t^2
a game, the quantity TD-leaf lowers) and the turns used.

The state (weights, every iteration's figures) is written after each
iteration to ``--state``; ``--resume`` goes on from it.  The result is a
candidate, not a default: it must pass the keep tests of
``bench/results/README.md`` like any other change.

    python tools/tdleaf.py --state bench/out/tdleaf.json --iterations 10 --games 32 --depth 4
    python tools/tdleaf.py --resume --state bench/out/tdleaf.json --iterations 20
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
import _common  # noqa: E402,F401  (connect6: the installed package, else this checkout)
sys.path.insert(0, str(Path(__file__).resolve().parent))

import connect6  # noqa: E402
from connect6.engine import WIN_SCORE  # noqa: E402
from connect6.options import Limits  # noqa: E402
from connect6.records import parse_stone_list, replay  # noqa: E402
from connect6.weights import resolve_weights  # noqa: E402
from spsa import MAX_TURNS, TUNABLE, resumed_or_params, save_state, state_openings, weights_of  # noqa: E402

#: one turn's data: (colour to move, J_t, leaf as (sign, live roads of L, of O) or None)
Turn = Tuple[int, int, Optional[Tuple[int, List[int], List[int]]]]


def leaf_value(weights, last: Sequence[int], other: Sequence[int]) -> int:
    """V_L of a leaf from the live-road counts of L (``last``) and of the other colour."""
    f, g = weights
    return sum(f[n] * last[n] - g[n] * other[n] for n in range(1, 7))


def turn_data(board, result, weights) -> Turn:
    """What a turn's search gives TD-leaf: the side to move, its value, and the
    leaf of its principal variation when the value is that leaf's V_L exactly."""
    stm = int(board.turn)
    if abs(result.score) >= WIN_SCORE // 2 or not result.pv:
        return stm, result.score, None
    leaf = board.copy()
    for move in result.pv:
        leaf.push(move)
        if leaf.is_game_over():
            return stm, result.score, None
    last = 1 - int(leaf.turn)
    hl, ho = leaf.position.histogram(last), leaf.position.histogram(1 - last)
    sign = 1 if last == stm else -1
    if sign * leaf_value(weights, hl, ho) != result.score:
        return stm, result.score, None
    return stm, result.score, (sign, hl, ho)


def play_game(weights, opening: str, depth: int, spec: str) -> Tuple[List[Turn], Optional[int]]:
    """A self-play game at ``depth`` with ``weights`` on both sides: its turns'
    data and the winner (0 Black, 1 White, None a draw or no result in MAX_TURNS)."""
    board = replay(parse_stone_list(opening))
    engine = connect6.make_engine(spec, Limits(depth=depth), weights=weights)
    turns: List[Turn] = []
    while not board.is_game_over() and len(board.move_stack) < MAX_TURNS:
        result = engine.search(board)
        turns.append(turn_data(board, result, weights))
        board.push(result.move)
    outcome = board.outcome()
    return turns, None if outcome is None or outcome.winner is None else int(outcome.winner)


def _game_job(args):
    return play_game(*args)


def squashed(stm: int, score: int, scale: float) -> float:
    """A value for the side to move as Black's, in -1..1."""
    black = score if stm == 0 else -score
    if abs(score) >= WIN_SCORE // 2:
        return 1.0 if black > 0 else -1.0
    return math.tanh(black / scale)


def td_gradient(turns: Sequence[Turn], winner: Optional[int], theta: Dict[str, float],
                scale: float, lam: float) -> Tuple[Dict[str, float], float, int]:
    """One game's TD-leaf direction for each tuned weight's logarithm, its sum
    of squared TD errors, and the turns whose leaf it used.  Each colour's turns
    form a chain of their own, ending at the result (see the module's docstring)."""
    final = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
    grad, sq, used = {name: 0.0 for name in theta}, 0.0, 0
    for colour in (0, 1):
        chain = [turn for turn in turns if turn[0] == colour]
        v = [squashed(stm, score, scale) for stm, score, _ in chain] + [final]
        trace = 0.0
        for t in range(len(chain) - 1, -1, -1):
            d = v[t + 1] - v[t]
            sq += d * d
            trace = d + lam * trace                 # sum_{j >= t} lam^(j-t) d_j along the chain
            stm, _, leaf = chain[t]
            if leaf is None:
                continue
            used += 1
            sign, hl, ho = leaf
            dv = (1.0 - v[t] ** 2) / scale * (1 if stm == 0 else -1) * sign     # dv_t / dV_L
            for name in theta:
                vector, n = TUNABLE[name]
                counts = range(n, 6) if n == 4 else (n,)                     # f(5), g(5) follow f(4), g(4)
                dV = sum(hl[k] if vector == 0 else -ho[k] for k in counts)
                grad[name] += dv * dV * theta[name] * trace                  # dV_L / dlog w = w * dV_L / dw
    return grad, sq, used


def run(state: dict, path: Path, iterations: int, concurrency: int, out=print) -> dict:
    """Play TD-leaf iterations until ``iterations`` are done, saving after each."""
    openings = state_openings(state)
    base = resolve_weights(state["base"])
    with ProcessPoolExecutor(max_workers=max(1, concurrency)) as pool:
        while state["iteration"] < iterations:
            k = state["iteration"]
            rng = random.Random(f"{state['seed']}:{k}")
            chosen = [rng.choice(openings) for _ in range(state["games"])]
            weights = weights_of(state["theta"], base)
            games = list(pool.map(_game_job, [(weights, op, state["depth"], state["spec"]) for op in chosen]))
            total, sq, used = {name: 0.0 for name in state["theta"]}, 0.0, 0
            for turns, winner in games:
                grad, err, n = td_gradient(turns, winner, state["theta"], state["scale"], state["lambda"])
                sq, used = sq + err, used + n
                for name in total:
                    total[name] += grad[name]
            for name, g in total.items():
                state["rms"][name] = math.sqrt(0.7 * state["rms"][name] ** 2 + 0.3 * g * g) if state["rms"][name] \
                    else abs(g)
                if state["rms"][name] > 0:
                    state["theta"][name] *= math.exp(state["rate"] * g / state["rms"][name])
            wins = [sum(w == c for _, w in games) for c in (0, 1, None)]
            state["history"].append({"k": k, "gradient": total, "td_error": sq / len(games), "turns_used": used,
                                     "black_white_draw": wins, "theta": dict(state["theta"])})
            state["iteration"] = k + 1
            save_state(path, state)
            shown = " ".join(f"{n}={v:.1f}" for n, v in state["theta"].items())
            out(f"[{k + 1}/{iterations}] td error {sq / len(games):.3f} a game, {used} turns used  {shown}")
    return state


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="the state file (JSON), written after every iteration")
    ap.add_argument("--resume", action="store_true", help="go on from --state")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--games", type=int, default=32, help="self-play games an iteration")
    ap.add_argument("--params", default="f1,f2,f3,g1,g2,g3", help="weights tuned, of " + ",".join(TUNABLE))
    ap.add_argument("--base", default="paper", help="the weight set tuning starts from")
    ap.add_argument("--spec", default="default", help="the engine profile both sides use")
    ap.add_argument("--depth", type=int, default=4, help="turns each search looks ahead")
    ap.add_argument("--scale", type=float, default=600.0, help="S of tanh(J / S)")
    ap.add_argument("--lam", type=float, default=0.7, help="lambda")
    ap.add_argument("--rate", type=float, default=0.08, help="step of a logarithm, in gradient RMS")
    ap.add_argument("--openings", default="data/openings.txt")
    ap.add_argument("--concurrency", type=int, default=2, help="games at once")
    ap.add_argument("--seed", type=int, default=40)
    args = ap.parse_args(argv)
    path = Path(args.state)
    state, names = resumed_or_params(ap, args, path)
    if state is None:
        if not (1 <= args.depth <= 12 and args.games >= 1 and args.iterations >= 1 and args.scale > 0
                and 0 <= args.lam <= 1 and args.rate > 0):
            ap.error("need --depth 1..12, --games >= 1, --iterations >= 1, --scale > 0, --lam 0..1, --rate > 0")
        try:
            base = resolve_weights(args.base)
            connect6.make_engine(args.spec)
        except ValueError as exc:
            ap.error(str(exc))
        theta = {name: float(base[TUNABLE[name][0]][TUNABLE[name][1]]) for name in names}
        state = {"base": args.base, "spec": args.spec, "params": names, "theta": theta, "start": dict(theta),
                 "rms": {name: 0.0 for name in names}, "iteration": 0, "games": args.games, "depth": args.depth,
                 "scale": args.scale, "lambda": args.lam, "rate": args.rate, "openings": args.openings,
                 "seed": args.seed, "history": []}
    run(state, path, args.iterations, args.concurrency)
    print("weights:", weights_of(state["theta"], resolve_weights(state["base"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
