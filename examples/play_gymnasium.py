"""The masked random agent and the one-ply greedy agent, each against the built-in
opponents of the Gymnasium environment (``pip install "connect6[rl]"``).

    python examples/play_gymnasium.py [EPISODES]
"""
from __future__ import annotations

import random
import sys
from typing import Callable, Dict

import gymnasium
from agents import Observation, greedy_action, random_action

import connect6.env.gymnasium  # noqa: F401  (registers Connect6-v0)


def episodes(agent: Callable[[Observation], int], opponent: str, count: int, seed: int = 0) -> float:
    """The agent's mean return (+1 win, -1 loss) over ``count`` episodes as Black."""
    env = gymnasium.make("Connect6-v0", opponent=opponent, depth=1)
    total = 0.0
    for k in range(count):
        obs, info = env.reset(seed=seed + k)
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(agent(obs))
            total += float(reward)
            done = terminated or truncated
    env.close()
    return total / count


def main(count: int) -> Dict[str, float]:
    rng = random.Random(0)
    agents: Dict[str, Callable[[Observation], int]] = {
        "random": lambda obs: random_action(obs, rng),
        "greedy": greedy_action,
    }
    results = {}
    for name, agent in agents.items():
        for opponent in ("random", "engine"):
            results[f"{name} vs {opponent}"] = episodes(agent, opponent, count)
    return results


if __name__ == "__main__":
    for key, value in main(int(sys.argv[1]) if len(sys.argv) > 1 else 2).items():
        print(f"{key:20s} mean return {value:+.2f}")
