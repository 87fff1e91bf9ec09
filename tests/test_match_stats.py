"""connect6.match.stats: Elo, LOS, pentanomial pairs, the SPRT and the summary."""
import math

import pytest

from connect6.match import (
    PENTA_SCORES, TRI_SCORES, SprtParams, compute_stats, elo_from_score, format_summary, los, score_from_elo,
    sprt_llr,
)
from connect6.match.stats import MatchStats


def test_elo_and_score():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(1) == math.inf and elo_from_score(0) == -math.inf
    for elo in (-400, -35.5, 0, 100, 800):
        assert score_from_elo(elo) == pytest.approx(1 / (1 + 10 ** (-elo / 400)))
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)


def test_los():
    assert los(0, 0) == 0.5 and los(5, 5) == 0.5
    assert los(10, 0) > 0.99 and los(0, 10) < 0.01
    assert los(12, 8) == pytest.approx(0.8145, abs=1e-4)


def rec(game, winner, result="black", termination="six"):
    return {"game": game, "pair": (game + 1) // 2, "winner": winner, "result": result, "termination": termination}


def test_compute_stats_and_pentanomial():
    records = [rec(1, "a"), rec(2, "a", "white"),          # WW
               rec(3, "a"), rec(4, "b", "black"),          # WL
               rec(5, None, "draw", "board_full"), rec(6, None, "draw", "board_full"),   # DD
               rec(7, "b", "white", "timeout"), rec(8, None, "draw", "board_full"),      # LD
               rec(9, "a")]                                # unpaired
    s = compute_stats(records)
    assert (s.wins, s.losses, s.draws, s.games) == (4, 2, 3, 9)
    assert s.penta == (0, 1, 2, 0, 1) and s.pairs == 4
    assert s.score == pytest.approx(5.5 / 9)
    assert s.forfeits == {"a": {"timeout": 1}, "b": {}}
    assert (s.black_wins, s.white_wins) == (4, 2)
    elo, lo, hi, model = s.elo_estimate()
    assert model == "pentanomial" and lo < elo < hi
    assert elo == pytest.approx(elo_from_score(4.5 / 8))     # the complete pairs: WW 2 + WL 1 + DD 1 + LD 0.5
    text = format_summary(s, "A", "B")
    assert "4 - 2 - 3" in text and "[0, 1, 2, 0, 1]" in text and "A lost by forfeit: timeout 1" in text


def test_each_sides_time_per_move():
    """Times are counted by the side that moved: black moves at even turns,
    the opening's turns (null) are no one's; A plays black in game 1, white in game 2."""
    records = [dict(rec(1, "a"), a_color="black", times=[None, None, 1.0, 3.0, 2.0]),
               dict(rec(2, "b", "black"), a_color="white", times=[None, 0.5, 4.0, 1.5])]
    s = compute_stats(records)
    assert s.move_times == {"a": (4, 5.0, 2.0), "b": (2, 7.0, 4.0)}
    assert s.mean_time("a") == pytest.approx(1.25) and s.mean_time("b") == pytest.approx(3.5)
    assert "Time per move: A 1.25 s (longest 2.00 s), B 3.50 s (longest 4.00 s)" in format_summary(s, "A", "B")
    assert compute_stats([dict(rec(1, "a"), times="1.5"), dict(rec(2, "a"), times=[None, "x", True, 2.0])]
                         ).move_times == {"a": (0, 0.0, 0.0), "b": (1, 2.0, 2.0)}   # what is not a time counts for no one
    untimed = compute_stats([rec(1, "a")])
    assert math.isnan(untimed.mean_time("a")) and "Time per move" not in format_summary(untimed, "A", "B")


def test_trinomial_interval_without_pairs():
    s = compute_stats([rec(1, "a"), rec(3, "b")])
    elo, lo, hi, model = s.elo_estimate()
    assert model == "trinomial" and lo < elo == 0 < hi
    assert math.isnan(compute_stats([rec(1, "a"), rec(2, "a")]).elo_estimate()[1])   # no spread: no interval


def test_interval_shrinks_with_more_games():
    few = compute_stats([rec(g, "a" if g % 3 else "b") for g in range(1, 21)])
    many = compute_stats([rec(g, "a" if g % 3 else "b") for g in range(1, 201)])
    width = lambda s: s.elo_estimate()[2] - s.elo_estimate()[1]   # noqa: E731
    assert width(many) < width(few)


def test_sprt_llr_matches_the_normal_approximation_on_large_samples():
    counts = [100, 200, 400, 250, 150]
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PENTA_SCORES)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PENTA_SCORES)) / n
    s0, s1 = score_from_elo(0), score_from_elo(10)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt_llr(counts, 0, 10) == pytest.approx(approx, rel=0.03)


