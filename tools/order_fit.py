"""How well do pair-ordering weights predict the moves strong players chose?

The search keeps the best ``width`` pairs (12) by pair score, so a good
move that ranks lower is never searched, for us or for the opponent.  This
script measures, over the quiet positions of some games (no road of four or
five stones on the board, a turn of two stones, after the opening), how often
the pair played ranks first and within the best 12 under a weight set, and
with ``--fit`` finds the weights that predict one source's moves best.

A pair's score is exactly ``f . d_own - g . d_opp`` (checked by the test),
where ``d_own`` and ``d_opp`` are the changes the pair makes to the mover's and
the opponent's live-road histograms (1-5 stones), so each candidate is those
10 numbers.  The candidates of a position are the engine's best
``--candidates`` pairs by the paper's weights, plus the pair played when it is
not among them; ranks are within that set.  The fit is a conditional logit
(softmax over the candidates, Newton's method) on the 8 weights quiet
positions show (the opponent has no road of four or five to change).

Sources: ``--human N`` (the first N games of tests/data/human-games.csv) and
``--records PATH:PLAYER`` (a match's games.jsonl, or a folder searched for
them; PLAYER ``a`` or ``b`` of those matches).

    python tools/order_fit.py --human 2000 --records bench/results/games:a \\
        --records bench/results/games:b --fit 0 --fit 1
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterator, List, Sequence, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
import _common  # noqa: E402,F401  (connect6: the installed package, else this checkout)

import connect6  # noqa: E402
from connect6.match import read_results  # noqa: E402
from connect6.records import read_games_csv  # noqa: E402
from connect6.weights import resolve_weights, weights_text  # noqa: E402
from engine_core.movegen import best_moves  # noqa: E402
from engine_core.position import scan_code  # noqa: E402
from first_loss import player_colour  # noqa: E402  (tools/ is on the path of a script run from it)

HUMAN = ROOT / "tests" / "data" / "human-games.csv"
INCREMENTAL = scan_code("incremental")
TOP = 12                # the default's width


def features(pos, a: int, b: int) -> List[int]:
    """The changes pair (a, b) of the side to move makes to both sides' live-road
    histograms: [d_own(1..5), d_opp(1..5)]."""
    me = pos.to_move
    before = pos.histogram(me), pos.histogram(1 - me)
    pos.push_move(a, b)
    after = pos.histogram(me), pos.histogram(1 - me)
    pos.pop_turn()
    return [after[s][n] - before[s][n] for s in (0, 1) for n in range(1, 6)]


def quiet(board: connect6.Board) -> bool:
    pos = board.position
    return board.stones_to_place == 2 and not pos.threat_roads(0) and not pos.threat_roads(1)


def sample(board: connect6.Board, move: connect6.Move, candidates: int) -> Tuple[np.ndarray, int]:
    """The candidates' features (one row each) and the row of the pair played."""
    pos = board.position.copy()
    pairs = [(a, b) for _, a, b in best_moves(pos, candidates, 2, INCREMENTAL)]
    played = tuple(sorted(move.stones))
    if played not in pairs:
        pairs.append(played)
    return np.array([features(pos, a, b) for a, b in pairs], dtype=float), pairs.index(played)


def human_turns(n: int) -> Iterator[Tuple[List[connect6.Move], connect6.Move]]:
    for game in read_games_csv(HUMAN)[:n]:
        yield from _turns(game.moves, 1)


def record_turns(spec: str) -> Iterator[Tuple[List[connect6.Move], connect6.Move]]:
    path, _, player = spec.rpartition(":")
    if player not in ("a", "b") or not path:
        raise SystemExit(f"--records {spec!r}: expected PATH:a or PATH:b")
    root = Path(path)
    files = [root] if root.is_file() else sorted(root.rglob("games.jsonl"))
    if not files:
        raise SystemExit(f"--records {spec!r}: no games.jsonl there")
    for file in files:
        for record in read_results(str(file)):
            colour = player_colour(record, player)
            opening = len(record["opening"].split(",")) if record.get("opening") else 0
            moves = [connect6.Move.parse(m) for m in record["moves"]]
            first = 1 + opening // 2 if opening else 1
            yield from (t for t in _turns(moves, first) if (len(t[0]) % 2 == 0) == (colour == "black"))


def _turns(moves: Sequence[connect6.Move], first: int):
    for i in range(first, len(moves)):
        yield list(moves[:i]), moves[i]


def dataset(turns, candidates: int) -> List[Tuple[np.ndarray, int]]:
    """One sample per quiet position (the same turn from the same position in
    two games counts once)."""
    out, seen = [], set()
    for before, move in turns:
        key = " ".join(str(m) for m in before + [move])
        if key in seen:
            continue
        seen.add(key)
        board = connect6.Board(before)
        if quiet(board) and len(move.stones) == 2:
            out.append(sample(board, move, candidates))
    return out


