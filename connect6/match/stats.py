"""Match statistics from A's point of view: Elo, LOS, pentanomial pairs, the SPRT, the summary.

>>> round(elo_from_score(0.75), 1)
190.8
>>> s = compute_stats([{"game": 1, "pair": 1, "winner": "a", "result": "black", "termination": "six"},
...                    {"game": 2, "pair": 1, "winner": None, "result": "draw", "termination": "board_full"}])
>>> (s.wins, s.draws, s.penta)
(1, 1, (0, 0, 0, 1, 0))
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

__all__ = [
    "PENTA_SCORES", "TRI_SCORES", "SprtParams", "Sprt", "MatchStats", "compute_stats", "elo_from_score",
    "score_from_elo", "los", "sprt_llr", "format_summary", "format_elo",
]


def score_from_elo(elo: float) -> float:
    """Expected score for an Elo difference (the logistic model); 0.0 and 1.0
    far beyond the scale (no OverflowError)."""
    x = -elo / 400.0 * math.log(10.0)
    if x > 700.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(x))


def elo_from_score(score: float) -> float:
    """The Elo difference of an expected score (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(A is stronger), from wins and losses (draws do not count)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _mean_var(values: Sequence[float], counts: Sequence[float]) -> Tuple[float, float, float]:
    n = float(sum(counts))
    if n <= 0:
        return math.nan, math.nan, 0.0
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    return mean, var, n


_Z95 = 1.959963984540054
PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)   # a pair's mean score for 0, 1/2, 1, 3/2, 2 points
TRI_SCORES = (0.0, 0.5, 1.0)


#: The largest |Elo| an SPRT bound may name: a score of 0.3% or 99.7% (beyond, the scores
#: a game can give are all but equal under both hypotheses, and far beyond it they overflow).
MAX_SPRT_ELO = 1000


def _check_elo_bounds(elo0: float, elo1: float) -> None:
    for name, v in (("elo0", elo0), ("elo1", elo1)):
        if not -MAX_SPRT_ELO <= v <= MAX_SPRT_ELO:      # NaN fails too
            raise ValueError(f"SPRT {name} must be between {-MAX_SPRT_ELO} and {MAX_SPRT_ELO} Elo, not {v}")


@dataclasses.dataclass(frozen=True)
class SprtParams:
    """H0: Elo = ``elo0`` against H1: Elo = ``elo1`` (logistic Elo), error rates ``alpha`` and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0.0 < v < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, not {v}")
        _check_elo_bounds(self.elo0, self.elo1)
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT elo1 ({self.elo1}) must be greater than elo0 ({self.elo0})")

    @property
    def lower(self) -> float:
        return math.log(self.beta) - math.log1p(-self.alpha)

    @property
    def upper(self) -> float:
        return math.log1p(-self.beta) - math.log(self.alpha)   # finite for the least alpha


def _tilt(probs: Sequence[float], scores: Sequence[float], target: float) -> float:
    """The theta for which p_i = probs_i / (1 + theta (scores_i - target)) is the
    maximum-likelihood distribution with mean ``target`` (found by bisection)."""
    d = [a - target for a in scores]
    lo = -1.0 / max(d) if max(d) > 0 else -1e12
    hi = -1.0 / min(d) if min(d) < 0 else 1e12

    def excess(theta: float) -> float:  # decreasing in theta; zero at the answer
        return sum(p * di / (1.0 + theta * di) for p, di in zip(probs, d))

    span = hi - lo
    lo, hi = lo + 1e-12 * span, hi - 1e-12 * span
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def sprt_llr(counts: Sequence[float], elo0: float, elo1: float, scores: Sequence[float] = PENTA_SCORES) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0): the generalized SPRT.

    ``counts`` are the frequencies of the outcomes whose scores are ``scores``
    (pentanomial pairs by default, ``TRI_SCORES`` for single games).  Under
    each hypothesis the outcome distribution is the maximum-likelihood one
    whose expected score is that of its Elo (logistic model); the LLR is
    N * sum_i f_i log(p1_i / p0_i) over the observed frequencies f.  Empty
    outcome classes count as 1e-3 so that every expected score is reachable.
    """
    _check_elo_bounds(elo0, elo1)
    n = float(sum(counts))
    if n <= 0:
        return 0.0
    regular = [c if c > 0 else 1e-3 for c in counts]
    total = sum(regular)
    freqs = [c / total for c in regular]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    t0, t1 = _tilt(freqs, scores, s0), _tilt(freqs, scores, s1)
    return n * sum(f * (math.log1p(t0 * (a - s0)) - math.log1p(t1 * (a - s1))) for f, a in zip(freqs, scores))


