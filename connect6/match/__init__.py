"""Engine-vs-engine matches: players, games, statistics, SPRT, results and the runner.

A match between players A and B is played in colour-swapped **pairs** of
games from the same opening (:mod:`connect6.match.runner`), each game a
picklable, seeded job (:mod:`connect6.match.game`) run on any
``concurrent.futures`` executor.  The package, by concern:

* :mod:`~connect6.match.players`: the player-spec language (``paper``,
  ``local:depth=3,width=10``, ``cmd:"./engine"``, ``py:module:function``) and
  the adapters that ask a player for a move; a crash, timeout, illegal or
  malformed move forfeits the game;
* :mod:`~connect6.match.game`: one game, its clock and its record;
* :mod:`~connect6.match.stats`: Elo, LOS, pentanomial pairs, the SPRT, the summary;
* :mod:`~connect6.match.store`: ``match.json``, ``games.jsonl`` (crash-safe,
  resumable) and the SGF files;
* :mod:`~connect6.match.progress`: progress displays;
* :mod:`~connect6.match.runner`: :class:`Match` and :class:`MatchConfig`;
* :mod:`~connect6.match.tournament`: :class:`Tournament` (round-robin,
  gauntlet), with ratings fitted together (:mod:`~connect6.match.ratings`);
* :mod:`~connect6.match.cluster`: games on a Dask cluster (optional extra).

Openings files are read by :func:`connect6.records.load_openings`.

>>> spec = parse_player("local:depth=3,width=10")
>>> spec.kind, spec.engine_options.scan
('engine', 'local')
"""
from connect6.match.game import CLOCK_SHARE, MIN_BUDGET, GameJob, play_game
from connect6.match.players import PlayerSpec, check_player, parse_player
from connect6.match.progress import PROGRESS_KINDS, make_progress
from connect6.match.ratings import RatingFit, fit_ratings
from connect6.match.runner import Match, MatchConfig, stop_on_sigterm
from connect6.match.tournament import Tournament, TournamentConfig
from connect6.match.stats import (
    PENTA_SCORES, TRI_SCORES, MatchStats, Sprt, SprtParams, compute_stats, elo_from_score, format_summary, los,
    score_from_elo, sprt_llr,
)
from connect6.match.store import (
    CONFIG_FILE, GAMES_FILE, SGF_DIR, TORN_SUFFIX, ResultsFolderBusy, ResultsWriteError, read_results, sgf_text,
)
from connect6.records import load_openings, random_openings

__all__ = [
    "PlayerSpec", "parse_player", "check_player", "GameJob", "play_game", "load_openings", "random_openings",
    "MatchConfig", "Match", "MatchStats", "SprtParams", "Sprt", "compute_stats", "elo_from_score",
    "score_from_elo", "los", "sprt_llr", "format_summary", "read_results", "make_progress", "sgf_text",
    "PROGRESS_KINDS", "GAMES_FILE", "CONFIG_FILE", "SGF_DIR", "TORN_SUFFIX", "PENTA_SCORES", "TRI_SCORES",
    "CLOCK_SHARE", "MIN_BUDGET", "Tournament", "TournamentConfig", "RatingFit", "fit_ratings", "stop_on_sigterm",
    "ResultsFolderBusy", "ResultsWriteError",
]
