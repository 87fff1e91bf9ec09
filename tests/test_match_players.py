"""connect6.match.players: the player-spec language and checking players before a match."""
import contextlib
import sys

import pytest

from _match_helpers import ENGINES, cmd
import connect6
from connect6.options import PROFILES, RULES, SCANS, Limits, profile
from connect6.match import check_player, parse_player
from connect6.match.players import _make_engine, parse_engine_options


def test_parse_builtin_players():
    p = parse_player("local:depth=3,width=10")
    assert p.kind == "engine" and p.profile == "paper"
    assert p.engine_options == profile("paper", scan="local", width=10) and p.limits == Limits(depth=3)
    p = parse_player("global:depth=3,width=10,time=2")
    assert p.limits == Limits(depth=3, time=2.0)
    # a scan name is the paper's engine with that scan: local and global differ only in scanning
    local, glob = _make_engine(parse_player("local")), _make_engine(parse_player("global"))
    assert local.options.replace(scan="local") == glob.options.replace(scan="local") == profile("paper")
    assert (local.scan, glob.scan) == ("local", "global")
    assert parse_player("paper").engine_options == profile("paper")
    assert parse_player("default:time=1").limits == Limits(time=1.0)
    assert parse_player("paper:scan=global,radius=3").engine_options.scan == "global"
    assert _make_engine(parse_player("default:depth=2")).search(connect6.Board("j10")).depth == 2


def test_engine_keyword_options_pass_through():
    base = PROFILES["default"]
    for key in RULES:
        value = getattr(base, key)
        if key in ("depth", "weights", "order_weights"):
            continue
        text = str(value).lower() if isinstance(value, bool) else str(value)
        assert getattr(parse_player(f"default:{key}={text}").engine_options, key) == value
    with pytest.raises(ValueError, match="no_such_option"):
        parse_player("default:no_such_option=1")


def test_every_profile_and_scan_is_a_player():
    for name in list(PROFILES) + list(SCANS):
        assert parse_player(name).kind == "engine"


def test_parse_external_and_python_players():
    p = parse_player('cmd:"./engine --flag x"')
    assert p.kind == "cmd" and p.argv == ("./engine", "--flag", "x")
    assert parse_player("cmd:./engine --flag").argv == ("./engine", "--flag")
    p = parse_player("py:package.module:function")
    assert p.kind == "py" and p.target == "package.module:function"


@pytest.mark.parametrize("text", [
    "", "nope", "local:depth=x", "local:depth=0", "local:depth", "local:colour=red", "local:time=0",
    "local:time=-1", "local:scan=fast", "paper:profile=nope", "cmd:", 'cmd:"unclosed', "py:module",
    "py::f", "py:mod:", "py:1mod:f", "local:depth=1,depth=2",
])
def test_bad_players(text):
    with pytest.raises(ValueError):
        parse_player(text)


def test_check_player():
    check_player(parse_player("py:pybots:nearest"), cwd=ENGINES)
    with pytest.raises(ValueError, match="cannot import"):
        check_player(parse_player("py:no_such_module_here:f"), cwd=ENGINES)
    with pytest.raises(ValueError, match="has no"):
        check_player(parse_player("py:pybots:missing"), cwd=ENGINES)
    with pytest.raises(ValueError):
        check_player(parse_player("cmd:./no-such-engine"), cwd=ENGINES)
    with pytest.raises(ValueError):
        check_player(parse_player("cmd:no-such-engine-on-the-path"))
    check_player(parse_player(cmd("banner_engine.py")))


