"""Soak test of the web board: a real ``connect6 gui`` on 127.0.0.1 with many tabs.

Starts ``python -m connect6 gui`` on a free loopback port (a subprocess), then

1. **rounds**: opens ``--tabs`` WebSocket tabs at once; in each the engine opens
   as black (``--move-time`` seconds a move) and the tab plays ``--turns``
   turns against it; then all the tabs close.  After each round it prints the
   server's resident memory (VmRSS) and how many tabs were queued for the
   engine, refused, or failed;
2. **latency**: opens ``--search-tabs`` tabs whose engines search one move
   after another, and meanwhile times ``--requests`` GETs of ``/`` and of
   ``/api/info`` from another thread (p50 / p99 / max).

Targets (issue 41): RSS after each round within 50 MiB of the first round's;
p99 of ``/`` under 1 s with 50 tabs open.  Loopback only; every loop is
bounded and the server is stopped at the end.

    PYTHONPATH=. python bench/web_soak.py --rounds 5 --tabs 30
    PYTHONPATH=. python bench/web_soak.py --source /tmp/old-checkout   # another checkout's connect6

Needs the web extra (``pip install "connect6[web]"``: uvicorn[standard]
brings the ``websockets`` client used here).  Linux (reads /proc).
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
#: cells the tabs play, far from the engine's stones (the first free ones are taken)
EDGE = [f"{c}{r}" for r in (1, 19, 2, 18) for c in "abcdefghijklmnopqrs"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def get(port: int, path: str, timeout: float = 30.0):
    """(status, seconds, body) of one GET on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    t0 = time.perf_counter()
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        body = r.read()
        return r.status, time.perf_counter() - t0, body
    finally:
        conn.close()


