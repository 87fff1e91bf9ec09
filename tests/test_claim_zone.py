"""The ``claim_zone`` option: a search that ends on a forced win of its
width-limited tree, with part of its limit left, checks the claim by
searching again with the opponent's zone replies (``reply_zone``).

Node limits make these searches reproducible (one thread, empty tables).
"""
import connect6
from connect6.engine import LOST_SHARE
from connect6.options import Limits
from connect6.result import forced_win
from engine_core import tss

from _positions import vcdt_positions

# game 3 of the depth-6 runs at 50 s (see test_tss's reply_zone test): Black to
# move; after l7k11 each of White's best replies by pair score loses to Black's
# VCDT, so the search claims a win, but White's l6m6 holds
CLAIM = "j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11"


def search(spec, moves, nodes, info=None):
    return connect6.make_engine(spec).search(connect6.Board(moves), limits=Limits(nodes=nodes), info=info)


def spent(result):
    """The nodes a node limit counts: alpha-beta's and the solver's."""
    return result.nodes + result.tss_nodes


def test_a_false_claim_is_searched_again_with_the_zone_replies():
    claimed = search("default:claim_zone=0", CLAIM, 500_000)
    assert forced_win(claimed.score) and claimed.source == "search" and str(claimed.move) == "l7k11"
    assert spent(claimed) <= (1 - LOST_SHARE) * 500_000
    after = connect6.Board(CLAIM)
    after.push("l7k11")
    after.push("l6m6")
    assert tss.solve_vcdt(after.position, 10, 1_000_000)[0] == 0       # the claim's refutation holds
    heard = []
    checked = search("default", CLAIM, 500_000, info=heard.append)
    assert connect6.options.profile("default").claim_zone == 1000
    assert not forced_win(checked.score) and checked.source in ("search", "unfinished")
    assert str(checked.move) == "m6l7"
    assert 500_000 <= spent(checked) <= 500_001 and checked.nodes > claimed.nodes    # both searches counted
    assert checked.tss_nodes > claimed.tss_nodes
    depths = [i.depth for i in heard]
    assert depths.index(1, 1) > 0 and forced_win(heard[depths.index(1, 1) - 1].score)    # the claim, then again


def test_a_time_given_with_a_node_limit_keeps_the_node_limit_in_the_check():
    """A search given both limits (the depth-4 screen's ``nodes=200000,time=30``)
    used to hand the claim's check the time left alone: it ran past the node
    limit to the time (10 million nodes and 30 s instead of 200 000)."""
    heard = []
    checked = connect6.make_engine("default").search(connect6.Board(CLAIM), limits=Limits(nodes=500_000, time=120),
                                                      info=heard.append)
    depths = [i.depth for i in heard]
    assert depths.count(1) == 2 and forced_win(heard[depths.index(1, 1) - 1].score)     # the claim, then again
    assert 500_000 <= spent(checked) <= 500_001       # (the solver's budgets grow with the time: another move)


# game 31 of the reply_zone candidate's depth-5 run (change-reply-zone.md), Black
# to move: f8n12 blocks and makes a four; each of the lone block p14's best
# partners by pair score loses to Black's VCDT, but p14n10 holds
FOUR_CLAIM = "j10 k11j12 l10k9 i11h10 m11k13 g9j8"


def test_a_claimed_win_with_a_root_four_is_checked_with_block_defences_at_ply_1():
    claimed = search("default:claim_zone=0", FOUR_CLAIM, 200_000)
    assert forced_win(claimed.score) and str(claimed.move) == "f8n12"
    after = connect6.Board(FOUR_CLAIM)
    after.push("f8n12")
    after.push("p14n10")
    assert tss.solve_vcdt(after.position, 10, 1_000_000)[0] == 0       # the refutation holds
    # reply_zone alone adds nothing after a root four: the default's check
    # keeps the claim; with block_partners it also pairs the lone block with
    # the cells of Black's VCDT line (defend_plies 2), and the claim goes
    assert forced_win(search("default", FOUR_CLAIM, 200_000).score)
    checked = search("default:block_partners=true", FOUR_CLAIM, 200_000)
    assert not forced_win(checked.score) and 200_000 <= spent(checked) <= 200_001


def test_claim_partners_acts_in_the_claims_check_only():
    """claim_partners: the claim_zone search takes block_partners (and
    defend_plies 2), so the root four's false claim goes as with
    block_partners; a search that claims nothing is the default's exactly."""
    checked = search("default:claim_partners=true", FOUR_CLAIM, 200_000)
    assert not forced_win(checked.score) and 200_000 <= spent(checked) <= 200_001
    for moves in ("j10 k10k11", CLAIM.rsplit(" ", 2)[0]):
        plain, other = search("default", moves, 50_000), search("default:claim_partners=true", moves, 50_000)
        assert not forced_win(plain.score)
        assert (other.move, other.score, other.nodes, other.tss_nodes) == (
            plain.move, plain.score, plain.nodes, plain.tss_nodes)


def test_no_second_search_without_a_claim_or_a_limit_left():
    quiet = search("default:claim_zone=1000", "j10 k10k11", 50_000)
    assert quiet.nodes == search("default:claim_zone=0", "j10 k10k11", 50_000).nodes and not forced_win(quiet.score)
    # a fixed depth leaves no limit over: the claim stands
    fixed = connect6.make_engine("default:claim_zone=1000").search(connect6.Board(CLAIM), depth=2)
    assert forced_win(fixed.score) and str(fixed.move) == "l7k11"
    # too little of the limit left: the claim came after 42 710 nodes of 50 000
    short, plain = search("default:claim_zone=1000", CLAIM, 50_000), search("default:claim_zone=0", CLAIM, 50_000)
    assert forced_win(plain.score) and spent(plain) > (1 - LOST_SHARE) * 50_000
    assert (short.move, short.score, short.nodes) == (plain.move, plain.score, plain.nodes)


def test_a_win_the_solver_proves_is_not_searched_again():
    board, _ = vcdt_positions(1)[0]
    spec = "default:claim_zone=1000"
    proved = connect6.make_engine(spec).search(board, limits=Limits(nodes=100_000))
    assert forced_win(proved.score) and proved.source == "solver"
    plain = connect6.make_engine("default:claim_zone=0").search(board, limits=Limits(nodes=100_000))
    assert (proved.move, proved.score, proved.nodes, proved.tss_nodes) == \
        (plain.move, plain.score, plain.nodes, plain.tss_nodes)