@dataclasses.dataclass(frozen=True)
class Sprt:
    params: SprtParams
    llr: float

    @property
    def decision(self) -> Optional[str]:
        """``"H1"`` (A is better by elo1), ``"H0"`` or None (go on)."""
        if self.llr >= self.params.upper:
            return "H1"
        if self.llr <= self.params.lower:
            return "H0"
        return None


@dataclasses.dataclass(frozen=True)
class MatchStats:
    """A match from A's point of view."""

    wins: int
    losses: int
    draws: int
    penta: Tuple[int, int, int, int, int]   #: pairs with A's points 0, 1/2, 1, 3/2, 2: [LL, LD, WL+DD, WD, WW]
    black_wins: int
    white_wins: int
    forfeits: Dict[str, Dict[str, int]]      #: {"a"/"b": {termination: count}} for non-six losses
    sprt: Optional[Sprt] = None
    #: {"a"/"b": (moves timed, seconds in all, longest move)}: each side's thinking time
    move_times: Dict[str, Tuple[int, float, float]] = dataclasses.field(
        default_factory=lambda: {"a": (0, 0.0, 0.0), "b": (0, 0.0, 0.0)})

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def pairs(self) -> int:
        return sum(self.penta)

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    @property
    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else math.nan

    @property
    def los(self) -> float:
        return los(self.wins, self.losses)

    @property
    def elo(self) -> float:
        return elo_from_score(self.score) if self.games else math.nan

    def mean_time(self, side: str) -> float:
        """Side ``side``'s ("a" or "b") mean seconds per move (nan: no move timed)."""
        moves, total, _ = self.move_times[side]
        return total / moves if moves else math.nan

    def forfeit_summary(self, side: str) -> str:
        """Side ``side``'s games lost by forfeit, by termination ("stall 1, time 2"; "": none)."""
        return ", ".join(f"{k} {v}" for k, v in sorted(self.forfeits[side].items()))

    def elo_estimate(self) -> Tuple[float, float, float, str]:
        """The Elo difference and its 95% interval: (elo, low, high, model).

        A normal approximation of the mean score: per colour-swapped pair
        (``"pentanomial"``, from the complete pairs only) when there are at
        least two complete pairs, else per game (``"trinomial"``).  The
        interval is (nan, nan) when every pair (game) scored the same.
        """
        if self.pairs >= 2:
            mean, var, n = _mean_var(PENTA_SCORES, self.penta)
            model = "pentanomial"
        else:
            mean, var, n = _mean_var(TRI_SCORES, (self.losses, self.draws, self.wins))
            model = "trinomial"
        if n == 0:
            return math.nan, math.nan, math.nan, model
        if var == 0:
            return elo_from_score(mean), math.nan, math.nan, model
        half = _Z95 * math.sqrt(var / n)
        return elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half), model


def _add_times(times: Dict[str, List[float]], record: Mapping[str, Any]) -> None:
    """Add a record's move times (``times``, null for the opening's turns) to its sides' tallies."""
    a_black = record.get("a_color", "black") == "black"
    times_list = record.get("times")
    for turn, t in enumerate(times_list if isinstance(times_list, list) else ()):
        if isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t):
            tally = times["a" if (turn % 2 == 0) == a_black else "b"]
            tally[0] += 1
            tally[1] += t
            tally[2] = max(tally[2], t)


