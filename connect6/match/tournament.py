"""Tournaments: many players, every pairing played as a match, ratings fitted together.

A **round-robin** plays every pair of players; a **gauntlet** plays the first
player against each of the others.  Every pairing plays ``games`` games in
colour-swapped pairs from the **same openings** as every other pairing, and
the games of all pairings are interleaved (round 1 of every pairing, then
round 2, ...), so a tournament stopped early is still balanced.

Results go to one directory like a match's: ``games.jsonl`` in the match
format with ``pairing`` ([i, j], the players' places on the command line,
``a`` being player i) added to each record, ``tournament.json`` (enough to
resume) and ``sgf/``.  Ratings of all players are fitted together by maximum
likelihood (:mod:`connect6.match.ratings`), anchored on one player.

>>> from connect6.match.players import parse_player
>>> cfg = TournamentConfig([parse_player(p) for p in ("paper", "local:depth=1", "global:depth=1")],
...                        format="gauntlet", games=4, seed=1)
>>> cfg.pairings()
[(0, 1), (0, 2)]
>>> t = Tournament(cfg)
>>> [(t.job(g).a.label, t.job(g).b.label, t.job(g).a_black, t.job(g).pair) for g in (1, 2, 3, 4, 5)]
... # doctest: +NORMALIZE_WHITESPACE
[('paper', 'local:depth=1', True, 1), ('paper', 'local:depth=1', False, 1),
 ('paper', 'global:depth=1', True, 2), ('paper', 'global:depth=1', False, 2),
 ('paper', 'local:depth=1', True, 3)]
>>> t.job(1).opening == t.job(3).opening != t.job(5).opening     # the same openings in every pairing
True
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import os
import random
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from connect6.match.game import GameJob
from connect6.match.players import PlayerSpec, time_control
from connect6.match.progress import Progress
from connect6.match.ratings import RatingFit, fit_ratings
from connect6.match.runner import (
    check_schedule, check_unchanged, extend_openings, job_seed, opened_run, resumed_settings, run_schedule,
)
from connect6.match.stats import MatchStats, compute_stats, format_elo
from connect6.match.store import FORMAT, ResultsDir, keep_record

__all__ = ["FORMATS", "TOURNAMENT_FILE", "TournamentConfig", "Tournament"]

FORMATS = ("round-robin", "gauntlet")
#: a tournament's configuration beside its games.jsonl (a match has match.json)
TOURNAMENT_FILE = "tournament.json"


@dataclasses.dataclass
class TournamentConfig:
    """Everything that defines a tournament (stored as ``tournament.json``).

    ``games``: games per pairing.  ``anchor``: the label (or 1-based place)
    of the player held at ``anchor_elo``; default the first player.  The
    other fields are those of :class:`connect6.match.MatchConfig`.
    """

    players: List[PlayerSpec]
    format: str = "round-robin"
    games: int = 2
    openings: Optional[List[str]] = None
    opening_order: str = "sequential"
    move_time: Optional[float] = None
    game_time: Optional[float] = None
    time_margin: float = 0.25
    hang_timeout: float = 60.0
    seed: Optional[int] = None
    cwd: Optional[str] = None
    anchor: Optional[str] = None
    anchor_elo: float = 0.0

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ValueError(f"a tournament needs at least 2 players, not {len(self.players)}")
        if self.format not in FORMATS:
            raise ValueError(f"--format must be {' or '.join(FORMATS)}, not {self.format!r}")
        check_schedule(self)
        if not math.isfinite(self.anchor_elo):
            raise ValueError(f"the anchor's Elo must be a finite number, not {self.anchor_elo}")
        labels = [p.label for p in self.players]
        self.players = [p if labels.count(p.label) == 1 else p.with_label(f"{p.label} #{i + 1}")
                        for i, p in enumerate(self.players)]
        labels = [p.label for p in self.players]
        twice = sorted({label for label in labels if labels.count(label) > 1})
        if twice:   # a name= that is another player's numbered name: the tables could not tell them apart
            raise ValueError(f"two players are named {twice[0]!r}: give one of them another name=")
        self.anchor_index()  # fails early for an unknown anchor

    def anchor_index(self) -> int:
        """The place (0-based) of the anchor player."""
        if self.anchor is None:
            return 0
        labels = [p.label for p in self.players]
        if self.anchor in labels:
            return labels.index(self.anchor)
        texts = [p.text for p in self.players]
        if self.anchor in texts:
            return texts.index(self.anchor)
        if self.anchor.isdigit() and 1 <= int(self.anchor) <= len(self.players):
            return int(self.anchor) - 1
        raise ValueError(f"--anchor {self.anchor!r} is none of the players ({', '.join(labels)}) "
                         f"nor a place 1..{len(labels)}")

    def pairings(self) -> List[Tuple[int, int]]:
        """The pairings (i, j) in schedule order; player i is A (Black in odd games)."""
        k = len(self.players)
        if self.format == "gauntlet":
            return [(0, j) for j in range(1, k)]
        return [(i, j) for i in range(k) for j in range(i + 1, k)]


class Tournament:
    """A tournament: the schedule of every pairing's games and the results so far.

    Game numbers run over the whole tournament: the games of round ``r``
    (one colour-swapped pair) of every pairing come before round ``r + 1``.
    ``out`` and ``resume`` work as for :class:`connect6.match.Match`.
    """

    def __init__(self, config: TournamentConfig, out: Optional[str] = None, resume: bool = False):
        self.config = config
        self.out = out
        self.store: Optional[ResultsDir] = None
        if out is not None:
            self.store = ResultsDir(out)
            self.store.config_path = os.path.join(out, TOURNAMENT_FILE)
        self.records: Dict[int, Dict[str, Any]] = {}
        self.interrupted = False
        self.failures = 0
        self.sprt_stopped_at: Optional[int] = None   # tournaments have no SPRT; the schedule asks
        self.pair_list = config.pairings()
        stored = None
        if self.store is not None:
            if resume:
                stored = self._load(self.store)
            elif self.store.holds_games():
                raise ValueError(f"{out} already holds results: use --resume to continue it, or another --out")
        if stored is not None:
            config.seed = stored["seed"]
            self.pair_openings = list(stored["pair_openings"])
        else:
            if config.seed is None:
                config.seed = random.SystemRandom().randrange(2 ** 31)
            self.pair_openings = []
        self.rounds = (config.games + 1) // 2
        extend_openings(self.pair_openings, self.rounds, config.openings, config.opening_order, config.seed)

    # ------------------------------------------------------------ schedule
    def locate(self, game: int) -> Tuple[int, int]:
        """(pairing index, game index within the pairing, 0-based) of game number ``game``."""
        index = game - 1
        slots = 2 * len(self.pair_list)
        return (index % slots) // 2, 2 * (index // slots) + index % 2

    def scheduled(self, game: int) -> bool:
        """Whether game number ``game`` is one of this tournament's (a resume
        with a smaller ``games`` leaves the stored games past it out)."""
        return 1 <= game <= 2 * len(self.pair_list) * self.rounds and self.locate(game)[1] < self.config.games

    def pending(self) -> List[int]:
        total = 2 * len(self.pair_list) * self.rounds
        return [g for g in range(1, total + 1) if self.scheduled(g) and g not in self.records]

    def job(self, game: int) -> GameJob:
        c = self.config
        k, m = self.locate(game)
        i, j = self.pair_list[k]
        return GameJob(
            game=game, pair=(game + 1) // 2, a=c.players[i], b=c.players[j], a_black=(m % 2 == 0),
            opening=self.pair_openings[m // 2], seed=job_seed(c.seed, game), move_time=c.move_time,
            game_time=c.game_time, time_margin=c.time_margin, hang_timeout=c.hang_timeout, cwd=c.cwd or os.getcwd())

    def results(self) -> List[Dict[str, Any]]:
        return [self.records[g] for g in sorted(self.records) if self.scheduled(g)]

    @property
    def total_games(self) -> int:
        return len(self.pair_list) * self.config.games

    # ------------------------------------------------------------ storage
    def config_data(self) -> Dict[str, Any]:
        c = self.config
        return {
            "format": FORMAT, "kind": "tournament", "tournament_format": c.format,
            "players": [p.text for p in c.players], "games": c.games, "seed": c.seed,
            "move_time": c.move_time, "game_time": c.game_time, "time_margin": c.time_margin,
            "hang_timeout": c.hang_timeout, "opening_order": c.opening_order,
            "openings": "random" if c.openings is None else "file", "pair_openings": self.pair_openings,
        }

    def _load(self, store: ResultsDir) -> Optional[Dict[str, Any]]:
        c = self.config
        stored = store.read_resumable_config()
        records = store.read_games()
        if stored is None:
            if records:
                raise ValueError(f"cannot resume: {store.config_path} is missing (is {store.out} a match, "
                                 "not a tournament?)")
            return None
        check_unchanged(stored, {"players": [p.text for p in c.players], "tournament_format": c.format,
                                 **resumed_settings(c)}, "tournament")
        for r in records:
            i, j = self.pair_list[self.locate(int(r["game"]))[0]]
            if r.get("pairing") != [i, j] or r["a"] != c.players[i].text or r["b"] != c.players[j].text:
                raise ValueError(f"{store.games_path}: game {r['game']} was {r['a']} vs {r['b']} "
                                 f"(pairing {r.get('pairing')}), not pairing {[i, j]} of this tournament")
            self.records[int(r["game"])] = r
        return stored

    def _finished(self, record: Dict[str, Any], reporter: Progress) -> bool:
        k, _ = self.locate(int(record["game"]))
        record = dict(record, pairing=list(self.pair_list[k]), event="connect6 tournament")
        keep_record(self.records, self.store, record)
        reporter.update(record, self.pairing_stats(k))
        return False

    # ------------------------------------------------------------ running
    def run(self, executor: Optional[concurrent.futures.Executor] = None, concurrency: Optional[int] = None,
            progress: Union[str, Progress] = "auto") -> Optional[RatingFit]:
        """Play the pending games (see :meth:`connect6.match.Match.run`) and return the ratings."""
        pending = self.pending()
        with opened_run(self, progress, self.total_games, len(self.results())) as reporter:
            if reporter is not None:
                schedule = run_schedule(self, pending, executor, concurrency, reporter)
                self.failures = schedule.failures if schedule is not None else 0
        return self.ratings()

    # ------------------------------------------------------------ results
    def pairing_stats(self, k: int) -> MatchStats:
        """The statistics of pairing ``k`` from its first player's point of view."""
        pairing = list(self.pair_list[k])
        return compute_stats(r for r in self.results() if r.get("pairing") == pairing)

    def table(self) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(points[i][j], games[i][j]): what player i scored against player j, in how many games."""
        n = len(self.config.players)
        points, games = np.zeros((n, n)), np.zeros((n, n))
        for r in self.results():
            i, j = r["pairing"]
            s = {"a": 1.0, "b": 0.0, None: 0.5}[r["winner"]]
            points[i, j] += s
            points[j, i] += 1.0 - s
            games[i, j] += 1
            games[j, i] += 1
        return points, games

    def ratings(self, prior_draws: float = 1.0) -> Optional[RatingFit]:
        """All players' ratings fitted together, or None while the games played do not link every player."""
        points, games = self.table()
        try:
            return fit_ratings(points, games, anchor=self.config.anchor_index(),
                               anchor_elo=self.config.anchor_elo, prior_draws=prior_draws)
        except ValueError:
            return None

    def summary(self) -> str:
        """The ranking, the cross-table and the pairings' statistics, for people."""
        return "\n".join(self._ranking() + [""] + self._cross_table() + [""] + self._pairing_lines())

    def _ranking(self) -> List[str]:
        c = self.config
        points, games = self.table()
        fit = self.ratings()
        anchor = c.players[c.anchor_index()].label
        lines = [f"Tournament ({c.format}, {len(c.players)} players, {len(self.results())} of {self.total_games} "
                 f"games), Elo anchored on {anchor} = {c.anchor_elo:g}:"]
        width = max(len(p.label) for p in c.players)
        lines.append(f"{'rank':>4}  {'player':<{width}}  {'Elo':>7}  {'95% interval':>17}  {'score':>11}  "
                     "time control")
        order = sorted(range(len(c.players)), key=lambda i: -(fit.elo[i] if fit else points[i].sum()))
        for rank, i in enumerate(order, 1):
            p = c.players[i]
            elo = format_elo(fit.elo[i]) if fit else "n/a"
            interval = f"{format_elo(fit.low[i])} .. {format_elo(fit.high[i])}" if fit and i != fit.anchor else ""
            score = f"{points[i].sum():g}/{games[i].sum():g}"
            lines.append(f"{rank:>4}  {p.label:<{width}}  {elo:>7}  {interval:>17}  {score:>11}  "
                         f"{time_control(p, c.move_time, c.game_time, c.hang_timeout)}")
        if fit is None:
            lines.append("(no ratings yet: the games played do not link every player)")
        return lines

    def _cross_table(self) -> List[str]:
        c = self.config
        points, games = self.table()
        width = max(len(p.label) for p in c.players)
        cell = max(7, len(f"{games.max():g}") * 2 + 3)
        lines = ["Cross-table (points of the row's player against the column's / games):",
                 " " * (width + 5) + "".join(f"{j + 1:>{cell}}" for j in range(len(c.players)))]
        for i, p in enumerate(c.players):
            cells = ["-" if i == j else (f"{points[i, j]:g}/{games[i, j]:g}" if games[i, j] else ".")
                     for j in range(len(c.players))]
            lines.append(f"{i + 1:>3}  {p.label:<{width}}" + "".join(f"{x:>{cell}}" for x in cells))
        return lines

    def _pairing_lines(self) -> List[str]:
        c = self.config
        lines = ["Pairings (W-L-D and pairs [LL, LD, WL+DD, WD, WW] for the first player):"]
        for k, (i, j) in enumerate(self.pair_list):
            s = self.pairing_stats(k)
            if not s.games:
                lines.append(f"  {c.players[i].label} vs {c.players[j].label}: no games")
                continue
            elo = s.elo_estimate()[0]
            lines.append(f"  {c.players[i].label} vs {c.players[j].label}: {s.wins}-{s.losses}-{s.draws}, "
                         f"pairs {list(s.penta)}, Elo {format_elo(elo)}")
        return lines
