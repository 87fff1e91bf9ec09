"""Which static features explain our deep search's values? (issue 40, part 3: "a richer pattern set, if it pays")

Before building a new evaluation family into the core, ask the data whether
it could pay.  The match records under ``bench/results/games`` hold, for every
move of ours, the score and depth of the search that chose it (6.5 s to 50 s
a move: depth 9 to 19).  Those scores are the teacher: an evaluation is good
to the degree that it predicts what a deep search will make of a position.
Each position (before a move of ours whose search ended on a value, not on a
proof or the book; |score| < 3000; depth >= 6; each position once; not
from runs limited by nodes, the screens' shallow searches) gives
feature vectors, and ridge regressions on feature families are compared by
their R^2 on held-out games (5 folds, by game).  Runs whose folder names say
``holdout`` are never read: those openings are kept for the holdout target.

Families (each for the side to move and for the other side):

* ``roads``: live roads holding 1..5 stones (what the paper's evaluation counts);
* ``parity``: the teacher search's depth odd or even (not a feature of the
  position: a search to an odd depth values the side to move higher, so a
  fair comparison takes it out first);
* ``tight``: live 2-, 3- and 4-roads whose stones are contiguous within the road;
* ``lines``: lines (rows, columns, diagonals) whose best live road holds 2, 3 or 4;
* ``cross``: empty cells reached from two directions by live roads of 2+ stones,
  of 3+ stones, and of 3+ and 2+;
* ``hot``: the most and the three most live 2+-roads through one empty cell;
* ``room``: empty cells on live roads holding a stone;
* ``quadratic``: the products of the ``roads`` features;
* ``searched`` (``--shallow K``, slow): the values of depth-2 and depth-3 searches of every K-th position.

    python tools/eval_study.py [--root bench/results/games] [--shallow 2]

Prints one markdown table (see ``bench/results/study-eval-features.md``).
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from typing import Dict, Iterator, List, Tuple

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import connect6  # noqa: E402
from connect6.engine import make_engine  # noqa: E402
from engine_core.geometry import NUM_ROADS_TOTAL, road_cells, road_direction  # noqa: E402

ROADS = np.array([road_cells(r) for r in range(NUM_ROADS_TOTAL)])          # (924, 6) cells
_DIRECTION = np.array([road_direction(r) for r in range(NUM_ROADS_TOTAL)])


def _line_of(road: int) -> Tuple[str, int]:
    a, b = ROADS[road][0], ROADS[road][1]
    dr, dc = b // 19 - a // 19, b % 19 - a % 19
    if dr == 0:
        return ("row", a // 19)
    if dc == 0:
        return ("column", a % 19)
    return ("diagonal", a // 19 - a % 19) if dr == dc else ("anti", a // 19 + a % 19)


_LINES: Dict[Tuple[str, int], int] = {}
LINE = np.array([_LINES.setdefault(_line_of(r), len(_LINES)) for r in range(NUM_ROADS_TOTAL)])
#: (direction, cell, road): 1 where the road of that direction passes the cell
_THROUGH = np.zeros((4, 361, NUM_ROADS_TOTAL), np.float32)
for _r in range(NUM_ROADS_TOTAL):
    _THROUGH[_DIRECTION[_r], ROADS[_r], _r] = 1

FAMILIES = ("roads", "tight", "lines", "cross", "hot", "room")


def features(cells: np.ndarray, side: int) -> Dict[str, float]:
    """The features of one position: ``cells`` (361,) -1 empty, 0 Black, 1 White;
    ``side`` to move.  Names end in ``s`` (side to move) or ``o`` (the other)."""
    on_road = cells[ROADS]
    empty = cells == -1
    out: Dict[str, float] = {}
    for tag, colour in (("s", side), ("o", 1 - side)):
        own = (on_road == colour).sum(1)
        live = (on_road == 1 - colour).sum(1) == 0
        for n in range(1, 6):
            out[f"roads{n}{tag}"] = int(np.sum(live & (own == n)))
        where = np.where(on_road == colour, np.arange(6), -1)
        span = where.max(1) - np.where(on_road == colour, np.arange(6), 9).min(1) + 1
        for n in (2, 3, 4):
            out[f"tight{n}{tag}"] = int(np.sum(live & (own == n) & (span == n)))
        best = np.zeros(len(_LINES), int)
        np.maximum.at(best, LINE, np.where(live, own, 0))
        for n in (2, 3, 4):
            out[f"lines{n}{tag}"] = int(np.sum(best == n))
        two = (_THROUGH @ (live & (own >= 2)).astype(np.float32))        # (4, 361)
        three = (_THROUGH @ (live & (own >= 3)).astype(np.float32))
        dirs2, dirs3 = (two > 0).sum(0), (three > 0).sum(0)
        out[f"cross2{tag}"] = int(np.sum(empty & (dirs2 >= 2)))
        out[f"cross3{tag}"] = int(np.sum(empty & (dirs3 >= 2)))
        out[f"cross32{tag}"] = int(np.sum(empty & (dirs3 >= 1) & (dirs2 >= 2)))
        through = np.sort(two.sum(0) * empty)[::-1]
        out[f"hot1{tag}"], out[f"hot3{tag}"] = float(through[0]), float(through[:3].sum())
        reach = _THROUGH.sum(0) @ (live & (own >= 1)).astype(np.float32)
        out[f"room{tag}"] = int(np.sum(empty & (reach > 0)))
    return out


def _cells(board: "connect6.Board") -> np.ndarray:
    planes = board.to_numpy()
    cells = np.full(361, -1, np.int8)
    cells[planes[0].reshape(-1) == 1] = 0
    cells[planes[1].reshape(-1) == 1] = 1
    return cells


def teacher_positions(root: str) -> Iterator[Tuple[np.ndarray, int, int, int, str, int]]:
    """(cells, side to move, score, depth, game id, the paper's evaluation for the
    side to move) before each move of ours whose
    search ended on a value, from the records under ``root`` (never a ``holdout`` run)."""
    seen = set()
    for path in sorted(glob.glob(os.path.join(root, "**", "games.jsonl"), recursive=True)):
        if "holdout" in os.path.relpath(path, root):
            continue
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    game = json.loads(line)
                    moves, evals = game["moves"], game.get("evals") or []
                except (ValueError, KeyError, TypeError):
                    continue
                if "nodes=" in str(game.get("a")):      # a screen's shallow searches: not a teacher
                    continue
                board = connect6.Board()
                for i, move in enumerate(moves):
                    e = evals[i] if i < len(evals) else None
                    if (isinstance(e, dict) and e.get("source") not in ("solver", "book")
                            and abs(e.get("score", 10 ** 9)) < 3000 and e.get("depth", 0) >= 6):
                        key = board.position_key()
                        if key not in seen:
                            seen.add(key)
                            yield (_cells(board), int(board.turn), int(e["score"]), int(e["depth"]),
                                   f"{path}#{game.get('game')}", -board.evaluate(1 - int(board.turn)))
                    board.push(move)


def r2_by_game(M: np.ndarray, y: np.ndarray, fold: np.ndarray, ridge: float = 1.0) -> float:
    """R^2 of a ridge regression of ``y`` on ``M`` (standardised, with an intercept),
    each fold predicted by a fit to the others."""
    A = np.column_stack([M, np.ones(len(y))]) if M.size else np.ones((len(y), 1))
    pred = np.zeros(len(y))
    for k in np.unique(fold):
        train, test = fold != k, fold == k
        mu, sd = A[train].mean(0), A[train].std(0) + 1e-9
        mu[-1], sd[-1] = 0.0, 1.0
        Z = (A - mu) / sd
        w = np.linalg.solve(Z[train].T @ Z[train] + ridge * np.eye(Z.shape[1]), Z[train].T @ y[train])
        pred[test] = Z[test] @ w
    return float(1 - np.sum((y - pred) ** 2) / np.sum((y - y.mean()) ** 2))


def _searched(cells: np.ndarray, side: int, engine: "connect6.Engine") -> List[int]:
    planes = np.zeros((2, 19, 19), np.uint8)
    planes[0].reshape(-1)[cells == 0] = 1
    planes[1].reshape(-1)[cells == 1] = 1
    board = connect6.Board.from_numpy(planes, turn=side)
    return [engine.search(board, depth=d).score for d in (2, 3)]


def study(root: str, shallow: int = 0, seed: int = 1) -> List[Tuple[str, int, float]]:
    """[(model, positions, R^2)] in the order of the table."""
    rows = list(teacher_positions(root))
    if len(rows) < 50:
        raise SystemExit(f"{root}: only {len(rows)} positions with a search value: too few to fit")
    feats = [features(r[0], r[1]) for r in rows]
    names = list(feats[0])
    X = np.array([[f[n] for n in names] for f in feats], float)
    y = np.array([r[2] for r in rows], float)
    parity = np.array([r[3] % 2 for r in rows], float)[:, None]
    games = sorted({r[4] for r in rows})
    rng = np.random.default_rng(seed)
    fold_of = dict(zip(games, rng.integers(0, 5, len(games))))
    fold = np.array([fold_of[r[4]] for r in rows])

    def family(*prefixes: str) -> np.ndarray:
        return X[:, [i for i, n in enumerate(names) if n.startswith(prefixes)]]

    roads = family("roads")
    out = [("nothing (the mean)", len(y), r2_by_game(np.zeros((len(y), 0)), y, fold)),
           ("parity", len(y), r2_by_game(parity, y, fold)),
           ("roads", len(y), r2_by_game(roads, y, fold)),
           ("roads + parity", len(y), r2_by_game(np.column_stack([roads, parity, roads * parity]), y, fold))]
    paper = np.clip(np.array([r[5] for r in rows], float), -20000, 20000)[:, None]
    out.insert(2, ("the paper's evaluation + parity", len(y), r2_by_game(np.column_stack([paper, parity]), y, fold)))
    base = np.column_stack([roads, parity, roads * parity])
    for name in FAMILIES[1:]:
        more = family(name)
        out.append((f"roads + parity + {name}", len(y), r2_by_game(np.column_stack([base, more, more * parity]), y, fold)))
    rest = family(*FAMILIES[1:])
    out.append(("roads + parity + all five", len(y), r2_by_game(np.column_stack([base, rest, rest * parity]), y, fold)))
    quad = [roads[:, i] * roads[:, j] for i in range(10) for j in range(i, 10)]
    out.append(("roads + parity + quadratic", len(y), r2_by_game(np.column_stack([base, *quad]), y, fold, 10.0)))
    if shallow:
        engine = make_engine("default")
        idx = np.arange(0, len(rows), shallow)
        searched = np.array([_searched(rows[i][0], rows[i][1], engine) for i in idx], float)
        keep = np.all(np.abs(searched) < 100000, axis=1)
        idx, searched = idx[keep], searched[keep]
        ys, fs = y[idx], fold[idx]
        out.append(("searched (depths 2 and 3)", len(idx), r2_by_game(searched, ys, fs)))
        out.append(("roads + parity, same positions", len(idx), r2_by_game(base[idx], ys, fs)))
        out.append(("roads + parity + searched", len(idx),
                    r2_by_game(np.column_stack([base[idx], searched, searched * parity[idx]]), ys, fs)))
    return out


def main(argv: "List[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--root", default=os.path.join(ROOT, "bench", "results", "games"),
                        help="folder of match records (games.jsonl files, searched recursively)")
    parser.add_argument("--shallow", type=int, default=0, metavar="K",
                        help="also search every K-th position to depths 2 and 3 (slow: ~0.5 s a position)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games' assignment to folds")
    args = parser.parse_args(argv)
    print("| model | positions | R^2 (held-out games) |\n|---|---:|---:|")
    for name, n, r2 in study(args.root, args.shallow, args.seed):
        print(f"| {name} | {n} | {r2:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
