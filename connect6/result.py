"""What a search says, and the one place it is worded and serialised.

* :class:`Score`: a search value from the side to move's point of view,
  either an evaluation in the road weights' units (like centipawns) or a
  forced result, "win in N" / "loss in N" turns (like a mate score);
  :class:`PovScore` is a score together with the side it belongs to, so it
  can be read from either colour's point of view (python-chess's
  ``Score``/``PovScore`` in spirit).
* :class:`SearchResult` (a finished search) and :class:`Info` (one finished
  iteration of a running one) become

  - a JSON object through :meth:`SearchResult.to_json` / :meth:`Info.to_json`
    (``connect6 analyze --json``, the web board),
  - a game record's ``evals`` entry through :meth:`SearchResult.to_record`,
  - a sentence for people through :meth:`SearchResult.describe` /
    :meth:`Info.describe` (the engine protocol's info lines, ``connect6
    analyze``).

>>> s = Score(WIN_SCORE - 3)
>>> str(s), s.win_in, str(-s), str(Score(140))
('win in 3', 3, 'loss in 3', '+140')
>>> PovScore(Score(140), Color.WHITE).black()
Score(value=-140)
>>> str(PovScore(Score(WIN_SCORE - 2), Color.WHITE))
'white wins in 2'
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Dict, Optional, Sequence, Tuple

from connect6._core import search as _search
from connect6.notation import Color, Move

__all__ = ["WIN_SCORE", "FORCED_MARGIN", "SOURCES", "Score", "PovScore", "SearchResult", "Info", "score_text",
           "win_in", "forced_win", "forced_loss"]

WIN_SCORE: int = _search.WIN
#: a score within this many turns of WIN_SCORE is a forced six (threat-space lines can be long)
FORCED_MARGIN: int = _search.FORCED
#: where a search's move can come from (SearchResult.source); see engine_core/root.pxd
SOURCES = ("search", "solver", "unfinished", "resist", "book")


def win_in(score: int) -> Optional[int]:
    """Turns to a forced six for a search score: positive when the side to
    move wins, negative when it loses, None when no forced result was seen
    (or the score is beyond the scale: a bound, not a distance)."""
    if abs(score) > WIN_SCORE:
        return None
    if score >= WIN_SCORE - FORCED_MARGIN:
        return WIN_SCORE - score
    if score <= -(WIN_SCORE - FORCED_MARGIN):
        return -(WIN_SCORE + score)
    return None


def forced_win(score: int) -> bool:
    """A search score that says the side to move makes six by force (a bound
    beyond the scale included).

    >>> forced_win(WIN_SCORE - 3), forced_win(WIN_SCORE + 1), forced_win(900), forced_win(-(WIN_SCORE - 3))
    (True, True, False, False)
    """
    return score >= WIN_SCORE - FORCED_MARGIN


def forced_loss(score: int) -> bool:
    """A search score that says the opponent of the side to move makes six by force."""
    return forced_win(-score)


@dataclasses.dataclass(frozen=True, order=True)
class Score:
    """A search value for the side to move: an evaluation (``value``, in the
    weights' units) or, near ``WIN_SCORE``, a forced six in ``win_in`` turns
    (negative: a forced loss).  Ordered as the search orders them."""

    value: int

    @property
    def win_in(self) -> Optional[int]:
        """Turns to a forced six (this one included): positive for a win,
        negative for a loss, None for an evaluation."""
        return win_in(self.value)

    @property
    def is_forced(self) -> bool:
        return self.win_in is not None or abs(self.value) >= WIN_SCORE

    def __neg__(self) -> "Score":
        """The same score from the opponent's point of view."""
        return Score(-self.value)

    def __str__(self) -> str:
        """``+140``, ``win in 3``, ``loss in 2`` (the raw values near WIN_SCORE never show)."""
        if self.value >= WIN_SCORE or self.value <= -WIN_SCORE:    # beyond the scale (a bound, not a distance)
            return "win" if self.value > 0 else "loss"
        w = self.win_in
        if w is None:
            return f"{self.value:+d}"
        return f"win in {w}" if w > 0 else f"loss in {-w}"

    def to_json(self) -> Dict[str, Any]:
        """``{"score": value, "win_in": N or null, "score_text": text}``."""
        return {"score": self.value, "win_in": self.win_in, "score_text": str(self)}


def score_text(score: int) -> str:
    """A side-to-move score for people (see :class:`Score`).

    >>> score_text(140), score_text(0), score_text(WIN_SCORE - 3), score_text(-(WIN_SCORE - 2))
    ('+140', '+0', 'win in 3', 'loss in 2')
    """
    return str(Score(score))


@dataclasses.dataclass(frozen=True)
class PovScore:
    """A score (``relative``, for the side ``turn``) readable from either colour."""

    relative: Score
    turn: Color

    def pov(self, color: Color) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if color == self.turn else -self.relative

    def black(self) -> Score:
        return self.pov(Color.BLACK)

    def white(self) -> Score:
        return self.pov(Color.WHITE)

    def __str__(self) -> str:
        """For a board seen by both players: a forced result names its winner
        ("black wins in 3", "white has won"), an evaluation is Black's (+140)."""
        score = self.black()
        w = score.win_in
        if w is None:
            return str(score) if abs(score.value) < WIN_SCORE else f"{'black' if score.value > 0 else 'white'} wins"
        who = "black" if score.value > 0 else "white"
        return f"{who} has won" if w == 0 else f"{who} wins in {abs(w)}"

    def to_json(self) -> Dict[str, Any]:
        """Black's view: ``{"score": value, "win_in": N or null, "score_text": text}``."""
        return {"score": self.black().value, "win_in": self.black().win_in, "score_text": str(self)}


def _nps(nodes: int, seconds: float) -> float:
    """Nodes per second; 0.0 when no time was measured: none, or under a
    microsecond (a search that returned at once, a result built by hand),
    whose rate would be a meaningless huge number (or infinite)."""
    return nodes / seconds if 1e-6 <= seconds < math.inf else 0.0


def _line(pv: Sequence[Move]) -> str:
    return " ".join(str(m) for m in pv)


@dataclasses.dataclass(frozen=True)
class Info:
    """One finished iteration of a search: ``depth``, ``score`` (side to
    move), ``pv``, ``nodes`` and ``tss_nodes`` so far, ``time_s`` since the start."""

    depth: int
    score: int
    pv: Tuple[Move, ...]
    nodes: int
    tss_nodes: int
    time_s: float

    @property
    def win_in(self) -> Optional[int]:
        return win_in(self.score)

    @property
    def score_text(self) -> str:
        return str(Score(self.score))

    @property
    def nps(self) -> float:
        """Alpha-beta and threat-space nodes per second (0.0 at zero time)."""
        return _nps(self.nodes + self.tss_nodes, self.time_s)

    def to_json(self) -> Dict[str, Any]:
        """The JSON form (see the module docstring): depth, score, win_in,
        score_text, pv, nodes (alpha-beta), tss_nodes, nps (both kinds), time_s."""
        return {"depth": self.depth, **Score(self.score).to_json(), "pv": [str(m) for m in self.pv],
                "nodes": self.nodes, "tss_nodes": self.tss_nodes,
                "nps": round(self.nps), "time_s": round(self.time_s, 3)}

    def describe(self) -> str:
        """One line for people and for the protocol's info lines:
        ``depth 5 score +140 nodes 1234 nps 56789 time 0.022 s pv j10k10 ...``."""
        return (f"depth {self.depth} score {self.score_text} nodes {self.nodes + self.tss_nodes} "
                f"nps {self.nps:.0f} time {self.time_s:.3f} s pv {_line(self.pv)}")


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What a search found.  ``score`` is from the side to move's point of view;
    ``pv`` starts with ``move``; ``depth`` is the deepest finished iteration;
    ``nodes`` counts alpha-beta nodes, ``tss_nodes`` threat-space nodes.

    ``source`` says where the move came from: ``"search"`` (the deepest
    finished alpha-beta iteration), ``"solver"`` (the threat-space solver
    proved a win; ``pv`` is its line), ``"unfinished"`` (the clock stopped an
    iteration in which another root pair had finished better; ``pv`` is the
    move alone), ``"resist"`` (the defence check replaced the searched move,
    after which the opponent would still win by VCDT; ``pv`` is the new move
    alone and ``score`` stays the search's value of the position) or
    ``"book"`` (the opening book, unsearched: ``book`` True, depth 0, no
    nodes, ``score`` the value the book was checked with, 0 when it has none).
    ``refuted`` is True when the reply check (the ``reply_check`` option)
    found that the opponent wins by force after the move, and after every
    other root pair it checked: the search expects to lose, though
    alpha-beta saw no forced loss within its depth, and ``score`` is the
    move's own value."""

    move: Move
    score: int
    pv: Tuple[Move, ...]
    depth: int
    nodes: int
    leaves: int
    time_s: float
    tss_nodes: int = 0          #: nodes of the threat-space (VCDT) searches
    book: bool = False          #: the move came from the opening book, unsearched
    refuted: bool = False       #: the reply check found a forced win of the opponent after the move
    source: str = "search"      #: where the move came from (see SOURCES)

    @property
    def win_in(self) -> Optional[int]:
        """Turns to a forced six: positive when the side to move wins, negative
        when it loses, None when the search saw no forced result."""
        return win_in(self.score)

    @property
    def score_text(self) -> str:
        """The score for people (see :class:`Score`).

        >>> r = SearchResult(Move.parse("j10"), WIN_SCORE - 3, (), 4, 100, 50, 0.1)
        >>> r.score_text, dataclasses.replace(r, score=-(WIN_SCORE - 2)).score_text
        ('win in 3', 'loss in 2')
        """
        return str(Score(self.score))

    def pov_score(self, turn: Color) -> PovScore:
        """The score with its side (``turn``: the side that was to move)."""
        return PovScore(Score(self.score), turn)

    @property
    def nps(self) -> float:
        """Alpha-beta and threat-space nodes per second (0.0 at zero time)."""
        return _nps(self.nodes + self.tss_nodes, self.time_s)

    def to_json(self) -> Dict[str, Any]:
        """The JSON form: move (and its protocol text), depth, score, win_in,
        score_text, pv, nodes, tss_nodes, leaves, nps, time_s, refuted, source, book."""
        return {"move": str(self.move), "protocol": self.move.to_protocol(), "depth": self.depth,
                **Score(self.score).to_json(), "pv": [str(m) for m in self.pv], "nodes": self.nodes,
                "tss_nodes": self.tss_nodes, "leaves": self.leaves, "nps": round(self.nps),
                "time_s": round(self.time_s, 4), "refuted": self.refuted, "source": self.source, "book": self.book}

    def to_record(self) -> Dict[str, Any]:
        """A game record's ``evals`` entry: ``score``, ``depth``, ``nodes``,
        ``tss_nodes``, and ``book``, ``refuted`` and ``source`` only when they
        say something (True, or a source other than "search")."""
        out: Dict[str, Any] = {"score": self.score, "depth": self.depth, "nodes": self.nodes,
                               "tss_nodes": self.tss_nodes}
        if self.book:
            out["book"] = True
        if self.refuted:
            out["refuted"] = True
        if self.source != "search":
            out["source"] = self.source
        return out

    def describe(self) -> str:
        """One line for people and for the protocol's info lines:
        ``j10k10 depth 12 score +140 nodes 1234 nps 5678 time 0.217 s pv j10k10 ...``,
        with ``refuted`` and the source when it is not the search's."""
        notes = "".join([" refuted" if self.refuted else "",
                         f" ({self.source})" if self.source != "search" else ""])
        return (f"{self.move} depth {self.depth} score {self.score_text}{notes} "
                f"nodes {self.nodes + self.tss_nodes} nps {self.nps:.0f} time {self.time_s:.3f} s "
                f"pv {_line(self.pv)}")


def record_text(record: Dict[str, Any]) -> str:
    """A game record's ``evals`` entry (see :meth:`SearchResult.to_record`) as
    the SGF comment's words: ``+140/12``, ``loss in 7/14``, ``-410/16 refuted``, ``book``."""
    if record.get("book"):
        return "book"
    refuted = " refuted" if record.get("refuted") else ""
    return f"{Score(int(record['score']))}/{record['depth']}{refuted}"
