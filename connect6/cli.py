"""The ``connect6`` command (also ``python -m connect6``).

Subcommands: ``engine`` (the engine protocol on stdin/stdout), ``match``
(engine-vs-engine matches), ``play`` (a human against the engine in the
terminal), ``analyze`` (search the final position of a game), ``gui`` (the web board,
:mod:`connect6.web`) and ``bench``
(the search benchmark, :mod:`connect6.benchmark`).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import List, Optional, Sequence

__all__ = ["main", "build_parser"]

PROG = "connect6"


# ---------------------------------------------------------------- argument types
def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, not {value}")
    return value


def _seconds_parser(allow_zero: bool):
    """An argparse type for a finite number of seconds, > 0 (or >= 0 with ``allow_zero``)."""
    bound = ">= 0" if allow_zero else "> 0"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
        if not (math.isfinite(value) and (value > 0 or (allow_zero and value == 0))):
            raise argparse.ArgumentTypeError(f"expected seconds {bound}, not {text!r}")
        return value
    return parse


_seconds = _seconds_parser(allow_zero=False)
_non_negative_seconds = _seconds_parser(allow_zero=True)


def _add_engine_options(p: argparse.ArgumentParser) -> None:
    from connect6.engine import MAX_DEPTH, PROFILES, SCANS
    g = p.add_argument_group("engine")
    g.add_argument("--profile", choices=list(PROFILES), default=None,
                   help="named configuration (default: default)")
    g.add_argument("--depth", type=_positive_int, default=None,
                   help=f"search depth in turns, 1..{MAX_DEPTH} (default: the profile's; "
                        "with --time: deepen until the time is spent)")
    g.add_argument("--width", type=_positive_int, default=None, help="move pairs searched per node")
    g.add_argument("--scan", choices=list(SCANS), default=None, help="how move pairs are scored")
    g.add_argument("--time", type=_seconds, default=None, metavar="S", help="seconds per move")


def _make_engine(args):
    from connect6.engine import MAX_DEPTH, Engine
    if args.depth is not None and args.depth > MAX_DEPTH:
        raise ValueError(f"--depth must be at most {MAX_DEPTH}")
    return Engine(depth=args.depth, width=args.width, scan=args.scan, profile=args.profile)


# ---------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    from connect6 import __version__
    parser = argparse.ArgumentParser(
        prog=PROG, description="A Connect6 engine: protocol server, match runner, analysis and play.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("engine", help="speak the Cloudict/ConnectMore engine protocol on stdin/stdout",
                       description="Speak the Connect6 engine protocol (Cloudict / ConnectMore GUI) on "
                                   "stdin/stdout. Type 'help' once it runs.")
    _add_engine_options(p)
    p.set_defaults(handler=_cmd_engine)

    from connect6.engine import PROFILES, SCANS
    p = sub.add_parser(
        "match", help="play an engine-vs-engine match",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play a match between players A and B in colour-swapped pairs.",
        epilog="players:\n"
               f"  PROFILE[:options]            a built-in engine: {', '.join(PROFILES)}\n"
               f"  SCAN[:options]               the paper's engine with a scan: {', '.join(SCANS)}\n"
               "                               options: depth, width, time (s per move), radius, scan,\n"
               "                               profile, weights, or any other connect6.Engine keyword,\n"
               "                               e.g. paper:scan=global  local:depth=3,width=10,time=2\n"
               "  cmd:\"./engine --flag\"        an external engine speaking the engine protocol\n"
               "  py:package.module:function   a Python function(board) -> Move (or move text)\n\n"
               "example:\n"
               "  connect6 match paper paper:scan=global --games 8 --game-time 10 "
               "--openings data/openings.txt")
    p.add_argument("a", metavar="A", help="player A")
    p.add_argument("b", metavar="B", help="player B")
    p.add_argument("--games", type=_positive_int, default=2,
                   help="games to play, as colour-swapped pairs from one opening (default 2)")
    p.add_argument("--openings", metavar="FILE",
                   help="one opening per line as a stone list (j10,k11,i11,...); default: random 3-turn "
                        "openings near the centre drawn with the seed")
    p.add_argument("--opening-order", choices=("sequential", "random"), default="sequential",
                   help="take the openings of --openings in file order or shuffled with the seed")
    p.add_argument("--move-time", type=_seconds, metavar="S", help="seconds per move")
    p.add_argument("--game-time", type=_seconds, metavar="S",
                   help="each side's clock for a game; a move gets a share of what is left")
    p.add_argument("--time-margin", type=_non_negative_seconds, default=0.25, metavar="S",
                   help="lateness tolerated before a loss on time (default 0.25)")
    p.add_argument("--hang-timeout", type=_seconds, default=60.0, metavar="S",
                   help="without --move-time/--game-time: seconds an external engine may take for one "
                        "move before it loses (default 60)")
    p.add_argument("--concurrency", type=_positive_int, default=None, metavar="N",
                   help="games played at once, in worker processes (default: the number of cores)")
    p.add_argument("--seed", type=int, default=None, help="seed of the schedule (openings, per-game seeds)")
    p.add_argument("--out", metavar="DIR",
                   help="results directory: games.jsonl, match.json, sgf/ (default: match-<date>-<time>)")
    p.add_argument("--resume", action="store_true",
                   help="continue the match in --out without replaying finished games")
    p.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                   help="stop as soon as the sequential probability ratio test decides")
    p.add_argument("--progress", choices=("auto", "tqdm", "rich", "plain", "none"), default="auto",
                   help="progress display (auto: tqdm or rich on a terminal when installed, else plain lines)")
    p.set_defaults(handler=_cmd_match)

    p = sub.add_parser("play", help="play against the engine in the terminal",
                       description="Play against the engine: type moves like j9l11 (j10 for black's first "
                                   "stone), 'undo', 'help' or 'quit'.")
    p.add_argument("--color", "--colour", choices=("black", "white"), default="black",
                   help="your colour (default black)")
    _add_engine_options(p)
    p.set_defaults(handler=_cmd_play)

    p = sub.add_parser("analyze", aliases=["analyse"], help="search the final position of a game",
                       description="Search the final position of a game given as a Little Golem SGF file, "
                                   "a stone list (j10,k11,i11) or '-' for either on stdin.")
    p.add_argument("game", metavar="GAME", help="SGF file, stone list, or - (stdin)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_engine_options(p)
    p.set_defaults(handler=_cmd_analyze)

    p = sub.add_parser("gui", help="the web board: play, analyse, watch a match (needs connect6[web])",
                       description="Serve the web board on a local address and print it.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine "
                   "only; anything else is reachable from other machines and prints a warning)")
    p.add_argument("--port", type=int, default=8066, help="port (default 8066)")
    p.add_argument("--watch", metavar="DIR", help="follow a `connect6 match --out DIR` results directory")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.set_defaults(handler=_cmd_gui)

    p = sub.add_parser("bench", help="the search benchmark (see connect6 bench --help)", add_help=False)
    p.add_argument("bench_args", nargs=argparse.REMAINDER)
    p.set_defaults(handler=_cmd_bench)
    return parser


# ---------------------------------------------------------------- engine
def _cmd_engine(args) -> int:
    from connect6.engine import MAX_DEPTH
    from connect6.engine_server import serve
    if args.depth is not None and args.depth > MAX_DEPTH:
        print(f"{PROG} engine: --depth must be at most {MAX_DEPTH}", file=sys.stderr)
        return 2
    status = serve(depth=args.depth, width=args.width, time=args.time, scan=args.scan, profile=args.profile)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    _silence_stdout()
    return status


def _silence_stdout() -> None:
    """After a broken pipe, keep Python's exit-time flush from complaining."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover
        pass


