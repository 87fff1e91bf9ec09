"""Engine options and search limits: one type each, checked once.

:class:`EngineOptions` says *how* the engine searches (width, scan, threat
logic, tables, weights); :class:`Limits` says *how long* (depth in turns,
seconds per move, the game clock), as python-chess's ``Limit`` and
Stockfish's ``LimitsType`` keep the two apart.  Both are frozen and checked
when built, so a value that reaches the compiled core is always in range;
the core receives one C struct made from :meth:`EngineOptions.core_fields`.

The named engine presets (*profiles*) are instances:

>>> from connect6.options import EngineOptions, Limits, parse_engine_spec, profile
>>> profile("paper").scan, profile("paper").width, profile("paper").threats
('local', 10, False)
>>> profile("default", width=14).width
14
>>> name, options, limits = parse_engine_spec("default:time=1.5,width=14")
>>> name, options.width, limits
('default', 14, Limits(depth=None, time=1.5, clock=None, nodes=None))
>>> EngineOptions(width=0)
Traceback (most recent call last):
...
ValueError: width must be an integer in 1..4096, not 0

One time vocabulary: ``time`` is seconds for one move, ``clock`` the
seconds left on a side's game clock.  Weight vectors have presets of their
own, *weight sets* (``connect6.WEIGHT_SETS``: ``"paper"``, ``"texel"``).
"""
from __future__ import annotations

import dataclasses
import math
import numbers
import operator
import os
from typing import Any, Dict, Optional, Tuple, TypedDict, Union, overload

from connect6._core import search as _search
from connect6.weights import WEIGHT_SETS, Vector, resolve_weights, weights_text

#: deepest search in turns (the compiled core's MAX_PLY)
MAX_DEPTH: int = _search.MAX_DEPTH
#: scans of the paper (global, local) and the exact incremental one
SCANS = ("global", "local", "incremental")
SCAN_CODES = {name: code for code, name in enumerate(SCANS)}   # the core's SCAN_GLOBAL, SCAN_LOCAL, SCAN_INCREMENTAL
#: longest time per move a finite search takes (a year); longer or infinite
#: searches run only as analysis that can be stopped (Engine.analysis)
MAX_TIME = 365 * 24 * 3600.0
MAX_BUDGET = 10 ** 12


@dataclasses.dataclass(frozen=True)
class _Rule:
    kind: type
    lo: Optional[int] = None
    hi: Optional[int] = None
    core: bool = True           # copied into the compiled core's option struct
    doc: str = ""


