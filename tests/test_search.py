"""Alpha-beta over width-limited pairs: exact in every scan mode, equal to minimax, tactically sound."""
import itertools
import threading

import pytest

import connect6
from connect6 import _reference as ref
from connect6.engine import WIN_SCORE, win_in
from connect6.result import forced_loss, forced_win
from engine_core import movegen
from engine_core import threats as T
from engine_core import tss
from engine_core.position import scan_code
from connect6.options import profile

from _positions import must_block, opponent_has_vcdt, positions, threat_road_empties, win_in_one


def key(r):
    return (r.move, r.score, r.pv, r.depth, r.nodes, r.leaves)


def test_scan_modes_identical_on_50_positions():
    boards = positions(50)
    assert len(boards) == 50
    for board in boards:
        results = [connect6.Engine(profile="plain", depth=2, width=5, scan=s).search(board)
                   for s in ("global", "local", "incremental")]
        assert key(results[0]) == key(results[1]) == key(results[2]), repr(board)


def test_local_and_incremental_identical_deeper():
    for board in positions(50):
        a = connect6.Engine(profile="plain", depth=3, width=8, scan="local").search(board)
        b = connect6.Engine(profile="plain", depth=3, width=8, scan="incremental").search(board)
        assert key(a) == key(b), repr(board)


def minimax(pos, depth, width, ply, f, g, counter, reply_width=0):
    """Plain minimax (negamax form) over the engine's width-limited tree; leaves by the oracle.
    ``reply_width``: the pairs kept at ply 1 instead of ``width`` (0: width)."""
    mover = pos.to_move
    if depth == 0:
        counter[0] += 1
        cells = [pos.stone_at(c) for c in range(361)]
        return -ref.evaluate(cells, 1 - mover, f, g)
    best = None
    kept = reply_width if ply == 1 and reply_width else width
    for _, a, b in movegen.best_moves(pos, kept, 2, scan_code("incremental")):
        stones = [a] if b < 0 else [a, b]
        for c in stones:
            pos.add_stone(c, mover)
        pos.to_move = 1 - mover
        if pos.winner() == mover:
            v = WIN_SCORE - (ply + 1)
        else:
            v = -minimax(pos, depth - 1, width, ply + 1, f, g, counter, reply_width)
        pos.to_move = mover
        for c in reversed(stones):
            pos.remove_stone(c, mover)
        best = v if best is None else max(best, v)
    return best


@pytest.mark.parametrize("depth,width", [(1, 6), (2, 4), (2, 6), (3, 3), (3, 5)])
def test_alpha_beta_equals_minimax(depth, width):
    f, g = connect6.resolve_weights("paper")
    for board in positions(6, step_range=(3, 10)):
        counter = [0]
        value = minimax(board.position.copy(), depth, width, 0, f, g, counter)
        result = connect6.Engine(profile="plain", depth=depth, width=width).search(board)
        assert result.score == value, repr(board)
        assert result.leaves <= counter[0]
        # the reported move leads to the reported value
        assert board.is_legal(result.move)


@pytest.mark.parametrize("depth,width,reply_width", [(3, 4, 9), (3, 3, 7), (3, 6, 2)])
def test_reply_width_is_the_width_at_ply_1_only(depth, width, reply_width):
    f, g = connect6.resolve_weights("paper")
    changed = 0
    for board in positions(6, step_range=(3, 10)):
        value = minimax(board.position.copy(), depth, width, 0, f, g, [0], reply_width)
        result = connect6.Engine(profile="plain", depth=depth, width=width,
                                 reply_width=reply_width).search(board)
        assert result.score == value, repr(board)
        changed += value != minimax(board.position.copy(), depth, width, 0, f, g, [0])
    assert changed > 0          # ones where the replies kept matter (at depth 2 they never do: the
    #                             best reply at a frontier node is the first pair by score)


def test_reply_width_equal_to_width_or_zero_is_the_same_search():
    for board in positions(8, step_range=(4, 12)):
        base = connect6.Engine(depth=3, width=6).search(board)
        assert key(connect6.Engine(depth=3, width=6, reply_width=6).search(board)) == key(base), repr(board)
        assert key(connect6.Engine(depth=3, width=6, reply_width=0).search(board)) == key(base), repr(board)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_tempo_moves_the_value_by_the_side_to_move_at_the_leaves(depth):
    """``tempo`` is added for the side to move at each leaf: the root's side
    when the depth is even, the opponent when it is odd; the tree is the same."""
    sign = 1 if depth % 2 == 0 else -1
    for board in positions(6, step_range=(3, 10)):
        base = connect6.Engine(profile="plain", depth=depth, width=5).search(board)
        shifted = connect6.Engine(profile="plain", depth=depth, width=5, tempo=300).search(board)
        if base.win_in is None:
            assert shifted.score == base.score + sign * 300, repr(board)
        assert shifted.move == base.move and shifted.nodes == base.nodes, repr(board)


def test_tt_parity_cuts_off_only_with_entries_of_the_same_parity():
    """Timed searches keep the table: after a depth-4 search it holds the
    nodes one turn deeper than a depth-3 search needs.  With ``tt_parity``
    none of them cuts the depth-3 search off, so its value is the fresh
    one's; without, their values (leaves of the other side to move) do."""
    mixed = 0
    for board in positions(8, step_range=(4, 12)):
        options = dict(profile="plain", width=5, tt_bits=16)
        fresh = connect6.Engine(**options).search(board, depth=3, time=600.0)
        for parity in (True, False):
            engine = connect6.Engine(tt_parity=parity, **options)
            engine.search(board, depth=4, time=600.0)
            again = engine.search(board, depth=3, time=600.0)
            if parity:
                assert again.score == fresh.score, repr(board)
            else:
                mixed += again.score != fresh.score
    assert mixed > 0


def test_even_decide_plays_the_deepest_even_iteration():
    """With ``even_decide`` a search that deepens to an odd depth plays the
    move, value and line of its even iteration one turn shallower (the same
    search stopped there), unless a value is a forced result."""
    changed = 0
    for board in positions(10, step_range=(4, 12)):
        options = dict(profile="plain", width=5)
        odd = connect6.Engine(**options).search(board, depth=5, time=600.0)
        even = connect6.Engine(**options).search(board, depth=4, time=600.0)
        decided = connect6.Engine(even_decide=True, **options).search(board, depth=5, time=600.0)
        again = connect6.Engine(even_decide=True, **options).search(board, depth=4, time=600.0)
        assert (again.move, again.score, again.pv) == (even.move, even.score, even.pv), repr(board)
        if not any(forced_win(r.score) or forced_loss(r.score) for r in (odd, even)):
            assert (decided.move, decided.score, decided.pv) == (even.move, even.score, even.pv), repr(board)
            changed += decided.score != odd.score
        else:
            assert (decided.move, decided.score) == (odd.move, odd.score), repr(board)
    assert changed > 0


