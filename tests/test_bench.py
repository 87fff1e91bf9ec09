"""The bench node count is the search's signature."""
from pathlib import Path

import connect6
from connect6 import benchmark

SIGNATURE = Path(__file__).resolve().parents[1] / "bench" / "signature.txt"


def test_bench_matches_signature():
    result = benchmark.run()
    expected = benchmark.read_signature(SIGNATURE)
    assert result["nodes"] == expected, (
        f"bench total {result['nodes']} != signature {expected}: if search changed on purpose, "
        "update bench/signature.txt in the same commit and say so")


def test_bench_positions_are_legal_and_unfinished():
    for _, moves in benchmark.BENCH_POSITIONS:
        board = connect6.Board(moves)
        assert not board.is_game_over()


def test_bench_is_the_same_in_every_scan_mode():
    a = benchmark.run(depth=2, width=6, scan="local")
    b = benchmark.run(depth=2, width=6, scan="incremental")
    assert a["nodes"] == b["nodes"]
    assert [p["move"] for p in a["positions"]] == [p["move"] for p in b["positions"]]


def test_bench_main_prints_total(capsys):
    assert benchmark.main(["--depth", "2", "--width", "5"]) == 0
    out = capsys.readouterr().out
    assert "Nodes searched" in out and out.count("position ") == 10