#: every option: its type, range, whether the core reads it, what it does
RULES: Dict[str, _Rule] = {
    "depth": _Rule(int, 1, MAX_DEPTH, False, "turns searched when the limits give neither depth nor time"),
    "width": _Rule(int, 1, 4096, True, "move pairs kept per node"),
    "reply_width": _Rule(int, 0, 4096, True,
                         "pairs kept for the opponent's replies to the root pairs (ply 1; 0: width)"),
    "radius": _Rule(int, 1, 18, True, "candidate cells within this distance of a stone"),
    "potential": _Rule(int, 0, 8, True,
                       "pairs added at the root and ply 1 beyond the width: those that add the most live "
                       "3-roads of the mover (at least 3), the set-ups of a double threat (0: none)"),
    "forcing_replies": _Rule(int, 0, 8, True,
                             "pairs added to the opponent's lists beyond the width (plies 1, 3, ... below "
                             "forcing_plies): its first double threats and as many single fours, the turns "
                             "that start a threat sequence (0: none)"),
    "forcing_own": _Rule(int, 0, 8, True,
                         "the same for the root mover's own nodes (the root, plies 2, 4, ... below "
                         "forcing_plies): its first double threats and as many single fours (0: none)"),
    "forcing_plies": _Rule(int, 0, MAX_DEPTH, True,
                           "forcing_replies and forcing_own at the nodes with ply < this"),
    "scan": _Rule(str, core=True, doc="pair scoring: global, local (the paper's) or incremental (exact, fastest)"),
    "weights": _Rule(object, core=False, doc="evaluation weights: a weight-set name or (f, g)"),
    "order_weights": _Rule(object, core=False, doc="weights that score move pairs (None: the same)"),
    "threats": _Rule(bool, doc="threat-aware nodes: win now, lost, forced blocks"),
    "tss_plies": _Rule(int, 0, MAX_DEPTH, True, "VCDT for the side to move at nodes with ply < tss_plies"),
    "tss_depth": _Rule(int, 1, 24, True, "VCDT attacker turns"),
    "tss_budget": _Rule(int, 0, MAX_BUDGET, True, "VCDT nodes per call below ply 1 (see tss_plies)"),
    "tss_reply_budget": _Rule(int, 0, MAX_BUDGET, True, "VCDT nodes for the opponent after each root move (ply 1)"),
    "tss_root_budget": _Rule(int, 0, MAX_BUDGET, True, "VCDT nodes at the root (own win, opponent's threat)"),
    "tss_root_grows": _Rule(bool, doc="tss_root_budget is the budget up to 3 s a move and grows in proportion "
                                      "to the move's time above that, as tss_four_budget and reply_four_budget do"),
    "tss_leaf_budget": _Rule(int, 0, MAX_BUDGET, True, "VCDT nodes at deeper nodes and leaves (0: none)"),
    "tss_block_plies": _Rule(int, 0, MAX_DEPTH, True,
                             "VCDT (tss_budget nodes) for the side to move after the opponent blocked its "
                             "threat, at ply < this (0: none)"),
    "tss_four_budget": _Rule(int, 0, MAX_BUDGET, True,
                             "solver nodes at the root for a win that starts with a single four, the "
                             "mover's own and the opponent's threat, at up to 3 s a move and in proportion "
                             "to the move's time above that (0: none)"),
    "tss_fours": _Rule(int, 1, 24, True,
                       "single fours a line may hold in the solver calls of tss_four_budget and "
                       "reply_four_budget (one call allowing one, then two, up to this many)"),
    "tss_both_fours": _Rule(bool, doc="the solver's line may also open with a single four both stones make from a "
                                      "live 2-road (each building on its other lines), besides those one stone "
                                      "makes from a 3-road"),
    "defend": _Rule(bool, doc="root defence against the opponent's VCDT"),
    "defend_plies": _Rule(int, 0, MAX_DEPTH, True, "block nodes at ply < this pair a lone blocker with the VCDT line"),
    "defend_reserve_ms": _Rule(int, 0, MAX_BUDGET, True,
                               "when the opponent threatens a VCDT, a timed search keeps 15% of the move's time "
                               "back for checking its move against it; at most this many milliseconds "
                               "(0: the whole 15%)"),
    "tt_bits": _Rule(int, 0, 28, True, "transposition table of 2**tt_bits entries, 24 bytes each (0: none)"),
    "killers": _Rule(bool, doc="killer pairs first"),
    "pvs": _Rule(bool, doc="principal variation search: pairs after the first with a null window first"),
    "aspiration": _Rule(int, 0, 10 ** 15, True, "half-width of the root window when deepening (0: full)"),
    "root_tss_percent": _Rule(int, 0, 100, True,
                              "share of a move's time or node limit for each root VCDT (own win, threat zone)"),
    "settle_percent": _Rule(int, 0, 100, True,
                            "a search under a time or node limit ends after an iteration that kept the "
                            "previous iteration's best pair once it has spent this share of the limit "
                            "(0: never; it searches to the limit)"),
    "lost_width": _Rule(int, 0, 4096, False,
                        "when a timed or node-limited search (not an analysis) finds every root pair "
                        "lost by force with a fifth or more of its limit left, it searches again with "
                        "this width (above width) for the rest, from empty tables, and plays that move "
                        "unless it is lost too or the solver refutes it (0: never)"),
    "rescue_width": _Rule(int, 0, 4096, True,
                          "when the reply check refutes every root pair it judged, the pairs down to this "
                          "rank by pair score are checked too, and up to 4 it does not refute join the "
                          "root's list, searched again at the same depth (0, or not above width: off)"),
    "claim_zone": _Rule(int, 0, MAX_BUDGET, False,
                        "when a timed or node-limited search (not an analysis) ends on a forced win of the "
                        "width-limited tree (not one the solver proved) with a fifth or more of its limit "
                        "left, it searches again for the rest with reply_zone = this (with block_partners or "
                        "claim_partners, also those and defend_plies at least 2), from empty tables, and plays "
                        "that move (0: never)"),
    "block_partners": _Rule(bool, doc="a stone that blocks the opponent's threats alone is also paired with each "
                                      "cell where its free stone makes a four of the blocker's own (which the "
                                      "opponent must answer first), in the search's lists and the reply check's; "
                                      "and the claim_zone search pairs a lone block at ply 1 with the cells of the "
                                      "mover's VCDT line (defend_plies 2)"),
    "claim_partners": _Rule(bool, core=False,
                            doc="block_partners (and defend_plies at least 2) in the claim_zone search only: "
                                "a claimed win is checked against a lone block's counter-fours and the cells "
                                "of the mover's next VCDT line; every other search as without it"),
    "reply_check": _Rule(int, 0, MAX_BUDGET, True,
                         "VCDT nodes per call checking each new best root pair against the opponent's "
                         "replies (0: off)"),
    "reply_zone": _Rule(int, 0, MAX_BUDGET, True,
                        "VCDT nodes at ply 1 for the root mover's threat: when the root pair leaves it a "
                        "VCDT as if it moved again, the opponent's replies also take the pairs against "
                        "that line's zone and its counter-threats, as the root does against the "
                        "opponent's threat (0: off)"),
    "reply_check_width": _Rule(int, 0, 4096, True,
                               "the opponent's replies the reply check tries on a root pair that makes no "
                               "four, best first by pair score; one that wins by force (the opponent, moving "
                               "again, would win by VCDT and no defence of the mover stops it, or it makes a "
                               "four whose every block loses) refutes the pair (0: width)"),
    "reply_four_budget": _Rule(int, 0, MAX_BUDGET, True,
                               "solver nodes per call for the reply check to see the opponent's wins that "
                               "start with a single four and go on by VCDT (two levels deep: a double threat "
                               "whose every block loses to a four and a VCDT), at up to 3 s a move and in "
                               "proportion to the move's time above that (0: off)"),
    "tempo": _Rule(int, 0, 10 ** 9, True,
                   "added to a leaf's value for the side to move there: the two stones it is about to "
                   "place (0: none)"),
    "shape2": _Rule(int, 0, 10 ** 9, True,
                    "taken from a leaf's value when the side not to move there has live 3-roads on two "
                    "lines (it can make a double threat next turn; 0: none)"),
    "shape3": _Rule(int, 0, 10 ** 9, True,
                    "the same for three or more such lines (two stones stop them all only where they cross; 0: none)"),
    "initiative": _Rule(int, 0, 10 ** 9, True,
                        "a leaf's value for the side that has the initiative there, by its live 3-road lines: "
                        "the side to move when the opponent has no threat, the side that just moved when it "
                        "has a double threat (the mover's two stones must block); this with two or more "
                        "lines, a quarter of it with one (0: none)"),
    "cross_f": _Rule(int, 0, 10 ** 6, True,
                     "added to a leaf's value, for the side that just moved there, for each of its cross "
                     "cells: empty cells its live 2- and 3-roads reach from two or more directions (0: none)"),
    "cross_g": _Rule(int, 0, 10 ** 6, True,
                     "taken from that value for each cross cell of the side to move there (0: none)"),
    "cross_three": _Rule(bool, doc="cross_f and cross_g count only the cross cells where one of the roads "
                                   "holds 3 stones: a stone there makes a four and builds on another line"),
    "threat_frontier": _Rule(bool, doc="a depth-1 node with no threat of the opponent's to block, whose children run "
                                       "no solver, takes its value from its best pair by score, or a win when one of "
                                       "its pairs leaves threats two stones cannot block, instead of searching its "
                                       "children one by one"),
    "tt_parity": _Rule(bool, doc="table cutoffs only from entries searched an even number of turns deeper, "
                                 "so that a value never mixes leaves of the two sides to move"),
    "table_loss_check": _Rule(bool, doc="a forced loss read from the transposition table first looks for the "
                                        "mover's own VCDT where the search would (tss_plies): timed play keeps "
                                        "the table between moves, and a loss stored deeper, where no VCDT was "
                                        "looked for, is not a proof"),
    "even_decide": _Rule(bool, doc="the move is the best of the deepest even-depth iteration (the opponent "
                                   "answered last), unless a deeper odd one found a forced result"),
    "book": _Rule(object, core=False, doc="opening book: True (the shipped one), False, or a book file's path"),
    "threads": _Rule(int, 1, _search.MAX_THREADS, False,
                     "search threads sharing one transposition table (lazy SMP); 1 is the reproducible "
                     "single-threaded search"),
}


