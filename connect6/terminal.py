"""``connect6 play``: a person against the engine in the terminal.

:func:`play` runs the game loop on any input and output functions (the
command line passes :func:`input` and :func:`print`), so it can be driven
from a test or another front end.
"""
from __future__ import annotations

import os
import re
from typing import Callable, Optional, Set, Tuple

from connect6.board import Board
from connect6.engine import Engine
from connect6.records import write_sgf
from connect6.records.sgf import sgf_result
from connect6.notation import BOARD_SIZE, CENTER, Color, IllegalMoveError, InvalidMoveError, Move, cell_name

__all__ = ["play", "PLAY_HELP"]

PLAY_HELP = """\
moves: cells are a column a..s and a row 1..19.  Black's first turn is one stone (j10), every later
       turn two, written as you like: k11 k12, k11,k12, k11k12 or K11K12
commands: hint (the engine's suggestion, not played), undo (take back your last turn and the reply),
          save FILE (the game so far as SGF; an existing file is kept unless this game saved it,
          save! FILE replaces it), print (the board), help, quit"""

_TURN_RE = re.compile(r"([a-z])\s*(\d{1,2})(?:[\s,;/-]*([a-z])\s*(\d{1,2}))?", re.IGNORECASE | re.ASCII)
_CELL_ANYWHERE_RE = re.compile(r"[a-z]\d{1,2}", re.IGNORECASE | re.ASCII)


def _spaced(move: Move) -> str:
    """A move as people type it: ``k11 k12``."""
    return " ".join(cell_name(c) for c in move.stones)


