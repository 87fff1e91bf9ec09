"""The examples/ scripts: the agents, the environment games and the match bot run."""
import random
import subprocess
import sys
from pathlib import Path

import pytest

from _env import subprocess_env
from connect6 import Board, Move

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))


def test_match_bot_plays_legal_turns_and_takes_a_six():
    import match_bot
    board = Board("j10 k10k11 j11j12 k12k13 j13j14")
    move = match_bot.greedy(board.copy())
    assert board.is_legal(move) and len(move) == 2
    board.push("a1a2")
    win = match_bot.greedy(board.copy())      # black has j10..j14: j9 or j15 makes six
    assert win in (Move(board.position.winning_cells(0)[0]), Move(board.position.winning_cells(0)[1]))


def test_agents_on_observations():
    pytest.importorskip("pettingzoo")
    import agents
    from connect6.env.pettingzoo import env
    e = env()
    e.reset()
    for c in (180, 181, 182):
        e.step(c)
    obs = e.observe("black")
    assert obs["action_mask"][agents.random_action(obs, random.Random(1))] == 1
    assert obs["action_mask"][agents.greedy_action(obs)] == 1


def test_example_scripts_run():
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    env = subprocess_env()
    for script, args in (("play_pettingzoo.py", ["1"]), ("play_gymnasium.py", ["1"])):
        p = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=EXAMPLES, env=env,
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stdout + p.stderr
    assert "greedy vs random" in p.stdout
