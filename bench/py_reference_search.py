"""A pure-Python reference search: a benchmark and test reference only.

Nothing in the package uses this module.  It exists so that the compiled
search can be timed against the same algorithm written in plain Python
(``bench/micro.py``), and checked against it move for move.

It is the engine's fixed-depth search (``engine_core/search.pyx``) redone
end to end in Python on top of the oracle ``connect6/_reference.py``:

* candidates: ``_reference.candidates`` (empty cells within ``radius`` of a stone);
* pair scores: the change of the mover's evaluation when it places the pair,
  by a **local** rescan of the roads through the two stones (the paper's
  method, the roads taken from ``_reference.ROADS``), or a **global** rescan
  of all 924 roads (``_reference.pair_delta``);
* the best ``width`` pairs, ranked by score, then lower first cell, then
  lower second cell (the engine's order);
* negamax alpha-beta over those pairs to ``depth`` turns.  A leaf is worth
  ``-V(side that made the last move)``; a pair that makes six is worth
  ``WIN_SCORE - plies from the root``; at one turn left with no live road of
  4-5 stones for the mover, the node is worth ``V(mover) + best pair score``
  without expanding it (one more node and leaf), exactly as the engine does.

So for the same position, depth, width and weights it returns the engine's
move, score, principal variation, node count and leaf count.

    PYTHONPATH=. python bench/py_reference_search.py          # check against the engine
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from connect6 import _reference as ref  # noqa: E402

#: The engine's scores (engine_core/search.pxd): a six is WIN_SCORE minus plies from the root.
WIN_SCORE = 1_000_000_000_000_000
INF_SCORE = 2_000_000_000_000_000

#: Roads through each cell (tuples of six cells), from the oracle's road list.
ROADS_THROUGH: List[List[Tuple[int, ...]]] = [[] for _ in range(ref.NUM_CELLS)]
for _road in ref.ROADS:
    for _c in _road:
        ROADS_THROUGH[_c].append(_road)

Pair = Tuple[int, int, int]  # (score, a, b); b = -1 for a single stone


def road_value(cells: Sequence[int], road: Sequence[int], side: int, f: Sequence[int], g: Sequence[int]) -> int:
    """f(n) if the road is a live road of ``side`` with n stones, -g(n) if the opponent's, else 0."""
    black = white = 0
    for c in road:
        v = cells[c]
        if v == ref.BLACK:
            black += 1
        elif v == ref.WHITE:
            white += 1
    own, other = (black, white) if side == ref.BLACK else (white, black)
    if own and not other:
        return f[own]
    if other and not own:
        return -g[other]
    return 0