def test_iterative_deepening_keeps_the_value():
    for board in positions(15):
        plain = connect6.Engine(profile="plain", depth=4, width=6).search(board)
        deep = connect6.Engine(profile="plain", depth=4, width=6).search(board, time=60.0)
        assert deep.score == plain.score
        # a forced six found early ends the deepening: it cannot change with depth
        assert deep.depth == 4 or deep.win_in is not None


@pytest.mark.parametrize("profile", ["paper", "plain", "default"])
def test_win_in_one_is_always_taken(profile):
    boards = win_in_one(150)
    engine = connect6.Engine(profile=profile, depth=2)
    for board in boards:
        result = engine.search(board)
        after = board.copy()
        after.push(result.move)
        assert after.outcome() is not None and after.outcome().winner == board.turn, repr(board)
        assert result.win_in == 1


@pytest.mark.parametrize("profile", ["plain", "default"])
def test_must_block_is_stopped(profile):
    cases = must_block(60)
    assert len(cases) >= 40
    engine = connect6.Engine(profile=profile, depth=3, width=10)
    for board, _ in cases:
        move = engine.play(board)
        after = board.copy()
        after.push(move)
        assert after.outcome() is None
        assert threat_road_empties(after, int(board.turn.other)) == [], repr(board)


def test_pv_is_legal_and_consistent():
    from _positions import vcdt_positions
    boards = positions(10) + [b for b, _ in vcdt_positions(8)]
    for board in boards:
        result = connect6.Engine(depth=4, width=6).search(board)
        b = board.copy()
        assert result.pv[0] == result.move
        for m in result.pv:
            b.push(m)
        if result.win_in is None:
            assert len(result.pv) == 4


def test_tiny_time_limit_still_gives_a_legal_move():
    engine = connect6.Engine()
    for board in positions(10):
        result = engine.search(board, time=1e-9)
        assert result.depth >= 1 and board.is_legal(result.move)


def test_a_game_clock_bounds_a_longer_move_time():
    from connect6.options import Limits
    board = positions(1, step_range=(9, 9))[0]
    # the per-move time alone used to decide: 1000 s with 0.4 s on the clock (its share is 0.02 s)
    result = connect6.Engine().search(board, limits=Limits(time=1000.0, clock=0.4))
    assert board.is_legal(result.move) and result.time_s < 50


def test_a_node_limit_deepens_and_plays_the_same_move_on_any_machine():
    """Limits(nodes=N): iterative deepening stopped by the count of nodes
    (alpha-beta's and the solver's), not by a clock, with fresh tables: the
    same result every time, even after a timed search left its tables behind."""
    from connect6.options import Limits
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.make_engine("default:nodes=120000")
    first = engine.search(board)
    engine.search(board, time=0.05)
    again = engine.search(board)
    assert (first.move, first.score, first.depth, first.nodes) == (again.move, again.score, again.depth, again.nodes)
    assert first.depth >= 2 and first.nodes + first.tss_nodes <= 120001
    deeper = connect6.make_engine("default").search(board, limits=Limits(nodes=600000))
    assert deeper.depth >= first.depth and deeper.nodes > first.nodes
    assert "nodes=120000" in engine.name


@pytest.mark.parametrize("limit", [2_000, 30_000])
def test_a_node_limit_bounds_the_solver_too(limit):
    """The threat-space solver's nodes count toward a node limit: a search
    of the bench positions never lets the solver past it (its root budget
    alone is 100 000 nodes a call), and once the first iteration is done the
    two counts together stay within it.  Each root solver search gets the
    share of the limit it gets of a time (root_tss_percent), so alpha-beta
    still has the rest."""
    from connect6.benchmark import BENCH_POSITIONS
    from connect6.options import Limits
    for _, moves in BENCH_POSITIONS:
        result = connect6.Engine().search(connect6.Board(moves), limits=Limits(nodes=limit))
        assert result.tss_nodes <= limit
        assert result.depth == 1 or result.nodes + result.tss_nodes <= limit + 1


def test_settle_percent_ends_a_limited_search_when_its_move_has_settled():
    """settle_percent=P: a search under a node (or time) limit ends after the
    first iteration that kept the previous iteration's best pair once P% of
    the limit is spent; before that, and with P = 0 or 100, it searches on."""
    from connect6.options import Limits
    board = positions(1, step_range=(9, 9))[0]
    limits = Limits(nodes=400000)
    full_infos: list = []
    full = connect6.make_engine("default").search(board, limits=limits, info=full_infos.append)
    share = 5
    stops = [k for k in range(1, len(full_infos)) if full_infos[k].pv[0] == full_infos[k - 1].pv[0]
             and (full_infos[k].nodes + full_infos[k].tss_nodes) * 100 >= share * limits.nodes]
    assert stops and stops[0] < len(full_infos) - 1, "the position must settle before the limit"
    infos: list = []
    early = connect6.make_engine(f"default:settle_percent={share}").search(board, limits=limits, info=infos.append)
    assert [(i.depth, i.pv, i.nodes) for i in infos] == [(i.depth, i.pv, i.nodes) for i in full_infos[:stops[0] + 1]]
    assert early.move == infos[-1].pv[0] and early.depth == infos[-1].depth and early.nodes < full.nodes
    for never in (0, 100):
        same = connect6.make_engine(f"default:settle_percent={never}").search(board, limits=limits)
        assert key(same) == key(full)
    unlimited = connect6.make_engine("default:settle_percent=1").search(board, depth=3)
    assert key(unlimited) == key(connect6.make_engine("default").search(board, depth=3))


#: Cloudict (Black) to have moved, our engine White: the opponent threatens a
#: VCDT, and at 50 s a move the default stopped at 42.5 s (change-reply-fours.md, game 2)
DEFENDING = "j10 j9k11 k9l8 m7l10 m9k7"


def test_defend_reserve_ms_caps_the_time_kept_back_for_the_defence_check():
    """When the opponent threatens a VCDT, a timed search stops alpha-beta 15%
    of its time early, for the defence check; with defend_reserve_ms=R it
    keeps back at most R ms, so the search reaches its time less R.  (A
    lower bound: a busy machine only makes a search later, never earlier.)"""
    from connect6.options import EngineOptions, Limits
    board = connect6.Board(DEFENDING)
    assert opponent_has_vcdt(board) and not board.is_game_over()
    limits = Limits(time=0.6)
    capped = connect6.make_engine("default:defend_reserve_ms=2").search(board, limits=limits)
    assert win_in(capped.score) is None, "a forced result would end the search before its time"
    assert capped.time_s >= 0.6 - 0.002 - 0.001
    with pytest.raises(ValueError, match="defend_reserve_ms"):
        EngineOptions(defend_reserve_ms=-1)