def test_sprt_llr_properties():
    assert sprt_llr([0, 0, 0, 0, 0], 0, 10) == 0
    assert sprt_llr([0, 0, 0, 0, 1], 0, 10) < 0.1          # one pair decides nothing
    assert sprt_llr([0, 0, 0, 0, 30], 0, 100) > 2.94       # but thirty won pairs do
    assert sprt_llr([30, 0, 0, 0, 0], 0, 100) < -2.94
    assert sprt_llr([1, 2, 4, 2, 1], -10, 10) == pytest.approx(0, abs=1e-9)   # symmetric
    assert sprt_llr([10, 5, 10], -50, 50, TRI_SCORES) == pytest.approx(0, abs=1e-9)
    assert sprt_llr([5, 5, 20], 0, 50, TRI_SCORES) > 0 > sprt_llr([20, 5, 5], 0, 50, TRI_SCORES)
    assert sprt_llr([0, 5, 10, 20, 10], 0, 50) > sprt_llr([0, 5, 10, 20, 10], 0, 5)


def test_sprt_edges_far_out():
    # the score of any Elo, however far out, is a probability (it raised OverflowError)
    assert score_from_elo(-200000) == 0.0 and score_from_elo(200000) == 1.0
    assert score_from_elo(0) == 0.5 and score_from_elo(400) == pytest.approx(10 / 11)
    # bounds beyond the scale are refused, not read as an LLR of 0
    with pytest.raises(ValueError, match="elo1 must be between -1000 and 1000 Elo"):
        sprt_llr([1, 2, 3, 4, 5], 0, 2000)
    # the least positive alpha gives a finite upper bound (H1 could never be accepted)
    tiny = SprtParams(0, 5, 5e-324, 0.05)
    assert math.isfinite(tiny.upper) and tiny.upper > 700



def test_summary_names_unpaired_games_the_elo_leaves_out():
    # 13-4 with 8 pairs: the pairs' Elo (+255) leaves out the odd game, a loss (the score's is +205)
    odd = format_summary(MatchStats(13, 4, 0, (0, 0, 3, 0, 5), 9, 8, {"a": {}, "b": {}}), "A", "B")
    assert "pentanomial; 1 unpaired game left out" in odd
    even = format_summary(MatchStats(13, 3, 0, (0, 0, 3, 0, 5), 9, 7, {"a": {}, "b": {}}), "A", "B")
    assert "pentanomial)" in even and "unpaired" not in even


def test_sprt_params():
    p = SprtParams(0, 10, 0.05, 0.05)
    assert p.lower == pytest.approx(math.log(0.05 / 0.95)) and p.upper == pytest.approx(math.log(0.95 / 0.05))
    for bad in [(10, 0), (0, 10, 0, 0.05), (0, 10, 0.05, 0.6)]:
        with pytest.raises(ValueError):
            SprtParams(*bad)
    # an Elo bound far out overflowed the score after the games were played (and on every --resume)
    for bad in [(-200000, 0), (0, 10 ** 6), (math.nan, 0), (0, math.inf)]:
        with pytest.raises(ValueError, match="between -1000 and 1000 Elo"):
            SprtParams(*bad)
    extreme = SprtParams(-1000, 1000)
    s = compute_stats([rec(g, "a", "black" if g % 2 else "white") for g in range(1, 21)], extreme)
    assert s.sprt is not None and math.isfinite(s.sprt.llr)
    s = compute_stats([rec(g, "a", "black" if g % 2 else "white") for g in range(1, 61)], SprtParams(0, 100))
    assert s.sprt.decision == "H1" and "H1 was accepted" in format_summary(s, "A", "B")
