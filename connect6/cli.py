"""The ``connect6`` command (also ``python -m connect6``).

Subcommands: ``engine`` (the engine protocol on stdin/stdout), ``match``
(engine-vs-engine matches), ``tournament`` (round-robin or gauntlet, with
ratings), ``play`` (a human against the engine in the terminal),
``analyze`` (search the final position of a game), ``gui`` (the web board,
:mod:`connect6.web`) and ``bench`` (the search benchmark,
:mod:`connect6.benchmark`).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

if TYPE_CHECKING:
    from connect6.engine import Engine
    from connect6.match import Match
    from connect6.notation import Move
    from connect6.web.guard import AccessPolicy
    from connect6.web.limits import Limits as WebLimits
    from connect6.match.cluster import Cluster
    from connect6.match.tournament import Tournament

__all__ = ["main", "build_parser"]

T = TypeVar("T")
Args = argparse.Namespace

PROG = "connect6"


# ---------------------------------------------------------------- argument types
def _argument(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type from a text parser of connect6.options (its ValueError is the message)."""
    def convert(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return convert


def _positive_int(text: str) -> int:
    from connect6.options import int_from_text
    return _argument(lambda t: int_from_text("value", t, 1))(text)


def _seconds(text: str) -> float:
    from connect6.options import seconds_from_text
    return _argument(lambda t: seconds_from_text("seconds", t))(text)


def _non_negative_seconds(text: str) -> float:
    from connect6.options import seconds_from_text
    return _argument(lambda t: seconds_from_text("seconds", t, allow_zero=True))(text)


def _engine_option(text: str) -> Tuple[str, Any]:
    """``KEY=VALUE`` for --set: any engine option of connect6.options.RULES."""
    from connect6.options import RULES, parse_value
    key, eq, value = (part.strip() for part in text.partition("="))
    if not eq or key not in RULES or not value:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE with KEY one of {', '.join(RULES)}, not {text!r}")
    return key, parse_value(value)


def _add_engine_options(p: argparse.ArgumentParser) -> None:
    from connect6.options import MAX_DEPTH, PROFILES, SCANS
    g = p.add_argument_group("engine")
    g.add_argument("--profile", choices=list(PROFILES), default=None,
                   help="named configuration (default: default)")
    g.add_argument("--depth", type=_argument(_depth), default=None,
                   help=f"search depth in turns, 1..{MAX_DEPTH} (default: the profile's; "
                        "with --time: deepen until the time is spent)")
    g.add_argument("--width", type=_positive_int, default=None, help="move pairs searched per node")
    g.add_argument("--scan", choices=list(SCANS), default=None, help="how move pairs are scored")
    g.add_argument("--time", type=_seconds, default=None, metavar="S", help="seconds per move")
    g.add_argument("--nodes", type=_argument(_nodes), default=None, metavar="N",
                   help="nodes per move (alpha-beta and solver): deepen until they are spent, "
                        "the same move on every machine")
    g.add_argument("--set", type=_engine_option, action="append", default=[], metavar="KEY=VALUE",
                   help="any other engine option (see connect6.options.RULES), e.g. --set tt_bits=22")


def _depth(text: str) -> int:
    from connect6.options import MAX_DEPTH, int_from_text
    return int_from_text("depth", text, 1, MAX_DEPTH)


def _nodes(text: str) -> int:
    from connect6.options import MAX_BUDGET, int_from_text
    return int_from_text("nodes", text, 1, MAX_BUDGET)


def _engine_settings(args: Args) -> Dict[str, Any]:
    """The engine flags as make_engine's settings (None: the profile's).  A
    flag given (--depth 3) wins over the same key in --set; one not given
    leaves --set's value (it used to replace it with None, so --set depth=2
    was dropped without a word)."""
    settings = dict(args.set)
    for key in ("depth", "width", "scan", "nodes"):
        if getattr(args, key) is not None or key not in settings:
            settings[key] = getattr(args, key)
    settings["profile"] = args.profile
    return settings


def _make_engine(args: Args) -> "Engine":
    from connect6.engine import make_engine
    return make_engine(None, **_engine_settings(args))


# ---------------------------------------------------------------- parser
_PLAYER_SETTINGS_HELP = (
    "player settings (after the player, as ,key=value; they override --move-time, --game-time,\n"
    "--hang-timeout for that player):\n"
    "  name=LABEL                   the player's name in results and the summary\n"
    "  time=S                       seconds per move\n"
    "  clock=S                      its game clock (a move gets a share of what is left)\n"
    "  hang=S                       cmd:/py: without a time control, the longest one move may take\n"
    "  dir=PATH                     cmd:/py: working directory (relative to the current one)\n"
    "  startup=S                    cmd: seconds to start and answer 'name' (default 20)\n"
    "  init=CMD[;CMD...]            cmd: protocol commands sent once after start (e.g. depth 6)\n"
    "  slots=N                      cores it uses: on a Dask cluster whose workers declare\n"
    "                               --resources slots=K, a game takes its hungrier player's slots\n"
    "  quote a value or a command holding a comma: cmd:\"./engine --a,b\",name=\"x, y\"\n\n")


def build_parser() -> argparse.ArgumentParser:
    from connect6.version import version_text
    parser = argparse.ArgumentParser(
        prog=PROG, description="A Connect6 engine: protocol server, match runner, analysis and play.")
    parser.add_argument("--version", action="version", version=version_text(PROG),
                        help="show the version and the bench signature of the search it ships, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("engine", help="speak the Cloudict/ConnectMore engine protocol on stdin/stdout",
                       description="Speak the Connect6 engine protocol (Cloudict / ConnectMore GUI) on "
                                   "stdin/stdout. Type 'help' once it runs.")
    _add_engine_options(p)
    p.set_defaults(handler=_cmd_engine)

    _add_match_parser(sub)
    _add_tournament_parser(sub)

    p = sub.add_parser("play", help="play against the engine in the terminal",
                       description="Play against the engine: type a turn as k11 k12, k11,k12 or k11k12 "
                                   "(j10 for black's first stone), or 'hint', 'undo', 'save FILE', 'help', "
                                   "'quit'.")
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
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME[:PORT]",
                   help="also serve requests whose Host header is NAME (any port, or only PORT); repeatable "
                        "(e.g. the name of a reverse proxy)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="also accept requests and WebSockets from pages of ORIGIN (e.g. http://example.com:8080); "
                        "repeatable")
    p.add_argument("--no-token", action="store_true",
                   help="with a non-local --host, do not ask for the random token of the printed URL (anyone who "
                        "reaches the address can then use the board)")
    p.add_argument("--max-searches", type=int, default=None, metavar="N",
                   help="engine searches at a time across all tabs; the others wait in a queue the page shows "
                        "(default: the number of cores)")
    p.add_argument("--max-sessions", type=int, default=None, metavar="N",
                   help="open tabs at a time; the next is refused with a message (default 64)")
    p.add_argument("--max-time", type=float, default=None, metavar="S",
                   help="the longest time per engine move a page may ask for, in seconds (default 60)")
    p.add_argument("--idle", type=float, default=None, metavar="S",
                   help="a tab that sent nothing for S seconds releases its engine, built again when "
                        "needed (default 600)")
    p.set_defaults(handler=_cmd_gui)

    p = sub.add_parser("bench", help="the search benchmark (see connect6 bench --help)", add_help=False)
    p.add_argument("bench_args", nargs=argparse.REMAINDER)
    p.set_defaults(handler=_cmd_bench)
    return parser


def _add_match_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from connect6.options import PROFILES, SCANS
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
               + _PLAYER_SETTINGS_HELP +
               "example:\n"
               "  connect6 match paper paper:scan=global --games 8 --game-time 10 "
               "--openings data/openings.txt\n"
               "  connect6 match default:depth=1 'cmd:\"~/.cache/connect6-peers/cloudict\",init=depth 4,"
               "hang=300,name=cloudict-d4'")
    p.add_argument("a", metavar="A", help="player A")
    p.add_argument("b", metavar="B", help="player B")
    p.add_argument("--games", type=_positive_int, default=2,
                   help="games to play, as colour-swapped pairs from one opening (default 2)")
    _add_schedule_options(p)
    p.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                   help="stop as soon as the sequential probability ratio test decides")
    p.set_defaults(handler=_cmd_match)