def compute_stats(records: Iterable[Mapping[str, Any]], sprt: Optional[SprtParams] = None) -> MatchStats:
    """Statistics of finished games (JSONL records) from A's point of view."""
    wins = losses = draws = black_wins = white_wins = 0
    points_by_pair: Dict[int, List[float]] = {}
    forfeits: Dict[str, Dict[str, int]] = {"a": {}, "b": {}}
    times: Dict[str, List[float]] = {"a": [0, 0.0, 0.0], "b": [0, 0.0, 0.0]}
    for r in records:
        _add_times(times, r)
        if r["winner"] == "a":
            wins += 1
            points = 1.0
        elif r["winner"] == "b":
            losses += 1
            points = 0.0
        else:
            draws += 1
            points = 0.5
        if r["result"] == "black":
            black_wins += 1
        elif r["result"] == "white":
            white_wins += 1
        if r["winner"] is not None and r.get("termination") not in ("six", "board_full"):
            loser = "b" if r["winner"] == "a" else "a"
            forfeits[loser][r["termination"]] = forfeits[loser].get(r["termination"], 0) + 1
        points_by_pair.setdefault(r["pair"], []).append(points)
    penta = [0, 0, 0, 0, 0]
    for pts in points_by_pair.values():
        if len(pts) == 2:
            penta[int(round(2 * sum(pts)))] += 1
    stats = MatchStats(wins, losses, draws, (penta[0], penta[1], penta[2], penta[3], penta[4]), black_wins, white_wins,
                       forfeits, move_times={k: (int(n), total, longest) for k, (n, total, longest) in times.items()})
    if sprt is not None:
        stats = dataclasses.replace(stats, sprt=Sprt(sprt, sprt_llr(penta, sprt.elo0, sprt.elo1)))
    return stats


def format_elo(x: float) -> str:
    """An Elo difference for people.

    >>> format_elo(12.345), format_elo(float("inf")), format_elo(float("nan"))
    ('+12.3', '+inf', 'n/a')
    """
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    if abs(x) < 0.05:
        return "0.0"
    return f"{x:+.1f}"


def format_summary(stats: MatchStats, a: str, b: str) -> str:
    """The end-of-match report, in the manner of cutechess-cli."""
    lines = [f"Score of {a} vs {b}: {stats.wins} - {stats.losses} - {stats.draws}"
             f"  [{stats.score:.3f}] {stats.games}" if stats.games else f"Score of {a} vs {b}: no games"]
    if stats.games:
        elo, lo, hi, model = stats.elo_estimate()
        if math.isfinite(lo) and math.isfinite(hi):
            pm = f" +/- {(hi - lo) / 2:.1f}"
        else:
            pm = ""
        if math.isnan(lo):
            interval = f"no 95% interval: every {'pair' if model == 'pentanomial' else 'game'} scored alike"
        else:
            interval = f"95% interval {format_elo(lo)} .. {format_elo(hi)}, {model}"
        unpaired = stats.games - 2 * stats.pairs
        if model == "pentanomial" and unpaired:     # the Elo may then differ from the score's
            interval += f"; {unpaired} unpaired game{'s' if unpaired != 1 else ''} left out"
        lines.append(f"Elo difference: {format_elo(elo)}{pm}  ({interval}), LOS: {100 * stats.los:.1f}%, "
                     f"draw ratio: {100 * stats.draw_ratio:.1f}%")
        lines.append(f"Pairs [LL, LD, WL+DD, WD, WW] for {a}: {list(stats.penta)}"
                     f" ({stats.pairs} complete pair{'s' if stats.pairs != 1 else ''})")
        lines.append(f"Black won {stats.black_wins}, white won {stats.white_wins}, "
                     f"drawn {stats.games - stats.black_wins - stats.white_wins}")
        if any(n for n, _, _ in stats.move_times.values()):
            lines.append("Time per move: " + ", ".join(
                f"{label} {stats.mean_time(side):.2f} s (longest {stats.move_times[side][2]:.2f} s)"
                for side, label in (("a", a), ("b", b)) if stats.move_times[side][0]))
        for side, label in (("a", a), ("b", b)):
            if stats.forfeits[side]:
                lines.append(f"{label} lost by forfeit: {stats.forfeit_summary(side)}")
    if stats.sprt is not None:
        p = stats.sprt.params
        verdict = {"H1": "H1 was accepted", "H0": "H0 was accepted", None: "no decision yet"}[stats.sprt.decision]
        lines.append(f"SPRT: elo0 {p.elo0:g}, elo1 {p.elo1:g}, alpha {p.alpha:g}, beta {p.beta:g}: "
                     f"LLR {stats.sprt.llr:.2f} [{p.lower:.2f}, {p.upper:.2f}] - {verdict}")
    return "\n".join(lines)


