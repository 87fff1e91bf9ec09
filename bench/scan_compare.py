"""Search time by scan mode against the game step: the paper's Fig. 3.

For each depth (default 3, 4, 5) at width 10, takes the positions of N games
at steps 1..15 (step s = the position before turn s, after s - 1 turns; the
paper's "step 9" is after 8 turns) and times one fixed-depth search of each
position in every scan mode:

* ``global``: each candidate pair scored by rescanning all 924 roads (the paper's baseline);
* ``local``: each pair scored by rescanning the roads through its two stones (the paper's method);
* ``incremental``: the package's default, exact, mode (single-stone deltas kept
  by the road table plus shared-road corrections, with a bound that stops early).

All modes search the same positions and must choose the same moves with the
same scores and node counts (the scan changes the speed, never the tree); the
script checks this and says so.

Positions come from the human games in tests/data/human-games.csv (the
first N games still unfinished at the last step), or with ``--openings FILE``
from self-play: each opening played on by the default engine at fixed depth.

Writes to ``--out`` (default bench/results):

* ``scan_compare.csv``: every timing (one row per position, depth and mode);
* ``scan_compare.md``: the paper's step-9 times beside ours, with the ratios,
  and the mean time per step;
* ``scan_compare.png``: search time against step, log scale, one line per mode
  and depth, in the manner of the paper's Fig. 3 (needs matplotlib).

    PYTHONPATH=. python bench/scan_compare.py                       # default run, ~14 min on 2 cores
    PYTHONPATH=. python bench/scan_compare.py --depths 3 --games 1 --max-step 6 --out /tmp/sc   # smoke, seconds
"""
from __future__ import annotations

import argparse
import csv
import datetime
import math
import time
from collections import defaultdict
from pathlib import Path

from _common import (NO_PLOT, ROOT, have_matplotlib, load_avg, long_games, machine, positions_by_step,
                     self_play_games)

import connect6

MODES = ("global", "local", "incremental")
#: Li et al. 2015, width 10, mean search time at step 9 (seconds): depth -> (global, local).
PAPER_STEP9 = {3: (23.030, 2.010), 4: (269.902, 31.855), 5: (640.780, 36.301)}
PAPER_STEP = 9
FIELDS = ("game", "step", "depth", "width", "mode", "move", "score", "nodes", "leaves", "time_s")


def fmt_s(x: float) -> str:
    """Seconds with about four significant figures."""
    if x != x:
        return "-"
    if x >= 100:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.3f}"
    if x >= 0.001:
        return f"{x:.4f}"
    return f"{x:.2e}"


def fmt_ratio(x: float) -> str:
    if x != x or math.isinf(x):
        return "-"
    return f"{x:.0f}×" if x >= 100 else f"{x:.1f}×"


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def run(positions, depths, width, modes, profile="paper", log=print):
    """Time every position at every depth in every mode (modes interleaved per
    position so machine load hits them alike).  Returns (rows, disagreements)."""
    rows, disagree = [], []
    for depth in depths:
        engines = {m: connect6.make_engine(profile, depth=depth, width=width, scan=m) for m in modes}
        for label, step, board in positions:
            seen = {}
            line = []
            for mode in modes:
                r = engines[mode].search(board)
                rows.append({"game": label, "step": step, "depth": depth, "width": width, "mode": mode,
                             "move": str(r.move), "score": r.score, "nodes": r.nodes, "leaves": r.leaves,
                             "time_s": r.time_s})
                seen[mode] = (str(r.move), r.score, r.nodes, r.leaves)
                line.append(f"{mode} {fmt_s(r.time_s)} s")
            same = len(set(seen.values())) == 1
            if not same:
                disagree.append((label, step, depth, seen))
            log(f"depth {depth} {label} step {step:2}: {r.move} {r.score_text}, {r.nodes} nodes; "
                + ", ".join(line) + ("" if same else "  MODES DISAGREE"))
    return rows, disagree


def summarise(rows):
    """{(depth, mode, step): [times]}"""
    by = defaultdict(list)
    for r in rows:
        by[(r["depth"], r["mode"], r["step"])].append(float(r["time_s"]))
    return by


