"""The ``lost_width`` option: a search that finds every root pair lost, with
part of its limit left, searches again with a wider pair list.

Node limits make these searches reproducible (one thread, empty tables).
The positions come from games against Cloudict that our engine lost.
"""
import pytest

import connect6
from connect6.engine import LOST_SHARE
from connect6.options import Limits
from connect6.records import replay
from connect6.result import forced_loss
from engine_core import tss

# our White's turn in a game against Cloudict depth 5 (6.5 s, pair 18 of
# data/openings-verified.txt, change-four-budget-vct.md's candidate): at
# 200 000 nodes the default finds every pair lost after 55 220 nodes; with 24
# pairs a node another pair holds (as far as the wider search and the solver see)
WIDER_HOLDS = "j10,k11j8,k9l9,l8m9,k8k7,n8m10,l10m8,k5j11,i11i10,l6m7,o9j4,l11m11,o11k10"
# our White's turns in a game against Cloudict depth 6 (12 s, pair 1): at the
# first, the wider search's move loses to a VCDT the solver finds with the root's
# budget; at the second (one turn later) both searches find every pair lost
REFUTED = "j10,j9k11,k9l8,m7l10,m9k7,j6k8,l7n10,j7p12,l9n9,j5p9,j8l6"
LOST = REFUTED + ",l5m5,n12n11"


#: the root's own list: rescue_width (the default's) finds WIDER_HOLDS a pair
#: beyond the width that the reply check does not refute, before lost_width would
BASE = "default:rescue_width=0"


def board_of(moves):
    return replay(moves.split(","))


def search(spec, moves, nodes, info=None):
    return connect6.make_engine(spec).search(board_of(moves), limits=Limits(nodes=nodes), info=info)


def test_a_lost_search_hands_the_rest_to_a_wider_one():
    narrow = search(BASE, WIDER_HOLDS, 200_000)
    assert forced_loss(narrow.score) and narrow.nodes <= (1 - LOST_SHARE) * 200_000
    heard = []
    wide = search(BASE + ",lost_width=24", WIDER_HOLDS, 200_000, info=heard.append)
    assert wide.move != narrow.move and not forced_loss(wide.score)
    assert wide.nodes > narrow.nodes                        # both searches are counted
    assert [i.depth for i in heard].count(1) == 2           # and reported: two runs of iterations
    after = board_of(WIDER_HOLDS)
    after.push(wide.move)
    assert tss.solve_vcdt(after.position, 10, 100_000)[0] != 1


def test_a_time_given_with_a_node_limit_keeps_both_in_the_wider_search():
    """Both limits given: the wider search and its check used to get the time
    left alone, and run past the node limit."""
    heard = []
    wide = connect6.make_engine(BASE + ",lost_width=24").search(
        board_of(WIDER_HOLDS), limits=Limits(nodes=200_000, time=120), info=heard.append)
    assert [i.depth for i in heard].count(1) == 2 and not forced_loss(wide.score)
    assert wide.nodes + wide.tss_nodes <= 200_000


@pytest.mark.parametrize("moves", [REFUTED, LOST])
def test_the_narrow_move_stays_when_the_wider_one_loses(moves):
    """At REFUTED the wider search likes a pair that the solver refutes; at
    LOST it finds every pair lost as well.  Either way the deeper search's
    move and value stay, and the second search's nodes are counted."""
    narrow = search(BASE, moves, 400_000)
    wide = search(BASE + ",lost_width=24", moves, 400_000)
    assert forced_loss(narrow.score)
    assert (wide.move, wide.score, wide.pv) == (narrow.move, narrow.score, narrow.pv)
    assert wide.nodes > narrow.nodes


# Black's turn in a game against Cloudict: at 300 000 nodes every pair is lost
# after 85 240 nodes, and the defence check (defence.resist) replaces the
# searched move by one after which the solver finds White no VCDT
RESISTED = "j10,k11j8,k10l10,h10l11,i10i12"


def test_a_move_the_defence_check_chose_also_gets_the_wider_search():
    """Every pair lost, and the move played is the defence check's (source
    "resist"), not the search's: the rest of the limit still goes to the wider
    search (it used to be skipped).  Here the wider search finds no better
    move, so the resisting move and its value stay."""
    narrow = search(BASE, RESISTED, 300_000)
    assert forced_loss(narrow.score) and narrow.source == "resist" and narrow.nodes <= (1 - LOST_SHARE) * 300_000
    wide = search(BASE + ",lost_width=24", RESISTED, 300_000)
    assert (wide.move, wide.score, wide.source) == (narrow.move, narrow.score, "resist")
    assert wide.nodes > narrow.nodes


@pytest.mark.parametrize("spec, moves, limits", [
    (BASE + ",lost_width=12", WIDER_HOLDS, Limits(nodes=200_000)),     # not wider than width: off
    (BASE + ",lost_width=24", LOST, Limits(depth=4)),                  # a fixed depth leaves no limit over
    (BASE + ",lost_width=24", WIDER_HOLDS, Limits(nodes=90_000)),      # too little of the limit left
])
def test_no_second_search(spec, moves, limits):
    """Each search here finds every pair lost; a second search would add its
    nodes (and at WIDER_HOLDS change the move)."""
    board = board_of(moves)
    plain = connect6.make_engine(BASE).search(board, limits=limits)
    other = connect6.make_engine(spec).search(board, limits=limits)
    assert forced_loss(plain.score)
    assert (other.move, other.score, other.nodes, other.depth) == (plain.move, plain.score, plain.nodes, plain.depth)


def test_the_option_is_checked():
    with pytest.raises(ValueError, match="lost_width"):
        connect6.make_engine("default:lost_width=-1")
    with pytest.raises((TypeError, ValueError), match="lost_width"):
        connect6.make_engine("default:lost_width=wide")