def check_int(name: str, value: object, lo: Optional[int] = None, hi: Optional[int] = None) -> int:
    """``value`` as an int in ``lo..hi``, or a TypeError / ValueError naming ``name``.
    numpy's integers (and any other ``__index__`` but bool's) are integers too."""
    number: Optional[int] = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif not isinstance(value, bool) and hasattr(type(value), "__index__"):
        try:
            number = operator.index(value)       # type: ignore[arg-type]
        except Exception:                        # numpy's bool, or an __index__ that raises
            number = None
    if number is None:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} {value!r}")
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"{name} must be an integer in {span}, not {number}")
    return number


#: bytes of one transposition-table entry (engine_core/tt.pxd)
TT_ENTRY_BYTES = 24


def _available_memory() -> Optional[int]:
    """Bytes of memory a new allocation can have without swapping (Linux's
    MemAvailable; else the free physical pages), None when it cannot be told."""
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def check_table_memory(tt_bits: int) -> None:
    """MemoryError naming ``tt_bits`` when its transposition table is larger than
    the memory available now: the table is zeroed before a search, and an
    allocation the system overcommits would bring the OOM killer, which ends
    the process without a word, instead."""
    need = TT_ENTRY_BYTES << tt_bits if tt_bits > 0 else 0
    free = _available_memory() if need > 1 << 30 else None     # tables up to 1 GiB: no check
    if free is not None and need > free:
        raise MemoryError(f"tt_bits={tt_bits}: a transposition table of {need / 2 ** 30:.1f} GiB is more "
                          f"than the {free / 2 ** 30:.1f} GiB of memory available: lower tt_bits")


