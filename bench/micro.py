"""Micro-benchmark of the compiled core, and the Cython core against pure Python.

1. Stones added+removed per second on the road table, and pair deltas per
   second by a local rescan (the roads through the two stones), a global
   rescan (all 924 roads) and the exact incremental method, with their
   ratios.  These timings come from C loops, so Python call overhead is not in
   them.
2. Pair generation per node: the time to pick the best ``width`` pairs of a
   position (what every interior node of the search does) in each scan mode,
   and the fixed-depth search's nodes per second in each scan mode.
3. The Cython core against the pure-Python reference search
   (``bench/py_reference_search.py``, plain Python end to end on the oracle
   ``connect6/_reference.py``): the same fixed-depth search, checked to give
   the same move, score and node count, timed per node.  Like for like is
   Cython local scan against Python local scan; the package's default scan
   (incremental) and the global scan are shown too.  The Python global scan
   is so slow that it searches depth 1 only (the ratio is per node).

Positions are the human games' positions at step 9 (after 8 turns).  The
search is the ``paper`` profile's plain alpha-beta with the scan set per row.
Writes ``micro.md`` to ``--out`` (default bench/results).

    PYTHONPATH=. python bench/micro.py            # about 1-2 minutes
    PYTHONPATH=. python bench/micro.py --smoke --out /tmp/micro   # a few seconds
"""
from __future__ import annotations

import argparse
import datetime
import itertools
import time
from pathlib import Path

from _common import ROOT, load_avg, machine, step_positions
from py_reference_search import PyReferenceSearch, board_cells, engine_pair

import connect6
from connect6.options import SCANS
from engine_core import kernels as core_kernels
from engine_core import movegen
from engine_core import position as cpos



def _repeat(fn, seconds):
    """Call fn(reps) with growing reps until one call takes ``seconds``; return (time, reps, extra)."""
    reps = 1
    while True:
        out = fn(reps)
        t = out[0] if isinstance(out, tuple) else out
        if t >= seconds or reps > 1 << 30:
            return t, reps, out
        reps = max(reps * 2, int(reps * seconds / max(t, 1e-6) * 1.1))


def _time_calls(fn, seconds):
    """Mean seconds per call of fn(), repeating until ``seconds`` have passed (at least once)."""
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        t = time.perf_counter() - t0
        if t >= seconds:
            return t / n


def _engine(depth, width, scan):
    return connect6.make_engine("paper", depth=depth, width=width, scan=scan)


# ----------------------------------------------------------------- 1. C-loop kernels
def kernels(boards, seconds, log):
    ops, secs = 0, 0.0
    for b in boards:
        pos = b.position.copy()
        cells = pos.empty_cells()
        t, reps, _ = _repeat(lambda r: core_kernels.time_add_remove(pos, cells, pos.to_move, r), seconds)
        ops += reps * len(cells)
        secs += t
        assert pos.check(), "add/remove left the road table changed"
    add_rate = ops / secs
    log(f"stone add+remove: {add_rate / 1e6:8.2f} M/s  ({secs / ops * 1e9:.1f} ns each)")
    rates, totals = {}, {}
    for scan in SCANS:
        n, secs, total = 0, 0.0, 0
        for b in boards:
            pos = b.position.copy()
            cand = movegen.candidates(pos, 2)
            pairs = list(itertools.combinations(cand, 2))[:1500]
            t, reps, out = _repeat(lambda r: core_kernels.time_pair_deltas(pos, pairs, pos.to_move, scan, r),
                                   seconds / (10 if scan == "global" else 1))
            n += reps * len(pairs)
            secs += t
            total += out[1] // reps
        rates[scan] = n / secs
        totals[scan] = total
        log(f"pair delta {scan:>11}: {rates[scan] / 1e6:8.3f} M/s  ({secs / n * 1e9:9.1f} ns each)")
    same = len(set(totals.values())) == 1
    log(f"local / global speed:       {rates['local'] / rates['global']:6.1f}x  (paper eq. 5: 924 vs 48 roads)")
    log(f"incremental / global speed: {rates['incremental'] / rates['global']:6.1f}x")
    log(f"all modes gave the same deltas: {'yes' if same else 'NO'}")
    return {"add_rate": add_rate, "rates": rates, "same": same}