# ---------------------------------------------------------------- match
def _cmd_match(args) -> int:
    import datetime

    from connect6 import match as m
    try:
        a = m.parse_player(args.a)
        b = m.parse_player(args.b)
        for spec in (a, b):
            m.check_player(spec)
        openings = m.load_openings(args.openings) if args.openings else None
        sprt = m.SprtParams(*args.sprt) if args.sprt else None
        config = m.MatchConfig(
            a=a, b=b, games=args.games, openings=openings, opening_order=args.opening_order,
            move_time=args.move_time, game_time=args.game_time, time_margin=args.time_margin,
            hang_timeout=args.hang_timeout, seed=args.seed, sprt=sprt, cwd=os.getcwd())
        if args.resume and not args.out:
            raise ValueError("--resume needs --out DIR (the directory of the match to continue)")
        out = args.out or datetime.datetime.now().strftime("match-%Y%m%d-%H%M%S")
        match = m.Match(config, out=out, resume=args.resume)
        progress = m.make_progress(args.progress, config.games, len(match.results()))
    except (ValueError, OSError) as exc:
        print(f"{PROG} match: error: {exc}", file=sys.stderr)
        return 2
    previous = _sigterm_interrupts()
    try:
        done = len(match.results())
        print(f"Match {config.a.label} (A) vs {config.b.label} (B): {config.games} games, seed {config.seed}, "
              f"results in {out}" + (f" ({done} already played)" if done else ""), file=sys.stderr)
        stats = match.run(concurrency=args.concurrency, progress=progress)
    finally:
        _restore_sigterm(previous)
    print(m.format_summary(stats, config.a.label, config.b.label))
    if match.sprt_stopped_at is not None:
        print(f"SPRT stopped the match after {match.sprt_stopped_at} games")
    print(f"Games: {os.path.join(out, m.GAMES_FILE)}, SGF: {os.path.join(out, m.SGF_DIR)}{os.sep}")
    if match.interrupted:
        return 130
    return 1 if match.failures else 0