def _add_tournament_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser(
        "tournament", help="play a round-robin or gauntlet tournament and fit ratings",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play every pairing of the players (round-robin) or the first player against each "
                    "other (gauntlet), in colour-swapped pairs from the same openings, then fit all "
                    "ratings together by maximum likelihood (logistic Elo) with 95% intervals.",
        epilog="players: as for connect6 match (see connect6 match --help), with their own settings.\n\n"
               "example:\n"
               "  connect6 tournament paper local:depth=2 'default:depth=2,name=d2' --games 8 --anchor paper")
    p.add_argument("players", nargs="+", metavar="PLAYER", help="the players (at least 2)")
    p.add_argument("--format", choices=("round-robin", "gauntlet"), default="round-robin",
                   help="round-robin (every pairing) or gauntlet (the first player against each other)")
    p.add_argument("--games", type=_positive_int, default=2,
                   help="games per pairing, as colour-swapped pairs (default 2)")
    p.add_argument("--anchor", metavar="PLAYER",
                   help="the player whose rating is held fixed: its name, its text or its place 1..N "
                        "(default: the first)")
    p.add_argument("--anchor-elo", type=float, default=0.0, metavar="ELO",
                   help="the anchor's rating (default 0)")
    _add_schedule_options(p)
    p.set_defaults(handler=_cmd_tournament)


