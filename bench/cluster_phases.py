"""Where a cluster tier solve's time goes, phase by phase, against the single-process tier solve of the same board (issue 23).

    python bench/cluster_phases.py                       # Connect-Four 5x4 (3,945,711 positions; a minute or two)
    python bench/cluster_phases.py --width 4 --height 5 --workers 2

Two solves into new SQLite (or ``--backend duckdb``) files, each in a child process of its own:

- the single-process tier solver (``--strategy tiers --no-symmetry``), under cProfile: enumeration, the backward pass
  split into move generation (``expand``), the reading of the solved tiers a slice needs (``_lookup``: the binary
  searches and the reads of the reached tiers' values), valuing (``from_children``) and saving, and the rows' write;
- the same board through a LocalCluster of ``--workers`` processes (as ``gamedb solve --workers N``), with Dask's task
  stream: the seconds of each kind of task (settle, expand, solve, join) on the workers, the client's wall time per
  phase, and what is neither (the scheduler, serialization, the client waiting on one task at a time), with each
  worker's waits between its tasks by the kinds of the two (``expand -> expand``: the next tier's settle ran elsewhere).

Then Amdahl: the serial seconds (those only one process can do) and the bound they put on the speed-up of 2 workers.
The machine is shared: the load average is printed.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: the solver functions the single-process split names (pstats "cumulative" seconds)
SPLIT = {
    "expand": "expand (move generation)",
    "_lookup": "reading the reached tiers (binary search + values)",
    "from_children": "valuing from the children",
    "save": "saving the tier files",
}


def _marks() -> tuple[dict[str, float], object]:
    marks: dict[str, float] = {}
    t0 = time.perf_counter()

    def progress(phase: str, done: int, total: int | None) -> None:
        marks.setdefault(phase, time.perf_counter() - t0)
        marks[phase + " end"] = time.perf_counter() - t0

    marks["t0"] = t0
    return marks, progress


def single(width: int, height: int, suffix: str) -> dict:
    from gamedb import Database
    from gamedb.games import family

    marks, progress = _marks()
    profile = cProfile.Profile()
    with tempfile.TemporaryDirectory() as tmp, Database(Path(tmp) / f"s.{suffix}", create=True) as db:
        t0 = time.perf_counter()
        profile.enable()
        report = db.solve(family("connect4").from_options(width=width, height=height), strategy="tiers", symmetry=False, progress=progress)
        profile.disable()
        wall = time.perf_counter() - t0
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    split: dict[str, float] = defaultdict(float)
    for (file, _, name), (_, _, _, cumulative, _) in stats.items():
        if name in SPLIT and "gamedb" in file and ("tier" in file or "connect4" in file):
            split[name] += cumulative
    return {
        "positions": report.positions, "wall": wall, "enumerate": marks.get("enumerate tiers end", 0.0) - (marks["t0"] - t0),
        "solve": marks.get("solve tiers end", 0.0) - marks.get("enumerate tiers end", 0.0),
        "write": wall - marks.get("solve tiers end", 0.0), "split": dict(split),
    }


def _split_of(tree: dict) -> dict[str, float]:
    """The share of the solve tasks' profile samples (Dask's statistical profiler, every 10 ms) in each function of :data:`SPLIT`."""
    found: dict[str, int] = defaultdict(int)

    def walk(node: dict, inside: frozenset[str]) -> None:
        name = node["description"].get("name", "") if isinstance(node["description"], dict) else ""
        if name in SPLIT and name not in inside:
            found[name] += node["count"]
            inside = inside | {name}
        for child in node.get("children", {}).values():
            walk(child, inside)

    walk(tree, frozenset())
    return {name: found[name] / max(tree["count"], 1) for name in SPLIT}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def timed_write(record: dict) -> Iterator[None]:
    """The client's write split into ``record``: seconds making the rows of its ranges (``range_columns``: read, merged,
    labelled) and seconds in the sink (inserts and commits)."""
    from gamedb.solvers import tier_store
    from gamedb.store.sql_sink import SqlSink

    record.update(rows=0.0, insert=0.0, commit=0.0, rows_cpu=0.0, insert_cpu=0.0, commit_cpu=0.0)
    patched = [(tier_store, "range_columns", "rows"), (SqlSink, "columns", "insert"), (SqlSink, "commit", "commit"), (SqlSink, "part", "insert")]
    originals = [getattr(owner, name) for owner, name, _ in patched]

    def timed(function: Any, into: str) -> Any:
        @contextmanager
        def entered(*args: Any, **kwargs: Any) -> Iterator[Any]:  # a part's rows are inserted as its context is entered
            t, cpu = time.perf_counter(), time.thread_time()
            record["in_part"] = True  # (its columns, taken by SqlSink.columns, counted once)
            with function(*args, **kwargs) as found:
                record["in_part"] = False
                record[into] += time.perf_counter() - t
                record[into + "_cpu"] += time.thread_time() - cpu
                yield found

        if function.__name__ == "part":
            return entered

        def run(*args: Any, **kwargs: Any) -> Any:
            if record.get("in_part"):
                return function(*args, **kwargs)
            t, cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                record[into] += time.perf_counter() - t
                record[into + "_cpu"] += time.thread_time() - cpu
        return run

    for (owner, name, into), function in zip(patched, originals, strict=True):
        setattr(owner, name, timed(function, into))
    try:
        yield
    finally:
        for (owner, name, _), function in zip(patched, originals, strict=True):
            setattr(owner, name, function)


@contextmanager
def recorded_client(record: dict) -> Iterator[None]:
    """``gamedb.solvers.tier_cluster``'s client, as ``gamedb solve --workers N`` makes it, recorded into ``record``: the time it
    was ready and closed, the task stream and the workers' peak memory (asked before the cluster stops)."""
    from dask.distributed import get_task_stream

    from gamedb.solvers import tier_cluster

    original = tier_cluster.cluster_client

    @contextmanager
    def client_of(cluster: Any, memory_limit: int, **options: Any) -> Iterator[Any]:
        with original(cluster, memory_limit, **options) as client:
            record["ready"] = time.perf_counter()
            with get_task_stream(client) as stream:
                yield client
            record["stream"] = stream.data
            record["profile"] = _split_of(client.profile(key="solve"))
            record["worker_peaks"] = sorted(client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024).values())
            record["worker_cpu"] = sorted(client.run(_cpu).values())
        record["closed"] = time.perf_counter()

    tier_cluster.cluster_client = client_of  # type: ignore[assignment]
    try:
        yield
    finally:
        tier_cluster.cluster_client = original  # type: ignore[assignment]