def test_engine_options_are_parsed_in_one_place():
    assert parse_engine_options("paper:time=1,threats=off", "paper", "time=1,threats=off") == (
        "paper", profile("paper", threats=False), Limits(time=1.0))
    assert parse_engine_options("global", "global", "") == ("paper", profile("paper", scan="global"), Limits())
    assert parse_engine_options("x", "default", "tss_budget=5,weights=paper")[1] == profile("default", tss_budget=5)
    for rest, message in [("depth", "key=value"), ("depth=two", "depth"), ("time=nan", "time"),
                          ("9x=1", "9x"), ("width=3,width=4", "given twice"), ("tss_budget=0.5", "tss_budget")]:
        with pytest.raises(ValueError, match=message):
            parse_engine_options("p", "paper", rest)
    with pytest.raises(ValueError, match="unknown player"):
        parse_engine_options("nope", "nope", "")


def test_a_player_that_cannot_start_is_a_forfeit():
    from connect6.match.players import Forfeit, open_player
    with pytest.raises(Forfeit) as info:
        open_player(parse_player("py:no_such_module_here:f"), ENGINES, 0.1, 1.0)
    assert info.value.termination == "crash" and "cannot import" in str(info.value)
    player = open_player(parse_player("paper:depth=1"), ENGINES, 0.1, 1.0)
    assert player.name.startswith("connect6-") and " paper:depth=1 (bench " in player.name
    player.close()


def test_an_engine_players_name_tells_its_options_apart():
    """Game records name an in-process engine by its options, not only its profile, so two
    runs of one profile with other settings (or builds: the bench signature) can be told apart."""
    from connect6.match.players import open_player
    names = []
    for spec in ("default:time=1", "default:time=1,reply_check=5000", "default:time=1,tt_parity=false"):
        player = open_player(parse_player(spec), ENGINES, 0.1, 1.0)
        names.append(player.name)
        player.close()
    assert len(set(names)) == 3
    assert " default (bench " in names[0]
    assert " default:reply_check=5000 (bench " in names[1] and " default:tt_parity=False (bench " in names[2]


def test_player_settings():
    from connect6.match.players import time_control
    p = parse_player('cmd:"~/peers/cloudict 6",hang=300,name=cloudict-d6,init=depth 6;vcf,startup=30')
    assert p.argv[0].endswith("/peers/cloudict") and not p.argv[0].startswith("~") and p.argv[1:] == ("6",)
    assert (p.hang, p.label, p.init, p.startup) == (300.0, "cloudict-d6", ("depth 6", "vcf"), 30.0)
    assert p.text.startswith("cmd:") and "hang=300" in p.text      # the text (stored in results) keeps them
    # an unquoted command runs to the first ,KEY= of a setting; quotes protect commas
    p = parse_player('cmd:./engine --opts=a,b,time=2,clock=60,dir=sub,name="x, y"')
    assert p.argv == ("./engine", "--opts=a,b") and (p.move_time, p.game_time, p.cwd, p.label) == (
        2.0, 60.0, "sub", "x, y")
    p = parse_player("py:pybots:nearest,name=near,time=0.5,hang=3")
    assert (p.target, p.label, p.move_time, p.hang) == ("pybots:nearest", "near", 0.5, 3.0)
    p = parse_player("default:depth=2,name=d2,clock=60,width=5")
    assert (p.label, p.game_time, p.limits.depth, p.engine_options.width) == ("d2", 60.0, 2, 5)
    # a built-in engine's time= is its search time, as before: not a forfeit limit of the runner
    p = parse_player("default:time=1.5")
    assert p.limits.time == 1.5 and p.move_time is None
    assert time_control(p) == "1.5 s/move" and time_control(p, move_time=1) == "1 s/move"


@pytest.mark.parametrize("text, message", [
    ("cmd:./e,hang=x", "hang"), ("cmd:./e,hang=0", "hang"), ("cmd:./e,hang=1,hang=2", "given twice"),
    ("cmd:./e,name=", "needs a value"), ('cmd:"./e,name=x', "not closed"), ("py:a:b,init=x", "unknown setting"),
    ("py:a:b,startup=3", "unknown setting"), ("default:hang=3", "hang"), ("default:clock=-1", "clock"),
    ("default:name=a,name=b", "given twice"), ("cmd:./e,slots=\u00b2", "slots must be a whole number"),
])
def test_bad_player_settings(text, message):
    with pytest.raises(ValueError, match=message):
        parse_player(text)


