"""connect6.match.players: the player-spec language and checking players before a match."""
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
    assert "Engine" in player.name
    player.close()
