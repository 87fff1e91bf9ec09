"""Ratings of many players fitted together by maximum likelihood (as Ordo and BayesElo do).

The model is the logistic Elo (Bradley-Terry) model: player i scores
``1 / (1 + 10 ** ((r_j - r_i) / 400))`` on average against player j, a draw
counting as half a win.  The ratings maximise the likelihood of every game's
score at once, so a player's rating uses all games, not only its own
pairings; Newton's method on the concave log-likelihood finds them in a few
steps.  One player, the *anchor*, is held at a given rating (0 by default):
only differences are defined.  The 95% intervals come from the inverse of
the Hessian (the observed information), so they are intervals of the
difference to the anchor.

A player who won (or lost) every game has no finite maximum-likelihood
rating; ``prior_draws`` virtual draws added to every pairing that was played
keep the ratings finite (BayesElo does the same with its ``prior``); 0
turns the prior off.

>>> points = [[0, 7], [3, 0]]     # player 0 scored 7 of 10 against player 1
>>> games = [[0, 10], [10, 0]]
>>> r = fit_ratings(points, games, anchor=1, prior_draws=0)
>>> round(r.elo[0], 1), round(r.elo[1], 1)
(147.2, 0.0)
"""
from __future__ import annotations

import dataclasses
import math
from typing import List, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

#: a square table of floats, [i][j] for players i and j: nested sequences or a 2-d array
Table = Union[Sequence[Sequence[float]], npt.NDArray[np.float64]]

__all__ = ["RatingFit", "fit_ratings"]

_ELO = 400.0 / math.log(10.0)          # Elo points per unit of the logistic's natural scale
_Z95 = 1.959963984540054


@dataclasses.dataclass(frozen=True)
class RatingFit:
    """Fitted ratings: ``elo[i]`` and its 95% interval ``low[i] .. high[i]``
    (the anchor's interval is just its rating); ``iterations`` of Newton's method."""

    elo: List[float]
    low: List[float]
    high: List[float]
    anchor: int
    iterations: int

    def error(self, i: int) -> float:
        """Half the width of player i's 95% interval."""
        return (self.high[i] - self.low[i]) / 2.0


def _connected(games: np.ndarray, anchor: int) -> np.ndarray:
    """Which players are linked to the anchor through games played."""
    seen = np.zeros(len(games), dtype=bool)
    seen[anchor] = True
    stack = [anchor]
    while stack:
        i = stack.pop()
        for j in np.nonzero(games[i] > 0)[0]:
            if not seen[j]:
                seen[j] = True
                stack.append(int(j))
    return seen


def _check(points: Table, games: Table,
           anchor: int) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    w = np.asarray(points, dtype=float)
    n = np.asarray(games, dtype=float)
    k = len(n)
    if n.shape != (k, k) or w.shape != (k, k) or k < 2:
        raise ValueError(f"points and games must be square tables of the same size (2 players or more), "
                         f"not {w.shape} and {n.shape}")
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(n)) and np.all(w >= 0) and np.all(n >= 0)):
        raise ValueError("points and games must be finite and >= 0")
    if not np.allclose(n, n.T) or not np.allclose(w + w.T, n) or np.any(np.diag(n) != 0):
        raise ValueError("games must be symmetric with an empty diagonal and points[i][j] + points[j][i] "
                         "must equal games[i][j]")
    if not (isinstance(anchor, int) and 0 <= anchor < k):
        raise ValueError(f"anchor must be a player index in 0..{k - 1}, not {anchor!r}")
    linked = _connected(n, anchor)
    if not linked.all():
        raise ValueError(f"players {', '.join(map(str, np.nonzero(~linked)[0]))} played no games linking them "
                         "to the anchor: their ratings are not defined")
    return w, n


def fit_ratings(points: Table, games: Table, anchor: int = 0,
                anchor_elo: float = 0.0, prior_draws: float = 1.0, tolerance: float = 1e-10,
                max_iterations: int = 100) -> RatingFit:
    """Maximum-likelihood Elo ratings of ``k`` players.

    ``points[i][j]``: the points player i scored against player j (a win 1,
    a draw 1/2); ``games[i][j]``: the games they played.  ``anchor`` is held
    at ``anchor_elo``.  ``prior_draws`` virtual draws are added to every
    pairing with games (see the module's notes).  Raises ValueError for
    inconsistent tables or players not linked to the anchor by games.
    """
    w, n = _check(points, games, anchor)
    if not (math.isfinite(prior_draws) and prior_draws >= 0):
        raise ValueError(f"prior_draws must be >= 0, not {prior_draws!r}")
    played = n > 0
    w = w + 0.5 * prior_draws * played
    n = n + prior_draws * played
    k = len(n)
    free = np.array([i for i in range(k) if i != anchor])
    theta = np.zeros(k)
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))   # p[i, j]: i's expected score against j
        grad = (w - n * p).sum(axis=1)
        info = n * p * (1.0 - p)                                    # -Hessian off the diagonal (negated)
        hess = np.diag(info.sum(axis=1)) - info                     # the observed information
        sub = hess[np.ix_(free, free)]
        try:
            step = np.linalg.solve(sub, grad[free])
        except np.linalg.LinAlgError:
            raise ValueError("the ratings cannot be fitted: a player won or lost every game "
                             "(use prior_draws > 0)") from None
        biggest = np.max(np.abs(step))
        if biggest > 2.0:                                           # damped: at most ~350 Elo a step
            step *= 2.0 / biggest
        theta[free] += step
        if biggest < tolerance:
            break
    if not np.all(np.isfinite(theta)) or np.max(np.abs(theta)) > 50:
        raise ValueError("the ratings do not converge: a player won or lost every game (use prior_draws > 0)")
    cov = np.linalg.inv(sub)
    elo = theta * _ELO + (anchor_elo - theta[anchor] * _ELO)
    half = np.zeros(k)
    half[free] = _Z95 * np.sqrt(np.clip(np.diag(cov), 0.0, None)) * _ELO
    return RatingFit([float(x) for x in elo], [float(x) for x in elo - half], [float(x) for x in elo + half],
                     anchor, iterations)