def _sigterm_interrupts():
    """SIGTERM stops a match like Ctrl-C: finished games are kept, running games
    and their engines are stopped."""
    import signal

    def _interrupt(signum, frame):
        raise KeyboardInterrupt

    if not hasattr(signal, "SIGTERM"):  # pragma: no cover
        return None
    try:
        return signal.signal(signal.SIGTERM, _interrupt)
    except ValueError:  # not the main thread
        return None


def _restore_sigterm(previous) -> None:
    import signal
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


# ---------------------------------------------------------------- play
_PLAY_HELP = """\
moves: Little Golem cells, column a..s then row 1..19: j10 (black's first stone), j9l11 (two stones)
commands: undo (take back your last move), print (the board), help, quit"""


def _cmd_play(args) -> int:
    from connect6.board import Board
    from connect6.notation import Color, IllegalMoveError, InvalidMoveError, Move
    try:
        engine = _make_engine(args)
    except ValueError as exc:
        print(f"{PROG} play: error: {exc}", file=sys.stderr)
        return 2
    human = Color.BLACK if args.color == "black" else Color.WHITE
    board = Board()
    print(f"You play {human}; the engine: {engine!r}. Type 'help' for help.")
    show = True
    while True:
        if show:
            print()
            print(board)
        show = True
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                print("Draw: the board is full.")
            else:
                who = "You win" if outcome.winner == human else "The engine wins"
                print(f"{who}: {outcome.winner} made six in a row.")
            return 0
        if board.turn != human:
            result = engine.search(board, time=args.time)
            board.push(result.move)
            extra = f", win in {result.win_in}" if result.win_in is not None and result.win_in > 0 else ""
            print(f"Engine ({board.turn.other}) plays {result.move} "
                  f"(score {result.score}{extra}, depth {result.depth}, {result.time_s:.2f} s)")
            continue
        n = board.stones_to_place
        try:
            text = input(f"Your move ({human}, {n} stone{'s' if n > 1 else ''}): ").strip()
        except EOFError:
            print()
            return 0
        except KeyboardInterrupt:
            print()
            return 130
        word = text.lower()
        if not word:
            show = False
            continue
        if word in ("quit", "exit", "q"):
            return 0
        if word in ("help", "?"):
            print(_PLAY_HELP)
            show = False
            continue
        if word == "print":
            continue
        if word == "undo":
            if not any(i % 2 == int(human) for i in range(len(board.move_stack))):
                print("Nothing to undo: you have not moved yet.")
                show = False
                continue
            board.pop()
            while board.turn != human:
                board.pop()
            continue
        try:
            board.push(Move.parse(text))
        except (InvalidMoveError, IllegalMoveError) as exc:
            print(f"Not a legal move: {exc}. Try again (or 'help').")
            show = False


