"""connect6.env.gymnasium: one agent against a built-in opponent (needs the rl extra)."""
import copy
import pickle

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import connect6  # noqa: E402
from connect6 import Board, Move, parse_cell  # noqa: E402
from connect6.env.gymnasium import Connect6Env  # noqa: E402


@pytest.mark.parametrize("kwargs", [dict(), dict(color="white"), dict(opponent="engine", depth=1),
                                    dict(render_mode="ansi"), dict(render_mode="rgb_array")])
def test_check_env(kwargs):
    check_env(Connect6Env(**kwargs), skip_render_check=False)


def test_human_mode_renders_in_reset_and_step(capsys):
    """Gymnasium's human mode draws in reset() and step() without render();
    it printed only when render() was called."""
    env = Connect6Env(render_mode="human", opponent="random", color="white")
    capsys.readouterr()
    env.reset(seed=3)
    first = capsys.readouterr().out
    assert str(env.board) in first                       # the opponent's first stone, shown at reset
    env.step(0)
    assert capsys.readouterr().out.count("\n") >= 19    # the board again after the step
    check_env(Connect6Env(render_mode="human"), skip_render_check=False)


def test_registered_for_make():
    env = gym.make("Connect6-v0", opponent="random", color="white")
    obs, info = env.reset(seed=0)
    assert obs["observation"][1].sum() == 1 and info == {"turn_stones_left": 2}
    env = gym.make("connect6.env.gymnasium:Connect6-v0")
    assert isinstance(env.unwrapped, Connect6Env)


def test_two_steps_make_a_turn_then_the_opponent_answers():
    env = Connect6Env(opponent="random")
    obs, info = env.reset(seed=5)
    obs, r, term, trunc, info = env.step(180)
    board = env.unwrapped.board
    assert len(board.move_stack) == 2 and board.turn == connect6.BLACK and info["turn_stones_left"] == 2
    assert obs["observation"][0].sum() == 1 and obs["observation"][1].sum() == 2
    obs, r, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert info["turn_stones_left"] == 1 and len(env.board.move_stack) == 2 and r == 0
    assert obs["observation"][2].sum() == 1


def test_seeded_resets_replay_the_same_game():
    def game(seed):
        env = Connect6Env(opponent="random")
        obs, _ = env.reset(seed=seed)
        for k in range(20):
            obs, r, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[k % 7 * 3]))
            if term:
                break
        return env.board.move_stack
    assert game(3) == game(3) != game(4)


def test_engine_and_callable_opponents():
    engine = connect6.Engine(depth=1, width=4)
    env = Connect6Env(opponent=engine, color="white")
    env.reset(seed=0)
    assert env.board.move_stack == [engine.search(Board()).move]

    def bot(board):
        return str(Move(board.legal_stones()[:board.stones_to_place]))
    env = Connect6Env(opponent=bot)
    env.reset()
    env.step(180)
    assert env.board.move_stack == [Move(180), Move((0, 1))]
    with pytest.raises(ValueError, match="opponent"):
        Connect6Env(opponent="strong")
    with pytest.raises(ValueError, match="color"):
        Connect6Env(color="red")
    # named when the environment is made, not at the opponent's first turn
    with pytest.raises(ValueError, match="time must be > 0"):
        Connect6Env(opponent="engine", time=0)
    with pytest.raises(ValueError, match="time must be > 0"):
        Connect6Env(opponent="random", time=float("nan"))


def test_win_loss_rewards():
    # an opponent playing free cells far apart on row 1: black wins up column j
    def spaced(board):
        return Move(board.legal_stones()[:3 * board.stones_to_place:3])

    def low(board):
        return Move(board.legal_stones()[:board.stones_to_place])
    env = Connect6Env(opponent=spaced)
    env.reset()
    rewards = []
    for cell in [parse_cell(c) for c in "j10 j11 j12 j13 j14 j15".split()]:
        obs, r, term, trunc, info = env.step(cell)
        rewards.append((r, term))
    assert rewards[-1] == (1.0, True) and all(r == (0.0, False) for r in rewards[:-1])
    assert not obs["action_mask"].any()
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)
    # the agent loses when the opponent makes six first: black a1 | b1c1 | d1e1 | f1...
    env = Connect6Env(opponent=low, color="white")
    env.reset()
    results = [env.step(c)[1:3] for c in (360, 358, 356, 354, 352, 350)]
    assert results[-1] == (-1.0, True) and all(r == (0.0, False) for r in results[:-1])
    assert env.board.outcome().winner == connect6.BLACK


