"""Fit the road weights to game results (Texel-style logistic tuning).

The engine's leaf value, seen from the side to move (stm) after the last
mover's turn, is

    value = sum_n g(n) * live_stm(n) - sum_n f(n) * live_last(n)

where live_x(n) counts the live roads holding n stones of x only.  This
script replays the human games, takes every quiet position (the side to move
cannot make six at once and the last mover has no threat to answer),
and fits P(stm wins) = sigmoid(value / scale) by L2-regularised logistic
regression.  The fitted weights are scaled to integers and
printed as a weight profile for connect6/weights.py.

    python tools/tune_weights.py [--games N] [--min-turn T] [--holdout 0.2]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
import _common  # noqa: E402,F401  (connect6: the installed package, else this checkout)

import connect6  # noqa: E402
from connect6.records import read_games_csv  # noqa: E402

DATA = ROOT / "tests" / "data" / "human-games.csv"


def features(games, min_turn):
    """Rows of [live_stm(1..3), live_last(1..3)] and targets (1: stm won)."""
    xs, ys, gids = [], [], []
    for gi, g in enumerate(games):
        if g.winner is None:
            continue
        board = connect6.Board()
        for t, m in enumerate(g.moves[:-1]):
            board.push(m)
            if board.is_game_over():
                break
            if t + 1 < min_turn:
                continue
            stm = int(board.turn)
            pos = board.position
            if pos.threat_roads(stm) or pos.threat_roads(1 - stm):
                continue                      # a threat to make or answer: not quiet
            hs = pos.histogram(stm)
            hl = pos.histogram(1 - stm)
            xs.append(hs[1:4] + hl[1:4])
            ys.append(1.0 if g.winner == stm else 0.0)
            gids.append(gi)
    return np.array(xs, dtype=float), np.array(ys), np.array(gids)


def fit(x, y, l2=1e-3, iters=60):
    """Logistic regression by Newton's method: weights w, bias b."""
    n, k = x.shape
    mu = x.mean(axis=0)
    sd = x.std(axis=0) + 1e-9
    z = np.hstack([(x - mu) / sd, np.ones((n, 1))])
    w = np.zeros(k + 1)
    for _ in range(iters):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (p - y) / n + l2 * np.r_[w[:-1], 0]
        hess = (z * (p * (1 - p))[:, None]).T @ z / n + l2 * np.diag(np.r_[np.ones(k), 0])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    coef = w[:-1] / sd
    bias = w[-1] - (mu * coef).sum()
    return coef, bias


def log_loss(x, y, coef, bias):
    p = 1 / (1 + np.exp(-(x @ coef + bias)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


#: Roads of 4 and 5 stones are threats: quiet positions have none, so their
#: weights are not fitted.  For the last mover a threat is worth about one of
#: its 3-roads plus a little (it is blocked by one stone); for the side to
#: move it is a win, weighted high so pair scores favour blocking.
F45 = lambda f3: (f3 + f3 // 2, f3 + f3 // 2)   # noqa: E731
G45 = (20_000, 20_000)


def to_profile(coef, unit=None):
    """g from the stm features (positive), f from the last mover's (negated); integers."""
    g = coef[:3]
    f = -coef[3:]
    unit = unit or abs(g[2]) / 1000 or 1.0      # the side to move's 3-road = 1000
    fi = [0] + [int(round(v / unit)) for v in f]
    gi = [0] + [int(round(v / unit)) for v in g]
    fi += list(F45(fi[3])) + [1_000_000]
    gi += list(G45) + [1_000_000]
    return tuple(fi), tuple(gi)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=0, help="use the first N games (0: all)")
    ap.add_argument("--min-turn", type=int, default=3, help="skip positions before this turn")
    ap.add_argument("--holdout", type=float, default=0.2, help="fraction of games kept out for validation")
    ap.add_argument("--l2", type=float, default=1e-3)
    args = ap.parse_args(argv)

    games = read_games_csv(DATA)
    if args.games:
        games = games[:args.games]
    x, y, gid = features(games, args.min_turn)
    cut = int(len(games) * (1 - args.holdout))
    train, test = gid < cut, gid >= cut
    print(f"{len(y)} quiet positions from {len(games)} games ({train.sum()} train, {test.sum()} held out)")

    coef, bias = fit(x[train], y[train], args.l2)
    f, g = to_profile(coef)
    print(f"fitted: bias {bias:+.3f}; per-road log-odds stm {np.round(coef[:3], 4)}, last {np.round(coef[3:], 4)}")

    paper_f, paper_g = connect6.resolve_weights("paper")
    for name, (pf, pg) in (("paper", (paper_f, paper_g)), ("fitted", (f, g))):
        c = np.r_[np.array(pg[1:4], float), -np.array(pf[1:4], float)]
        # best scale for this profile's value (1-d logistic fit), then held-out log loss
        v = x[train] @ c
        s, b = fit(v[:, None], y[train], 0.0)
        loss = log_loss(x[test] @ c[:, None], y[test], s, b)
        acc = float(((x[test] @ c * s[0] + b > 0) == (y[test] > 0.5)).mean())
        print(f"{name:>7}: held-out log loss {loss:.4f}, accuracy {acc:.3f}   f={pf} g={pg}")
    base = log_loss(np.zeros((test.sum(), 1)), y[test], np.zeros(1), np.log(y[train].mean() / (1 - y[train].mean())))
    print(f"   base: held-out log loss {base:.4f} (stm win rate only)")
    print(f'\nTEXEL = ({f}, {g})')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