# ---------------------------------------------------------------- analyze
def _read_game(spec: str):
    from connect6.records import parse_stone_list, read_sgf
    if spec == "-":
        text, where = sys.stdin.read(), "stdin"
    elif os.path.exists(spec):
        with open(spec, encoding="utf-8-sig") as fh:
            text, where = fh.read(), spec
    elif spec.strip().startswith("(") or spec.lower().endswith(".sgf"):
        raise ValueError(f"{spec}: no such file")
    else:
        text, where = spec, None
    stripped = text.strip()
    if stripped.startswith("("):
        return read_sgf(stripped)[1]
    if where is not None:  # a file or stdin holding a stone list
        stripped = stripped.splitlines()[0] if stripped else ""
    return parse_stone_list(stripped)


def _cmd_analyze(args) -> int:
    from connect6.records import RecordError, replay
    try:
        engine = _make_engine(args)
        moves = _read_game(args.game)
        board = replay(moves)
    except (ValueError, OSError) as exc:  # RecordError is a ValueError
        kind = "bad game record" if isinstance(exc, RecordError) else "error"
        print(f"{PROG} analyze: {kind}: {exc}", file=sys.stderr)
        return 2
    if board.is_game_over():
        print(f"{PROG} analyze: the game is over ({board.outcome().result()}"
              f"{' won' if board.outcome().winner is not None else ''}): nothing to search", file=sys.stderr)
        return 1
    r = engine.search(board, time=args.time)
    side = str(board.turn)
    if args.json:
        print(json.dumps({
            "moves": len(board.move_stack), "to_move": side, "best": str(r.move), "protocol": r.move.to_protocol(),
            "score": r.score, "win_in": r.win_in, "pv": [str(m) for m in r.pv], "depth": r.depth,
            "nodes": r.nodes, "leaves": r.leaves, "time_s": round(r.time_s, 4),
        }))
        return 0
    print(f"position: {len(board.move_stack)} turns played, {side} to move ({board.stones_to_place} stones)")
    print(f"engine:   {engine!r}")
    print(f"best:     {r.move}  (protocol {r.move.to_protocol()})")
    score = f"{r.score} for {side}"
    if r.win_in is not None:
        score += f" ({'win' if r.win_in > 0 else 'loss'} in {abs(r.win_in)})"
    print(f"score:    {score}")
    print(f"pv:       {' '.join(str(m) for m in r.pv)}")
    nps = f", {r.nps:,.0f} nodes/s" if r.time_s > 0 else ""
    print(f"search:   depth {r.depth}, {r.nodes} nodes, {r.leaves} leaves, {r.time_s:.3f} s{nps}")
    return 0


# ---------------------------------------------------------------- gui
def _cmd_gui(args) -> int:
    try:
        from connect6.web.server import serve
    except ImportError as exc:
        print(f"{PROG} gui: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"{PROG} gui: --port must be 0..65535, not {args.port}", file=sys.stderr)
        return 2
    if args.watch is not None and os.path.exists(args.watch) and not os.path.isdir(args.watch):
        print(f"{PROG} gui: --watch {args.watch}: not a directory", file=sys.stderr)
        return 2
    if args.watch is not None and not os.path.exists(args.watch):
        print(f"{PROG} gui: --watch {args.watch} does not exist yet: waiting for the match to create it",
              file=sys.stderr)
    serve(host=args.host, port=args.port, watch_dir=args.watch, open_browser=args.open)
    return 0


# ---------------------------------------------------------------- bench
def _cmd_bench(args) -> int:
    return _run_bench(list(args.bench_args))


def _run_bench(argv: List[str]) -> int:
    try:
        from connect6 import benchmark
    except ImportError as exc:
        print(f"{PROG} bench: the benchmark is not available: cannot import connect6.benchmark ({exc})",
              file=sys.stderr)
        return 2
    return benchmark.main(argv)


# ---------------------------------------------------------------- main
def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``connect6`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "bench":  # everything after it belongs to the benchmark, --help included
        return _run_bench(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
