"""``connect6 engine``: the engine behind the Cloudict / ConnectMore protocol.

One command per line on stdin; protocol answers on stdout, flushed at once;
everything else (banner, search reports, notes) on stderr.  A command that is
unknown or malformed, or a move that is illegal, gets the one answer
``error <reason>`` and changes nothing.

==================  ====================================================
``name``            ``name connect6-<version> <profile>[:<changed options>] (bench <n>)``
``new black``       a new game; the engine plays Black's first stone: ``move JJ``
``new white``       a new game; the engine waits (``new xxx`` is the same)
``black XXXX``      place a turn for Black without searching (``white`` likewise)
``move XXXX``       the opponent's turn; the engine answers ``move YYYY``
``next``            the engine plays for the side to move: ``move YYYY``
``depth d``         search depth in turns (``width w``, ``time s``, ``nodes n``,
                    ``scan m``, ``profile p`` likewise; ``time 0``/``off`` and
                    ``nodes 0``/``off``: no limit)
``vcf``/``unvcf``   accepted (threat search is always part of the search)
``print``           the board diagram (on stdout)
``help``            the command list (on stdout)
``quit``/``exit``   stop; so does the end of input
==================  ====================================================

Black's first stone may be written ``JJ`` or doubled ``JJJJ`` (the
ConnectMore GUI sends the doubled form).  When the opponent's ``move`` ends
the game the move is kept and the answer is ``error game over (...)``.
"""
from __future__ import annotations

import dataclasses
import sys
import traceback
from typing import IO, Any, Iterable, List, Optional

from connect6.board import Board
from connect6.engine import Engine, make_engine
from connect6.notation import BLACK, WHITE, Color, IllegalMoveError, InvalidMoveError, Move
from connect6.options import (
    MAX_BUDGET, MAX_DEPTH, PROFILES, SCANS, changed_options, int_from_text, seconds_from_text,
)
from connect6.protocol.wire import STONES_HELP, move_reply, name_reply, parse_protocol_move
from connect6.result import Info, SearchResult
from connect6.sentences import outcome_text

__all__ = ["EngineServer", "serve", "HELP"]

HELP = """\
commands (one per line; answers on stdout, notes on stderr):
  name            the engine's name
  new black       new game, the engine plays black's first stone
  new white       new game, the engine waits (also: new xxx)
  black XXXX      place black's stones (XX on black's first turn; JJJJ is also read as JJ)
  white XXXX      place white's stones
  move XXXX       the opponent's stones; the engine answers with its own
  next            the engine plays for the side to move
  depth D         search depth in turns (1..{max_depth})
  width W         move pairs searched per node
  time S          seconds per move (0 or off: no time limit)
  nodes N         nodes per move (alpha-beta and solver), the same move on any machine (0 or off: no limit)
  scan MODE       {scans}
  profile NAME    {profiles}
  vcf | unvcf     accepted (threat search is always on)
  print           show the board
  help            this text
  quit | exit     stop
""" + STONES_HELP


#: the longest error line's message: the arguments it names are cut
MAX_ERROR_CHARS = 200


class _CommandError(Exception):
    """Answered as ``error <message>``; the state is unchanged."""


def _positive_int(name: str, text: str, upper: Optional[int] = None) -> int:
    try:
        return int_from_text(name, text, 1, upper)
    except ValueError as exc:
        raise _CommandError(str(exc)) from None


def _seconds(text: str) -> Optional[float]:
    if text.lower() == "off":
        return None
    try:
        value = seconds_from_text("time", text, allow_zero=True)
    except ValueError as exc:
        raise _CommandError(f"{exc} (or off)") from None
    return None if value == 0 else value


def _outcome_text(board: Board) -> str:
    return outcome_text(board.outcome())


