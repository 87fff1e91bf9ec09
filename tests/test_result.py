"""connect6.result: one score type, and one JSON form, record form and sentence per result."""
import json

import pytest

import connect6
from connect6.notation import Color, Move
from connect6.result import WIN_SCORE, Info, PovScore, Score, SearchResult, record_text


@pytest.mark.parametrize("value, text, win_in", [
    (140, "+140", None), (0, "+0", None), (-35, "-35", None),
    (WIN_SCORE - 3, "win in 3", 3), (-(WIN_SCORE - 2), "loss in 2", -2),
    (WIN_SCORE, "win", 0), (WIN_SCORE + 5, "win", None), (-WIN_SCORE - 1, "loss", None),
])
def test_score_words_and_distance(value, text, win_in):
    s = Score(value)
    assert str(s) == text and s.to_json() == {"score": value, "win_in": win_in, "score_text": text}
    assert -(-s) == s and Score(value) < Score(value + 1)


def test_pov_score_reads_from_either_side():
    s = PovScore(Score(140), Color.WHITE)
    assert s.white() == Score(140) and s.black() == Score(-140) and s.pov(Color.BLACK) == -s.relative
    assert str(s) == "-140"                                   # an evaluation reads from Black's side
    assert str(PovScore(Score(WIN_SCORE - 3), Color.BLACK)) == "black wins in 3"
    assert str(PovScore(Score(WIN_SCORE - 3), Color.WHITE)) == "white wins in 3"
    assert str(PovScore(Score(-(WIN_SCORE - 2)), Color.WHITE)) == "black wins in 2"
    assert str(PovScore(Score(WIN_SCORE), Color.WHITE)) == "white has won"
    assert str(PovScore(Score(-WIN_SCORE), Color.WHITE)) == "black has won"
    assert PovScore(Score(5), Color.WHITE).to_json() == {"score": -5, "win_in": None, "score_text": "-5"}


def _result(**changes):
    fields = dict(move=Move.parse("j10k10"), score=140, pv=(Move.parse("j10k10"), Move.parse("a1a2")), depth=5,
                  nodes=1000, leaves=500, time_s=0.5, tss_nodes=200)
    fields.update(changes)
    return SearchResult(**fields)


def test_search_result_json_record_and_sentence():
    r = _result()
    data = json.loads(json.dumps(r.to_json()))
    assert data == {"move": "j10k10", "protocol": r.move.to_protocol(), "depth": 5, "score": 140, "win_in": None,
                    "score_text": "+140", "pv": ["j10k10", "a1a2"], "nodes": 1000, "tss_nodes": 200,
                    "leaves": 500, "nps": 2400, "time_s": 0.5, "refuted": False, "source": "search",
                    "book": False}
    assert r.to_record() == {"score": 140, "depth": 5, "nodes": 1000, "tss_nodes": 200}
    assert r.describe() == "j10k10 depth 5 score +140 nodes 1200 nps 2400 time 0.500 s pv j10k10 a1a2"
    odd = _result(refuted=True, source="unfinished", score=-(WIN_SCORE - 4))
    assert odd.to_record() == {"score": -(WIN_SCORE - 4), "depth": 5, "nodes": 1000, "tss_nodes": 200,
                               "refuted": True, "source": "unfinished"}
    assert " score loss in 4 refuted (unfinished) " in odd.describe()
    assert record_text(odd.to_record()) == "loss in 4/5 refuted"
    assert record_text(_result(book=True, source="book").to_record()) == "book"


def test_nodes_per_second_is_zero_without_time():
    """Both result types agree: no time measured, 0 nodes/s (never inf, which JSON cannot carry)."""
    assert _result(time_s=0.0).nps == 0.0 and _result(time_s=0.0).to_json()["nps"] == 0
    info = Info(2, -5, (Move.parse("j10"),), 10, 5, 0.0)
    assert info.nps == 0.0
    assert info.to_json() == {"depth": 2, "score": -5, "win_in": None, "score_text": "-5", "pv": ["j10"],
                              "nodes": 10, "tss_nodes": 5, "nps": 0, "time_s": 0.0}
    assert info.describe() == "depth 2 score -5 nodes 15 nps 0 time 0.000 s pv j10"
    for tiny in (1e-300, 5e-324, 1e-9, float("inf"), float("nan")):     # inf or a 300-digit rate, or a raise
        assert _result(time_s=tiny).to_json()["nps"] == 0 and Info(2, 0, (), 10, 5, tiny).nps == 0.0
    assert _result(time_s=0.5).to_json()["nps"] == 2400


def test_a_real_search_speaks_the_same_forms():
    board = connect6.Board("j10 k10k11")
    r = connect6.Engine(depth=2).search(board)
    assert r.to_json()["score_text"] == r.score_text == str(Score(r.score))
    assert r.pov_score(board.turn).pov(board.turn).value == r.score
    infos = []
    connect6.Engine(depth=2).search(board, info=infos.append)
    assert infos and all(i.to_json()["depth"] == i.depth for i in infos)