# ----------------------------------------------------------------- 2. pair generation and nodes/s
def generation_and_search(boards, width, depth, seconds, log):
    out = {}
    for scan in SCANS:
        code = cpos.scan_code(scan)
        gen = []
        for b in boards:
            pos = b.position
            gen.append(_time_calls(lambda: movegen.best_moves(pos, width, 2, code), seconds / len(boards)
                                   / (1 if scan != "global" else 4)))
        engine = _engine(depth, width, scan)
        nodes, secs, keys = 0, 0.0, []
        for b in boards:
            r = engine.search(b)
            nodes += r.nodes
            secs += r.time_s
            keys.append((r.move, r.score, r.nodes))
        out[scan] = {"gen_s": sum(gen) / len(gen), "nodes": nodes, "search_s": secs, "nps": nodes / secs,
                     "keys": keys}
        log(f"{scan:>11}: best {width} pairs in {out[scan]['gen_s'] * 1e3:9.4f} ms per node; depth {depth} "
            f"search {nodes / secs:12.0f} nodes/s ({secs / nodes * 1e6:9.2f} us per node)")
    same = len({tuple(v["keys"]) for v in out.values()}) == 1
    log(f"all modes searched the same trees: {'yes' if same else 'NO'}")
    return out, same


# ----------------------------------------------------------------- 3. Cython against pure Python
def python_comparison(boards, width, cases, log):
    """cases: [(scan of the reference, depth, positions, [Cython scans])] -> (rows, ok)."""
    rows, ok = [], True
    for py_scan, depth, nboards, cy_scans in cases:
        use = boards[:nboards]
        if not use:
            continue
        py_nodes, py_secs, agree = 0, 0.0, True
        cy = {scan: [0, 0.0] for scan in cy_scans}
        for b in use:
            p = PyReferenceSearch(width=width, radius=2, scan=py_scan).search(board_cells(b), int(b.turn), depth)
            py_nodes += p["nodes"]
            py_secs += p["time_s"]
            for scan in cy_scans:
                r = _engine(depth, width, scan).search(b)
                if (engine_pair(r.move), r.score, r.nodes) != (p["move"], p["score"], p["nodes"]):
                    ok = agree = False
                cy[scan][0] += r.nodes
                cy[scan][1] += r.time_s
        py_per = py_secs / py_nodes
        for scan in cy_scans:
            cy_per = cy[scan][1] / cy[scan][0]
            row = {"python": f"Python {py_scan}", "cython": f"Cython {scan}", "depth": depth,
                   "positions": len(use), "py_nodes": py_nodes, "py_s": py_secs, "cy_s": cy[scan][1],
                   "py_per_node": py_per, "cy_per_node": cy_per, "ratio": py_per / cy_per, "agree": agree}
            rows.append(row)
            log(f"Python {py_scan:>6} vs Cython {scan:>11}, depth {depth}, {len(use)} positions, {py_nodes} nodes: "
                f"{py_per * 1e3:9.3f} ms vs {cy_per * 1e6:9.2f} us per node = {row['ratio']:8.0f}x"
                f"{'' if agree else '  (REFERENCE DISAGREES WITH THE ENGINE)'}")
    log("the pure-Python reference found the engine's moves, scores and node counts"
        if ok else "THE PURE-PYTHON REFERENCE DISAGREES WITH THE ENGINE")
    return rows, ok


