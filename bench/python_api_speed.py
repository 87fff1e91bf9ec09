"""Speed of play through the Python API: what a bot or a learning loop sees.

Prints, for one core:

1. two-stone ``push`` + ``pop`` per second (a whole turn made and taken back);
2. single-stone ``push_stone`` + ``pop`` per second (one stone of a turn);
3. ``legal_mask()`` calls per second;
4. random full games per second through :class:`connect6.Board` (uniformly
   random empty cells, stone by stone, until a six or a full board);
5. random full games per second through the PettingZoo and Gymnasium
   environments (when ``connect6[rl]`` is installed), and their ratio to 4;
6. with ``--profile``, where the time of the random games goes (cProfile).

Timings are wall-clock over a fixed amount of work; nothing is asserted.

    PYTHONPATH=. python bench/python_api_speed.py            # about 20 s
    PYTHONPATH=. python bench/python_api_speed.py --smoke    # about 2 s
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Callable, Tuple

ROOT = Path(__file__).resolve().parents[1]
try:
    import connect6
except ImportError:  # a source checkout built in place
    sys.path.insert(0, str(ROOT))
    import connect6  # noqa: E402
from connect6 import Board, Move  # noqa: E402


def rate(fn: Callable[[int], int], n: int) -> Tuple[float, float]:
    """(operations per second, seconds) of ``fn(n)``, which returns the operations it made."""
    t0 = time.perf_counter()
    ops = fn(n)
    dt = time.perf_counter() - t0
    return ops / dt, dt


def midgame() -> Board:
    return Board("j10 j9l11 k10k11 h10l10 k12k9 i9m11 j12l12")


def push_pop_pairs(n: int) -> int:
    board = midgame()
    moves = [Move((a, a + 1)) for a in range(0, 60, 2)]
    for _ in range(n // len(moves)):
        for m in moves:
            board.push(m)
            board.pop()
    return (n // len(moves)) * len(moves)


def push_stone_pop(n: int) -> int:
    board = midgame()
    push_stone, pop = board.push_stone, board.pop
    cells = list(range(0, 60)) * (n // 60)
    for c in cells:
        push_stone(c)
        pop()
    return len(cells)


def legal_masks(n: int) -> int:
    board = midgame()
    mask = board.legal_mask
    for _ in range(n):
        mask()
    return n


def random_games_board(n: int, seed: int = 1) -> int:
    """Random games stone by stone: a random cell, redrawn while it is taken."""
    rng = random.Random(seed)
    randrange = rng.randrange
    stones = 0
    for _ in range(n):
        board = Board()
        push_stone, stone_at, over = board.push_stone, board.position.stone_at, board.is_game_over
        while not over():
            c = randrange(361)
            while stone_at(c) != 2:
                c = randrange(361)
            push_stone(c)
            stones += 1
    return n


def random_games_board_masked(n: int, seed: int = 1) -> int:
    """Random games as the environments' agents play them: planes and a mask each
    stone, a random cell among the mask's."""
    rng = random.Random(seed)
    for _ in range(n):
        board = Board()
        while not board.is_game_over():
            board.to_planes()
            free = board.legal_mask().nonzero()[0]
            board.push_stone(int(free[rng.randrange(len(free))]))
    return n


def random_games_board_old(n: int, seed: int = 1) -> int:
    """The same games as a first-time user writes them with the turn-level API."""
    rng = random.Random(seed)
    for _ in range(n):
        board = Board()
        while not board.is_game_over():
            free = board.legal_stones()
            board.push(Move(rng.sample(free, min(board.stones_to_place, len(free)))))
    return n


def random_games_pettingzoo(n: int, seed: int = 1) -> int:
    from connect6.env import pettingzoo as pz
    env = pz.env()
    rng = random.Random(seed)
    for g in range(n):
        env.reset(seed=seed + g)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            free = obs["action_mask"].nonzero()[0]
            env.step(int(free[rng.randrange(len(free))]))
    return n


def random_games_gymnasium(n: int, seed: int = 1) -> int:
    from connect6.env import gymnasium as gy
    env = gy.Connect6Env(opponent="random")
    rng = random.Random(seed)
    for g in range(n):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            free = obs["action_mask"].nonzero()[0]
            obs, reward, term, trunc, info = env.step(int(free[rng.randrange(len(free))]))
            done = term or trunc
    return n


def profile(fn: Callable[[int], int], n: int) -> str:
    prof = cProfile.Profile()
    prof.runcall(fn, n)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(8)
    return out.getvalue()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (a few seconds)")
    ap.add_argument("--profile", action="store_true", help="cProfile the random games")
    args = ap.parse_args(argv)
    k = 20 if args.smoke else 1
    has_stone = hasattr(Board, "push_stone")
    print(f"connect6 {connect6.__version__} from {Path(connect6.__file__).parent}, Python {sys.version.split()[0]}")
    r, _ = rate(push_pop_pairs, 300_000 // k)
    print(f"two-stone push+pop:        {r:12,.0f} /s")
    if has_stone:
        r, _ = rate(push_stone_pop, 3_000_000 // k)
        print(f"single-stone push_stone+pop: {r:10,.0f} /s")
        r, _ = rate(legal_masks, 1_000_000 // k)
        print(f"legal_mask():              {r:12,.0f} /s")
        board_rate, _ = rate(random_games_board, 2_000 // k)
        print(f"random games via Board.push_stone: {board_rate:8,.0f} games/s")
        masked_rate, _ = rate(random_games_board_masked, 1_000 // k)
        print(f"random games via Board, masked agent (planes + legal_mask each stone): {masked_rate:8,.0f} games/s")
    old_rate, _ = rate(random_games_board_old, 300 // k)
    print(f"random games via Board.push (turns, legal_stones): {old_rate:8,.0f} games/s")
    if not has_stone:
        board_rate = masked_rate = old_rate
    for name, fn in (("PettingZoo AEC", random_games_pettingzoo), ("Gymnasium (random opponent)",
                                                                  random_games_gymnasium)):
        try:
            r, _ = rate(fn, 500 // k)
        except ImportError as exc:
            print(f"random games via {name}: skipped ({exc})")
            continue
        print(f"random games via {name}: {r:8,.0f} games/s ({board_rate / r:.2f}x slower than Board.push_stone, "
              f"{masked_rate / r:.2f}x slower than the masked agent on Board)")
    if args.profile:
        fn = random_games_board if has_stone else random_games_board_old
        print(f"\nwhere the time of {fn.__name__} goes (cProfile, by own time):")
        print(profile(fn, 200 // k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
