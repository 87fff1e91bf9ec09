"""connect6.env.pettingzoo: the AEC environment (needs the rl extra)."""
import copy
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from connect6 import Board, Move, parse_cell  # noqa: E402
from connect6.env import pettingzoo as pz  # noqa: E402


def play(env, cells):
    for c in cells:
        env.step(c)


def test_api_test_and_seed_test():
    api_test(pz.env(), num_cycles=400, verbose_progress=False)
    seed_test(pz.env, num_cycles=100)


def test_turns_are_two_actions_of_the_same_agent():
    env = pz.env()
    env.reset(seed=3)
    seen = []
    for c in (180, 181, 200, 0, 1, 60):
        seen.append(env.agent_selection)
        env.step(c)
    assert seen == ["black", "white", "white", "black", "black", "white"]
    assert env.unwrapped.board == Board("j10 k10k11 a1b1 +d4")


def test_observation_planes_and_masks():
    env = pz.env()
    env.reset()
    play(env, [180, 181])                    # white has placed one stone of its pair
    obs = env.observe("white")
    planes, mask = obs["observation"], obs["action_mask"]
    assert planes.dtype == np.int8 and planes.shape == (4, 19, 19) and mask.dtype == np.int8
    assert planes[0, 9, 10] == 1 and planes[1, 9, 9] == 1 and planes[2, 9, 10] == 1 and (planes[3] == 1).all()
    assert mask.sum() == 359 and mask[180] == 0 and mask[181] == 0
    other = env.observe("black")              # the same position from black's side, nothing to play
    assert other["observation"][0, 9, 9] == 1 and other["observation"][1, 9, 10] == 1
    assert other["action_mask"].sum() == 0


def test_rewards_at_a_six():
    env = pz.env()
    env.reset()
    play(env, [parse_cell(c) for c in "j10 k10 k11 j11 j12 k12 k13 j13 j14 k14".split()])
    assert env.agent_selection == "white"
    env.step(parse_cell("k15"))               # white makes six with the first stone of its pair
    for agent in ("black", "white"):
        assert env.terminations[agent]
    assert env.rewards == {"white": 1, "black": -1}
    assert env.unwrapped.board.outcome().winner == 1
    finished = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert term and not trunc and not obs["action_mask"].any()
        finished.append((agent, reward))
        env.step(None)
    assert sorted(finished) == [("black", -1), ("white", 1)]


def snapshot(env):
    raw = env.unwrapped
    return (copy.deepcopy(raw.board), raw.agent_selection, dict(raw.rewards), dict(raw.terminations),
            raw.board.move_stack, raw.board.unfinished_turn)


def test_bad_actions_raise_and_change_nothing():
    env = pz.env()
    env.reset()
    play(env, [180, 181])
    before = snapshot(env)
    for bad, error, words in ((181, ValueError, "occupied"), (180, ValueError, "occupied"),
                              (361, ValueError, "off the board"), (-1, ValueError, "off the board"),
                              (1.5, TypeError, "integer"), ("j10", TypeError, "integer"),
                              (True, TypeError, "integer"), (np.float32(3), TypeError, "integer")):
        with pytest.raises(error, match=words):
            env.step(bad)
        assert snapshot(env) == before
    env.step(np.int64(5))                      # numpy integers are actions
    assert env.unwrapped.board.move_stack[-1] == Move((181, 5))


def test_action_after_the_end():
    env = pz.env()
    env.reset()
    play(env, [parse_cell(c) for c in "j10 k10 k11 j11 j12 k12 k13 j13 j14 k14 k15".split()])
    with pytest.raises(ValueError, match="None"):
        env.step(3)


def test_random_games_agree_with_board():
    rng = random.Random(4)
    env = pz.env()
    for game in range(3):
        env.reset(seed=game)
        board = Board()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert np.array_equal(obs["action_mask"].astype(bool), board.legal_mask())
            cell = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            board.push_stone(cell)
            env.step(cell)
            assert env.unwrapped.board == board
        assert board.is_game_over()


def test_render_modes():
    for mode in ("ansi", "rgb_array"):
        env = pz.env(render_mode=mode)
        env.reset()
        play(env, [180, 181])
        out = env.render()
        if mode == "ansi":
            assert out == str(Board("j10 +k10"))
        else:
            assert out.dtype == np.uint8 and out.shape == (380, 380, 3)
            blank = pz.env(render_mode=mode)
            blank.reset()
            assert (blank.render() != out).any()
    with pytest.raises(ValueError, match="render_mode"):
        pz.env(render_mode="window")


def test_pettingzoos_render_test(capsys):
    """PettingZoo's own render_test makes the environment with render_mode="human"
    first, whatever the metadata says: that mode used to be refused, so the test
    could not run.  "human" prints the board, as PettingZoo's classic games do."""
    render_test(pz.env)
    env = pz.env(render_mode="human")
    env.reset()
    capsys.readouterr()
    play(env, [180, 181])
    shown = capsys.readouterr().out                 # each step printed the board, unasked
    assert str(Board("j10")) in shown and str(Board("j10 +k10")) in shown
    assert env.render() is None and str(Board("j10 +k10")) in capsys.readouterr().out
