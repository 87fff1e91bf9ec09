"""The ``rescue_width`` option: when the reply check refutes every root pair
it judged, the pairs further down the list are checked too, and those it
does not refute join the root's list and are searched.

Fixed depths and node limits keep these searches reproducible.
"""
import pytest

import connect6
from connect6.options import Limits
from connect6.records import replay
from engine_core.search import reply_refuted

# our Black's turn 12 in a game against Cloudict depth 5 (6.5 s, pair 6 of
# data/openings-verified.txt): White's four is met by one stone, and the check
# refutes every pair of that stone with its best 12 partners; the 14th pair
# by score (j14k14) it does not refute.  The default of the time (no rescue)
# played a refuted pair and lost.
ALL_REFUTED = "j10,j11k9,k10k11,i10i9,i8j9,k12l11,h9l10,j13i14,m10g16,o10l13,i13m14,j12j15"
OPTIONS = connect6.options.profile("default").core_fields()


def refuted(board, move):
    a, b = sorted(move.stones)
    return reply_refuted(board.position, OPTIONS, a, b)


@pytest.mark.parametrize("limits", [Limits(depth=2), Limits(depth=3), Limits(nodes=400_000)])
def test_a_refuted_root_plays_a_pair_beyond_the_width_that_holds(limits):
    board = replay(ALL_REFUTED.split(","))
    plain = connect6.make_engine("default:rescue_width=0").search(board, limits=limits)
    assert plain.refuted and refuted(board, plain.move) == 1
    rescued = connect6.make_engine("default").search(board, limits=limits)
    assert not rescued.refuted and rescued.move != plain.move
    assert refuted(board, rescued.move) == 0


@pytest.mark.parametrize("spec, without", [
    ("default:rescue_width=12", "default:rescue_width=0"),                            # not wider than width
    ("default:rescue_width=64,reply_check=0", "default:rescue_width=0,reply_check=0"),  # no reply check
])
def test_no_rescue_when_the_option_cannot_act(spec, without):
    """Not wider than the width, or without the reply check: the search without the option."""
    board = replay(ALL_REFUTED.split(","))
    plain = connect6.make_engine(without).search(board, depth=2)
    other = connect6.make_engine(spec).search(board, depth=2)
    assert (other.move, other.score, other.nodes, other.tss_nodes) == (
        plain.move, plain.score, plain.nodes, plain.tss_nodes)


def test_no_rescue_when_a_pair_holds():
    """The opening: the check refutes nothing, and the search is the one without the option."""
    board = replay(["j10", "k10k11"])
    plain = connect6.make_engine("default:rescue_width=0").search(board, depth=3)
    wide = connect6.make_engine("default").search(board, depth=3)
    assert not plain.refuted
    assert (wide.move, wide.score, wide.nodes, wide.tss_nodes) == (plain.move, plain.score, plain.nodes,
                                                                    plain.tss_nodes)


def test_the_profiles_values():
    assert connect6.options.profile("default").rescue_width == 64
    assert connect6.options.profile("paper").rescue_width == connect6.options.profile("plain").rescue_width == 0


@pytest.mark.parametrize("value", [-1, 4097, "wide"])
def test_the_option_is_checked(value):
    with pytest.raises((ValueError, TypeError), match="rescue_width"):
        connect6.make_engine(f"default:rescue_width={value}")