def check_seconds(name: str, value: Any, *, allow_zero: bool = False, upper: float = MAX_TIME) -> float:
    """``value`` as seconds (> 0, or >= 0 with ``allow_zero``; finite, at most ``upper``);
    any real number but a bool (numpy's float32 and int64 too)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__} {value!r}")
    try:
        seconds = float(value)
    except OverflowError:                   # an int past float's range (10**400): more than any upper bound
        whole = operator.index(value)       # type: ignore[arg-type]  # only an integer overflows a float
        seconds = math.inf if whole > 0 else -math.inf
        value = f"{'-' if whole < 0 else ''}an integer of {len(str(abs(whole)))} digits"
    if math.isnan(seconds) or seconds < 0 or (seconds == 0 and not allow_zero):
        raise ValueError(f"{name} must be {'>= 0' if allow_zero else '> 0'} seconds, not {value!r}")
    if seconds > upper:
        raise ValueError(f"{name} must be at most {upper:g} seconds, not {value!r}"
                         + (" (an endless search is Engine.analysis, which can be stopped)"
                            if math.isinf(seconds) else ""))
    return seconds


def int_from_text(name: str, text: str, lo: Optional[int] = None, hi: Optional[int] = None) -> int:
    """A whole number typed by a person (command line, protocol, spec), checked like :func:`check_int`.

    >>> int_from_text("depth", " 3 ", 1, MAX_DEPTH)
    3
    """
    try:
        value = int(text.strip())
    except (ValueError, AttributeError):
        raise ValueError(f"{name} must be a whole number, not {text!r}") from None
    return check_int(name, value, lo, hi)


def seconds_from_text(name: str, text: str, *, allow_zero: bool = False) -> float:
    """Seconds typed by a person, checked like :func:`check_seconds`.

    >>> seconds_from_text("time", "2.5")
    2.5
    """
    shown = text if not isinstance(text, str) or len(text) <= 40 else text[:37] + "..."
    try:
        value = float(text.strip())
    except (ValueError, AttributeError):
        raise ValueError(f"{name} must be a number of seconds, not {shown!r}") from None
    try:
        return check_seconds(name, value, allow_zero=allow_zero)
    except ValueError as exc:           # named by the text typed, not the float it became (1e999: inf)
        message = str(exc).split(", not ", 1)[0]
        raise ValueError(f"{message}, not {shown!r}") from None


def _check_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True or False, not {value!r}")


def _weights_value(name: str, value: Any) -> Union[str, Tuple[Vector, Vector]]:
    """A weight-set name stays a name (readable repr); anything else (numbers as
    text too) becomes (f, g)."""
    try:
        resolved = resolve_weights(value)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None
    return value if isinstance(value, str) and value in WEIGHT_SETS else resolved


def _book_value(value: Any) -> Union[bool, str]:
    """True, False or a book file's path (os.PathLike becomes its text)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, str) and value.strip() and "\0" not in value:
        return value
    raise TypeError(f"book must be True, False or a book file's path, not {value!r}")