def test_deterministic_node_counts():
    board = positions(1, step_range=(9, 9))[0]
    for profile in ("plain", "default"):
        e = connect6.Engine(profile=profile, depth=4, width=8)
        assert key(e.search(board)) == key(e.search(board))


def test_threads_search_independently():
    boards = positions(4)
    expected = [connect6.Engine(depth=3, width=8).search(b) for b in boards]
    got = [None] * len(boards)

    def work(i):
        got[i] = connect6.Engine(depth=3, width=8).search(boards[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(boards))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [key(r) for r in got] == [key(r) for r in expected]


def test_first_move_and_single_stone_moves():
    result = connect6.Engine().search(connect6.Board())
    assert result.move == connect6.Move.parse("j10")


@pytest.mark.parametrize("kwargs", [dict(depth=0), dict(width=0), dict(scan="fast"), dict(profile="nope"),
                                    dict(radius=0), dict(depth=1000), dict(width=2**31 - 1), dict(width=2**31),
                                    dict(radius=2**31), dict(width=10**9), dict(tt_bits=40), dict(tss_budget=-1),
                                    dict(no_such_option=1)])
def test_bad_engine_arguments(kwargs):
    """Out of range: a ValueError naming the argument, before anything reaches the core."""
    name = next(iter(kwargs))
    with pytest.raises(ValueError, match=name if name != "profile" else "profile"):
        connect6.Engine(**kwargs)


@pytest.mark.parametrize("kwargs", [dict(depth=2.5), dict(width="3"), dict(threats="yes"), dict(radius=None or 1.5)])
def test_wrong_types_name_the_argument(kwargs):
    with pytest.raises(TypeError, match=next(iter(kwargs))):
        connect6.Engine(**kwargs)


def test_bad_search_arguments():
    e = connect6.Engine()
    board = connect6.Board("j10")
    for kwargs in (dict(depth=0), dict(width=-1), dict(time=0), dict(time=-1), dict(time=float("nan")),
                   dict(time=float("inf")), dict(time=1e308), dict(width=2**31 - 1)):
        with pytest.raises(ValueError, match=next(iter(kwargs))):
            e.search(board, **kwargs)
    for kwargs in (dict(time="soon"), dict(depth="3"), dict(limits=3)):
        with pytest.raises(TypeError, match=next(iter(kwargs))):
            e.search(board, **kwargs)
    with pytest.raises(TypeError):
        e.search("j10")


def test_a_table_larger_than_the_memory_left_is_refused_by_name(monkeypatch):
    # the table is zeroed before a search: one the system overcommits brought the OOM killer
    import connect6.options as options
    monkeypatch.setattr(options, "_available_memory", lambda: 3 * 2 ** 30)
    e = connect6.Engine(profile="paper", tt_bits=28)
    with pytest.raises(MemoryError, match=r"tt_bits=28: a transposition table of 6\.0 GiB is more than the 3\.0 GiB"):
        e.search(connect6.Board("j10"), depth=1)
    options.check_table_memory(26)                          # 1.5 GiB fits (no table allocated to tell)
    monkeypatch.setattr(options, "_available_memory", lambda: None)      # cannot be told: no check
    options.check_table_memory(28)


def test_finished_game_is_refused():
    board = win_in_one(1)[0]
    board.push(connect6.Engine().play(board))
    assert board.is_game_over()
    with pytest.raises(ValueError, match="game is over"):
        connect6.Engine().search(board)


def test_order_weights_change_the_kept_pairs_not_the_evaluation():
    other = ((0, 3, 30, 90, 300, 300, 10**6), (0, 2, 20, 120, 9000, 9000, 10**6))
    for board in positions(10):
        pos = board.position.copy()
        value = pos.evaluate(0)
        pos.set_order_weights(*other)
        assert pos.evaluate(0) == value == pos.evaluate(0, "global")
        ref = board.position.copy()
        ref.set_weights(*other)
        lists = [movegen.best_moves(pos, 8, 2, scan_code(s)) for s in ("global", "local", "incremental")]
        assert lists[0] == lists[1] == lists[2] == movegen.best_moves(ref, 8, 2, scan_code("incremental"))
    # an engine ordering with other weights still searches exactly: same value as plain minimax needs
    # the same tree, so compare the two scan modes instead
    board = positions(1, step_range=(8, 8))[0]
    a = connect6.Engine(profile="plain", order_weights=other, scan="local", depth=3, width=6).search(board)
    b = connect6.Engine(profile="plain", order_weights=other, depth=3, width=6).search(board)
    assert key(a) == key(b)


def test_a_reused_context_does_not_leak_between_configurations():
    """A context that served a threat-aware search with tables must not lend
    them to a plain search (results equal to a fresh search), and a fixed-depth
    search is reproducible after any earlier search on the same context."""
    from engine_core import search as S
    board = positions(1, step_range=(9, 9))[0]
    plain = dict(threats=False, tss_plies=0, tt_bits=0, killers=False)
    strong = dict(threats=True, tss_plies=2, tss_budget=1000, tss_root_budget=20000, defend=True,
                  tt_bits=16, killers=True)
    plain = profile("plain", width=8, **plain).core_fields()
    strong = profile("plain", width=8, **strong).core_fields()
    fresh_plain = S.search(board.position, plain, 3)
    fresh_strong = S.search(board.position, strong, 3)
    ctx = S.SearchContext()
    S.search(board.position, strong, 3, context=ctx)
    again_plain = S.search(board.position, plain, 3, context=ctx)
    again_strong = S.search(board.position, strong, 3, context=ctx)
    for got, want in ((again_plain, fresh_plain), (again_strong, fresh_strong)):
        for k in ("move", "score", "pv", "nodes", "leaves", "tss_nodes"):
            assert getattr(got, k) == getattr(want, k), k


def test_the_reply_budget_bounds_the_ply_1_searches_and_tss_budget_the_deeper_ones():
    """tss_reply_budget is spent on the opponent's VCDT after each root move
    (ply 1), tss_budget on the mover's at ply 2: with the root's own searches
    off, each budget alone adds solver nodes to what runs with both at 0 (a
    few, that a search with no budget still visits)."""
    board = positions(1, step_range=(12, 12))[0]

    def tss_nodes(reply, deeper):
        return connect6.Engine(profile="default", tss_root_budget=0, reply_check=0, tss_reply_budget=reply,
                               tss_budget=deeper).search(board, depth=2).tss_nodes

    neither, reply, deeper, both = tss_nodes(0, 0), tss_nodes(1000, 0), tss_nodes(0, 1000), tss_nodes(1000, 1000)
    assert neither < 100 and reply > 10 * neither and deeper > 10 * neither
    assert both > max(reply, deeper)


def test_tss_block_plies_adds_the_vcdt_after_a_block_below_tss_plies_only():
    """The opponent's four at ply 1 and our block at ply 2: with
    tss_block_plies=4 the opponent looks for its VCDT at ply 3 too, so a
    depth-4 search (no TT, so the node sets match; no reply check at the
    root) spends more solver nodes and visits no more alpha-beta nodes than
    without; a value at or below tss_plies (3) adds nothing, as plies 1 and
    2 are searched anyway.  The
    position is from a game lost to Cloudict: Black's four h11k12 (the
    move played) was met by White's block and four f9k16, and every block
    pair after that leaves White a VCDT."""
    board = connect6.Board("j10 i11k11 j11k10 j12l10 l9i12 h13m8 m9h10 i13k13 j13h14 l14k15 g10m15 f10k14")

    def run(value):
        r = connect6.Engine(tss_block_plies=value, tt_bits=0, reply_check=0).search(board, depth=4)
        return r.move, r.score, r.nodes, r.tss_nodes

    off, three, four = run(0), run(3), run(4)
    assert three == off
    assert four[3] > off[3] and four[2] <= off[2]


def test_the_core_refuses_options_out_of_range():
    """A direct caller of the compiled search cannot crash it either."""
    from engine_core import search as S
    board = connect6.Board("j10")
    good = profile("default").core_fields()
    for key, value in (("width", 0), ("width", 10**6), ("tt_bits", 40), ("scan", 7), ("radius", -1),
                       ("reply_check", -1), ("reply_width", -1), ("reply_width", 10**6),
                       ("tempo", -1), ("tempo", 10**10)):
        with pytest.raises(ValueError, match="out of range"):
            S.search(board.position, dict(good, **{key: value}), 2)
    with pytest.raises(ValueError):
        S.search(board.position, good, 0)
    with pytest.raises((ValueError, TypeError)):
        S.search(board.position, {"width": 3}, 2)       # missing fields
    with pytest.raises(OverflowError):
        S.search(board.position, dict(good, width=2**40), 2)


@pytest.mark.parametrize("options", [dict(tt_bits=16), dict(killers=True), dict(tt_bits=16, killers=True)])
def test_table_and_ordering_options_keep_the_value(options):
    """A transposition table and killer pairs change the order and the node
    count, never the value of a fixed-depth search."""
    for board in positions(12):
        plain = connect6.Engine(profile="plain", depth=3, width=8).search(board)
        other = connect6.Engine(profile="plain", depth=3, width=8, **options).search(board)
        assert other.score == plain.score, repr(board)


@pytest.mark.parametrize("options", [dict(), dict(tt_bits=16, killers=True)])
def test_null_window_searches_keep_the_value(options):
    """Principal variation search (``pvs``) searches the later pairs with a
    null window first and again only when one may be better: the value of a
    fixed-depth search is the same.  (Depth 4: at depth 3 on these positions
    no null-window search fails high, so a search without the second one
    would pass too.)"""
    for board in positions(12):
        plain = connect6.Engine(profile="plain", depth=4, width=6, **options).search(board)
        scout = connect6.Engine(profile="plain", depth=4, width=6, pvs=True, **options).search(board)
        assert scout.score == plain.score, repr(board)


def test_aspiration_windows_keep_the_value():
    for board in positions(12):
        plain = connect6.Engine(profile="plain", depth=4, width=6).search(board, time=60.0)
        narrow = connect6.Engine(profile="plain", depth=4, width=6, aspiration=20).search(board, time=60.0)
        assert (narrow.score, narrow.depth) == (plain.score, plain.depth), repr(board)


def test_a_threatened_vcdt_is_refuted_by_a_counter_threat():
    """White, if it moved now, would win by VCDT (from a game of the strength
    gauntlet).  Brute force over every pair of candidates: the only defences
    make a black four (j10 k10 . m10 on row 10), so White must answer it
    first; none of them puts a stone on White's winning line.  The engine
    finds one at every depth."""
    board = connect6.Board("j10 i10j11 l13m10 h11i12")
    assert opponent_has_vcdt(board)
    cand = movegen.candidates(board.position, 2)
    safe = []
    for x, y in itertools.combinations(cand, 2):
        after = board.copy()
        after.push(connect6.Move((x, y)))
        if tss.solve_vcdt(after.position, 12, 30000)[0] == 0:
            safe.append(connect6.Move((x, y)))
    assert safe
    for move in safe:
        after = board.copy()
        after.push(move)
        assert T.blocking(after.position, int(board.turn))[0] >= 1, move    # a counter-threat
    for depth in (1, 2, 3):
        result = connect6.Engine(depth=depth).search(board)
        after = board.copy()
        after.push(result.move)
        assert tss.solve_vcdt(after.position, 12, 200000)[0] != 1, (depth, str(result.move))


def _replies_without_vcdt(board, budget=30000):
    """Every reply (pair of candidate cells) after which the side that just
    moved has no VCDT: brute force with the solver."""
    out = []
    for x, y in itertools.combinations(movegen.candidates(board.position, 2), 2):
        after = board.copy()
        after.push(connect6.Move((x, y)))
        if not after.is_game_over() and tss.solve_vcdt(after.position, 12, budget)[0] == 0:
            out.append(connect6.Move((x, y)))
    return out


@pytest.mark.parametrize("moves, claimed, reply", [
    ("j10 j12l11 k11k12 k10l12 l13j11 m14k14", "h9k9", "g8l8"),
    ("j10 j12l11 k11k12 k10l12 l13j11 m14k14 i10j9 g8k8 j8l14 j7m11", "f6i9", "h8i11"),
    ("j10 i11k11 l11j12 j13k10 k9j8 j11h11 g11i12 k12k13 k14l13 h10l10", "g12h12", "f12i14"),
])
def test_a_threat_whose_block_needs_its_free_stone_is_not_called_a_win(moves, claimed, reply):
    """Positions from the archive where the move ``claimed`` makes a four
    and a threat of a VCDT behind it: the one stone that blocks the four
    must be paired with a stone on the VCDT's line (``reply``), which is not
    among the block's best partners by pair score.  Searching only those, a
    depth-2 search called ``claimed`` a forced win (``defend_plies=1``); with
    pairs against the threat zone below the root it does not, or the win it
    reports holds against every reply."""
    board = connect6.Board(moves)
    after = board.copy()
    after.push(connect6.Move.parse(claimed))
    refuted = after.copy()
    refuted.push(connect6.Move.parse(reply))
    assert tss.solve_vcdt(refuted.position, 12, 30000)[0] == 0           # the reply stops the attack
    old = connect6.Engine(depth=2, defend_plies=1).search(board)
    assert (str(old.move), old.win_in is not None) == (claimed, True)  # the false claim being fixed
    new = connect6.Engine(depth=2, defend_plies=2).search(board)
    if new.win_in is not None and new.score > 0:
        played = board.copy()
        played.push(new.move)
        assert not _replies_without_vcdt(played), str(new.move)


# game 1 of bench/results/cloudict-d6-t13.5-5123501.md, Black (ours) to move:
# o11h13 blocks White's h-file four and makes Black's own four on the diagonal
# l8-q13; the search called it a win in 13 and Cloudict answered p12h17
COUNTER_FOUR = ("j10 j9k11 k9l8 m7l10 m9i11 h12k7 h10j12 g9l7 j7i10 k10i8 h7j11 k12k13 f10k14 g10l11 "
                "j13n13 j14n7 p7n10 i15h16 l12f18 h15h14")


def test_a_four_whose_lone_block_makes_a_four_of_its_own_is_not_called_a_win():
    """The one stone that blocks a four leaves the blocker a free stone, and
    a free stone that makes the blocker's own four must be answered before
    the attack goes on.  The block lists held only the lone block's best
    partners by pair score, none of them the counter-four h17: a depth-2
    search called o11h13 a forced win, and Cloudict's p12h17 won the game.
    With ``block_partners`` the lists also pair each lone block with every
    cell where its free stone makes a four (defence._counter_fours)."""
    board = connect6.Board(COUNTER_FOUR)
    after = board.copy()
    after.push(connect6.Move.parse("o11h13"))
    assert T.blocking(after.position, 0)[0] == 1                         # Black's four: one stone blocks it
    after.push(connect6.Move.parse("p12h17"))
    assert T.blocking(after.position, 1)[0] == 1                         # ... and White's free stone makes a four
    assert tss.solve_forced(after.position, 12, 2, 300_000)[::2] == (None, False)
    old = connect6.Engine(depth=2).search(board)
    assert (str(old.move), old.win_in is not None) == ("o11h13", True)   # the false claim being fixed
    for depth in (2, 3):
        result = connect6.Engine(depth=depth, block_partners=True).search(board)
        assert result.win_in is None, (depth, str(result.move), result.score_text)


GAME_20 = ("j10 i9j8 h10k9 i11i10 i8i12 h11g12 f11j9 l11f13 e14j11 e13g14 k10h7 g6l9 g10h9 j7e12 "
           "h5j12 h6j14 k11k12 k8k14 l10i13").split()


def _turn_19_after_kept_tables(check):
    """Game 20's turns 15, 17 and 19 (see below) searched to depths 15, 3
    and 3 with the table kept between them; turn 19's result."""
    from engine_core import search as S
    opts = profile("default", table_loss_check=check).core_fields()
    ctx = S.SearchContext()
    first = S.search(connect6.Board(GAME_20[:15]).position, opts, 15, 0.0, True, ctx, keep_tables=True)
    assert (win_in(first.score) or 0) > 0                                 # turn 15: a win claimed
    S.search(connect6.Board(GAME_20[:17]).position, opts, 3, 0.0, True, ctx, keep_tables=True)
    return S.search(connect6.Board(GAME_20).position, opts, 3, 0.0, True, ctx, keep_tables=True)


def test_a_loss_the_table_kept_from_an_earlier_move_is_checked_for_the_movers_vcdt():
    """Timed play keeps the transposition table from move to move.  In game
    20 of ``bench/results/cloudict-d6-t20-63daf2f.md`` (ours White) the
    searches of turns 15 and 17 stored that Black had lost after White's
    later m9g15, at nodes five and three plies down, where no VCDT of
    Black's was looked for.  At turn 19 that node is one ply below the
    root, and the table's loss stood in for the search there: the search
    claimed a win in 13 with m9g15, while Black has a VCDT after it;
    Cloudict played it and won.  With ``table_loss_check`` a loss from the
    table makes the mover look for its own VCDT where the search would."""
    claimed = connect6.Board(GAME_20)
    claimed.push(connect6.Move.parse("m9g15"))
    assert tss.solve_vcdt(claimed.position, 12, 30000)[0] == 1          # Black wins after m9g15
    old = _turn_19_after_kept_tables(False)
    assert (str(connect6.Move(old.move)), win_in(old.score)) == ("m9g15", 13)   # the false claim being fixed
    new = _turn_19_after_kept_tables(True)
    after = connect6.Board(GAME_20)
    after.push(connect6.Move(new.move))
    if (win_in(new.score) or 0) > 0:
        assert tss.solve_vcdt(after.position, 12, 30000)[0] == 0, after.peek()
    assert str(after.peek()) != "m9g15"


@pytest.mark.parametrize("moves, plain", [
    ("j10 i11k11 j11k13 j12i13 i12h14 k10j9 j14k14 m9i14", "l10m11"),
    ("j10 i11k11 j12l11 j13k10 h11k12 i12i10 i9h13 h9j7 k7i14 l9m8", "n7k8"),
    ("j10 i11j8 i9k10 k11l10 j11j12 l9k9 m11l12 k12j13 h8l11 k13j9 g7g9 f6k14 g10k15 l13i13", "h13m13"),
])
def test_the_reply_check_avoids_a_move_that_lets_the_opponent_win(moves, plain):
    """Positions from games against Cloudict: a depth-3 search (without
    null-window searches, as it was when the games were played) plays
    ``plain``, after which the solver with a large budget finds the opponent
    a VCDT (7 to 13 plies) that the searches inside the tree, with 1 000
    nodes each, miss.  With ``reply_check`` the new best root pair is checked
    with a larger budget and the engine plays a move after which the solver
    finds none."""
    board = connect6.Board(moves)
    old = connect6.Engine(depth=3, pvs=False, reply_check=0).search(board)
    assert str(old.move) == plain
    after = board.copy()
    after.push(old.move)
    assert tss.solve_vcdt(after.position, 12, 300000)[0] == 1
    new = connect6.Engine(depth=3, reply_check=5000).search(board)
    after = board.copy()
    after.push(new.move)
    assert tss.solve_vcdt(after.position, 12, 300000)[0] == 0, str(new.move)


def test_a_refuted_best_move_reports_its_own_value():
    """Every root pair of this position (from a game against Cloudict, White
    to move, lost to a four and a VCDT behind it) is refuted by the reply
    check; refuted pairs rank below the others but keep their values, so the
    search reports a value on the evaluation's scale, never the penalty, and
    deepens as usual."""
    board = connect6.Board("j10 i11k11 j11k10 i10j9 i12h13")
    seen = []
    result = connect6.Engine(reply_check=5000).search(board, depth=4, time=600, info=seen.append)
    assert result.depth == 4 and len(seen) == 4
    for score in [result.score] + [i.score for i in seen]:
        assert abs(score) < 10 ** 6, score


def test_reply_refuted_gives_the_reply_checks_verdict_on_one_pair():
    """engine_core.search.reply_refuted is the check of the ``reply_check``
    option as a view (tools/first_loss.py walks back over lost games with
    it).  In the position above, lost to a four and a VCDT behind it, the
    check refutes every pair of White's list except those that leave Black
    a six next, which it leaves to alpha-beta; early in a game a pair
    beside the stones is not refuted."""
    from engine_core.search import reply_refuted
    options = profile("default", reply_check=5000).core_fields()
    lost = connect6.Board("j10 i11k11 j11k10 i10j9 i12h13")
    verdicts = {}
    for _, a, b in movegen.best_moves(lost.position, 12, 2, scan_code("incremental")):
        after = lost.position.copy()
        after.push_move(a, b)
        verdicts[a, b] = (reply_refuted(lost.position, options, a, b), bool(T.threats(after, connect6.BLACK)))
    assert sorted(set(verdicts.values())) == [(0, True), (1, False)], verdicts
    early = connect6.Board("j10 k10k11")
    a, b = sorted(connect6.Move.parse("j11j9").stones)
    assert reply_refuted(early.position, options, a, b) == 0


def test_a_search_says_when_the_reply_check_refuted_its_move():
    """Black to move in a game lost to Cloudict at depth 6: the reply check
    refutes every pair the search ranks first (the opponent wins by force
    after it), so the search plays the best of them by its own value and says
    so in ``refuted``; without the check it plays the same pair, unflagged.
    Early in a game nothing is refuted."""
    from engine_core.search import reply_refuted
    lost = connect6.Board("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11 l7k11 l6m6 k6n7 o9m7 "
                          "k5p10 n10l12 p8k13 l13l14")
    options = profile("default").core_fields()
    for depth in (2, 4):
        result = connect6.Engine().search(lost, depth=depth)
        assert result.refuted and not result.win_in, (depth, result)
        assert reply_refuted(lost.position, options, *sorted(result.move.stones)) == 1
    unchecked = connect6.Engine(reply_check=0).search(lost, depth=4)
    assert not unchecked.refuted and (unchecked.move, unchecked.score) == (result.move, result.score)
    assert not connect6.Engine().search(connect6.Board("j10 k10k11"), depth=3).refuted


def test_reply_four_budget_sees_a_double_threat_whose_blocks_lose_to_a_four_and_a_vcdt():
    """Black's p8k13 (a game lost to Cloudict at depth 6) lets White in with
    l13l14, a double threat; after each of Black's blocks White wins with a
    single four and then a VCDT.  That is two levels deep: the reply check
    with VCDT alone does not refute p8k13, with reply_four_budget (single
    fours then VCDT, 200 000 nodes a call) it does."""
    from engine_core.search import reply_refuted
    before = connect6.Board("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11 l7k11 l6m6 k6n7 o9m7 "
                            "k5p10 n10l12")
    a, b = sorted(connect6.Move.parse("p8k13").stones)
    assert reply_refuted(before.position, profile("default", reply_four_budget=0).core_fields(), a, b) == 0
    assert reply_refuted(before.position, profile("default", reply_four_budget=200000).core_fields(), a, b) == 1


def test_reply_check_width_tries_replies_beyond_the_width():
    """Black's o7m8 (game 21 of a depth-5 run at 10 s a move, holdout
    openings): Black scored it +469 and saw the loss one turn later, after
    White's n10o11, 40th of White's pairs by pair score.  The check
    tries White's best 12 replies (the width) and passes o7m8; with
    reply_check_width=24 one of White's replies ranked 13-24 wins by force
    as far as the check can tell, and it refutes o7m8."""
    from engine_core.search import reply_refuted
    before = connect6.Board("j10 j9k11 k8l11 l8m10 j7k7 m7k5 l6n6 m9m11")
    a, b = sorted(connect6.Move.parse("o7m8").stones)
    assert reply_refuted(before.position, profile("default").core_fields(), a, b) == 0
    assert reply_refuted(before.position, profile("default", reply_check_width=12).core_fields(), a, b) == 0
    assert reply_refuted(before.position, profile("default", reply_check_width=24).core_fields(), a, b) == 1


def test_tss_fours_2_lets_the_reply_check_see_a_win_with_two_single_fours():
    """Black's k8m10 (game 11 of cloudict-d6-t50-5bd4f15.md, lost at 50 s in
    two runs): White wins with two single fours and not with one, so the
    check with one four passes k8m10 and with tss_fours=2 refutes it.  The
    fours come one, then two: p8k13's one-four win (above) is still found
    with a budget far below the 585 280 nodes a search allowing two from
    the start takes."""
    from engine_core.search import reply_refuted
    before = connect6.Board("j10 j11k9 k10k11 i10i9 i8h9 j9h11")
    a, b = sorted(connect6.Move.parse("k8m10").stones)
    assert reply_refuted(before.position, profile("default", reply_four_budget=300000, tss_fours=1).core_fields(),
                         a, b) == 0
    two = profile("default", reply_four_budget=300000, tss_fours=2).core_fields()
    assert reply_refuted(before.position, two, a, b) == 1
    before = connect6.Board("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11 l7k11 l6m6 k6n7 o9m7 "
                            "k5p10 n10l12")
    a, b = sorted(connect6.Move.parse("p8k13").stones)
    assert reply_refuted(before.position, profile("default", reply_four_budget=30000, tss_fours=2).core_fields(),
                         a, b) == 1


def test_the_roots_single_four_budget_grows_with_the_moves_time():
    """White's win after p8k13 (l13l14, then a single four and a VCDT) needs
    more solver nodes than tss_four_budget=5000 allows: a fixed-depth search
    (no time) does not find it at the root; with a minute a move the budget is
    20 times larger (as the reply check's) and the root plays the proved win
    at once, well inside its share of the minute."""
    board = connect6.Board("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11 l7k11 l6m6 k6n7 o9m7 "
                           "k5p10 n10l12 p8k13")
    engine = connect6.Engine(tss_four_budget=5000)
    assert engine.search(board, depth=1).source == "search"
    timed = engine.search(board, time=60)
    assert timed.source == "solver" and timed.win_in and str(timed.move) == "l13l14"


def test_tss_root_grows_scales_the_roots_vcdt_budget_with_the_moves_time():
    """The side to move's VCDT here (a Cloudict game) takes the solver about
    12 000 nodes: tss_root_budget=2000 does not prove it in a fixed-depth
    search (no time); with tss_root_grows and a minute a move the budget is
    20 times larger and the root plays the proved win at once."""
    board = connect6.Board("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 n10m11 l7n11 o9p8 r6l12 p10q11 "
                           "l6r12 p9p11 p7p13 q10o10 l10r10 l9n5 n7o8 q9q12 q7q13 o7n9 r9r13 r11m5")
    assert tss.solve_vcdt(board.position, 10, 2000)[0] == -1 and tss.solve_vcdt(board.position, 10, 40000)[0] == 1
    engine = connect6.Engine(tss_root_budget=2000, tss_root_grows=True)
    assert engine.search(board, depth=1).source == "search"
    timed = engine.search(board, time=60)
    assert timed.source == "solver" and timed.win_in


def test_the_reply_check_answers_our_four_with_the_opponents_blocks():
    """Black's four h11k12 (a game lost to Cloudict) forces White to block,
    and White's block f9k16 makes a four of its own; after every pair of
    Black that meets it White has a VCDT (checked here over all of them).
    The reply check used to leave a pair that makes a four to the search;
    it now searches the opponent's block pairs as its replies and refutes
    h11k12."""
    from engine_core.search import reply_refuted
    board = connect6.Board("j10 i11k11 j11k10 j12l10 l9i12 h13m8 m9h10 i13k13 j13h14 l14k15 g10m15 f10k14")
    a, b = sorted(connect6.Move.parse("h11k12").stones)
    assert reply_refuted(board.position, profile("default", reply_check=5000).core_fields(), a, b) == 1
    board.push(connect6.Move.parse("h11k12"))
    board.push(connect6.Move.parse("f9k16"))
    h, blocks = T.blocking(board.position, connect6.WHITE)
    assert h == 1
    empty = [c for c in range(361) if board.position.stone_at(c) not in (0, 1)]
    defences = {tuple(sorted((x, y)))
                for x, partner in blocks for y in (empty if partner < 0 else [partner]) if y != x}
    for x, y in defences:
        after = board.position.copy()
        after.push_move(x, y)
        assert tss.solve_vcdt(after, 10, 50000)[0] == 1, (x, y)


@pytest.mark.parametrize("cells, message", [
    ((5, 5), "two different cells"), ((-1, 3), "two different cells"), ((3, 361), "two different cells"),
    ((180, 3), "must both be empty"),
])
def test_reply_refuted_refuses_bad_pairs(cells, message):
    from engine_core.search import reply_refuted
    board = connect6.Board("j10")
    with pytest.raises(ValueError, match=message):
        reply_refuted(board.position, profile("default", reply_check=100).core_fields(), *cells)


def test_reply_refuted_refuses_options_without_the_check_and_a_finished_or_one_stone_turn():
    from engine_core.search import reply_refuted
    board = connect6.Board("j10")
    with pytest.raises(ValueError, match="reply_check >= 1"):
        reply_refuted(board.position, profile("default", reply_check=0).core_fields(), 1, 2)
    with pytest.raises(ValueError, match="reply_check >= 1"):
        reply_refuted(board.position, profile("plain", reply_check=100).core_fields(), 1, 2)
    options = profile("default", reply_check=100).core_fields()
    with pytest.raises(ValueError, match="two stones to place"):
        reply_refuted(connect6.Board().position, options, 1, 2)
    won = connect6.Board("j10 a1b3 k10l10 a3c4 m10n10 a5d6 o10p10")
    assert won.is_game_over()
    with pytest.raises(ValueError, match="game in progress"):
        reply_refuted(won.position, options, 1, 2)


def test_engine_and_results_pickle_and_copy():
    import copy
    import dataclasses
    import pickle
    board = connect6.Board("j10 k10k11")
    engine = connect6.Engine(depth=2, width=6, profile="plain")
    result = engine.search(board)
    for clone in (pickle.loads(pickle.dumps(engine)), copy.deepcopy(engine), copy.copy(engine)):
        assert repr(clone) == repr(engine) and clone.options == engine.options
        assert dataclasses.replace(clone.search(board), time_s=0) == dataclasses.replace(result, time_s=0)
    assert pickle.loads(pickle.dumps(result)) == result == copy.deepcopy(result)
    board.push_stone(0)
    with pytest.raises(ValueError, match="half made"):
        engine.search(board)


# ------------------------------------------------------------- analysis handle
def test_analysis_streams_every_iteration_and_ends_with_the_search_result():
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.Engine(profile="plain", width=6)
    with engine.analysis(board, depth=4) as handle:
        infos = list(handle)
    result = handle.wait()
    assert [i.depth for i in infos] == [1, 2, 3, 4]
    assert infos[-1].score == result.score and infos[-1].pv == result.pv
    assert all(a.nodes <= b.nodes for a, b in zip(infos, infos[1:]))
    fixed = connect6.Engine(profile="plain", width=6, depth=4).search(board)
    assert (result.move, result.score) == (fixed.move, fixed.score)


def test_endless_analysis_stops_from_another_thread():
    """With no limit the search would run for ever: stop() from another thread
    ends it with the best move so far, and only an analysis may be endless."""
    import threading
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.Engine()
    with pytest.raises(ValueError, match="analysis"):
        engine.search(board, time=float("inf"))
    handle = engine.analysis(board, time=float("inf"))
    first = next(iter(handle))
    threading.Timer(0.3, handle.stop).start()
    result = handle.wait(timeout=60)
    assert not handle.running and board.is_legal(result.move)
    assert result.depth >= first.depth
    # the context is usable again, and a later search is not stopped by the old request
    again = engine.search(board, time=0.5)
    assert again.depth >= 1


def test_engine_stop_ends_an_endless_analysis_whose_handle_was_dropped():
    """A dropped endless analysis held the engine for ever: a later search()
    waited without end, and nothing could reach the analysis to stop it."""
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.Engine(profile="plain", width=6)
    engine.analysis(board)                                  # endless, its handle dropped
    waiting = engine.analysis(board, depth=2)               # waits for the engine
    engine.stop()                                           # ends both
    assert waiting.wait(timeout=120).depth >= 1
    assert engine.search(board, depth=1).depth == 1          # the engine is free again
    engine.stop()                                           # nothing running: nothing happens


def test_analysis_reports_forced_wins_and_errors():
    board = win_in_one(1)[0]
    with connect6.Engine().analysis(board) as handle:
        infos = list(handle)
    assert infos and infos[-1].win_in == 1 and handle.wait().win_in == 1
    with pytest.raises(TypeError):
        connect6.Engine().analysis("j10")


def test_a_stop_reaches_only_its_own_analysis():
    """Two analyses of one engine run one after the other: stopping the second
    while the first still runs does not stop the first, and the second, once
    it starts, ends at once with its first iteration."""
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.Engine(profile="plain", width=6)
    first = engine.analysis(board, depth=5)
    second = engine.analysis(board)                # endless: waits for the engine
    second.stop()
    assert first.wait(timeout=120).depth == 5       # ran to its own end
    assert second.wait(timeout=120).depth >= 1
    third = engine.analysis(board, depth=3)         # an old stop request does not leak into it
    assert third.wait(timeout=120).depth == 3


def test_an_analysis_searches_the_board_as_it_was_when_called():
    """The board is copied at the call: a caller that plays on while the
    analysis waits for the engine (here behind another analysis) changes
    nothing of what is searched (it used to search the board as it was when
    its thread got the engine, a finished game included)."""
    engine = connect6.Engine(depth=2, width=6)
    board = connect6.Board("j10 a1a2 k10l10 a3a4 m10n10 a5b5")          # Black to move wins with i10 or o10
    blocker = engine.analysis(connect6.Board("j10"))                     # endless: holds the engine
    next(iter(blocker))
    handle = engine.analysis(board, depth=1)
    board.push(connect6.Move.parse("o10s19"))                            # the caller plays on: Black has won
    blocker.stop()
    result = handle.wait(timeout=120)
    fresh = connect6.Engine(depth=1, width=6).search(connect6.Board("j10 a1a2 k10l10 a3a4 m10n10 a5b5"))
    assert (result.move, result.score) == (fresh.move, fresh.score) and result.win_in == 1


def test_a_stop_after_its_search_ended_misses_the_next_search():
    """A stop() that lands after an analysis's search released the engine,
    while the next analysis runs, must not stop that one: the handle's search
    is cleared while it still holds the engine (it was cleared after, so such
    a stop ended the next search after its first iteration).  The window is
    made certain by a lock that calls the stop right after the first search
    releases it, once the second has finished an iteration."""
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.Engine(profile="plain", width=6)

    class Hooked:
        def __init__(self):
            self.lock, self.after_release = threading.Lock(), None

        def __enter__(self):
            self.lock.acquire()

        def __exit__(self, *exc):
            self.lock.release()
            hook, self.after_release = self.after_release, None
            if hook is not None:
                hook()
    engine._lock = Hooked()
    first = engine.analysis(board)                  # endless until stopped
    next(iter(first))
    second = engine.analysis(board, depth=4)        # waits for the engine
    engine._lock.after_release = lambda: (next(iter(second)), first.stop())
    first.stop()
    assert first.wait(timeout=120).depth >= 1
    assert second.wait(timeout=120).depth == 4      # not stopped by first.stop()


def test_an_info_callback_cannot_call_its_own_engine():
    """The search holds the engine while it calls ``info``: calling search or
    new_game of the same engine there used to deadlock for ever; it is a
    RuntimeError that says why."""
    engine = connect6.Engine(depth=2, width=4)
    for call in (lambda info: engine.new_game(), lambda info: engine.search(connect6.Board("j10"), depth=1)):
        with pytest.raises(RuntimeError, match="info callback"):
            engine.search(connect6.Board("j10"), info=call)
    assert engine.search(connect6.Board("j10")).depth == 2                # the engine is free again


def test_analysis_arguments_are_checked_like_searches():
    engine = connect6.Engine(depth=1)
    for time in (float("-inf"), -1, 10 ** 400):
        with pytest.raises(ValueError, match="time must be"):
            engine.analysis(connect6.Board("j10"), time=time)
        with pytest.raises(ValueError, match="time must be"):
            engine.search(connect6.Board("j10"), time=time)
    with pytest.raises(ValueError, match="an integer of 401 digits"):
        connect6.Limits(clock=10 ** 400)
    with pytest.raises(TypeError, match="limits must be connect6.options.Limits, not int"):
        engine.analysis(connect6.Board("j10"), limits=3)


# ----------------------------------------------------------- helper threads (lazy SMP)
def _helper_threads_alive():
    return [t for t in threading.enumerate() if t.name == "connect6-helper"]


def test_helper_threads_search_with_the_main_table_and_stop_with_it():
    """threads=2: a helper thread deepens the same position beside the main
    search, sharing its transposition table; the result is the main search's
    with both threads' nodes, and the helper has ended when search returns.
    A fixed-depth search with helpers reaches its depth and plays a legal
    move (its value may differ from one thread's: the table is shared)."""
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.Engine(threads=2, reply_check=0)
    timed = engine.search(board, time=0.5)
    assert board.is_legal(timed.move) and timed.depth >= 1 and not _helper_threads_alive()
    fixed = engine.search(board, depth=3)
    assert board.is_legal(fixed.move) and fixed.depth == 3 and not _helper_threads_alive()
    assert abs(fixed.score) < 10 ** 6
    # the helper ran (at least its first iteration, depth 2) and its nodes are counted
    main, helper = engine._context, engine._helpers[0]
    assert helper.nodes > 0 and fixed.nodes == main.nodes + helper.nodes
    engine.new_game()                               # clears every context
    assert len(engine._helpers) == 1
    one = connect6.Engine(threads=1)
    one.search(board, depth=1)
    assert one._helpers == []


def test_an_analysis_with_helper_threads_stops_them_too():
    board = positions(1, step_range=(9, 9))[0]
    engine = connect6.Engine(threads=3)
    handle = engine.analysis(board)
    next(iter(handle))
    threading.Timer(0.3, handle.stop).start()
    result = handle.wait(timeout=60)
    assert board.is_legal(result.move) and not _helper_threads_alive()


def test_the_core_refuses_bad_helpers():
    from engine_core import search as S
    board = connect6.Board("j10 k10k11")
    options = profile("default", reply_check=0).core_fields()
    main = S.SearchContext()
    with pytest.raises(ValueError, match="of its own"):
        S.search(board.position, options, 2, context=main, helpers=[main])
    other = S.SearchContext()
    with pytest.raises(ValueError, match="of its own"):
        S.search(board.position, options, 2, context=main, helpers=[other, other])
    with pytest.raises(TypeError, match="SearchContext"):
        S.search(board.position, options, 2, context=main, helpers=[None])
    with pytest.raises(ValueError, match="at most"):
        S.search(board.position, options, 2, context=main, helpers=[S.SearchContext() for _ in range(S.MAX_THREADS)])
    assert S.search(board.position, options, 2, context=main, helpers=(other,)).depth == 2
    # a context that helped (and borrowed the main one's table) can be a main search later,
    # with a table of its own, after the one it borrowed from is gone
    del main
    import gc
    gc.collect()
    alone = S.search(board.position, options, 3, context=other)
    assert alone.depth == 3
    assert (alone.move, alone.score) == (lambda r: (r.move, r.score))(S.search(board.position, options, 3))
    with pytest.raises(ValueError, match="threads must be an integer in 1..64"):
        connect6.Engine(threads=65)


@pytest.mark.parametrize("depth", [2, 3])
def test_threat_frontier_values_depth_1_nodes_as_their_children(depth):
    """With ``threat_frontier`` a depth-1 node takes its best pair's score, or
    a win when a pair leaves threats no two stones block, instead of
    searching its children: the same root value and move, in fewer nodes
    (the bounds it returns are exact, so a tree may differ in its nodes).
    Wide lists (40 pairs) hold every such win, so the trees agree.
    ``tss_plies=1``: no solver below the root, so ply 1 is a frontier."""
    nodes = [0, 0]
    wins = 0
    for board in positions(16, step_range=(6, 30)):
        wide = dict(depth=depth, width=40, tss_plies=1)
        base = connect6.Engine(**wide).search(board)
        fast = connect6.Engine(threat_frontier=True, **wide).search(board)
        assert (fast.score, fast.move) == (base.score, base.move), repr(board)
        nodes[0] += base.nodes
        nodes[1] += fast.nodes
        wins += base.source == "search" and forced_win(base.score)
    assert nodes[1] < nodes[0] and wins > 0