def _add_schedule_options(p: argparse.ArgumentParser) -> None:
    """The options a match and a tournament share: openings, time, where the games run, results."""
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
                   help="results directory: games.jsonl, match.json or tournament.json, sgf/ "
                        "(default: match-<date>-<time> or tournament-<date>-<time>)")
    p.add_argument("--resume", action="store_true",
                   help="continue the match or tournament in --out without replaying finished games")
    p.add_argument("--progress", choices=("auto", "tqdm", "rich", "plain", "live", "none"), default="auto",
                   help="progress display (auto: tqdm or rich on a terminal when installed, else plain lines; "
                        "live: a status line per running game, with rich when installed)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on a Dask cluster: local:N (N worker processes on this machine) or "
                        "tcp://HOST:8786 (a running scheduler); needs pip install \"connect6[cluster]\"")


# ---------------------------------------------------------------- engine
def _cmd_engine(args: Args) -> int:
    from connect6.protocol.server import serve
    status = serve(**_engine_settings(args), time=args.time)
    try:
        if sys.stdout is not None:      # None: started with its output closed (serve said so)
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
def _game_settings(args: Args) -> Dict[str, Any]:
    """The settings a match and a tournament share (games, openings, time
    control, seed, working directory), from their common options."""
    from connect6.match import load_openings
    return dict(games=args.games, openings=load_openings(args.openings) if args.openings else None,
                opening_order=args.opening_order, move_time=args.move_time, game_time=args.game_time,
                time_margin=args.time_margin, hang_timeout=args.hang_timeout, seed=args.seed, cwd=os.getcwd())


def _cmd_match(args: Args) -> int:
    from connect6 import match as m
    out = None
    try:
        a = m.parse_player(args.a)
        b = m.parse_player(args.b)
        for spec in (a, b):
            m.check_player(spec)
        sprt = m.SprtParams(*args.sprt) if args.sprt else None
        config = m.MatchConfig(a=a, b=b, sprt=sprt, **_game_settings(args))
        out = _out_dir(args, "match")
        match = m.Match(config, out=out, resume=args.resume)
        cluster, progress = _cluster_and_progress(args, config.games, len(match.results()))
    except (ValueError, OSError) as exc:
        _drop_unused_out(args, out)
        print(f"{PROG} match: error: {exc}", file=sys.stderr)
        return 2
    done = len(match.results())
    controls = match.time_controls()[0].upper() + match.time_controls()[1:]
    try:
        stats = _play(match, cluster, args, progress,
                      f"Match {config.a.label} (A) vs {config.b.label} (B): {config.games} games, seed "
                      f"{config.seed}, results in {out}" + (f" ({done} already played)" if done else "") + "\n"
                      + controls)
    except (m.ResultsFolderBusy, m.ResultsWriteError) as exc:
        return _results_error("match", out, exc)
    print(m.format_summary(stats, config.a.label, config.b.label))
    print(controls)
    if match.sprt_stopped_at is not None:
        print(f"SPRT stopped the match after {match.sprt_stopped_at} games")
    return _finish(match, out)


