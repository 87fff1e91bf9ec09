"""Reinforcement-learning environments (optional extra: ``pip install "connect6[rl]"``).

* :mod:`connect6.env.pettingzoo`: a PettingZoo AEC environment for two agents,
  ``black`` and ``white`` (``connect6.env.pettingzoo.env()``).
* :mod:`connect6.env.gymnasium`: a Gymnasium environment for one agent against a
  built-in opponent (an engine or a random player), registered as
  ``Connect6-v0`` (``gymnasium.make("connect6.env.gymnasium:Connect6-v0")``, or
  ``gymnasium.make("Connect6-v0")`` once the module is imported).

Both act one stone at a time: an action is a cell 0..360 (``row * 19 + col``),
and a two-stone turn is two consecutive actions of the same side.  Both observe
``{"observation": planes, "action_mask": mask}``: int8 planes of shape
(4, 19, 19), ``[plane, row, column]``: the observer's stones, the opponent's,
the stones placed so far in the turn being made, and the side to move (all 1
when White is to move); the mask is int8 (361,), 1 where the observer may play.
The rewards are +1 for a win, -1 for a loss and 0 otherwise.

Importing this package needs nothing beyond numpy; its two modules import
PettingZoo or Gymnasium and say how to install them when they are missing.
"""
