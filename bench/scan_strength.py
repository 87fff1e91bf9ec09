"""Local against global scanning at equal time per move: the paper's Figs. 4 and 5.

The paper played its local-scan program against its global-scan program
under the same game clock, so local scanning's speed turned into search
depth.  Here both sides get the same time per move and deepen iteratively
within it, up to a depth cap:

* Fig. 4: depth cap 3, widths 10, 15, 20, 25, 30 (paper: 100 games per
  width; local : global wins 96 : 4 at width 20);
* Fig. 5: width 10, depth caps 3, 4, 5 (paper: 100 games per depth; 95 : 5
  at depth 5).

(Width 10 with depth cap 3 is in both figures; it is played once.)  Both
sides are the ``paper`` profile's plain alpha-beta (Table 1 weights, radius
2) with only the scan differing, so a local and a global search of the same
depth choose the same move; any difference in strength is the depth that
local scanning's speed buys.

Games go through the match runner (``connect6.match``): colour-swapped pairs
from the openings file (default data/openings.txt), ``--games`` per setting,
``--concurrency`` games at once.  The runner does not record search depths,
so the depth each side reaches is measured afterwards: both engines search a
sample of positions from the games just played with the same time budget,
and the mean depth of their finished iterations is reported.

Writes to ``--out`` (default bench/results): ``scan_strength.md`` (win
rates beside the paper's, mean depths), ``scan_strength.csv`` (one row per
game) and ``scan_strength.png`` (bar chart, needs matplotlib).  The games
themselves (JSONL and SGF) go to ``--games-dir`` (default: a temporary
directory); with ``--games-dir`` a rerun resumes the games already there.

    PYTHONPATH=. python bench/scan_strength.py                    # default, ~22 min on 2 cores
    PYTHONPATH=. python bench/scan_strength.py --smoke --out /tmp/ss   # under a minute
"""
from __future__ import annotations

import argparse
import csv
import datetime
import math
import os
import tempfile
import time
from pathlib import Path

from _common import NO_PLOT, ROOT, have_matplotlib, load_avg, machine

import connect6
from connect6.records import parse_stone_list, replay

try:
    from connect6 import match as _match
except ImportError:  # pragma: no cover - the runner is part of the package
    _match = None

#: The paper's win counts, local : global, out of 100 games (the only values given in its text).
PAPER_WIDTH = {20: (96, 4)}
PAPER_DEPTH = {5: (95, 5)}
OPENINGS = ROOT / "data" / "openings.txt"


def player_text(scan: str, depth: int, width: int, move_time: float) -> str:
    return f"{scan}:profile=paper,depth={depth},width={width},time={move_time:g}"


def settings(widths, depths, fig4_depth, fig5_width):
    """Unique (width, depth) settings and which figure rows use each."""
    rows = [("fig4", w, fig4_depth) for w in widths] + [("fig5", fig5_width, d) for d in depths]
    unique = []
    for _, w, d in rows:
        if (w, d) not in unique:
            unique.append((w, d))
    return rows, unique


class _Progress:
    """One line per finished game (the runner's progress protocol)."""

    def __init__(self, tag: str, total: int):
        self.tag, self.total, self.done = tag, total, 0

    def update(self, record, stats) -> None:
        self.done += 1
        who = {"a": "local", "b": "global"}.get(record["winner"], "draw")
        print(f"  [{self.tag}] game {record['game']:3}/{self.total}: local {record['a_color']:5} -> "
              f"{who:6} ({record['termination']}, {len(record['moves'])} turns) | local {stats.wins}-"
              f"{stats.losses}-{stats.draws}", flush=True)

    def note(self, text: str) -> None:
        print(f"  [{self.tag}] {text}", flush=True)

    def close(self) -> None:
        pass


def play_setting(width, depth, args, games_dir, openings):
    """Play one setting's games; returns the records (A = local, B = global)."""
    a = _match.parse_player(player_text("local", depth, width, args.move_time)).with_label("local")
    b = _match.parse_player(player_text("global", depth, width, args.move_time)).with_label("global")
    cfg = _match.MatchConfig(a=a, b=b, games=args.games, openings=openings, move_time=args.move_time,
                             time_margin=args.time_margin, seed=args.seed)
    out = os.path.join(games_dir, f"w{width}-d{depth}-t{args.move_time:g}")
    m = _match.Match(cfg, out=out, resume=True)
    m.run(concurrency=args.concurrency, progress=_Progress(f"w{width} d{depth}", args.games))
    if m.interrupted:
        raise KeyboardInterrupt
    return m.results()