def _cluster_and_progress(args: Args, total: int, done: int) -> Tuple[Optional["Cluster"], Any]:
    """The Dask cluster of --cluster (or None), then the progress display of
    ``total`` games of which ``done`` are played: a display is not started
    while the cluster is still being reached, and a cluster is closed when
    the display cannot be made (ValueError naming the problem)."""
    from connect6.match import make_progress
    cluster = _open_cluster(args)
    try:
        return cluster, make_progress(args.progress, total, done)
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise


def _open_cluster(args: Args) -> Optional["Cluster"]:
    """The Dask cluster of --cluster, or None (ValueError naming the problem)."""
    if not args.cluster:
        return None
    from connect6.match.cluster import open_cluster
    cluster = open_cluster(args.cluster)
    workers = cluster.workers
    print(f"Cluster {cluster.address}: {cluster.slots} game slot(s)" if workers else
          f"Cluster {cluster.address}: no worker yet; the games wait until one connects", file=sys.stderr)
    return cluster


def _run_on(runner: Union["Match", "Tournament"], cluster: Optional["Cluster"], args: Args,
            progress: Any) -> Any:
    """Run a match or tournament on the cluster (closed afterwards) or a process pool."""
    if cluster is None:
        return runner.run(concurrency=args.concurrency, progress=progress)
    from connect6.match.cluster import cluster_slots
    from connect6.match.store import interrupts_held
    try:
        return runner.run(executor=cluster.executor, concurrency=cluster_slots(cluster, args.concurrency),
                          progress=progress)
    finally:
        with interrupts_held():     # a Ctrl-C in the middle of closing it would hang the exit in Dask's atexit
            cluster.close()


def _cmd_tournament(args: Args) -> int:
    from connect6 import match as m
    from connect6.match.tournament import Tournament, TournamentConfig
    out = None
    try:
        players = [m.parse_player(text) for text in args.players]
        for spec in players:
            m.check_player(spec)
        config = TournamentConfig(players=players, format=args.format, anchor=args.anchor,
                                  anchor_elo=args.anchor_elo, **_game_settings(args))
        out = _out_dir(args, "tournament")
        tournament = Tournament(config, out=out, resume=args.resume)
        cluster, progress = _cluster_and_progress(args, tournament.total_games, len(tournament.results()))
    except (ValueError, OSError) as exc:
        _drop_unused_out(args, out)
        print(f"{PROG} tournament: error: {exc}", file=sys.stderr)
        return 2
    done = len(tournament.results())
    try:
        _play(tournament, cluster, args, progress,
              f"Tournament ({config.format}) of {len(players)} players, {len(tournament.pair_list)} pairings of "
              f"{config.games} games, seed {config.seed}, results in {out}"
              + (f" ({done} already played)" if done else ""))
    except (m.ResultsFolderBusy, m.ResultsWriteError) as exc:
        return _results_error("tournament", out, exc)
    print(tournament.summary())
    return _finish(tournament, out)


def _drop_unused_out(args: Args, out: Optional[str]) -> None:
    """A dated results folder made for a run that did not start goes again (if still empty)."""
    if out is not None and not args.out:
        try:
            os.rmdir(out)
        except OSError:
            pass


