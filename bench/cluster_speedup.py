"""A tier solve on a local Dask cluster of 2 worker processes against 1, in the same run (issue 23).

    python bench/cluster_speedup.py                      # Connect-Four 4x6 (15,835,683 positions; a minute) into SQLite
    python bench/cluster_speedup.py --backend duckdb     # into a DuckDB file
    python bench/cluster_speedup.py --width 5 --height 4 # a smaller board

Each solve runs in a child process of its own (its peak memory is the client's), as ``gamedb solve --workers N``:
a local cluster of worker processes on 127.0.0.1, one thread each, asked their peak memory before it stops
(``cluster_phases.recorded_client``). Printed per run: wall seconds of the whole solve and of each phase (starting the
cluster, enumerating, solving the slices, writing the rows, stopping), the peak memory of each worker and of the
client, the load average; then the speed-up of 2 workers over 1 for the whole solve (the target: >= 1.5x) and for the
cluster part (enumerating and solving), and the most the runs' CPU times allow on this machine's cores: a 2-worker solve
does the 1-worker one's work and more, so it cannot beat (cores) / (cores the 1-worker solve kept busy on average). The
machine is shared (2 cores): the figures are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 1.5


def one(workers: int, width: int, height: int, slice_size: int | None, backend: str) -> dict:
    """Solve in this process as ``gamedb solve --workers N`` does (the cluster closed once the rows are written); the figures."""
    from cluster_phases import recorded_client

    from gamedb import Database
    from gamedb.games import family
    from gamedb.sizes import default_memory_limit
    from gamedb.solvers.protocol import Cluster

    try:
        from gamedb.allocator import keep_freed_arrays
    except ImportError:  # (a checkout before it)
        keep_freed_arrays = None
    if keep_freed_arrays is not None:
        keep_freed_arrays(default_memory_limit())  # as the command line does for its process

    marks: dict[str, float] = {}
    record: dict = {}

    def progress(phase: str, done: int, total: int | None) -> None:
        marks[phase + " end"] = time.perf_counter() - t0

    with tempfile.TemporaryDirectory() as tmp, Database(Path(tmp) / f"c4.{backend}", create=True) as db, recorded_client(record):
        t0 = time.perf_counter()
        report = db.solve(family("connect4").from_options(width=width, height=height), progress=progress,
                          cluster=Cluster(workers=workers, work_dir=tmp, slice_size=slice_size))
        wall = time.perf_counter() - t0
    started = record["ready"] - t0
    enumerated, solved, written = (marks.get(f"{phase} end", 0.0) for phase in ("enumerate tiers (cluster)", "tiers solved (cluster)", "write"))
    return {
        "workers": workers, "positions": report.positions, "wall": wall, "cluster": solved - started,
        "phases": {"start": started, "enumerate": enumerated - started, "solve": solved - enumerated, "write": written - solved, "stop": wall - written},
        "worker_peaks": record["worker_peaks"], "client_peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=6)
    parser.add_argument("--slice-size", type=int, default=None)
    parser.add_argument("--backend", choices=["sqlite", "duckdb"], default="sqlite")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child: solve with this many workers
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.width, args.height, args.slice_size, args.backend)))
        return
    runs = {}
    for workers in (1, 2):
        command = [sys.executable, __file__, "--one", str(workers), "--width", str(args.width), "--height", str(args.height), "--backend", args.backend]
        if args.slice_size:
            command += ["--slice-size", str(args.slice_size)]
        with tempfile.TemporaryFile("w+") as stdout:
            child = subprocess.Popen(command, stdout=stdout, stderr=subprocess.DEVNULL, text=True)
            _, status, usage = os.wait4(child.pid, 0)  # (its CPU includes the workers' and the scheduler's: processes it waited for)
            if status:
                raise SystemExit(f"the {workers}-worker solve failed ({status})")
            stdout.seek(0)
            runs[workers] = json.loads(stdout.read().strip().splitlines()[-1]) | {"cpu": usage.ru_utime + usage.ru_stime}
    mb = 1 << 20
    print(f"Connect-Four {args.width}x{args.height} into {args.backend}: {runs[1]['positions']:,} positions (shared 2-core machine: noisy)")
    for r in runs.values():
        workers = ", ".join(f"{p / mb:.0f}" for p in r["worker_peaks"])
        phases = " + ".join(f"{name} {seconds:.1f}" for name, seconds in r["phases"].items())
        print(f"  --workers {r['workers']}: {r['wall']:.1f} s = {phases}; peak MB: workers {workers}, client {r['client_peak'] / mb:.0f}; load {r['load']:.1f}")
        print(f"    CPU of every process of it {r['cpu']:.1f} s: {r['cpu'] / r['wall']:.2f} cores busy on average")
    cores = os.cpu_count() or 1
    print(f"  on {cores} cores the 2-worker solve's {runs[2]['cpu']:.1f} s of CPU take {runs[2]['cpu'] / cores:.1f} s at least: "
          f"a speed-up of {runs[1]['wall'] * cores / runs[2]['cpu']:.2f}x at most, however its work were scheduled")
    busy = runs[1]["cpu"] / runs[1]["wall"]
    print(f"  the 1-worker solve kept {busy:.2f} cores busy (the client writes rows and schedules beside its worker): any "
          f"2-worker solve doing at least its {runs[1]['cpu']:.1f} s of CPU takes {runs[1]['cpu'] / cores:.1f} s on {cores} cores, "
          f"a speed-up of {cores / busy:.2f}x at most")
    for what in ("wall", "cluster"):
        ratio = runs[1][what] / runs[2][what]
        verdict = "" if what == "cluster" else (" ok" if ratio >= TARGET else f" MISSED (target {TARGET}x)")
        print(f"  speed-up of 2 workers over 1, {'whole solve' if what == 'wall' else 'cluster part (enumerate + solve)'}: {ratio:.2f}x{verdict}")


if __name__ == "__main__":
    main()
