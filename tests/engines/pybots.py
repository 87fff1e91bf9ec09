"""Python-bot players for the match tests (`py:pybots:nearest` with this folder on sys.path)."""
from connect6 import Board, Move

ORDER = sorted(range(361), key=lambda c: (max(abs(c % 19 - 9), abs(c // 19 - 9)), c))


def nearest(board: Board) -> Move:
    """The empty cells nearest the centre."""
    free = [c for c in ORDER if board.stone_at(c) is None]
    return Move(free[:board.stones_to_place])


def nearest_text(board, time_limit=None):
    """The same, as text, and it takes the time budget."""
    assert time_limit is None or time_limit > 0
    return str(nearest(board))


def raises(board):
    raise RuntimeError("bot bug")


def garbage(board):
    return 42


def bad_text(board):
    return "zz99"


def illegal(board):
    if not board.move_stack:
        return nearest(board)
    return Move.parse("j10k10") if board.stones_to_place == 2 else Move.parse("j10")


def slow(board):
    """Nearest, after a fifth of a second."""
    import time
    time.sleep(0.2)
    return nearest(board)


#: set by a test to let gated() move (the bot runs in the test's process: a thread executor)
GATE = None


def gated(board):
    """Nearest, once the test opens GATE (a threading.Event)."""
    if GATE is not None:
        GATE.wait(60)
    return nearest(board)


def die(board):
    """Takes its whole process down (as a crash in compiled code would)."""
    import os
    os._exit(7)


#: set by a test to release hang() (it runs in the test's process: in a worker it would wait for ever)
RELEASE = None
#: set by a test to hear that hang() has been called (a threading.Event)
HANGING = None


def hang(board):
    """Never returns on its own (until the test sets RELEASE, a threading.Event)."""
    import threading
    if HANGING is not None:
        HANGING.set()
    (RELEASE or threading.Event()).wait()
    return nearest(board)


def exits(board):
    """Ends with sys.exit(3), as a script's bot might."""
    import sys
    sys.exit(3)


def interrupts(board):
    """Raises KeyboardInterrupt itself (no Ctrl-C was pressed)."""
    raise KeyboardInterrupt


def slow_illegal(board):
    """An illegal move, after a fifth of a second."""
    import time
    time.sleep(0.2)
    return illegal(board) if board.move_stack else nearest(board)


def term_self(board):
    """Sends SIGTERM to its own process (as someone's `kill` of a pool worker would)."""
    import os
    import signal
    import time
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(60)          # the worker unwinds at once; the daemon thread is left behind
    return nearest(board)
