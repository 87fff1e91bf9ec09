"""engine_core.root: the root's moves and where the move played came from (SearchResult.source)."""
import connect6
from connect6.options import profile
from engine_core import search as core
from engine_core import tss

from _positions import vcdt_positions

LOST = ("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11 l7k11 l6m6 k6n7 o9m7 "
        "k5p10 n10l12 p8k13 l13l14")


def _core(board, depth, **changes):
    return core.search(board.position, profile("default", **changes).core_fields(), depth)


def test_a_search_move_is_the_best_root_move_of_the_deepest_iteration():
    board = connect6.Board("j10 k10k11 i9i11")
    raw = _core(board, 3)
    assert raw.source == "search" and raw.pv[0] == raw.move
    moves = {(a, b): (value, depth, refuted, reply) for a, b, value, depth, refuted, reply in raw.root_moves}
    assert raw.move in moves
    value, depth, refuted, _ = moves[raw.move]
    assert depth == 3 and value == raw.score and refuted is not True
    # every root pair searched in the last iteration carries its depth; none beats the move played
    assert all(v <= raw.score for (v, d, r, _) in moves.values() if d == 3 and r is not True)


def test_a_refuted_move_names_its_refutation_in_the_root_moves():
    """Every pair the reply check judged first in a lost position is refuted,
    and the table keeps the verdict and the opponent's refuting reply: it is
    never read back from a score."""
    lost = connect6.Board(LOST)
    raw = _core(lost, 2)
    assert raw.refuted and raw.source == "search"
    entry = next(m for m in raw.root_moves if (m[0], m[1]) == raw.move)
    assert entry[4] is True and entry[5] is not None
    a, b = entry[5]
    after = lost.copy()
    after.push(connect6.Move((raw.move[0], raw.move[1])))
    assert after.is_legal(connect6.Move((a, b)))        # a real turn of the opponent's after the move
    # the value reported is the move's own, on the evaluation's scale
    assert entry[2] == raw.score and abs(raw.score) < 10 ** 6
    # without the check nothing is judged
    unchecked = _core(lost, 2, reply_check=0)
    assert not unchecked.refuted and all(m[4] is None for m in unchecked.root_moves)


#: a game lost to Cloudict (run of change-potential-4.md, game 11, turn 12): with
#: potential=4 a later root pair beat the best with a null window, the node
#: limit (in the game, the clock) stopped its search again, and the pair was
#: played although an earlier iteration's reply check had refuted it
REFUTED_LATER = "j10 j11k9 k10k11 i10i9 i8j9 k12l11 h9l10 j13i14 m10g16 o10l13 i13m14 j12j15"


def test_an_unfinished_iteration_does_not_play_a_pair_the_reply_check_refuted():
    """The check as it was then, double threats only: with reply_four_budget
    it also refutes the one pair left (below), so that no pair is left to prefer.
    The root's list only (rescue_width=0): beyond the width a pair holds,
    which tests/test_rescue.py covers."""
    board = connect6.Board(REFUTED_LATER)
    raw = core.search(board.position, profile("default", potential=4, reply_four_budget=0,
                                              rescue_width=0).core_fields(),
                      core.MAX_DEPTH, nodes=1_500_000)
    verdict = {(a, b): refuted for a, b, _, _, refuted, _ in raw.root_moves}
    assert verdict[raw.move] is not True and not raw.refuted        # before: h7j16, refuted, "unfinished"
    assert any(refuted is True for refuted in verdict.values())     # the refuted pairs are still in the table
    raw = core.search(board.position, profile("default", potential=4, rescue_width=0).core_fields(),
                      core.MAX_DEPTH, nodes=1_500_000)
    verdict = {(a, b): refuted for a, b, _, _, refuted, _ in raw.root_moves}
    assert raw.refuted and all(refuted is True or score < -10 ** 12      # every pair refuted or lost
                               for (_, _, score, _, refuted, _) in raw.root_moves)


def test_a_proved_win_comes_from_the_solver_with_its_line():
    board, line = vcdt_positions(1)[0]
    result = connect6.Engine().search(board, depth=3)
    assert result.source == "solver" and result.win_in is not None and result.win_in > 0
    assert result.pv[0] == result.move and len(result.pv) >= 1
    r, solved, _ = tss.solve_vcdt(board.position, 10, 60000)
    assert r == 1


def test_sources_reach_records_and_json():
    board = connect6.Board("j10 k10k11")
    result = connect6.Engine(depth=2).search(board)
    assert result.source == "search"
    assert "source" not in result.to_record() and result.to_json()["source"] == "search"
    book = connect6.Engine(book=True).search(connect6.Board("j10"))
    if book.book:                                        # the shipped book has the centre opening
        assert book.source == "book" and book.to_record()["source"] == "book"