class PyReferenceSearch:
    """Fixed-depth alpha-beta over width-limited pairs, in plain Python.

    ``scan`` is ``"local"`` (rescan the roads through the two stones) or
    ``"global"`` (rescan all 924 roads before and after, via the oracle).
    """

    def __init__(self, width: int = 10, radius: int = 2, scan: str = "local",
                 f: Sequence[int] = ref.PAPER_F, g: Sequence[int] = ref.PAPER_G):
        if scan not in ("local", "global"):
            raise ValueError(f"scan must be 'local' or 'global', not {scan!r}")
        self.width, self.radius, self.scan = width, radius, scan
        self.f, self.g = tuple(f), tuple(g)
        self.nodes = self.leaves = self.pairs_scored = 0

    # ------------------------------------------------------------ move pairs
    def pair_score(self, cells: List[int], a: int, b: int, color: int) -> int:
        """Change of V(color) when ``color`` places ``a`` and ``b`` (b = -1: one stone)."""
        stones = [a] if b < 0 else [a, b]
        if self.scan == "global":
            return ref.pair_delta(cells, stones, color, color, self.f, self.g)
        roads = set(ROADS_THROUGH[a])
        if b >= 0:
            roads.update(ROADS_THROUGH[b])
        before = sum(road_value(cells, r, color, self.f, self.g) for r in roads)
        for s in stones:
            cells[s] = color
        after = sum(road_value(cells, r, color, self.f, self.g) for r in roads)
        for s in stones:
            cells[s] = ref.EMPTY
        return after - before

    def best_pairs(self, cells: List[int], color: int) -> List[Pair]:
        """The best ``width`` moves for ``color`` to play, best first."""
        nstones = sum(1 for v in cells if v != ref.EMPTY)
        empty = ref.NUM_CELLS - nstones
        if empty == 0:
            return []
        if empty == 1:
            cand = [i for i in range(ref.NUM_CELLS) if cells[i] == ref.EMPTY]
        else:
            cand = ref.candidates(cells, self.radius)
        scored: List[Pair] = []
        if nstones == 0 or empty == 1:  # one stone this turn
            for a in cand:
                scored.append((self.pair_score(cells, a, -1, color), a, -1))
        else:
            for i in range(len(cand) - 1):
                for j in range(i + 1, len(cand)):
                    a, b = cand[i], cand[j]
                    scored.append((self.pair_score(cells, a, b, color), a, b))
        self.pairs_scored += len(scored)
        scored.sort(key=lambda p: (-p[0], p[1], p[2]))
        return scored[:self.width]

    # ------------------------------------------------------------ search
    def _makes_six(self, cells: List[int], stones: Sequence[int], color: int) -> bool:
        for s in stones:
            for road in ROADS_THROUGH[s]:
                if all(cells[c] == color for c in road):
                    return True
        return False

    def _negamax(self, cells: List[int], mover: int, depth: int, ply: int, alpha: int, beta: int):
        """(value for ``mover``, principal variation) of ``depth`` turns."""
        self.nodes += 1
        if depth == 0:
            self.leaves += 1
            return -ref.evaluate(cells, 1 - mover, self.f, self.g), []
        pairs = self.best_pairs(cells, mover)
        if not pairs:
            return 0, []  # full board: a draw
        if depth == 1:
            hist = ref.histogram(cells, mover)
            if hist[4] + hist[5] == 0:
                # no pair can make six; each child is worth V(mover) + its pair score
                self.nodes += 1
                self.leaves += 1
                score, a, b = pairs[0]
                return ref.evaluate(cells, mover, self.f, self.g) + score, [(a, b)]
        best, best_pv = -INF_SCORE, []
        for _, a, b in pairs:
            stones = [a] if b < 0 else [a, b]
            for s in stones:
                cells[s] = mover
            if self._makes_six(cells, stones, mover):
                v, pv = WIN_SCORE - (ply + 1), []
                self.nodes += 1
            else:
                v, pv = self._negamax(cells, 1 - mover, depth - 1, ply + 1, -beta, -alpha)
                v = -v
            for s in stones:
                cells[s] = ref.EMPTY
            if v > best:
                best, best_pv = v, [(a, b)] + pv
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best, best_pv

    def search(self, cells: Sequence[int], to_move: int, depth: int) -> Dict:
        """Search ``depth`` turns for ``to_move``; the engine's result fields
        (``move`` (a, b), ``score``, ``pv``, ``nodes``, ``leaves``, ``time_s``)."""
        work = list(cells)
        self.nodes = self.leaves = self.pairs_scored = 0
        t0 = time.perf_counter()
        score, pv = self._negamax(work, to_move, depth, 0, -INF_SCORE, INF_SCORE)
        elapsed = time.perf_counter() - t0
        if not pv:
            raise ValueError("no move to search: the board is full")
        return {"move": pv[0], "score": score, "pv": pv, "nodes": self.nodes, "leaves": self.leaves,
                "pairs_scored": self.pairs_scored, "time_s": elapsed}


def board_cells(board) -> List[int]:
    """A connect6.Board as the oracle's list of 361 ints (0 black, 1 white, 2 empty)."""
    pos = board.position
    return [pos.stone_at(c) for c in range(ref.NUM_CELLS)]


def engine_pair(move) -> Tuple[int, int]:
    """A connect6.Move as the engine's (a, b) pair (b = -1 for one stone)."""
    s = move.stones
    return (s[0], s[1]) if len(s) == 2 else (s[0], -1)


def compare_with_engine(board, depth: int, width: int, scan: str = "local", radius: int = 2) -> Dict:
    """Search ``board`` with the engine and with the reference; the two results and whether they agree
    (move, score, principal variation, nodes and leaves)."""
    import connect6

    engine = connect6.make_engine("paper", depth=depth, width=width, scan=scan, radius=radius)
    r = engine.search(board)
    f, g = engine.weights
    py = PyReferenceSearch(width, radius, "global" if scan == "global" else "local", f, g)
    p = py.search(board_cells(board), int(board.turn), depth)
    same = (engine_pair(r.move) == p["move"] and r.score == p["score"] and r.nodes == p["nodes"]
            and r.leaves == p["leaves"] and [engine_pair(m) for m in r.pv] == p["pv"])
    return {"engine": r, "python": p, "same": same}


def main(argv: Optional[List[str]] = None) -> int:
    import argparse

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _common import step_positions

    ap = argparse.ArgumentParser(description="Check the pure-Python reference search against the engine.")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--cases", default="1:3,1:5,2:3,2:5", help="depth:width pairs")
    args = ap.parse_args(argv)
    cases = [tuple(int(x) for x in c.split(":")) for c in args.cases.split(",")]
    ok = True
    for step in (3, 5, 9):
        for board in step_positions(args.positions, step=step):
            for depth, width in cases:
                out = compare_with_engine(board, depth, width)
                r, p = out["engine"], out["python"]
                ok &= out["same"]
                print(f"step {step:2} depth {depth} width {width}: engine {r.move} {r.score:+d} {r.nodes} nodes "
                      f"{r.time_s * 1e3:7.2f} ms | python {p['score']:+d} {p['nodes']} nodes "
                      f"{p['time_s'] * 1e3:8.1f} ms | {'same' if out['same'] else 'DIFFERENT'}")
    print("the reference search agrees with the engine" if ok else "THE REFERENCE SEARCH DISAGREES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