@dataclasses.dataclass(frozen=True)
class EngineOptions:
    """How the engine searches; every field is checked when the object is built.

    The defaults are the ``default`` profile.  ``replace(**changes)`` returns
    a checked copy.  See :data:`RULES` for each field's range and meaning.
    """

    depth: int = 4
    width: int = 12
    reply_width: int = 0
    radius: int = 2
    potential: int = 0
    forcing_replies: int = 0
    forcing_own: int = 0
    forcing_plies: int = 2
    scan: str = "incremental"
    weights: Union[str, Tuple[Vector, Vector]] = "paper"
    order_weights: Optional[Union[str, Tuple[Vector, Vector]]] = None
    threats: bool = True
    tss_plies: int = 3
    tss_depth: int = 10
    tss_budget: int = 1000
    tss_reply_budget: int = 1000
    tss_root_budget: int = 100000
    tss_root_grows: bool = False
    tss_leaf_budget: int = 0
    tss_block_plies: int = 0
    tss_four_budget: int = 20000
    tss_fours: int = 2
    tss_both_fours: bool = False
    defend: bool = True
    defend_plies: int = 1
    defend_reserve_ms: int = 0
    tt_bits: int = 20
    killers: bool = True
    pvs: bool = True
    aspiration: int = 0
    root_tss_percent: int = 20
    settle_percent: int = 0
    lost_width: int = 0
    rescue_width: int = 64
    claim_zone: int = 1000
    block_partners: bool = False
    claim_partners: bool = False
    reply_check: int = 20000
    reply_zone: int = 0
    reply_check_width: int = 0
    reply_four_budget: int = 20000
    tempo: int = 0
    shape2: int = 0
    shape3: int = 0
    initiative: int = 0
    cross_f: int = 0
    cross_g: int = 0
    cross_three: bool = False
    threat_frontier: bool = False
    tt_parity: bool = True
    table_loss_check: bool = True
    even_decide: bool = False
    book: Union[bool, str] = False
    threads: int = 1

    def __post_init__(self) -> None:
        for name, rule in RULES.items():
            value = getattr(self, name)
            if rule.kind is int:
                value = check_int(name, value, rule.lo, rule.hi)
            elif rule.kind is bool:
                value = _check_bool(name, value)
            elif name == "book":
                value = _book_value(value)
            elif name == "scan":
                if value not in SCAN_CODES:
                    raise ValueError(f"unknown scan {value!r}: expected one of {', '.join(SCANS)}")
            elif value is not None or name == "weights":     # order_weights None: the same as weights
                value = _weights_value(name, value)
            object.__setattr__(self, name, value)

    def replace(self, **changes: Any) -> "EngineOptions":
        """A checked copy with ``changes``; an unknown name is a ValueError listing the known ones."""
        unknown = sorted(set(changes) - set(RULES))
        if unknown:
            raise ValueError(f"unknown engine option(s) {', '.join(unknown)}: expected {', '.join(RULES)}")
        return dataclasses.replace(self, **changes)

    @property
    def weight_vectors(self) -> Tuple[Vector, Vector]:
        """The evaluation weights as ``(f, g)``."""
        return resolve_weights(self.weights)

    @property
    def order_vectors(self) -> Tuple[Vector, Vector]:
        """The move-scoring weights as ``(f, g)`` (the evaluation weights unless set)."""
        return self.weight_vectors if self.order_weights is None else resolve_weights(self.order_weights)

    def core_fields(self) -> Dict[str, int]:
        """The fields the compiled core reads, as its option struct wants them."""
        out = {name: int(getattr(self, name)) for name, rule in RULES.items() if rule.core and name != "scan"}
        out["scan"] = SCAN_CODES[self.scan]
        return out


class _PlainSearch(TypedDict):
    """The options that turn off everything the paper's search does not have."""

    threats: bool
    tss_plies: int
    tss_depth: int
    tss_budget: int
    tss_reply_budget: int
    tss_root_budget: int
    tss_leaf_budget: int
    tss_block_plies: int
    tss_four_budget: int
    reply_four_budget: int
    claim_zone: int
    rescue_width: int
    defend: bool
    tt_bits: int
    killers: bool
    pvs: bool
    aspiration: int
    reply_check: int
    tempo: int
    tt_parity: bool
    table_loss_check: bool
    book: bool