def sample_depths(records, width, depth, move_time, samples):
    """Mean depth each side finishes within ``move_time`` on ``samples`` positions
    spread over the games just played (searched one at a time, after the games)."""
    positions = []
    for r in records:
        moves = r["moves"]
        n_open = len(parse_stone_list(r["opening"]))
        for k in range(n_open, len(moves) - 1):
            positions.append((moves, k))
    if not positions or samples <= 0:
        return {}
    stride = max(1, len(positions) // samples)
    chosen = positions[::stride][:samples]
    out = {}
    for scan in ("local", "global"):
        engine = connect6.make_engine("paper", scan=scan, depth=depth, width=width)
        depths = []
        for moves, k in chosen:
            board = replay(moves[:k])
            if board.is_game_over():
                continue
            depths.append(engine.search(board, time=move_time).depth)
        out[scan] = sum(depths) / len(depths) if depths else float("nan")
        out[f"{scan}_n"] = len(depths)
        out[f"{scan}_cap"] = sum(1 for d in depths if d >= depth) / len(depths) if depths else float("nan")
    return out


def count(records):
    w = sum(1 for r in records if r["winner"] == "a")
    l_ = sum(1 for r in records if r["winner"] == "b")
    d = len(records) - w - l_
    forfeits = {}
    for r in records:
        if r["winner"] is not None and r.get("termination") not in ("six", "board_full"):
            loser = "local" if r["winner"] == "b" else "global"
            key = f"{loser} {r['termination']}"
            forfeits[key] = forfeits.get(key, 0) + 1
    turns = [len(r["moves"]) for r in records]
    return {"local": w, "global": l_, "draws": d, "games": len(records), "forfeits": forfeits,
            "mean_turns": sum(turns) / len(turns) if turns else float("nan")}


def _pct(x, n):
    return f"{100 * x / n:.0f}%" if n else "-"


def interval(wins, n):
    """95% Wilson interval of a win share (draws count as half a win before this)."""
    if n == 0:
        return float("nan"), float("nan")
    z = 1.96
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def markdown(rows, results, args, started, elapsed, loads):
    out = [
        "# Local against global scanning at equal time per move (the paper's Figs. 4 and 5)",
        "",
        f"Both sides: the `paper` profile's plain alpha-beta (Table 1 weights), only the scan differs; "
        f"{args.move_time:g} s per move for each side, iterative deepening up to the depth cap; "
        f"{args.games} games per setting in colour-swapped pairs from `{Path(args.openings).name}` "
        f"through the match runner, {args.concurrency} at a time. Measured {started} on {machine()} "
        f"({loads[0]} before, {loads[1]} after); run time {elapsed / 60:.1f} min. Timings were taken on a "
        "shared 2-core machine where other work was running.",
        "",
        "Depths: the runner does not record them, so after each setting both engines searched "
        f"{args.depth_samples} positions taken from its games with the same time budget (one search at "
        "a time); the table gives the mean depth of the deepest finished iteration.",
        "",
    ]
    for fig, title, key, paper in (("fig4", "Fig. 4: depth cap 3, by width", "width", PAPER_WIDTH),
                                   ("fig5", "Fig. 5: width 10, by depth cap", "depth", PAPER_DEPTH)):
        these = [(w, d) for f, w, d in rows if f == fig]
        if not these:
            continue
        out += [f"## {title}", "",
                f"| {key} | games | local : global wins | draws | local win share (95% CI) | paper local : global "
                "| local mean depth | global mean depth | forfeits |",
                "|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for w, d in these:
            res = results[(w, d)]
            c, dep = res["count"], res["depths"]
            x = w if key == "width" else d
            share = (c["local"] + 0.5 * c["draws"])
            lo, hi = interval(share, c["games"])
            p = paper.get(x)
            out.append(
                f"| {x} | {c['games']} | {c['local']} : {c['global']} | {c['draws']} | "
                f"{_pct(share, c['games'])} ({100 * lo:.0f}-{100 * hi:.0f}%) | "
                f"{f'{p[0]} : {p[1]}' if p else '(figure only)'} | "
                f"{dep.get('local', float('nan')):.2f} | {dep.get('global', float('nan')):.2f} | "
                f"{', '.join(f'{k}: {v}' for k, v in sorted(c['forfeits'].items())) or 'none'} |")
        out.append("")
    out += ["The paper's Figs. 4 and 5 give bars only; its text gives the width-20 and depth-5 results "
            "(100 games each, under a 15-minute game clock).", ""]
    return "\n".join(out) + "\n"


def plot(rows, results, path, move_time):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = [("fig4", "depth cap 3, by width", "width", PAPER_WIDTH),
            ("fig5", "width 10, by depth cap", "depth cap", PAPER_DEPTH)]
    figs = [f for f in figs if any(r[0] == f[0] for r in rows)]
    fig, axes = plt.subplots(1, len(figs), figsize=(5.5 * len(figs), 4.5), squeeze=False)
    for ax, (name, title, xlabel, paper) in zip(axes[0], figs):
        these = [(w, d) for f, w, d in rows if f == name]
        xs = [w if name == "fig4" else d for w, d in these]
        loc, glo, lab = [], [], []
        for w, d in these:
            c = results[(w, d)]["count"]
            n = max(c["games"], 1)
            loc.append(100 * c["local"] / n)
            glo.append(100 * c["global"] / n)
            dep = results[(w, d)]["depths"]
            lab.append(f"{dep.get('local', float('nan')):.1f} vs {dep.get('global', float('nan')):.1f}")
        pos = list(range(len(xs)))
        ax.bar([p - 0.2 for p in pos], loc, width=0.4, color="tab:blue", label="local wins")
        ax.bar([p + 0.2 for p in pos], glo, width=0.4, color="tab:red", label="global wins")
        px = [p for p, x in zip(pos, xs) if x in paper]
        if px:
            ax.scatter([p - 0.2 for p in px] + [p + 0.2 for p in px],
                       [paper[xs[p]][0] for p in px] + [paper[xs[p]][1] for p in px],
                       marker="*", s=160, color="black", zorder=3, label="paper (100 games)")
        ax.set_xticks(pos)
        ax.set_xticklabels([f"{x}\n{lb}" for x, lb in zip(xs, lab)], fontsize=8)
        ax.set_xlabel(f"{xlabel}\n(below it: mean depth reached, local vs global)", fontsize=9)
        ax.set_ylabel("% of games")
        ax.set_ylim(0, 118)
        ax.set_title(f"Local vs global, {move_time:g} s per move: {title}", fontsize=10)
        ax.legend(fontsize=8, ncol=3, loc="upper center")
        ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--widths", default="10,15,20,25,30", help="Fig. 4 widths (depth cap --fig4-depth)")
    ap.add_argument("--depths", default="3,4,5", help="Fig. 5 depth caps (width --fig5-width)")
    ap.add_argument("--fig4-depth", type=int, default=3)
    ap.add_argument("--fig5-width", type=int, default=10)
    ap.add_argument("--games", type=int, default=30, help="games per setting (colour-swapped pairs)")
    ap.add_argument("--move-time", type=float, default=1.0, help="seconds per move for each side")
    ap.add_argument("--time-margin", type=float, default=1.0,
                    help="lateness the runner tolerates before a loss on time (the machine may be loaded)")
    ap.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--openings", default=str(OPENINGS))
    ap.add_argument("--seed", type=int, default=2015)
    ap.add_argument("--depth-samples", type=int, default=12, help="positions per setting for the mean depth")
    ap.add_argument("--games-dir", default=None, help="keep the games here (and resume them on a rerun)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    ap.add_argument("--smoke", action="store_true", help="one setting, 2 games, 0.2 s per move")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args(argv)
    if _match is None:
        print("connect6.match (the match runner) is missing: cannot play games")
        return 2
    if args.smoke:
        args.widths, args.depths, args.games, args.move_time, args.depth_samples = "10", "", 2, 0.2, 2
    widths = [int(x) for x in args.widths.split(",") if x]
    depths = [int(x) for x in args.depths.split(",") if x]
    rows, unique = settings(widths, depths, args.fig4_depth, args.fig5_width)
    openings = _match.load_openings(args.openings)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    games_dir = args.games_dir or tempfile.mkdtemp(prefix="connect6-scan-strength-")
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    loads = [load_avg()]
    print(f"# scan_strength: {len(unique)} settings (width, depth cap) {unique}, {args.games} games each, "
          f"{args.move_time:g} s per move, concurrency {args.concurrency}; games in {games_dir}; {machine()}; "
          f"{loads[0]}")
    t0 = time.perf_counter()
    results = {}
    for w, d in unique:
        ts = time.perf_counter()
        print(f"## width {w}, depth cap {d}", flush=True)
        records = play_setting(w, d, args, games_dir, openings)
        c = count(records)
        dep = sample_depths(records, w, d, args.move_time, args.depth_samples)
        results[(w, d)] = {"count": c, "depths": dep, "records": records}
        print(f"   width {w} depth cap {d}: local {c['local']} : global {c['global']} (draws {c['draws']}); "
              f"mean depth local {dep.get('local', float('nan')):.2f}, global {dep.get('global', float('nan')):.2f}; "
              f"{(time.perf_counter() - ts) / 60:.1f} min", flush=True)
    elapsed = time.perf_counter() - t0
    loads.append(load_avg())

    with open(out / "scan_strength.csv", "w", newline="", encoding="utf-8") as fh:
        wr = csv.writer(fh)
        wr.writerow(["width", "depth_cap", "move_time", "game", "pair", "local_color", "result", "winner",
                     "termination", "turns", "opening"])
        for (w, d), res in results.items():
            for r in res["records"]:
                wr.writerow([w, d, args.move_time, r["game"], r["pair"], r["a_color"], r["result"],
                             {"a": "local", "b": "global"}.get(r["winner"], "draw"), r["termination"],
                             len(r["moves"]), r["opening"]])
    md = markdown(rows, results, args, started, elapsed, loads)
    (out / "scan_strength.md").write_text(md, encoding="utf-8")
    print()
    print(md)
    print(f"wrote {out / 'scan_strength.csv'} and {out / 'scan_strength.md'}")
    if not args.no_plot:
        if have_matplotlib():
            plot(rows, results, out / "scan_strength.png", args.move_time)
            print(f"wrote {out / 'scan_strength.png'}")
        else:
            print(NO_PLOT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
