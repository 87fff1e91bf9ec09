"""connect6.options: the one options type, its checks, profiles, limits and spec text."""
import dataclasses
import math
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import connect6
from connect6.options import (
    MAX_DEPTH, PROFILES, RULES, EngineOptions, Limits, parse_engine_spec, profile, spec_text,
)
from _fuzz import fuzz_examples  # noqa: E402


def test_profiles_are_options_and_paper_is_the_paper():
    assert set(PROFILES) == {"paper", "plain", "default"}
    paper = profile("paper")
    assert (paper.depth, paper.width, paper.radius, paper.scan, paper.weights) == (3, 10, 2, "local", "paper")
    assert not (paper.threats or paper.defend or paper.killers) and paper.tt_bits == 0
    assert profile("plain") == paper.replace(scan="incremental")
    assert connect6.PROFILES is PROFILES


def test_every_rule_is_a_field_and_every_core_field_reaches_the_core():
    fields = {f.name for f in dataclasses.fields(EngineOptions)}
    assert fields == set(RULES)
    core = EngineOptions().core_fields()
    assert set(core) == {n for n, r in RULES.items() if r.core}
    # the compiled core's struct conversion needs every one of them
    from engine_core import search as S
    board = connect6.Board("j10")
    S.search(board.position, core, 1)
    for name in core:
        with pytest.raises((TypeError, ValueError)):
            S.search(board.position, {k: v for k, v in core.items() if k != name}, 1)


@pytest.mark.parametrize("name", [n for n, r in RULES.items() if r.kind is int])
def test_integer_bounds_name_the_option_and_range(name):
    rule = RULES[name]
    for bad in (rule.lo - 1, rule.hi + 1, 2**63, -2**63):
        with pytest.raises(ValueError, match=rf"{name} must be an integer in {rule.lo}\.\.{rule.hi}"):
            EngineOptions(**{name: bad})
    for bad in ("3", 2.5, None, [1]):
        with pytest.raises(TypeError, match=name):
            EngineOptions(**{name: bad})
    assert getattr(EngineOptions(**{name: rule.hi}), name) == rule.hi


def test_numpy_integers_are_integers_and_numpy_bools_are_not():
    # learning code hands over numpy scalars: Engine(depth=np.int64(3)) raised TypeError
    import numpy as np
    assert EngineOptions(depth=np.int64(3)).depth == 3 and type(EngineOptions(depth=np.int8(3)).depth) is int
    assert connect6.Limits(depth=np.int32(4), nodes=np.uint64(1000)).nodes == 1000
    assert connect6.Engine(depth=np.int64(2)).search(connect6.Board(), depth=np.int16(1)).move is not None
    with pytest.raises(ValueError, match=r"depth must be an integer in 1\.\."):
        EngineOptions(depth=np.int64(0))
    for bad in (np.bool_(True), True, np.float64(2.5)):
        with pytest.raises(TypeError, match="depth must be an integer"):
            EngineOptions(depth=bad)
    assert len(connect6.records.random_openings(np.int64(2), seed=1, radius=np.uint8(3))) == 2
    # ... and seconds: any real number but a bool
    assert connect6.Limits(time=np.float32(0.5)).time == 0.5 and connect6.Limits(time=np.int64(2)).time == 2.0
    assert type(connect6.Limits(time=np.float64(1.5)).time) is float
    for bad in (np.bool_(True), True, "1"):
        with pytest.raises(TypeError, match="time must be a number of seconds"):
            connect6.Limits(time=bad)


def test_booleans_scan_and_weights_are_checked():
    with pytest.raises(TypeError, match="threats"):
        EngineOptions(threats="yes")
    assert EngineOptions(killers=0).killers is False
    with pytest.raises(ValueError, match="scan"):
        EngineOptions(scan="fast")
    with pytest.raises(ValueError, match="weights"):
        EngineOptions(weights="heavy")
    with pytest.raises(ValueError, match="expected 6 whole numbers"):      # int(inf) raised OverflowError
        EngineOptions(weights=((0, 1, 2, float("inf"), 4, 5, 6), (0, 1, 2, 3, 4, 5, 6)))
    w = ((0, 1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4, 5, 6))
    assert EngineOptions(weights=w).weight_vectors == w
    assert EngineOptions(weights="texel").weights == "texel"


@pytest.mark.parametrize("big", [10 ** 11 + 1, -(10 ** 18), 10 ** 40])
def test_weights_too_large_for_the_score_range_are_refused_where_they_enter(big):
    from connect6 import Board
    from engine_core.position import MAX_WEIGHT, Position
    ok = ((0, 1, 2, 3, 4, 5, MAX_WEIGHT), (0, 1, 2, 3, 4, 5, -MAX_WEIGHT))
    assert EngineOptions(weights=ok).weight_vectors == ok
    bad = ((1, 2, 3, 4, 5, 6), (1, 2, 3, big, 5, 6))
    with pytest.raises(ValueError, match=r"g\(4\) = .* out of range"):
        EngineOptions(weights=bad)
    with pytest.raises(ValueError, match=r"g\(4\) = .* out of range"):
        Board(weights=bad)
    with pytest.raises(ValueError, match=r"g\(4\) = .* out of range"):
        Position(ok[0], (0,) + bad[1])