_PLAIN = _PlainSearch(threats=False, tss_plies=0, tss_depth=10, tss_budget=20000, tss_reply_budget=20000,
              tss_root_budget=200000, tss_leaf_budget=0, tss_block_plies=0, tss_four_budget=0, defend=False,
              tt_bits=0, killers=False, pvs=False, aspiration=0, reply_check=0, reply_four_budget=0, tempo=0,
              tt_parity=False, table_loss_check=False, claim_zone=0, rescue_width=0,
              book=False)

#: Named engine configurations.  ``paper`` is Li et al. (2015) exactly:
#: Table 1 weights, local scanning, depth 3, width 10, radius 2, nothing else;
#: ``plain`` the same search with the exact incremental scan; ``default`` adds
#: threats, VCDT, defence, a transposition table (cutting off only with entries of the same
#: parity; a forced loss read from it checked for the mover's VCDT), killer pairs, principal variation search,
#: the reply check of each new best root pair (and, when it refutes them all, pairs beyond the width that it
#: does not, ``rescue_width``), and a second search of the tree's claimed wins (``claim_zone``).
PROFILES: Dict[str, EngineOptions] = {
    "paper": EngineOptions(depth=3, width=10, scan="local", **_PLAIN),
    "plain": EngineOptions(depth=3, width=10, **_PLAIN),
    "default": EngineOptions(),
}


def profile(name: str = "default", **changes: Any) -> EngineOptions:
    """The named profile, with ``changes`` applied (and checked)."""
    if not isinstance(name, str) or name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}: expected one of {', '.join(PROFILES)}")
    return PROFILES[name].replace(**changes) if changes else PROFILES[name]


@dataclasses.dataclass(frozen=True)
class Limits:
    """How long to search: ``depth`` (turns), ``time`` (seconds for this move),
    ``clock`` (seconds left on the side's game clock), ``nodes`` (nodes for
    this move, alpha-beta's and the threat-space solver's together).  None
    means no such limit; with neither depth, time nor nodes the engine
    searches its options' depth.  A node limit deepens iteratively like a
    time, and the solver gets the same shares of it as of a time, but it
    starts with empty tables and reads no clock, so its move is the same on
    every machine (python-chess's ``Limit(nodes=...)``, UCI's ``go
    nodes``).  As with a time, the first iteration always finishes, so a
    tiny limit can be overrun by its alpha-beta nodes.
    """

    depth: Optional[int] = None
    time: Optional[float] = None
    clock: Optional[float] = None
    nodes: Optional[int] = None

    def __post_init__(self) -> None:
        if self.depth is not None:
            object.__setattr__(self, "depth", check_int("depth", self.depth, 1, MAX_DEPTH))
        if self.time is not None:
            object.__setattr__(self, "time", check_seconds("time", self.time))
        if self.clock is not None:
            object.__setattr__(self, "clock", check_seconds("clock", self.clock, allow_zero=True))
        if self.nodes is not None:
            object.__setattr__(self, "nodes", check_int("nodes", self.nodes, 1, MAX_BUDGET))

    def merged(self, other: Optional["Limits"]) -> "Limits":
        """These limits with every limit set in ``other`` taking precedence."""
        if other is None:
            return self
        return Limits(*(o if o is not None else s for s, o in zip(dataclasses.astuple(self),
                                                                dataclasses.astuple(other))))


#: a side's game clock is spent at most this share at a time
CLOCK_SHARE = 20
#: the least time a move is given from a clock
MIN_MOVE_TIME = 0.01


@overload
def move_time(clock: float) -> float: ...


@overload
def move_time(clock: None) -> None: ...


def move_time(clock: Optional[float]) -> Optional[float]:
    """Seconds for one move from the seconds left on the game clock (None: no clock).

    >>> move_time(60.0), move_time(0.0), move_time(None)
    (3.0, 0.01, None)
    """
    if clock is None:
        return None
    return max(clock / CLOCK_SHARE, MIN_MOVE_TIME)