def _example_turn(board: Board, near: Optional[int] = None) -> str:
    """A legal turn for the side to move made of the free cells nearest ``near`` (or the last move)."""
    if near is None:
        near = board.move_stack[-1].stones[0] if board.move_stack else CENTER
    r0, c0 = divmod(near, BOARD_SIZE)
    free = sorted(board.legal_stones(), key=lambda c: (max(abs(c // BOARD_SIZE - r0), abs(c % BOARD_SIZE - c0)), c))
    return " ".join(cell_name(c) for c in free[:board.stones_to_place])


def _parse_turn(board: Board, text: str) -> Tuple[Optional[Move], Optional[str]]:
    """``(move, None)`` for a turn the human may play, else ``(None, what was wrong and what would be right)``."""
    n = board.stones_to_place
    want = f"{n} stone{'s' if n > 1 else ''}"
    m = _TURN_RE.fullmatch(text.strip())
    if m is None:
        found = _CELL_ANYWHERE_RE.findall(text)
        why = (f"{len(found)} cells: a turn is {want}" if len(found) > 2 else
               "write each cell as a column a..s and a row 1..19")
        return None, f"{text.strip()!r} is not a move ({why}). For example: {_example_turn(board)}"
    cells = []
    for letter, digits in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
        if letter is None:
            continue
        col, row = ord(letter.lower()) - ord("a"), int(digits) - 1
        if not (0 <= col < BOARD_SIZE and 0 <= row < BOARD_SIZE):
            return None, (f"{letter}{digits} is off the board: columns run a..s and rows 1..19. "
                          f"For example: {_example_turn(board)}")
        cells.append(row * BOARD_SIZE + col)
    if len(cells) == 2 and cells[0] == cells[1]:
        what = "a turn is two different cells" if n == 2 else "the first turn is one stone"
        return None, f"{cell_name(cells[0])} twice: {what}, e.g. {_example_turn(board)}"
    for c in cells:
        if board.stone_at(c) is not None:
            return None, (f"{cell_name(c)} is taken ({board.stone_at(c)} stone). Free cells next to it: "
                          f"{_example_turn(board, near=c)}")
    move = Move(cells)
    if len(cells) != n and not board.is_legal(move):
        alone = " (one stone alone only when it makes six)" if n == 2 else ""
        return None, (f"you place {want} this turn{alone}, not {len(cells)}. "
                      f"For example: {_example_turn(board, near=cells[0])}")
    try:
        board.copy().push(move)
    except (InvalidMoveError, IllegalMoveError) as exc:   # pragma: no cover - the checks above cover the rules
        return None, f"{exc}. For example: {_example_turn(board)}"
    return move, None


def _limits_text(engine: Engine, time: Optional[float], capped: bool) -> str:
    """The limits in force, as the engine will use them: ``3 s per move`` or ``depth 4``."""
    nodes = engine.limits.nodes
    if time is not None:
        text = f"{time:g} s per move"
        if capped:
            text += f", at most depth {engine.depth}"
        if nodes is not None:
            text += f", at most {nodes:,} nodes"
    elif nodes is not None:
        text = f"{nodes:,} nodes per move, no time limit"
    else:
        text = f"depth {engine.depth} (turns ahead), no time limit"
    return f"{text}, width {engine.width}, profile {engine.profile}"


def _undo(board: Board, human: Color) -> str:
    """Take back the human's last turn and every engine turn after it; say which turns went."""
    if not any(i % 2 == int(human) for i in range(len(board.move_stack))):
        return "Nothing to undo: you have not moved yet."
    taken = []
    while True:
        index = len(board.move_stack) - 1
        move = board.pop()
        taken.append(f"turn {index + 1} ({'yours' if index % 2 == int(human) else 'the engine'}: {_spaced(move)})")
        if index % 2 == int(human):
            break
    return "Took back " + " and ".join(reversed(taken)) + "."


def _save(board: Board, human: Color, engine: Engine, path: str, saved: Set[str], replace: bool = False) -> str:
    """``save FILE``: the game as SGF.  A file that exists is replaced only
    when this game saved it before (``saved``, the real paths written) or
    with ``save!``; the new text goes to a temporary file first, so a failed
    save leaves the old file whole."""
    from connect6._files import write_file_atomic
    if not path:
        return "save needs a file name, e.g.: save game.sgf"
    me, it = "you", f"connect6 {engine.profile}"
    headers = {"GM": "connect6", "PB": me if human == 0 else it, "PW": it if human == 0 else me}
    outcome = board.outcome()
    if outcome is not None:
        headers["RE"] = sgf_result(outcome.winner)      # as the match runner's records say it
    try:
        real = os.path.realpath(os.path.expanduser(path))
        if os.path.exists(real) and real not in saved and not replace:
            return f"{path} exists and is not this game's: not replaced (save! {path} replaces it)."
        # the file a link names is written, not the link replaced: the path recorded as this
        # game's is then the one that holds it
        write_file_atomic(real, write_sgf(board.move_stack, headers) + "\n")
    except OSError as exc:
        return f"Could not save to {path}: {exc.strerror or exc}"
    except ValueError as exc:                   # a NUL in the name
        return f"Could not save to {path!r}: {exc}"
    saved.add(real)
    turns = len(board.move_stack)
    return f"Saved {turns} turn{'s' if turns != 1 else ''} to {path} (SGF)."


def _engine_turn(engine: Engine, board: Board, time: Optional[float], hint: bool = False) -> str:
    result = engine.search(board, time=time)
    facts = f"score for {board.turn} {result.score_text}, depth {result.depth}, {result.time_s:.2f} s"
    if hint:
        return f"Hint: {_spaced(result.move)} ({facts}). Type it to play it."
    board.push(result.move)
    return f"Engine ({board.turn.other}) plays {_spaced(result.move)} ({facts})"


def _game_over_text(board: Board, human: Color) -> Optional[str]:
    outcome = board.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return "Draw: the board is full."
    who = "You win" if outcome.winner == human else "The engine wins"
    return f"{who}: {outcome.winner} made six in a row."


def play(engine: Engine, human: Color, time: Optional[float] = None, capped: bool = False, *,
         read: Optional[Callable[[str], str]] = None, show_line: Optional[Callable[[str], None]] = None) -> int:
    """Play one game: ``human`` against ``engine`` (``time`` seconds a move,
    or its depth; ``capped``: a depth also caps the timed search).  A game
    that has ended waits for ``save``, ``undo``, ``print`` or ``quit`` (the end
    of input quits).  The exit status: 0 when the person quits or the input
    ends, 130 on Ctrl-C.
    ``read`` and ``show_line`` default to :func:`input` and :func:`print`."""
    if not isinstance(human, Color):        # "white" would never be the side to move: the engine played both
        raise TypeError(f"human must be Color.BLACK or Color.WHITE, not {human!r}")
    read = input if read is None else read
    show_line = print if show_line is None else show_line
    board = Board()
    saved: Set[str] = set()
    announced: Optional[str] = None     # the game's end, once said: a finished game may still be saved
    show_line(f"You play {human}. The engine: {_limits_text(engine, time, capped)}. Type 'help' for help.")
    show = True
    while True:
        if show:
            show_line("")
            show_line(str(board))
        show = True
        over = _game_over_text(board, human)
        if over is not None and over != announced:
            show_line(over)
        announced = over
        if over is None and board.turn != human:
            show_line(_engine_turn(engine, board, time))
            continue
        n = board.stones_to_place
        try:
            text = read("Game over: " if over is not None else
                        f"Your move ({human}, {n} stone{'s' if n > 1 else ''}): ").strip()
        except EOFError:
            show_line("")
            return 0
        except KeyboardInterrupt:
            show_line("")
            return 130
        except UnicodeDecodeError as exc:       # a terminal or pipe that is not UTF-8
            show_line(f"That was not UTF-8 text (byte 0x{exc.object[exc.start]:02x}): type the move again.")
            show = False
            continue
        command, _, rest = text.partition(" ")
        command = command.lower()
        show = command in ("print", "undo")
        if not text:
            continue
        if command in ("quit", "exit", "q"):
            return 0
        if command in ("help", "?"):
            show_line(PLAY_HELP)
        elif command == "hint" and over is None:
            show_line(_engine_turn(engine, board, time, hint=True))
        elif command == "undo":
            message = _undo(board, human)
            show = message.startswith("Took")
            show_line(message)
        elif command in ("save", "save!"):
            show_line(_save(board, human, engine, rest.strip(), saved, replace=command == "save!"))
        elif over is not None and command != "print":
            show_line("The game is over: save FILE keeps it, undo takes your last turn back, quit ends.")
        elif command != "print":
            move, problem = _parse_turn(board, text)
            if move is None:
                show_line(f"Not a move you can play: {problem}")
            else:
                board.push(move)
                show = True