def test_spec_text_names_what_differs_and_reads_back():
    from connect6.options import spec_text
    for name, changes in [("default", {}), ("paper", {}), ("default", {"reply_check": 5000, "width": 14}),
                          ("plain", {"scan": "global", "threats": True}), ("default", {"weights": "texel"})]:
        options = profile(name, **changes)
        text = spec_text(options, name)
        assert text == name + (":" if changes else "") + ",".join(f"{k}={v}" for k, v in
                                                                   sorted(changes.items(), key=lambda kv: list(RULES).index(kv[0])))
        parsed_name, parsed, _ = parse_engine_spec(text)
        assert (parsed_name, parsed) == (name, options)
    vectors = profile("default").weight_vectors
    assert spec_text(profile("default", weights=vectors)) == \
        "default:weights=1/20/40/200/200/1000000:1/25/50/6000/6000/1000000"
    tuned = "default:weights=1/15/40/200/200/1000000:1/30/50/6000/6000/1000000,order_weights=texel"
    name, options, _ = parse_engine_spec(tuned)
    assert options.weight_vectors[0][2] == 15 and options.weight_vectors[1][2] == 30
    assert options.order_vectors == connect6.weights.resolve_weights("texel")
    assert spec_text(options, name) == tuned and parse_engine_spec(spec_text(options, name))[1] == options
    with pytest.raises(TypeError, match="EngineOptions"):
        spec_text("default")
    with pytest.raises(ValueError, match="unknown profile"):
        spec_text(profile("default"), "nope")


def test_replace_refuses_unknown_names():
    with pytest.raises(ValueError, match="unknown engine option.*nope"):
        EngineOptions().replace(nope=1)


def test_options_and_limits_are_values():
    o = profile("default", width=9)
    assert pickle.loads(pickle.dumps(o)) == o and hash(o) == hash(profile("default", width=9))
    assert eval(repr(o), {"EngineOptions": EngineOptions}) == o
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.width = 3  # type: ignore[misc]
    assert Limits(depth=3).merged(Limits(time=2.0)) == Limits(depth=3, time=2.0)
    assert Limits(depth=3, time=1.0).merged(Limits(depth=5)) == Limits(depth=5, time=1.0)


@pytest.mark.parametrize("kwargs,err", [
    (dict(depth=0), ValueError), (dict(depth=MAX_DEPTH + 1), ValueError), (dict(depth=1.5), TypeError),
    (dict(time=0), ValueError), (dict(time=-1.0), ValueError), (dict(time=math.nan), ValueError),
    (dict(time=math.inf), ValueError), (dict(time=1e308), ValueError), (dict(time="1"), TypeError),
    (dict(clock=-1), ValueError), (dict(clock=True), TypeError),
    (dict(nodes=0), ValueError), (dict(nodes=-5), ValueError), (dict(nodes=10 ** 13), ValueError),
    (dict(nodes=2.5), TypeError), (dict(nodes="100"), TypeError),
])
def test_limits_are_checked(kwargs, err):
    with pytest.raises(err, match=next(iter(kwargs))):
        Limits(**kwargs)


def test_parse_engine_spec():
    name, o, lim = parse_engine_spec("local:depth=3,width=10,time=2")
    assert (name, o, lim) == ("paper", profile("paper", width=10), Limits(depth=3, time=2.0))
    assert parse_engine_spec("default:threats=off,tt_bits=0")[1] == profile("default", threats=False, tt_bits=0)
    assert parse_engine_spec("paper:scan=global")[1].scan == "global"
    assert parse_engine_spec("default:weights=texel")[1].weights == "texel"
    assert parse_engine_spec("default:nodes=50000")[2] == Limits(nodes=50000)
    assert spec_text(profile("default"), "default", Limits(nodes=50000)) == "default:nodes=50000"
    with pytest.raises(ValueError, match="nodes"):
        parse_engine_spec("default:nodes=lots")
    for bad, match in (("nope", "unknown engine"), ("default:width", "key=value"), ("default:width=0", "width"),
                       ("default:width=3,width=4", "twice"), ("default:time=0", "time"),
                       ("default:bogus=1", "bogus"), ("", "an engine is needed")):
        with pytest.raises(ValueError, match=match):
            parse_engine_spec(bad)


@settings(max_examples=fuzz_examples(200))
@given(st.dictionaries(st.sampled_from(sorted(RULES)),
                       st.one_of(st.integers(-2**70, 2**70), st.floats(allow_nan=True), st.booleans(),
                                 st.text(max_size=5), st.none()),
                       max_size=4))
def test_any_option_values_give_options_or_a_clear_error(changes):
    """Whatever is passed, only TypeError / ValueError come out, and what is
    accepted always searches without harm."""
    try:
        o = EngineOptions(**changes)
    except (TypeError, ValueError) as exc:
        assert str(exc)
        return
    o.core_fields()


@pytest.mark.parametrize("text, match", [
    ("1/15/40/200/200", "expected f and g"), ("1/2/3/4/5/6:1/2/3/4/5", "6 whole numbers"),
    ("1/x/3/4/5/6:1/2/3/4/5/6", "6 whole numbers"), ("1/2/3/4/5/6:1/2/3/4/5/6:7", "expected f and g"),
    ("1/2/3/4/5/6:1/2/3/4/5/99999999999999999999999", r"g\(6\) = 9+ is out of range"),
])
def test_weights_as_numbers_in_a_spec_are_checked(text, match):
    with pytest.raises(ValueError, match=match):
        parse_engine_spec("default:weights=" + text)