def markdown(rows, disagree, args, source, n_games, elapsed, started, load_before, load_after):
    by = summarise(rows)
    depths = sorted({r["depth"] for r in rows})
    modes = [m for m in MODES if any(r["mode"] == m for r in rows)]
    steps = sorted({r["step"] for r in rows})
    step = PAPER_STEP if PAPER_STEP in steps else steps[-1]
    n_searches = len({(r["game"], r["step"], r["depth"]) for r in rows})
    out = [
        "# Search time by scan mode (the paper's Fig. 3)",
        "",
        f"Width {args.width}; positions of {n_games} games ({source}) at steps "
        f"{steps[0]}..{steps[-1]}; one fixed-depth search per position, depth and mode, with the "
        f"`{args.profile}` engine profile (the paper's plain alpha-beta over the best pairs) and the scan "
        "set per mode: `global` rescans all 924 roads per pair, `local` the roads through the pair, "
        "`incremental` (the package's default scan) is exact from kept single-stone deltas.",
        f"Measured {started} on {machine()} ({load_before} before, {load_after} after); "
        f"run time {elapsed / 60:.1f} min. "
        "Timings were taken on a shared 2-core machine where other work was running: "
        "the ratios within one run are what matter.",
        "",
        ("**Same moves: yes.** Every mode chose the same move with the same score, node and leaf "
         f"count in all {n_searches} searches (position × depth)." if not disagree else
         f"**Same moves: NO.** {len(disagree)} of {n_searches} searches differ between modes."),
        "",
        f"## Step {step}: the paper's times beside ours (mean seconds per search)",
        "",
    ]
    if step != PAPER_STEP:
        out += [f"(The run stopped before step {PAPER_STEP}; step {step} is shown.)", ""]
    head = "| depth | paper global | paper local | paper global/local |"
    rule = "|---|---:|---:|---:|"
    for m in modes:
        head += f" our {m} |"
        rule += "---:|"
    if "global" in modes and "local" in modes:
        head += " our global/local |"
        rule += "---:|"
    if "global" in modes and "incremental" in modes:
        head += " our global/incremental |"
        rule += "---:|"
    out += [head, rule]
    for d in depths:
        pg, pl = PAPER_STEP9.get(d, (float("nan"), float("nan")))
        cells = [str(d), fmt_s(pg), fmt_s(pl), fmt_ratio(pg / pl)]
        t = {m: mean(by[(d, m, step)]) for m in modes}
        cells += [fmt_s(t[m]) for m in modes]
        if "global" in t and "local" in t:
            cells.append(fmt_ratio(t["global"] / t["local"]))
        if "global" in t and "incremental" in t:
            cells.append(fmt_ratio(t["global"] / t["incremental"]))
        out.append("| " + " | ".join(cells) + " |")
    out += [
        "",
        f"Paper: C#, a 2015 laptop, width 10, mean of its step-{PAPER_STEP} searches. Ours: Cython, "
        f"mean of {len(by[(depths[0], modes[0], step)])} positions at step {step}.",
        "",
        "## All steps: total time per mode",
        "",
        "| depth | " + " | ".join(f"{m} total s" for m in modes)
        + (" | global/local" if "global" in modes and "local" in modes else "")
        + (" | global/incremental" if "global" in modes and "incremental" in modes else "") + " |",
        "|---|" + "---:|" * len(modes)
        + ("---:|" if "global" in modes and "local" in modes else "")
        + ("---:|" if "global" in modes and "incremental" in modes else ""),
    ]
    for d in depths:
        tot = {m: sum(sum(by[(d, m, s)]) for s in steps) for m in modes}
        cells = [str(d)] + [fmt_s(tot[m]) for m in modes]
        if "global" in tot and "local" in tot:
            cells.append(fmt_ratio(tot["global"] / tot["local"]))
        if "global" in tot and "incremental" in tot:
            cells.append(fmt_ratio(tot["global"] / tot["incremental"]))
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "## Mean seconds per search at each step", "",
            "| step | " + " | ".join(f"d{d} {m}" for d in depths for m in modes) + " |",
            "|---|" + "---:|" * (len(depths) * len(modes))]
    for s in steps:
        out.append(f"| {s} | " + " | ".join(fmt_s(mean(by[(d, m, s)])) for d in depths for m in modes) + " |")
    if disagree:
        out += ["", "## Disagreements", ""]
        for label, s, d, seen in disagree:
            out.append(f"* {label} step {s} depth {d}: {seen}")
    return "\n".join(out) + "\n"