def _results_error(command: str, out: str, exc: Exception) -> int:
    """The results folder refused (another run holds it: 2) or could not be written (1)."""
    from connect6.match import ResultsFolderBusy
    if isinstance(exc, ResultsFolderBusy):
        print(f"{PROG} {command}: error: {exc}", file=sys.stderr)
        return 2
    print(f"{PROG} {command}: error: {exc}; the games written are kept (continue with --resume --out "
          f"{shlex.quote(out)})", file=sys.stderr)
    return 1


def _out_dir(args: Args, kind: str) -> str:
    """The results directory of a match or tournament: --out, or a new dated one
    made here (``-2``, ``-3``, ... added when a run started in the same second has it)."""
    import datetime
    if args.resume and not args.out:
        raise ValueError(f"--resume needs --out DIR (the directory of the {kind} to continue)")
    if args.out:
        return str(args.out)
    base = datetime.datetime.now().strftime(f"{kind}-%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        out = base if n == 1 else f"{base}-{n}"
        try:
            os.mkdir(out)
        except FileExistsError:
            continue
        return out
    raise ValueError(f"cannot make a results folder: {base} and 998 more exist")


def _play(runner: Union["Match", "Tournament"], cluster: Optional["Cluster"], args: Args, progress: Any,
          banner: str) -> Any:
    """Run a match or tournament with SIGTERM stopping it like Ctrl-C; its result."""
    from connect6.match import stop_on_sigterm
    with stop_on_sigterm():
        print(banner, file=sys.stderr)
        return _run_on(runner, cluster, args, progress)


def _finish(runner: Union["Match", "Tournament"], out: str) -> int:
    """Where the games are, and the exit status: 130 interrupted, 1 a game failed, else 0."""
    from connect6 import match as m
    print(f"Games: {os.path.join(out, m.GAMES_FILE)}, SGF: {os.path.join(out, m.SGF_DIR)}{os.sep}")
    if runner.interrupted:
        return 130
    return 1 if runner.failures else 0


# ---------------------------------------------------------------- play
def _cmd_play(args: Args) -> int:
    from connect6.notation import Color
    from connect6.terminal import play
    try:
        engine = _make_engine(args)
    except (ValueError, TypeError) as exc:
        print(f"{PROG} play: error: {exc}", file=sys.stderr)
        return 2
    if sys.stdin is None:
        print(f"{PROG} play: no standard input to read your moves from (it is closed)", file=sys.stderr)
        return 2
    human = Color.BLACK if args.color == "black" else Color.WHITE
    return play(engine, human, args.time, _engine_settings(args)["depth"] is not None)


# ---------------------------------------------------------------- analyze
def _read_game(spec: str) -> List["Move"]:
    """The moves of ``spec``: an SGF or stone-list file, ``-`` (stdin) or the text itself."""
    from connect6.records import MAX_GAME_CHARS, RecordError, read_game_text
    if spec == "-":
        if sys.stdin is None:
            raise ValueError("stdin is closed: nothing to read the game from")
        text, where = sys.stdin.read(MAX_GAME_CHARS + 1), "stdin"   # more than a game is refused below
    elif os.path.exists(spec):
        with open(spec, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > 4 * MAX_GAME_CHARS:                            # UTF-8: at most 4 bytes a character
                raise RecordError(f"{size:,} bytes: longer than any game (at most {MAX_GAME_CHARS:,} "
                                  "characters)", file=spec)
            data, where = fh.read(4 * MAX_GAME_CHARS + 1), spec
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start}",
                              file=spec) from None
    elif spec.strip().startswith("(") or any(ch in spec for ch in "./\\"):     # no stone list holds these
        raise ValueError(f"{spec}: no such file")
    else:
        text, where = spec, None
    try:
        moves = read_game_text(text)[1]
    except RecordError as exc:
        raise exc if where is None else exc.located(file=where) from None
    if where is not None and not moves:             # an empty file or pipe: not a request for the empty board
        raise RecordError("no moves: nothing to analyse (give \"\" for the empty board)", file=where)
    return moves