class EngineServer:
    """The protocol loop.  :meth:`handle` one line at a time or :meth:`run` a stream.

    Its one piece of settings is ``engine`` (built by :func:`make_engine`
    from ``settings``: ``profile``, ``depth``, ``time``, ``nodes``, ``width``,
    ``scan`` and any other option, None meaning the profile's): the ``depth``,
    ``time`` and ``nodes`` commands change the engine's limits, ``width``, ``scan`` and
    ``profile`` its options.  With neither depth, time nor nodes it searches
    the profile's depth; with a time or nodes it deepens until they are spent
    (a depth then caps the deepening).
    """

    def __init__(self, engine: Optional[Engine] = None, *, out: Optional[IO[str]] = None,
                 err: Optional[IO[str]] = None, **settings: Any):
        self.out = sys.stdout if out is None else out
        self.err = sys.stderr if err is None else err
        self.board = Board()
        if engine is None:
            engine = make_engine(None, **settings)      # TypeError or ValueError naming the setting
        elif settings:
            raise TypeError("give either an engine or its settings, not both")
        self.engine = engine

    # ------------------------------------------------------------ settings
    def _rebuild(self, profile: Optional[str] = None, **changes: Any) -> None:
        """The engine again with other options (its limits kept); a new
        profile keeps the options that were changed from the old one."""
        e = self.engine
        try:
            if profile is not None:
                options = PROFILES[profile].replace(**changed_options(e.options, e.profile))
            else:
                options = e.options
            self.engine = make_engine(options.replace(**changes), e.limits, profile=profile or e.profile)
        except (TypeError, ValueError) as exc:
            raise _CommandError(str(exc)) from None

    def _set_limit(self, **change: Any) -> None:
        self.engine.limits = dataclasses.replace(self.engine.limits, **change)

    @property
    def name(self) -> str:
        return self.engine.name

    def describe(self) -> str:
        e = self.engine
        deepens = e.limits.depth is None and (e.limits.time is not None or e.limits.nodes is not None)
        limit = "none" if e.limits.time is None else f"{e.limits.time:g} s"
        nodes = "" if e.limits.nodes is None else f", {e.limits.nodes} nodes per move"
        return (f"depth {'deepening' if deepens else e.depth}, width {e.width}, scan {e.scan}, "
                f"time per move {limit}{nodes}")

    # ------------------------------------------------------------ output
    def answer(self, text: str) -> None:
        """A protocol answer: stdout, flushed at once."""
        self.out.write(text + "\n")
        self.out.flush()

    def note(self, text: str) -> None:
        """Anything that is not an answer: stderr."""
        try:
            self.err.write(text + "\n")
            self.err.flush()
        except (OSError, ValueError):  # a closed stderr must not stop the engine
            pass

    # ------------------------------------------------------------ the loop
    def run(self, lines: Iterable[str]) -> int:
        """Handle ``lines`` until ``quit``/``exit`` or their end; the exit status."""
        self.note(f"{self.name}: {self.describe()}; type 'help' for the commands")
        try:
            for line in lines:
                if not self.handle(line):
                    break
        except BrokenPipeError:  # whoever read our answers is gone
            return 0
        return 0

    def handle(self, line: str) -> bool:
        """Handle one command line; False after ``quit``/``exit``."""
        words = line.split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        method = getattr(self, f"_cmd_{command}", None)
        try:
            if method is None:
                shown = line.strip()
                if len(shown) > 40:
                    shown = shown[:37] + "..."
                raise _CommandError(f"unknown command {shown!r} (try 'help')")
            return method(args) is not False
        except _CommandError as exc:
            text = str(exc)             # an argument echoed in it may be a megabyte long
            self.answer(f"error {text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS - 3] + '...'}")
        except BrokenPipeError:
            raise
        except Exception as exc:  # a bug: report it, keep serving
            self.note(traceback.format_exc().rstrip())
            self.answer(f"error internal error: {type(exc).__name__}: {exc}")
        return True

    @staticmethod
    def _no_args(command: str, args: List[str]) -> None:
        if args:
            raise _CommandError(f"{command} takes no argument, got {' '.join(args)!r}")

    @staticmethod
    def _one_arg(command: str, args: List[str], what: str) -> str:
        if len(args) != 1:
            raise _CommandError(f"{command} takes one argument ({what}), got {len(args)}")
        return args[0]

    # ------------------------------------------------------------ commands
    def _cmd_name(self, args: List[str]) -> None:
        self._no_args("name", args)
        self.answer(name_reply(self.name))

    def _cmd_new(self, args: List[str]) -> None:
        side = self._one_arg("new", args, "black, white or xxx").lower()
        if side not in ("black", "white", "xxx"):
            raise _CommandError(f"new takes black, white or xxx, not {args[0]!r}")
        self.board = Board()
        new_game = getattr(self.engine, "new_game", None)
        if new_game is not None:
            new_game()  # timed searches keep tables from move to move: not across games
        if side == "black":
            self._search_and_play()

    def _place(self, color: Color, args: List[str]) -> None:
        text = self._one_arg(str(color), args, "stones like JJKK")
        if self.board.is_game_over():
            raise _CommandError(f"game over ({_outcome_text(self.board)})")
        if self.board.turn != color:
            raise _CommandError(f"it is {self.board.turn}'s turn, not {color}'s")
        self._push(text)

    def _push(self, text: str) -> Move:
        try:
            move = parse_protocol_move(text, self.board.stones_to_place)
            self.board.push(move)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise _CommandError(str(exc)) from None
        return move

    def _cmd_black(self, args: List[str]) -> None:
        self._place(BLACK, args)

    def _cmd_white(self, args: List[str]) -> None:
        self._place(WHITE, args)

    def _cmd_move(self, args: List[str]) -> None:
        text = self._one_arg("move", args, "the opponent's stones like JJKK")
        if self.board.is_game_over():
            raise _CommandError(f"game over ({_outcome_text(self.board)})")
        move = self._push(text)
        if self.board.is_game_over():
            self.note(f"{move} ends the game: {_outcome_text(self.board)}")
            raise _CommandError(f"game over ({_outcome_text(self.board)})")
        self._search_and_play()

    def _cmd_next(self, args: List[str]) -> None:
        self._no_args("next", args)
        if self.board.is_game_over():
            raise _CommandError(f"game over ({_outcome_text(self.board)})")
        self._search_and_play()

    def _search_and_play(self) -> None:
        result = self.engine.search(self.board, info=self._thinking)
        self.board.push(result.move)
        self.answer(move_reply(result.move))
        self._report(result)

    def _thinking(self, i: Info) -> None:
        """While searching: one line on stderr per finished iteration."""
        self.note(f"info {i.describe()}")

    def _report(self, r: SearchResult) -> None:
        self.note(f"info {r.describe()}")
        if self.board.is_game_over():
            self.note(f"game over: {_outcome_text(self.board)}")

    def _cmd_depth(self, args: List[str]) -> None:
        self._set_limit(depth=_positive_int("depth", self._one_arg("depth", args, f"1..{MAX_DEPTH}"), MAX_DEPTH))

    def _cmd_width(self, args: List[str]) -> None:
        self._rebuild(width=_positive_int("width", self._one_arg("width", args, "a number >= 1")))

    def _cmd_time(self, args: List[str]) -> None:
        self._set_limit(time=_seconds(self._one_arg("time", args, "seconds per move, 0 or off for none")))

    def _cmd_nodes(self, args: List[str]) -> None:
        text = self._one_arg("nodes", args, "nodes per move, 0 or off for none")
        self._set_limit(nodes=None if text.lower() in ("0", "off") else _positive_int("nodes", text, MAX_BUDGET))

    def _cmd_scan(self, args: List[str]) -> None:
        value = self._one_arg("scan", args, " | ".join(SCANS)).lower()
        if value not in SCANS:
            raise _CommandError(f"unknown scan {args[0]!r}: expected one of {', '.join(SCANS)}")
        self._rebuild(scan=value)

    def _cmd_profile(self, args: List[str]) -> None:
        value = self._one_arg("profile", args, " | ".join(PROFILES))
        if value not in PROFILES:
            raise _CommandError(f"unknown profile {value!r}: expected one of {', '.join(PROFILES)}")
        self._rebuild(profile=value)

    def _cmd_vcf(self, args: List[str]) -> None:
        self._no_args("vcf", args)
        self.note("vcf: noted (threat search is always part of this engine's search)")

    def _cmd_unvcf(self, args: List[str]) -> None:
        self._no_args("unvcf", args)
        self.note("unvcf: noted (threat search cannot be switched off in this engine)")

    def _cmd_print(self, args: List[str]) -> None:
        self._no_args("print", args)
        status = f"{self.board.turn} to play" if not self.board.is_game_over() else \
            f"game over: {_outcome_text(self.board)}"
        self.answer(f"{self.board}\n{len(self.board.move_stack)} turns played, {status}")

    def _cmd_help(self, args: List[str]) -> None:
        self._no_args("help", args)
        self.answer(HELP.format(max_depth=MAX_DEPTH, scans=" | ".join(SCANS), profiles=" | ".join(PROFILES)))
        self.note(f"settings: {self.describe()}")

    def _cmd_quit(self, args: List[str]) -> bool:
        return False

    _cmd_exit = _cmd_quit


