"""Openings files for matches, and random openings."""
from __future__ import annotations

from typing import List, Optional

from connect6.notation import Move
from connect6.options import check_int
from connect6.records.archive import _LineFeed
from connect6.records.core import RecordError, format_stone_list, parse_stone_list, replay

__all__ = ["check_opening", "load_openings", "random_openings"]


def load_openings(path: str) -> List[str]:
    """Openings from a file: one stone list per line (``j10,k11,i11``); ``#``
    starts a comment (a whole line, or after the stones).

    Every opening is replayed; a broken or finished one is an error naming its line.
    """
    openings = []
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as fh:
        lines = _LineFeed(fh, path, None, from_bytes=True)
        for raw in lines:
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                openings.append(check_opening(text))
            except ValueError as exc:
                raise lines.error(str(exc)) from None
    if not openings:
        raise ValueError(f"{path}: no openings (one stone list per line, like j10,k11,i11)")
    return openings


def check_opening(text: str) -> str:
    """The opening ``text`` (a stone list) in its normal form, once replayed: ValueError
    saying why when it is not a legal position that is still open."""
    try:
        board = replay(parse_stone_list(text))
    except RecordError as exc:
        raise ValueError(str(exc)) from None
    if board.is_game_over():
        raise ValueError("the opening already ends the game")
    return format_stone_list(board.move_stack)


def random_openings(count: int, seed: Optional[int], radius: int = 3) -> List[str]:
    """``count`` 3-turn openings (j10, a white pair, a black pair) within ``radius``
    cells of the centre, drawn with ``seed``.

    >>> random_openings(2, seed=1) == random_openings(2, seed=1)
    True
    >>> len(parse_stone_list(random_openings(1, seed=1)[0]))
    3
    """
    import random

    radius = check_int("radius", radius, 1, 9)      # cells from the centre
    count = check_int("count", count, 0)
    rng = random.Random(f"openings:{seed}")
    centre = 9
    cells = [r * 19 + c for r in range(centre - radius, centre + radius + 1)
             for c in range(centre - radius, centre + radius + 1) if r * 19 + c != 180]
    out = []
    for _ in range(count):
        stones = rng.sample(cells, 4)
        out.append(format_stone_list([Move((180,)), Move(stones[:2]), Move(stones[2:])]))
    return out