def markdown(args, k, gen, rows, started, elapsed, loads, ok):
    out = [
        "# Micro-benchmark: compiled core, scan modes, Cython against pure Python",
        "",
        f"{args.positions} positions at step 9 of the human games (the reference search: "
        f"{args.py_positions}), width {args.width}; `paper` profile search (plain alpha-beta). "
        f"Measured {started} on {machine()} ({loads[0]} before, {loads[1]} after); run time "
        f"{elapsed:.0f} s. Timings were taken on a shared 2-core machine where other work was running: "
        "the ratios within one run are what matter.",
        "",
        "## Road table kernels (C loops, no Python overhead)",
        "",
        "| operation | million per s | ns each | speed vs global |",
        "|---|---:|---:|---:|",
        f"| stone add + remove | {k['add_rate'] / 1e6:.2f} | {1e9 / k['add_rate']:.1f} | |",
    ]
    for scan in SCANS:
        r = k["rates"][scan]
        out.append(f"| pair delta, {scan} scan | {r / 1e6:.3f} | {1e9 / r:.1f} | "
                   f"{r / k['rates']['global']:.1f}× |")
    out += ["", f"All three scans gave the same pair deltas: {'yes' if k['same'] else 'NO'}.", "",
            f"## Pair generation per node and search speed (depth {args.depth}, width {args.width})", "",
            f"| scan | best {args.width} pairs, ms per node | nodes/s | µs per node | search speed vs global |",
            "|---|---:|---:|---:|---:|"]
    for scan in SCANS:
        g = gen[scan]
        out.append(f"| {scan} | {g['gen_s'] * 1e3:.4f} | {g['nps']:,.0f} | {1e6 / g['nps']:.2f} | "
                   f"{g['nps'] / gen['global']['nps']:.1f}× |")
    out += ["", "Every scan mode searched the same tree (same moves, scores and node counts): "
            + ("yes." if len({tuple(v['keys']) for v in gen.values()}) == 1 else "NO."), ""]
    if rows:
        out += ["## Cython against the pure-Python reference search", "",
                "The same fixed-depth search in plain Python (`bench/py_reference_search.py`), checked to "
                "find the engine's move, score and node count; speed-up per node.", "",
                "| Python reference | Cython | depth | positions | nodes | Python ms per node | "
                "Cython µs per node | speed-up |",
                "|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            out.append(f"| {r['python']} | {r['cython']} | {r['depth']} | {r['positions']} | {r['py_nodes']} | "
                       f"{r['py_per_node'] * 1e3:.2f} | {r['cy_per_node'] * 1e6:.2f} | {r['ratio']:,.0f}× |")
        out += ["", "The reference agreed with the engine on every position: " + ("yes." if ok else "NO."), ""]
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=10, help="positions after 8 turns of the human games")
    ap.add_argument("--seconds", type=float, default=0.2, help="time per measurement")
    ap.add_argument("--width", type=int, default=10)
    ap.add_argument("--depth", type=int, default=3, help="search depth for nodes/s")
    ap.add_argument("--py-positions", type=int, default=3, help="positions searched by the Python reference")
    ap.add_argument("--py-depth", type=int, default=3, help="depth of the Python reference (local scan)")
    ap.add_argument("--py-global-positions", type=int, default=1,
                    help="positions for the Python global-scan reference (depth 1; 0 to skip)")
    ap.add_argument("--no-python", action="store_true", help="skip the pure-Python comparison")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes: a few seconds")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    args = ap.parse_args(argv)
    if args.smoke:
        args.positions, args.seconds, args.depth = 2, 0.02, 2
        args.py_positions, args.py_depth, args.py_global_positions = 1, 1, 0

    boards = step_positions(args.positions)
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    loads = [load_avg()]
    print(f"# micro-benchmark: {len(boards)} positions after 8 turns; {machine()}; {loads[0]}")
    t0 = time.perf_counter()
    print("## road table kernels")
    k = kernels(boards, args.seconds, print)
    print(f"## pair generation and search (depth {args.depth}, width {args.width})")
    gen, same_trees = generation_and_search(boards, args.width, args.depth, args.seconds, print)
    rows, ref_ok = [], True
    if not args.no_python:
        print("## Cython against the pure-Python reference")
        py_boards = step_positions(max(args.py_positions, args.py_global_positions))
        cases = [("local", args.py_depth, args.py_positions, ["local", "incremental"]),
                 ("global", 1, args.py_global_positions, ["global", "local", "incremental"])]
        rows, ref_ok = python_comparison(py_boards, args.width, cases, print)
    elapsed = time.perf_counter() - t0
    loads.append(load_avg())
    ok = k["same"] and same_trees and ref_ok
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    md = out / "micro.md"
    md.write_text(markdown(args, k, gen, rows, started, elapsed, loads, ref_ok), encoding="utf-8")
    print(f"wrote {md}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