def _cmd_analyze(args: Args) -> int:
    from connect6.records import RecordError, replay
    try:
        engine = _make_engine(args)
        moves = _read_game(args.game)
        board = replay(moves)
    except (ValueError, TypeError, OSError) as exc:  # RecordError is a ValueError
        kind = "bad game record" if isinstance(exc, RecordError) else "error"
        print(f"{PROG} analyze: {kind}: {exc}", file=sys.stderr)
        return 2
    outcome = board.outcome()
    if outcome is not None:
        print(f"{PROG} analyze: the game is over ({outcome.result()}"
              f"{' won' if outcome.winner is not None else ''}): nothing to search", file=sys.stderr)
        return 1
    r = engine.search(board, time=args.time)
    side = str(board.turn)
    if args.json:
        print(json.dumps({"moves": len(board.move_stack), "to_move": side, "best": str(r.move), **r.to_json()}))
        return 0
    n = board.stones_to_place
    print(f"position: {len(board.move_stack)} turns played, {side} to move ({n} stone{'s' if n > 1 else ''})")
    print(f"engine:   {engine.name}")
    print(f"best:     {r.move}  (protocol {r.move.to_protocol()}), score for {side} {r.score_text}")
    if r.refuted:
        print("          refuted: the threat search finds a forced win of the opponent after it")
    print(f"search:   {r.describe()}")
    return 0


# ---------------------------------------------------------------- gui
def _cmd_gui(args: Args) -> int:
    try:
        from connect6.web.server import serve
    except ImportError as exc:
        print(f"{PROG} gui: {exc}", file=sys.stderr)
        return 2
    if not 1 <= args.port <= 65535:      # 0 (any free port) would print a URL with port 0
        print(f"{PROG} gui: --port must be 1..65535, not {args.port}", file=sys.stderr)
        return 2
    if args.watch is not None and os.path.exists(args.watch) and not os.path.isdir(args.watch):
        print(f"{PROG} gui: --watch {args.watch}: not a directory", file=sys.stderr)
        return 2
    if args.watch is not None and not os.path.exists(args.watch):
        print(f"{PROG} gui: --watch {args.watch} does not exist yet: waiting for the match to create it",
              file=sys.stderr)
    try:
        limits, access = _gui_limits(args)
    except ValueError as exc:
        print(f"{PROG} gui: {exc}", file=sys.stderr)
        return 2
    try:
        serve(host=args.host, port=args.port, watch_dir=args.watch, open_browser=args.open,
              allow_hosts=args.allow_host, allow_origins=args.allow_origin, token=not args.no_token, limits=limits)
    except OSError as exc:          # the port is bound before anything is printed
        print(f"{PROG} gui: {exc}", file=sys.stderr)
        return 2
    return 0


def _gui_limits(args: Args) -> Tuple["WebLimits", "AccessPolicy"]:
    """The gui's Limits from its options, and a check of the allowed hosts and origins (ValueError)."""
    from connect6.web.guard import AccessPolicy
    from connect6.web.limits import Limits
    given = {k: getattr(args, k) for k in ("max_searches", "max_sessions", "max_time", "idle")
             if getattr(args, k) is not None}
    limits = Limits(**given)
    access = AccessPolicy.for_host(args.host, args.allow_host, args.allow_origin)
    return limits, access


# ---------------------------------------------------------------- bench
def _cmd_bench(args: Args) -> int:
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
    if sys.stdout is None:              # started with its output closed: every command's answer would be lost
        if sys.stderr is not None:
            sys.stderr.write(f"{PROG}: no standard output to write to (it is closed)\n")
        return 2
    args: Optional[Args] = None
    if not argv or argv[0] != "bench":  # after bench everything belongs to the benchmark, --help included
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "handler", None) is None:
            parser.print_help(sys.stderr)
            return 2
    try:
        return _run_bench(argv[1:]) if args is None else int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:             # the reader went away (connect6 analyze ... | head -1)
        _silence_stdout()
        return 141                      # as a shell reports a process ended by SIGPIPE
    except OSError as exc:              # the output cannot be written (a full disk: analyze > /dev/full)
        _silence_stdout()
        print(f"{PROG}: {exc.strerror or exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