def pad(data):
    """Samples as arrays: features (n, m, 10), a mask of real rows, the rows played."""
    n, m = len(data), max(len(x) for x, _ in data)
    feats, mask, played = np.zeros((n, m, 10)), np.zeros((n, m), bool), np.zeros(n, int)
    for i, (x, y) in enumerate(data):
        feats[i, :len(x)], mask[i, :len(x)], played[i] = x, True, y
    return feats, mask, played


def vector(weights) -> np.ndarray:
    """A weight set as the 10 coefficients of the features."""
    f, g = resolve_weights(weights)
    return np.array(list(f[1:6]) + [-v for v in g[1:6]], dtype=float)


def ranks(arrays, w: np.ndarray) -> np.ndarray:
    """The rank (0 = first) of each pair played among its candidates; ties count against it."""
    feats, mask, played = arrays
    score = np.where(mask, feats @ w, -np.inf)
    return (score >= score[np.arange(len(played)), played][:, None]).sum(axis=1) - 1


def fit(arrays, l2: float = 1e-3, iters: int = 60) -> np.ndarray:
    """The conditional-logit weights (features of 4- and 5-roads of the
    opponent are always 0 in quiet positions and stay out of the fit)."""
    feats, mask, played = arrays
    n, free = len(played), np.arange(8)
    w = np.zeros(10)
    for _ in range(iters):
        score = np.where(mask, feats @ w, -np.inf)
        p = np.exp(score - score.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("nm,nmd->nd", p, feats)
        grad = (feats[np.arange(n), played] - mean).sum(axis=0) / n - l2 * w
        cov = np.einsum("nm,nmd,nme->de", p, feats, feats) / n - mean.T @ mean / n + l2 * np.eye(10)
        step = np.linalg.solve(cov[np.ix_(free, free)], grad[free])
        w[free] += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def as_weights(w: np.ndarray) -> str:
    """Fitted coefficients as a weight set's text, scaled so that g(3) is the
    paper's (50); f(6), g(6), g(4) and g(5) are the paper's (quiet positions
    never show them)."""
    f, g = resolve_weights("paper")
    scale = g[3] / max(-w[7], 1e-9)
    fs = [max(0, int(round(v * scale))) for v in w[:5]] + [f[6]]
    gs = [max(0, int(round(-v * scale))) for v in w[5:8]] + list(g[4:7])
    return weights_text(([0] + fs, [0] + gs))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--human", type=int, default=0, help="the first N human games as a source")
    ap.add_argument("--records", action="append", default=[], metavar="PATH:PLAYER",
                    help="a player's moves in match records as a source (repeatable)")
    ap.add_argument("--weights", action="append", default=[], help="a weight set to rate (repeatable)")
    ap.add_argument("--candidates", type=int, default=60, help="pairs per position by the paper's weights")
    ap.add_argument("--fit", type=int, action="append", default=[], metavar="I",
                    help="fit weights to source I (0 = first; repeatable)")
    args = ap.parse_args(argv)
    if args.human < 0 or args.candidates < 1:
        ap.error("--human must be 0 or more and --candidates 1 or more")
    for text in args.weights:                   # checked before the positions are gathered
        try:
            vector(text)
        except ValueError as exc:
            ap.error(f"--weights {text!r}: {exc}")

    sources: List[Tuple[str, list]] = []
    if args.human:
        sources.append((f"human ({args.human} games)", dataset(human_turns(args.human), args.candidates)))
    for spec in args.records:
        sources.append((spec, dataset(record_turns(spec), args.candidates)))
    if not sources or not all(data for _, data in sources):
        raise SystemExit("no quiet positions: give --human N or --records PATH:PLAYER with games")
    arrays = [pad(data) for _, data in sources]
    sets = [("paper", vector("paper"))] + [(text, vector(text)) for text in args.weights]
    for i in args.fit:
        if not 0 <= i < len(sources):
            raise SystemExit(f"--fit {i}: there are {len(sources)} sources (0..{len(sources) - 1})")
        w = fit(arrays[i])
        sets.append((f"fitted to {sources[i][0]}: {as_weights(w)}", w))
    print("| weights | " + " | ".join(f"{name}: top 1 / top {TOP}" for name, _ in sources) + " |")
    print("|---|" + "---|" * len(sources))
    for name, w in sets:
        cells = []
        for a in arrays:
            r = ranks(a, w)
            cells.append(f"{(r == 0).mean():.3f} / {(r < TOP).mean():.3f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\npositions: " + ", ".join(f"{name} {len(data)}" for name, data in sources))
    return 0


if __name__ == "__main__":
    sys.exit(main())