def move_budget(time: Optional[float], clock: Optional[float]) -> Optional[float]:
    """Seconds for one move from a per-move ``time`` and the seconds left on
    the game ``clock`` (either may be None): the smaller of the time and the
    clock's :func:`move_time` share.

    >>> move_budget(5.0, 60.0), move_budget(None, 60.0), move_budget(2.0, None), move_budget(None, None)
    (3.0, 3.0, 2.0, None)
    """
    if clock is None:
        return time
    share = move_time(clock)
    return share if time is None else min(time, share)


def parse_value(text: str) -> Any:
    """Spec text to a value: ``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"``/``"off"`` -> bool, else the text."""
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


#: spec keys that are limits, not options
LIMIT_KEYS = ("depth", "time", "nodes")


def parse_engine_spec(text: str) -> Tuple[str, EngineOptions, Limits]:
    """``PROFILE[:key=value,...]`` or ``SCAN[:...]`` (the paper's engine with
    that scan) -> (profile name, options, limits).  ``depth`` and ``time`` are
    limits, ``profile=NAME`` changes the base; every other key is an engine
    option.  Errors name the text."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("an engine is needed: a profile (e.g. default:time=1) or a scan (local:depth=3)")
    head, _, rest = text.strip().partition(":")
    changes: Dict[str, Any] = {}
    if head in SCANS:
        name, changes["scan"] = "paper", head
    elif head in PROFILES:
        name = head
    else:
        raise ValueError(f"unknown engine {text!r}: expected a profile ({', '.join(PROFILES)}) or a scan "
                         f"({', '.join(SCANS)}), with options like :depth=3,width=10,time=1")
    limits: Dict[str, Any] = {}
    for item in (rest.split(",") if rest.strip() else ()):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key or not value:
            raise ValueError(f"engine {text!r}: options are key=value separated by commas, not {item!r}")
        target = limits if key in LIMIT_KEYS else changes
        if key in limits or (key in changes and not (key == "scan" and head in SCANS)):
            raise ValueError(f"engine {text!r}: option {key} given twice")
        target[key] = parse_value(value)
    if "profile" in changes:                    # profile=NAME: another base (a scan head keeps its scan)
        name = changes.pop("profile")
    try:
        return name, profile(name, **changes), Limits(**limits)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"engine {text!r}: {exc}") from None


def spec_text(options: EngineOptions, profile_name: str = "default", limits: Optional[Limits] = None) -> str:
    """``PROFILE[:key=value,...]``: the profile and each option of ``options``
    that differs from it, in :data:`RULES` order (weights given as numbers
    as their numbers, see :func:`connect6.weights.weights_text`), then the
    ``depth``, ``time`` and ``nodes`` of ``limits`` when set.
    It names a configuration exactly in a game record, and reads back
    through :func:`parse_engine_spec`.

    >>> spec_text(profile("default", reply_check=5000, width=14))
    'default:width=14,reply_check=5000'
    >>> spec_text(profile("paper"), "paper", Limits(depth=4))
    'paper:depth=4'
    """
    if not isinstance(options, EngineOptions):
        raise TypeError(f"spec_text needs EngineOptions, not {type(options).__name__}")
    changed = [f"{key}={weights_text(value) if isinstance(value, tuple) else value}"
               for key, value in changed_options(options, profile_name).items()]
    for key in LIMIT_KEYS:
        value = None if limits is None else getattr(limits, key)
        if value is not None:
            changed.append(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}")
    return profile_name + (":" + ",".join(changed) if changed else "")


def changed_options(options: EngineOptions, profile_name: str = "default") -> Dict[str, Any]:
    """The options of ``options`` that differ from the profile's, in :data:`RULES` order.

    >>> changed_options(profile("paper", width=8), "paper")
    {'width': 8}
    """
    base = profile(profile_name)
    return {key: getattr(options, key) for key in RULES if getattr(options, key) != getattr(base, key)}


def profile_of(options: EngineOptions) -> str:
    """The profile ``options`` differ least from (the first such in PROFILES):
    the name an engine built from bare options goes by.

    >>> profile_of(PROFILES["paper"]), profile_of(profile("plain", width=8))
    ('paper', 'plain')
    """
    def distance(name: str) -> int:
        return sum(getattr(options, key) != getattr(PROFILES[name], key) for key in RULES)
    return min(PROFILES, key=distance)


def options_from(profile_name: Optional[str] = None, **changes: Any) -> EngineOptions:
    """Options from a profile name and keyword changes where None means "the profile's"."""
    return profile("default" if profile_name is None else profile_name,
                   **{k: v for k, v in changes.items() if v is not None})