def test_bad_actions_raise_and_change_nothing():
    env = Connect6Env()
    env.reset(seed=1)
    env.step(180)
    before = (copy.deepcopy(env.board), env.board.move_stack)
    for bad, error, words in ((180, ValueError, "occupied"), (400, ValueError, "off the board"),
                              (2.0, TypeError, "integer"), (None, TypeError, "integer"),
                              (np.array([3]), TypeError, "integer")):
        with pytest.raises(error, match=words):
            env.step(bad)
        assert (env.board, env.board.move_stack) == before
    env.step(np.array(3))                      # a 0-d integer array is an action
    with pytest.raises(gym.error.ResetNeeded):
        Connect6Env().step(0)


def test_an_opponent_that_raises_leaves_the_agent_to_move():
    """A bot's bad move (or Ctrl-C in the engine's search) during the
    opponent's turn: the agent's stone is taken back, so its next action is
    still its own (it used to be played as the opponent's stone).  In reset,
    the episode is left ended."""
    answers = iter(["a1", None])                 # one stone where two are due, then a good turn

    def flaky(board):
        answer = next(answers)
        return answer if answer is not None else Move(board.legal_stones()[:board.stones_to_place])
    env = Connect6Env(opponent=flaky)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="2 stones"):
        env.step(180)
    assert env.board.move_stack == [] and env.board.turn == connect6.BLACK
    obs, reward, terminated, truncated, info = env.step(181)
    assert env.board.move_stack == [Move(181), Move((0, 1))] and not terminated

    def broken(board):
        raise KeyboardInterrupt
    env = Connect6Env(opponent=broken, color="white")
    with pytest.raises(KeyboardInterrupt):
        env.reset()
    with pytest.raises(gym.error.ResetNeeded):
        env.step(180)


def test_an_engine_opponent_given_a_time_searches_for_it(monkeypatch):
    """opponent="engine" with a time and no depth deepens for the time (the
    default depth 1 used to cap it: 0.03 s at depth 1 when 0.5 s was given);
    with neither it searches depth 1, and a depth given with a time caps it."""
    searched = {}
    real = connect6.Engine.search

    def search(engine, board, depth=None, width=None, time=None, **kwargs):
        result = real(engine, board, depth, width, time, **kwargs)
        searched[key] = (engine._limits(depth, width, time, None)[0], result.depth)
        return result
    monkeypatch.setattr(connect6.Engine, "search", search)
    for key, kwargs in (("time", dict(time=0.2)), ("none", {}), ("both", dict(time=0.2, depth=2))):
        Connect6Env(opponent="engine", profile="plain", color="white", **kwargs).reset(seed=0)
    (timed, _), (plain, plain_depth), (both, both_depth) = searched["time"], searched["none"], searched["both"]
    assert (timed.depth, timed.time) == (None, 0.2)
    assert (plain.depth, plain.time, plain_depth) == (1, None, 1)
    assert (both.depth, both.time) == (2, 0.2) and both_depth <= 2


def test_action_space_samples_legal_cells_and_pickles():
    env = Connect6Env()
    obs, _ = env.reset(seed=0)
    for _ in range(30):
        a = env.action_space.sample()
        assert obs["action_mask"][a] == 1
        obs, r, term, trunc, _ = env.step(a)
        if term:
            break
    space = pickle.loads(pickle.dumps(env.action_space))
    assert space == gym.spaces.Discrete(361) and 0 <= space.sample() < 361
    # a deep copy of the environment (as tree searches make) samples the copy's legal cells:
    # its space was detached, and a third of its samples were occupied cells that step() refuses
    twin = copy.deepcopy(env)
    if not twin._done:
        legal = twin.board.legal_mask()
        assert all(legal[twin.action_space.sample()] for _ in range(300))
    # so does an unpickled environment's (its space was detached: 314 occupied cells in 2 000)
    env = Connect6Env()
    env.reset(seed=1)
    for cell in (0, 1, 20, 21, 40, 41):
        env.step(cell)
    thawed = pickle.loads(pickle.dumps(env))
    legal = thawed.board.legal_mask()
    assert not legal[0] and all(legal[thawed.action_space.sample()] for _ in range(300))
    assert twin.action_space._env() is twin and env.action_space._env() is env


def test_a_missing_extra_says_how_to_install_it(monkeypatch):
    import sys

    from connect6.env import _common
    monkeypatch.setitem(sys.modules, "pettingzoo_not_here", None)
    with pytest.raises(ModuleNotFoundError, match=r'pip install "connect6\[rl\]"') as info:
        _common.require("pettingzoo_not_here")
    assert info.value.name == "pettingzoo_not_here"
