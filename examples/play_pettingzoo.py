"""A masked random agent against a one-ply greedy agent in the PettingZoo AEC
environment (``pip install "connect6[rl]"``).

    python examples/play_pettingzoo.py [GAMES]
"""
from __future__ import annotations

import random
import sys
from typing import Dict, List

from agents import greedy_action, random_action

from connect6.env.pettingzoo import env as make_env


def play(games: int, seed: int = 0) -> Dict[str, int]:
    """Games with the greedy agent as Black and as White in turn; the wins of each agent."""
    rng = random.Random(seed)
    wins = {"greedy": 0, "random": 0, "draw": 0}
    env = make_env(render_mode="ansi")
    for game in range(games):
        greedy_side = "black" if game % 2 == 0 else "white"
        env.reset(seed=seed + game)
        returns: Dict[str, float] = {"black": 0.0, "white": 0.0}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            returns[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            env.step(greedy_action(obs) if agent == greedy_side else random_action(obs, rng))
        other = "white" if greedy_side == "black" else "black"
        if returns[greedy_side] > returns[other]:
            wins["greedy"] += 1
        elif returns[greedy_side] < returns[other]:
            wins["random"] += 1
        else:
            wins["draw"] += 1
    last: List[str] = str(env.render()).splitlines()
    print("\n".join(last))
    return wins


if __name__ == "__main__":
    print(play(int(sys.argv[1]) if len(sys.argv) > 1 else 4))