def cluster(width: int, height: int, workers: int, suffix: str) -> dict:
    """Solved by ``Database.solve(cluster=Cluster(workers=...))``: a local cluster of its own, closed once the rows are written."""
    from gamedb import Database
    from gamedb.games import family
    from gamedb.solvers.protocol import Cluster

    marks, progress = _marks()
    record: dict = {}
    with tempfile.TemporaryDirectory() as tmp, Database(Path(tmp) / f"c.{suffix}", create=True) as db, recorded_client(record), timed_write(record):
        t0 = time.perf_counter()
        report = db.solve(family("connect4").from_options(width=width, height=height), progress=progress, cluster=Cluster(workers=workers, work_dir=tmp))
        wall = time.perf_counter() - t0
    tasks: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])  # kind -> compute seconds, transfer seconds, count
    for task in record["stream"]:
        kind = _kind(task["key"])
        for ss in task["startstops"]:
            tasks[kind][0 if ss["action"] == "compute" else 1] += ss["stop"] - ss["start"]
        tasks[kind][2] += 1
    waits = _waits(record["stream"])
    offset = t0 - marks["t0"]
    enum_end = marks.get("enumerate tiers (cluster) end", 0.0) - offset
    solve_end = max(marks.get("slices solved (cluster) end", 0.0), marks.get("tiers solved (cluster) end", 0.0)) - offset
    write_end = marks.get("write end", 0.0) - offset
    started = record["ready"] - t0
    return {
        "positions": report.positions, "wall": wall, "cluster_start": started, "enumerate": enum_end - started, "solve": solve_end - enum_end,
        "cluster_stop": wall - write_end, "write": write_end - solve_end,
        "write_rows": record["rows"], "write_insert": record["insert"], "write_rows_cpu": record["rows_cpu"], "write_insert_cpu": record["insert_cpu"],
        "write_commit": record["commit"], "write_commit_cpu": record["commit_cpu"],
        "worker_cpu": record["worker_cpu"], "tasks": {k: v for k, v in tasks.items()}, "waits": waits,
        "solve_split": record["profile"], "worker_peaks": record["worker_peaks"], "client_peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }


def _kind(key: Any) -> str:
    return (key if isinstance(key, str) else str(key[0])).split("-")[0]


def _waits(stream: list[dict]) -> dict[str, dict[str, float]]:
    """Per worker, the seconds between one task's end and its next task's start, by the kinds of the two tasks
    ("expand -> settle": a worker waiting for the settle of the next tier, run elsewhere)."""
    runs: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    for task in stream:
        for ss in task["startstops"]:
            if ss["action"] == "compute":
                runs[task["worker"]].append((ss["start"], ss["stop"], _kind(task["key"])))
    waits: dict[str, dict[str, float]] = {}
    for worker, spans in sorted(runs.items()):
        spans.sort()
        by: dict[str, float] = defaultdict(float)
        for (_, stop, kind), (start, _, after) in zip(spans, spans[1:], strict=False):
            by[f"{kind} -> {after}"] += max(start - stop, 0.0)
        waits[worker] = dict(by)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=5)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--backend", choices=["sqlite", "duckdb"], default="sqlite")
    parser.add_argument("--run", choices=["single", "cluster"], help=argparse.SUPPRESS)  # a child
    args = parser.parse_args()
    if args.run:
        result = single(args.width, args.height, args.backend) if args.run == "single" else cluster(args.width, args.height, args.workers, args.backend)
        print(json.dumps(result))
        return
    runs = {}
    for run in ("single", "cluster"):
        command = [sys.executable, __file__, "--run", run, "--width", str(args.width), "--height", str(args.height),
                   "--workers", str(args.workers), "--backend", args.backend]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        runs[run] = json.loads(done.stdout.strip().splitlines()[-1])
    s, c = runs["single"], runs["cluster"]
    print(f"Connect-Four {args.width}x{args.height} into {args.backend}: {s['positions']:,} positions; load {os.getloadavg()[0]:.1f} (2 shared cores: noisy)")
    print(f"single process: {s['wall']:6.1f} s = enumerate {s['enumerate']:.1f} + solve {s['solve']:.1f} + write rows {s['write']:.1f}")
    for name, words in SPLIT.items():
        print(f"    {words:52} {s['split'].get(name, 0.0):6.1f} s")
    mb = 1 << 20
    print(f"cluster, {args.workers} worker(s): {c['wall']:6.1f} s = start the cluster {c['cluster_start']:.1f} + enumerate {c['enumerate']:.1f} "
          f"+ solve {c['solve']:.1f} + write rows {c['write']:.1f} + stop it {c['cluster_stop']:.1f}; peak MB: workers "
          f"{', '.join(f'{p / mb:.0f}' for p in c['worker_peaks'])}, client {c['client_peak'] / mb:.0f}")
    print(f"    CPU seconds of each worker, all told: {', '.join(f'{x:.1f}' for x in c['worker_cpu'])}")
    print(f"    the client's write: making the rows (read, merged, labelled) {c['write_rows']:.1f} s ({c['write_rows_cpu']:.1f} s CPU), "
          f"the sink's inserts {c['write_insert']:.1f} s ({c['write_insert_cpu']:.1f} s CPU) and commits {c['write_commit']:.1f} s "
          f"({c['write_commit_cpu']:.1f} s CPU)"
          f"{' (overlapping: a thread makes the next range meanwhile)' if args.backend == 'duckdb' and c['write_rows'] else ''}"
          f"{' (the workers make the rows: rows tasks)' if c['write_rows'] == 0 else ''}")
    busy = 0.0
    for kind, (compute, transfer, count) in sorted(c["tasks"].items()):
        busy += compute if kind != "rows" else 0.0
        print(f"    {kind:8} tasks: {count:5} ran {compute:6.1f} s on the workers (transfers {transfer:.2f} s), {compute / max(count, 1) * 1e3:.0f} ms each")
    split = ", ".join(f"{SPLIT[name].split(' (')[0]} {share:.0%}" for name, share in c["solve_split"].items())
    print(f"    solve tasks, by Dask's profiler: {split}")
    cluster_part = c["enumerate"] + c["solve"]
    idle = cluster_part * args.workers - busy
    print(f"    worker time not in a task (scheduler, serialization, waits): {idle:.1f} s of {cluster_part * args.workers:.1f} worker-seconds")
    for k, (worker, by) in enumerate(c["waits"].items()):
        most = ", ".join(f"{pair} {seconds:.2f}" for pair, seconds in sorted(by.items(), key=lambda x: -x[1])[:5])
        print(f"    worker {k}'s waits between its tasks: {sum(by.values()):.2f} s ({most}; {worker})")
    settle = c["tasks"].get("settle", [0.0])[0]
    join = c["tasks"].get("join", [0.0])[0]
    fixed = c["cluster_start"] + c["cluster_stop"]
    serial = c["write_insert"] + c["write_commit"] + settle + fixed + (idle if args.workers == 1 else 0.0)
    parallel = c["wall"] - serial
    bound = c["wall"] / (serial + parallel / 2)
    part = cluster_part - (idle if args.workers == 1 else 0.0) - settle
    inserts = c["write_insert"] + c["write_commit"]
    print(f"Amdahl: serial {serial:.1f} s (client's inserts and commits {inserts:.1f} + settle {settle:.1f} + cluster start and stop {fixed:.1f}"
          f"{f' + overhead {idle:.1f}' if args.workers == 1 else ''}; joins {join:.1f} s are short) of {c['wall']:.1f} s = "
          f"{serial / c['wall']:.0%}: 2 workers are at most {bound:.2f}x faster; the cluster part alone (enumerate + solve) at most "
          f"{cluster_part / (cluster_part - part / 2):.2f}x")


if __name__ == "__main__":
    main()
