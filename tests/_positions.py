"""Positions taken from the human games (tests/data/human-games.csv), shared by tests."""
from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import List, Sequence, Set, Tuple

import connect6
from connect6.records import read_games_csv
from engine_core import geometry

DATA = Path(__file__).resolve().parent / "data" / "human-games.csv"


@functools.lru_cache(maxsize=1)
def games():
    return tuple(read_games_csv(DATA))


def _solve_vcdt(position, depth: int, budget: int):
    """engine_core.tss.solve_vcdt, imported when first needed: bench/solver_speed.py
    builds positions here for the core of older revisions, whose solver was in
    engine_core.threats."""
    from engine_core.tss import solve_vcdt
    return solve_vcdt(position, depth, budget)


def board_after(moves, turns: int) -> connect6.Board:
    board = connect6.Board()
    for m in moves[:turns]:
        board.push(m)
    return board


def threat_road_empties(board: connect6.Board, color: int) -> List[Set[int]]:
    """The empty cells of each live road of ``color`` holding 4 or 5 stones."""
    pos = board.position
    return [{c for c in geometry.road_cells(r) if pos.stone_at(c) == 2} for r in pos.threat_roads(color)]


def blocking_number(roads: Sequence[Set[int]]) -> int:
    """Fewest stones that meet every road (3 means 3 or more)."""
    if not roads:
        return 0
    cells = sorted(set().union(*roads))
    for k in (1, 2):
        for combo in itertools.combinations(cells, k):
            s = set(combo)
            if all(r & s for r in roads):
                return k
    return 3


def all_blocks(roads):
    """Every set of at most two cells meeting all roads (brute force over their empty cells)."""
    cells = sorted(set().union(*roads)) if roads else []
    out = set()
    for k in (1, 2):
        for combo in itertools.combinations(cells, k):
            if all(r & set(combo) for r in roads):
                out.add(combo)
    return out


def win_in_one(limit: int) -> List[connect6.Board]:
    """Positions before the winner's last turn: the side to move can make six."""
    out = []
    for g in games():
        if len(g.moves) < 3:
            continue
        b = board_after(g.moves, len(g.moves) - 1)
        if not b.is_game_over():
            out.append(b)
            if len(out) == limit:
                break
    return out


def _first_per_game(limit: int, stride: int, pick) -> list:
    """From every ``stride``-th game, what ``pick(board)`` returns for the first
    position (before the last turn) where it returns something; up to ``limit``."""
    out = []
    for gi, g in enumerate(games()):
        if gi % stride:
            continue
        b = connect6.Board()
        for m in g.moves[:-1]:
            b.push(m)
            if b.is_game_over():
                break
            found = pick(b)
            if found is not None:
                out.append(found)
                break
        if len(out) == limit:
            break
    return out


def must_block(limit: int, stride: int = 7) -> List[Tuple[connect6.Board, List[Set[int]]]]:
    """Positions where the opponent threatens six next turn, two stones can stop
    every threat, and the side to move cannot make six itself."""
    def pick(b):
        me = int(b.turn)
        theirs = threat_road_empties(b, 1 - me)
        if theirs and not b.position.threat_roads(me) and blocking_number(theirs) <= 2:
            return b.copy(), theirs
        return None
    return _first_per_game(limit, stride, pick)


def positions(limit: int, step_range=(2, 14), seed_stride: int = 13) -> List[connect6.Board]:
    """Varied unfinished positions: game i after a number of turns cycling through step_range."""
    lo, hi = step_range
    out = []
    for i, g in enumerate(games()[::seed_stride]):
        turns = lo + (i % (hi - lo + 1))
        if turns >= len(g.moves):
            continue
        b = board_after(g.moves, turns)
        if not b.is_game_over():
            out.append(b)
            if len(out) == limit:
                break
    return out


def vcdt_positions(limit: int, back=(3, 5, 7)) -> List[Tuple[connect6.Board, list]]:
    """Positions shortly before the end of archive games where the winner, to
    move, has a VCDT (found by the solver), with the solver's line."""
    out = []
    for g in games()[::3]:
        for k in back:
            if len(g.moves) - k < 3:
                continue
            b = board_after(g.moves, len(g.moves) - k)
            if b.is_game_over() or b.turn != g.winner:
                continue
            r, line, _ = _solve_vcdt(b.position, 10, 60000)
            if r == 1:
                out.append((b, line))
                break
        if len(out) >= limit:
            break
    return out


def opponent_has_vcdt(board: connect6.Board, depth: int = 10, budget: int = 60000) -> bool:
    """Would the side not to move win by VCDT if it were its turn (two stones)?"""
    if board.stones_to_place != 2:
        return False
    pos = board.position.copy()
    pos.to_move = 1 - int(board.turn)
    return _solve_vcdt(pos, depth, budget)[0] == 1


def vcdt_threatened(limit: int, stride: int = 11) -> List[connect6.Board]:
    """Positions where the side to move faces a VCDT of the opponent (if it
    passed, the opponent would win by continuous threats), has no threat of
    the opponent to answer and no VCDT of its own: it must defend.  One per
    game, the first such turn."""
    def pick(b):
        me = int(b.turn)
        if (b.stones_to_place == 2 and not b.position.threat_roads(1 - me) and not b.position.threat_roads(me)
                and opponent_has_vcdt(b) and _solve_vcdt(b.position, 10, 60000)[0] != 1):
            return b.copy()
        return None
    return _first_per_game(limit, stride, pick)


def every_defence(board, attacker):
    """Every pair of the defender that meets the attacker's threats: each
    stone that blocks alone with every empty cell, and the forced pairs."""
    from engine_core import threats
    h, blocks = threats.blocking(board.position, attacker)
    empty = [c for c in range(361) if board.position.stone_at(c) not in (0, 1)]
    return {tuple(sorted((x, y))) for x, partner in blocks
            for y in (empty if partner < 0 else [partner]) if y != x}


def holds_against_every_defence(board, fours, budget=10 ** 6, trusted=0):
    """The test oracle for ``solve_vct``: the side to move wins by threats
    with at most ``fours`` single fours, checked by brute force over the
    defender.  The solver's first turn is played, and after *every* pair of
    the defender that meets it (every cell for the free stone of a lone
    block, where the solver tries a zone only) the attacker must still win:
    by VCDT (a proof) once the single fours are spent, else by this check
    again.  With ``trusted`` > 0 the solver's own verdict is taken once at
    most that many single fours are left (a check of those wins by brute
    force is a separate run).  Returns the number of positions checked (0:
    an escape)."""
    from engine_core import threats
    from engine_core.tss import solve_vcdt, solve_vct
    attacker = int(board.turn)
    if fours == 0:
        return int(solve_vcdt(board.position, 16, budget)[0] == 1)
    if fours <= trusted:
        return int(solve_vct(board.position, 16, fours, budget)[0] == 1)
    r, line, _ = solve_vct(board.position, 16, fours, budget)
    if r != 1:
        return 0
    after = board.copy()
    after.push(connect6.Move(tuple(c for c in line[0] if c >= 0)))
    h = threats.blocking(after.position, attacker)[0]
    if after.is_game_over() or h >= 3:
        return 1
    checked = 1
    for pair in every_defence(after, attacker):
        nxt = after.copy()
        nxt.push(connect6.Move(pair))
        sub = holds_against_every_defence(nxt, fours - 1 if h == 1 else fours, budget, trusted)
        if not sub:
            return 0
        checked += sub
    return checked