def test_check_player_builds_a_builtin_engine(tmp_path):
    """An option only building the engine checks (a book file) fails before any game, not as forfeits."""
    with pytest.raises(ValueError, match=r"paper:book=.*nothing-here.*book"):
        check_player(parse_player(f"paper:book={tmp_path / 'nothing-here'},depth=1"))
    check_player(parse_player("paper:depth=1"))


def test_two_bots_of_one_module_name_in_two_folders_are_refused(tmp_path):
    """Python holds one module of a name: the second bot would silently play the first one's moves."""
    for version in ("v1", "v2"):
        (tmp_path / version).mkdir()
        (tmp_path / version / "samename_bot_c6.py").write_text(f"VERSION = {version!r}\ndef play(board):\n    pass\n")
    try:
        check_player(parse_player("py:samename_bot_c6:play,dir=v1"), cwd=str(tmp_path))
        with pytest.raises(ValueError, match=r"samename_bot_c6 in .*v2 cannot be imported: .* from .*v1"):
            check_player(parse_player("py:samename_bot_c6:play,dir=v2"), cwd=str(tmp_path))
        check_player(parse_player("py:samename_bot_c6:play,dir=v1"), cwd=str(tmp_path))       # the same one again
    finally:
        sys.modules.pop("samename_bot_c6", None)
        for version in ("v1", "v2"):
            with contextlib.suppress(ValueError):
                sys.path.remove(str(tmp_path / version))


def test_check_player_settings(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        check_player(parse_player(cmd("banner_engine.py") + ",dir=no-such-dir"), cwd=str(tmp_path))
    check_player(parse_player(cmd("banner_engine.py") + f",dir={tmp_path}"))
    check_player(parse_player(f"py:pybots:nearest,dir={ENGINES}"), cwd=str(tmp_path))
    (tmp_path / "data.txt").write_text("x")
    with pytest.raises(ValueError, match="not an executable"):
        check_player(parse_player("cmd:./data.txt"), cwd=str(tmp_path))


def test_time_control_in_words():
    from connect6.match.players import time_control
    assert time_control(parse_player("default:depth=3")) == "depth 3"
    assert time_control(parse_player("paper")) == f"depth {connect6.options.profile('paper').depth}"
    assert time_control(parse_player("cmd:./e,init=depth 4"), hang=60) == "no time control (hang 60 s), init depth 4"
    assert time_control(parse_player("cmd:./e,hang=5"), hang=60) == "no time control (hang 5 s)"
    assert time_control(parse_player("cmd:./e"), move_time=2) == "2 s/move"
    assert time_control(parse_player("cmd:./e,time=1"), move_time=2, game_time=30) == "30 s/game, at most 1 s/move"


def test_init_commands_and_working_directory(tmp_path):
    from connect6.match.players import Forfeit, open_player
    from test_protocol import wait_dead
    log = tmp_path / "log"
    spec = parse_player(cmd("cloudict_like.py", log) + f",dir={tmp_path},init=depth 3;vcf")
    with pytest.raises(Forfeit, match="failed to start"):    # no data file in its directory
        open_player(spec, ENGINES, 0.1, 5.0)
    (tmp_path / "stub-patterns.txt").write_text("patterns\n")
    player = open_player(spec, ENGINES, 0.1, 5.0)
    assert player.name == "cloudict-like"
    pid = player.engine.process.pid
    assert str(player.play(connect6.Board(), None, None)) == "j10"
    player.kill()   # an abandoned game: quit first, then kill
    assert wait_dead(pid)
    assert log.read_text().split("\n")[:4] == ["name", "depth 3", "vcf", "new xxx"]
    assert log.read_text().split("\n")[-2] == "quit"
