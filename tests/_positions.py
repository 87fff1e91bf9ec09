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


def must_block(limit: int, stride: int = 7) -> List[Tuple[connect6.Board, List[Set[int]]]]:
    """Positions where the opponent threatens six next turn, two stones can stop
    every threat, and the side to move cannot make six itself."""
    out = []
    for gi, g in enumerate(games()):
        if gi % stride:
            continue
        b = connect6.Board()
        for m in g.moves[:-1]:
            b.push(m)
            if b.is_game_over():
                break
            me = int(b.turn)
            theirs = threat_road_empties(b, 1 - me)
            if theirs and not b.position.threat_roads(me) and blocking_number(theirs) <= 2:
                out.append((b.copy(), theirs))
                break
        if len(out) == limit:
            break
    return out


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