def _lines(stream: IO[str]) -> Iterable[str]:
    """Lines as they arrive (readline, not the read-ahead of iteration)."""
    while True:
        line = stream.readline()
        if not line:
            return
        yield line


def serve(*, stdin: Optional[IO[str]] = None, stdout: Optional[IO[str]] = None,
          stderr: Optional[IO[str]] = None, **settings: Any) -> int:
    """Run the protocol loop on stdin/stdout (or the streams given) with an
    engine built from ``settings`` (see :class:`EngineServer`); the exit status."""
    stdin = sys.stdin if stdin is None else stdin
    if stdin is None:                               # started with its input closed (connect6 engine <&-)
        if sys.stderr is not None:
            sys.stderr.write("connect6 engine: no standard input to read commands from (it is closed)\n")
        return 2
    reconfigure = getattr(stdin, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")  # garbage bytes are an unknown command, not a crash
        except (ValueError, OSError):  # pragma: no cover
            pass
    if stdout is None and sys.stdout is None:       # started with its output closed (connect6 engine >&-)
        if sys.stderr is not None:
            sys.stderr.write("connect6 engine: no standard output to answer on (it is closed)\n")
        return 2
    try:
        server = EngineServer(out=stdout, err=stderr, **settings)
    except (TypeError, ValueError) as exc:
        (sys.stderr if stderr is None else stderr).write(f"connect6 engine: {exc}\n")
        return 2
    try:
        return server.run(_lines(stdin))
    except KeyboardInterrupt:
        return 130