class Server:
    """``connect6 gui`` in a subprocess on 127.0.0.1 (from ``source`` when given)."""

    def __init__(self, source: Optional[str], extra: List[str]):
        self.port = free_port()
        env = dict(os.environ)
        cwd = None
        if source:
            env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
            cwd = source
        self.proc = subprocess.Popen([sys.executable, "-m", "connect6", "gui", "--host", "127.0.0.1",
                                      "--port", str(self.port), *extra], env=env, cwd=cwd,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server stopped: {self.proc.stderr.read()}")
            try:
                if get(self.port, "/api/info", 2)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the server did not answer within 60 s")
            time.sleep(0.1)

    def info(self) -> Dict:
        return json.loads(get(self.port, "/api/info")[2])

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------- tabs
async def _settled(ws, counts: Dict[str, int], seen: set) -> Dict:
    """The next state in which the engine is not thinking (counting queue messages and errors)."""
    while True:
        msg = json.loads(await ws.recv())
        if msg["type"] == "queue" and "queued" not in seen:
            seen.add("queued")
            counts["queued"] += 1
        elif msg["type"] == "error":
            counts["errors"] += 1
        elif msg["type"] == "state" and not msg["thinking"]:
            return msg


async def play_tab(port: int, move_time: float, turns: int, counts: Dict[str, int]) -> None:
    """One tab: a new game with the engine opening, ``turns`` turns of ours, then close."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    origin = f"http://127.0.0.1:{port}"
    seen: set = set()
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws", origin=origin, open_timeout=60,
                           max_size=None) as ws:
            await _settled(ws, counts, seen)
            await ws.send(json.dumps({"type": "new", "color": "white", "profile": "default", "time": move_time}))
            state = await _settled(ws, counts, seen)
            for _ in range(turns):
                if state["outcome"] is not None:
                    break
                taken = "".join(state["moves"])
                free = [c for c in EDGE if c not in taken][:2]
                for cell in free:
                    await ws.send(json.dumps({"type": "click", "cell": cell}))
                    state = await _settled(ws, counts, seen)
            counts["played"] += 1
    except ConnectionClosed as exc:
        counts["refused" if exc.rcvd is not None and exc.rcvd.code in (1008, 1013) else "errors"] += 1
    except OSError:
        counts["errors"] += 1


async def play_round(port: int, tabs: int, move_time: float, turns: int, limit: float) -> Dict[str, int]:
    counts = {"played": 0, "queued": 0, "refused": 0, "errors": 0, "timeouts": 0}
    jobs = [asyncio.ensure_future(play_tab(port, move_time, turns, counts)) for _ in range(tabs)]
    done, pending = await asyncio.wait(jobs, timeout=limit)
    for job in pending:
        job.cancel()
    counts["timeouts"] = len(pending)
    await asyncio.gather(*pending, return_exceptions=True)
    return counts


def settle(server: Server, seconds: float = 10.0) -> None:
    """Wait (bounded) until the server reports no open tab and no search, then a moment more."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        load = server.info().get("load")
        if load is None or (load["sessions"] == 0 and load["searches"]["running"] == 0):
            break
        time.sleep(0.2)
    time.sleep(1.0)


# ---------------------------------------------------------------- latency while tabs search
async def search_tab(port: int, move_time: float, stop: asyncio.Event, counts: Dict[str, int]) -> None:
    """A tab whose engine searches one move after another until ``stop``."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    seen: set = set()
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}", open_timeout=60,
                           max_size=None) as ws:
            counts["open"] += 1
            await _settled(ws, counts, seen)
            while not stop.is_set():
                await ws.send(json.dumps({"type": "new", "color": "white", "profile": "default",
                                          "time": move_time}))
                waiter = asyncio.ensure_future(_settled(ws, counts, seen))
                await asyncio.wait([waiter, asyncio.ensure_future(stop.wait())], return_when=asyncio.FIRST_COMPLETED)
                if not waiter.done():
                    waiter.cancel()
                counts["searches"] += 1
    except ConnectionClosed as exc:
        counts["refused" if exc.rcvd is not None and exc.rcvd.code in (1008, 1013) else "errors"] += 1


def time_requests(port: int, requests: int, limit: float, out: Dict[str, List[float]], failures: List[str]) -> None:
    """Time GETs of / and /api/info in turn, ``requests`` of each or until ``limit`` seconds have passed;
    a request that times out (10 s) counts as a failure and as 10 s."""
    deadline = time.monotonic() + limit
    for i in range(requests):
        if time.monotonic() > deadline:
            failures.append(f"stopped after {i} rounds of requests: the {limit:g} s limit")
            return
        for path in ("/", "/api/info"):
            t0 = time.perf_counter()
            try:
                status, seconds, _ = get(port, path, timeout=10)
                if status != 200:
                    failures.append(f"{path}: HTTP {status}")
                out[path].append(seconds)
            except OSError as exc:
                failures.append(f"{path}: {exc!r}")
                out[path].append(time.perf_counter() - t0)


def pct(values: List[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def latency(port: int, tabs: int, move_time: float, requests: int, limit: float) -> Dict:
    stop, counts = asyncio.Event(), {"open": 0, "searches": 0, "queued": 0, "refused": 0, "errors": 0}
    jobs = [asyncio.ensure_future(search_tab(port, move_time, stop, counts)) for _ in range(tabs)]
    for _ in range(600):                              # at most 60 s for the tabs to open
        if counts["open"] + counts["refused"] + counts["errors"] >= tabs:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(2 * move_time)                # let the searches start
    times: Dict[str, List[float]] = {"/": [], "/api/info": []}
    failures: List[str] = []
    await asyncio.to_thread(time_requests, port, requests, limit, times, failures)
    stop.set()
    await asyncio.wait(jobs, timeout=30)
    return {"counts": counts, "times": times, "failures": failures}


# ---------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--tabs", type=int, default=30, help="tabs opened, played and closed per round")
    ap.add_argument("--turns", type=int, default=1, help="turns each tab plays against the engine")
    ap.add_argument("--move-time", type=float, default=0.2, help="seconds per engine move")
    ap.add_argument("--search-tabs", type=int, default=50, help="tabs searching while the latency is measured")
    ap.add_argument("--requests", type=int, default=100, help="GETs of each path timed")
    ap.add_argument("--round-limit", type=float, default=120.0, help="seconds a round may take at most")
    ap.add_argument("--latency-limit", type=float, default=60.0, help="seconds the timed requests may take at most")
    ap.add_argument("--source", help="run the connect6 of this checkout (e.g. an older one) instead")
    ap.add_argument("--server-arg", action="append", default=[], help="an extra option for connect6 gui")
    args = ap.parse_args(argv)
    if not 1 <= args.rounds <= 50 or not 1 <= args.tabs <= 500 or not 0 <= args.search_tabs <= 500:
        ap.error("--rounds 1..50, --tabs 1..500, --search-tabs 0..500")
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))   # stop the server on the way out
    server = Server(args.source, args.server_arg)
    try:
        return _run(server, args)
    finally:
        server.stop()


def _run(server: Server, args) -> int:
    print(f"connect6 gui on 127.0.0.1:{server.port} (pid {server.proc.pid}); {os.cpu_count()} cores; "
          f"source {args.source or 'installed'}; extra {args.server_arg or 'none'}")
    print(f"start: RSS {rss_mib(server.proc.pid):.0f} MiB")
    print("round | tabs | played | queued | refused | errors | timeouts | seconds | RSS MiB | vs round 1")
    first = None
    worst = 0.0
    for r in range(1, args.rounds + 1):
        t0 = time.monotonic()
        c = asyncio.run(play_round(server.port, args.tabs, args.move_time, args.turns, args.round_limit))
        seconds = time.monotonic() - t0
        settle(server)
        rss = rss_mib(server.proc.pid)
        first = rss if first is None else first
        worst = max(worst, rss - first)
        print(f"{r:5d} | {args.tabs:4d} | {c['played']:6d} | {c['queued']:6d} | {c['refused']:7d} | "
              f"{c['errors']:6d} | {c['timeouts']:8d} | {seconds:7.1f} | {rss:7.0f} | {rss - first:+.0f}", flush=True)
    print(f"RSS growth after round 1: at most {worst:+.0f} MiB (target: within 50 MiB): "
          f"{'met' if worst <= 50 else 'MISSED'}")
    if args.search_tabs:
        out = asyncio.run(latency(server.port, args.search_tabs, args.move_time * 5, args.requests,
                                  args.latency_limit))
        c = out["counts"]
        print(f"latency with {c['open']} tabs open searching ({c['searches']} searches, {c['queued']} tabs queued, "
              f"{c['refused']} refused, {c['errors']} errors), {args.requests} GETs each:")
        for path, values in out["times"].items():
            if values:
                print(f"  GET {path:10s} p50 {1000 * statistics.median(values):7.1f} ms  "
                      f"p99 {1000 * pct(values, 0.99):7.1f} ms  max {1000 * max(values):7.1f} ms")
        if out["failures"]:
            print(f"  {len(out['failures'])} failures: {'; '.join(sorted(set(out['failures'])))[:300]}")
        page = out["times"]["/"]
        if page:
            print(f"p99 of the page: {pct(page, 0.99):.3f} s (target: under 1 s with 50 tabs open): "
                  f"{'met' if pct(page, 0.99) < 1 else 'MISSED'}")
        print(f"RSS at the end: {rss_mib(server.proc.pid):.0f} MiB")
    try:
        load = server.info().get("load")
        if load:
            print(f"server: {load['sessions_total']} tabs served, {load['sessions_refused']} refused; searches "
                  f"{load['searches']['started_total']} started, {load['searches']['queued_total']} queued")
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