def plot(rows, path, title):
    """Search time against step, log scale, one line per mode and depth."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by = summarise(rows)
    depths = sorted({r["depth"] for r in rows})
    modes = [m for m in MODES if any(r["mode"] == m for r in rows)]
    steps = sorted({r["step"] for r in rows})
    colors = {"global": "tab:red", "local": "tab:blue", "incremental": "tab:green"}
    markers = {3: "o", 4: "s", 5: "^", 6: "D", 2: "v", 1: "x"}
    styles = {3: ":", 4: "--", 5: "-"}
    fig, ax = plt.subplots(figsize=(8, 6))
    for m in modes:
        for d in depths:
            ys = [mean(by[(d, m, s)]) for s in steps]
            ax.plot(steps, [max(y, 1e-5) for y in ys], color=colors[m], linestyle=styles.get(d, "-"),
                    marker=markers.get(d, "o"), markersize=4, label=f"{m}, depth {d}")
    ax.set_yscale("log")
    ax.set_xlabel("step (turn number; the position after step - 1 turns)")
    ax.set_ylabel("mean search time (s, log scale)")
    ax.set_xticks(steps)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(title)
    ax.legend(fontsize=8, ncol=len(modes), loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depths", default="3,4,5", help="comma-separated search depths (turns)")
    ap.add_argument("--width", type=int, default=10)
    ap.add_argument("--games", type=int, default=3, help="number of games whose positions are searched")
    ap.add_argument("--max-step", type=int, default=15)
    ap.add_argument("--min-step", type=int, default=1)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--profile", default="paper",
                    help="engine profile whose search is timed (default: paper = the paper's plain "
                         "alpha-beta; the scan is set per mode)")
    ap.add_argument("--openings", default=None,
                    help="self-play from these openings instead of the human games (e.g. data/openings.txt)")
    ap.add_argument("--selfplay-depth", type=int, default=3, help="depth of the self-play engine")
    ap.add_argument("--skip", type=int, default=0, help="skip this many human games first")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in MODES:
            ap.error(f"unknown mode {m!r}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    if args.openings:
        games = self_play_games(args.openings, args.games, args.max_step - 1, depth=args.selfplay_depth,
                                width=args.width)
        source = f"self-play from {Path(args.openings).name}, default engine depth {args.selfplay_depth}"
    else:
        games = long_games(args.games, args.max_step, skip=args.skip)
        source = "human games, tests/data/human-games.csv"
    positions = positions_by_step(games, args.max_step, args.min_step)
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    load_before = load_avg()
    print(f"# scan_compare: depths {depths}, width {args.width}, {len(games)} games ({source}), "
          f"steps {args.min_step}..{args.max_step}, {len(positions)} positions; {machine()}; {load_before}")
    t0 = time.perf_counter()
    rows, disagree = run(positions, depths, args.width, modes, args.profile, log=(lambda s: None) if args.quiet else print)
    elapsed = time.perf_counter() - t0
    load_after = load_avg()

    csv_path = out / "scan_compare.csv"
    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({**r, "time_s": f"{r['time_s']:.6f}"})
    md = markdown(rows, disagree, args, source, len(games), elapsed, started, load_before, load_after)
    md_path = out / "scan_compare.md"
    md_path.write_text(md, encoding="utf-8")
    print()
    print(md)
    print(f"wrote {csv_path} and {md_path}")
    if not args.no_plot:
        if have_matplotlib():
            png = out / "scan_compare.png"
            plot(rows, png, f"Search time by scan mode, width {args.width} ({len(games)} games)")
            print(f"wrote {png}")
        else:
            print(NO_PLOT)
    n = len({(r['game'], r['step'], r['depth']) for r in rows})
    if disagree:
        print(f"same moves: NO -- {len(disagree)} of {n} searches differ between modes")
        return 1
    print(f"same moves: yes -- all modes chose the same move, score and node count in all {n} searches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
