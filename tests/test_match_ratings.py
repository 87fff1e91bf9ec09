"""connect6.match.ratings: maximum-likelihood ratings of many players."""
import math

import numpy as np
import pytest

from connect6.match.ratings import fit_ratings
from connect6.match.stats import elo_from_score

ELO = 400 / math.log(10)


def tables(results, k):
    """points and games tables from (i, j, score of i) triples."""
    points, games = np.zeros((k, k)), np.zeros((k, k))
    for i, j, s in results:
        points[i, j] += s
        points[j, i] += 1 - s
        games[i, j] += 1
        games[j, i] += 1
    return points, games


def mm_oracle(points, games, anchor, iterations=20000):
    """Hunter's MM algorithm for Bradley-Terry: a different method to the same maximum."""
    wins = points.sum(axis=1)
    gamma = np.ones(len(games))
    for _ in range(iterations):
        gamma = wins / (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        gamma /= gamma[anchor]
    return np.log(gamma) * ELO


def test_two_players_match_the_single_match_formula():
    fit = fit_ratings([[0, 7], [3, 0]], [[0, 10], [10, 0]], anchor=1, prior_draws=0)
    assert fit.elo[0] == pytest.approx(elo_from_score(0.7), abs=1e-9) and fit.elo[1] == 0
    se = 1 / math.sqrt(10 * 0.7 * 0.3) * ELO                 # the logistic's standard error
    assert fit.error(0) == pytest.approx(1.959963984540054 * se, rel=1e-9)
    assert fit.low[1] == fit.high[1] == 0


def test_agrees_with_an_independent_method_and_expected_scores_match():
    rng = np.random.default_rng(7)
    strength = np.array([0.0, 0.8, -0.5, 1.5, 0.3])
    results = []
    for _ in range(400):
        i, j = rng.choice(5, size=2, replace=False)
        p = 1 / (1 + math.exp(strength[j] - strength[i]))
        u = rng.random()
        results.append((i, j, 1.0 if u < p * 0.8 else (0.5 if u < p * 0.8 + 0.2 else 0.0)))
    points, games = tables(results, 5)
    fit = fit_ratings(points, games, anchor=2, prior_draws=0)
    assert np.allclose(fit.elo, mm_oracle(points, games, 2), atol=1e-4)
    theta = np.array(fit.elo) / ELO
    expected = (games / (1 + np.exp(theta[None, :] - theta[:, None]))).sum(axis=1)
    assert np.allclose(expected, points.sum(axis=1), atol=1e-6)   # the likelihood equations hold
    assert fit.elo[3] > fit.elo[1] > fit.elo[2]


def test_anchor_and_anchor_elo_shift_every_rating():
    points, games = tables([(0, 1, 1), (1, 2, 0.5), (2, 0, 1), (0, 1, 0), (1, 2, 1), (0, 2, 1)], 3)
    a = fit_ratings(points, games, anchor=0)
    b = fit_ratings(points, games, anchor=1, anchor_elo=1500)
    assert np.allclose(np.array(a.elo) - a.elo[1] + 1500, b.elo)
    assert b.elo[1] == 1500 and b.low[1] == b.high[1] == 1500


def test_a_perfect_score_needs_the_prior():
    points, games = tables([(0, 1, 1)] * 4, 2)
    fit = fit_ratings(points, games, anchor=1)                  # one virtual draw: 4.5 of 5
    assert fit.elo[0] == pytest.approx(elo_from_score(0.9), abs=1e-6)
    with pytest.raises(ValueError, match="won or lost every game"):
        fit_ratings(points, games, anchor=1, prior_draws=0)


@pytest.mark.parametrize("points, games, anchor, message", [
    ([[0, 1], [0, 0]], [[0, 1], [1, 0]], 5, "anchor"),
    ([[0, 1], [0, 0]], [[0, 2], [2, 0]], 0, "must equal"),
    ([[0, 1], [0, 0]], [[0, 1]], 0, "square"),
    ([[0, -1], [2, 0]], [[0, 1], [1, 0]], 0, ">= 0"),
    ([[0, 1, 0], [0, 0, 0], [0, 0, 0]], [[0, 1, 0], [1, 0, 0], [0, 0, 0]], 0, "players 2"),
])
def test_bad_tables(points, games, anchor, message):
    with pytest.raises(ValueError, match=message):
        fit_ratings(points, games, anchor=anchor)
