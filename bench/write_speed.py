"""The write path's targets (issues 22 and 24): whole `gamedb solve` processes against d47abae and the plain solver.

    python bench/write_speed.py --base /path/to/d47abae/.venv/bin/gamedb            # 5x4 and cat-mouse, 3 pairs each
    python bench/write_speed.py --base ... --runs 5 --large                         # and Connect-Four 5x5 on DuckDB, once

Each measure runs this checkout's `gamedb` (beside this Python) and its yardstick in turn, A B A B ..., each a new
file in a temporary folder, and prints the medians (wall and CPU seconds, peak memory) and the median of the
pair-by-pair ratios, with the target:

- `solve connect4 --width 5 --height 4` into a new DuckDB file, and into a new SQLite file, against d47abae's
  into SQLite (`--base`): at least 4x and 2x faster;
- cat and mouse on the random 1,000-node graph of bench/catmouse_graph.py, `--strategy retrograde` into a new
  DuckDB file and a new SQLite file, against the plain flat-array queue solver of bench/loopy_vs_plain.py
  (outcomes only, nothing stored; its process's start-up left out): no slower;
- with `--large`, `solve connect4 --width 5 --height 5` into a new DuckDB file once: at most 3 min and 1 GB peak.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
GAMEDB = str(Path(sys.executable).with_name("gamedb"))


def run(args: list[str], *, stdout: bool = False) -> dict[str, float | str]:
    """One process to its end: wall and CPU seconds, peak memory (MB), and what it printed if asked."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE if stdout else subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read() if proc.stdout is not None else ""
    _, status, usage = os.wait4(proc.pid, 0)
    if status:
        raise SystemExit(f"failed ({status}): {' '.join(args)}")
    return {"wall": time.perf_counter() - t0, "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss / 1024, "out": out}


def solve_args(gamedb: str, db: Path, game: list[str]) -> list[str]:
    return [gamedb, "--db", str(db), "solve", *game, "-q"]  # --db first: d47abae takes it there only


def paired(label: str, a, b, runs: int, target: str, best) -> None:
    """A and B (callables giving one run's figures) in turn; medians and the median ratio B/A (A's speed-up)."""
    first, second = [], []
    for _ in range(runs):
        first.append(a())
        second.append(b())
    ratios = [y["wall"] / x["wall"] for x, y in zip(first, second, strict=True)]
    cpu_ratios = [y["cpu"] / x["cpu"] for x, y in zip(first, second, strict=True)]
    med = {k: statistics.median(r[k] for r in first) for k in ("wall", "cpu", "peak")}
    base = {k: statistics.median(r[k] for r in second) for k in ("wall", "cpu", "peak")}
    ratio = statistics.median(ratios)
    print(f"  {label}")
    print(f"    this checkout  {med['wall']:6.2f} s ({med['cpu']:.2f} s CPU), peak {med['peak']:,.0f} MB")
    print(f"    yardstick      {base['wall']:6.2f} s ({base['cpu']:.2f} s CPU), peak {base['peak']:,.0f} MB")
    print(f"    speed-up       {ratio:.2f}x wall, {statistics.median(cpu_ratios):.2f}x CPU (median of {runs} pairs; target {target}: "
          f"{'ok' if best(ratio) else 'MISSED'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="d47abae's gamedb script (its own venv)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="also Connect-Four 5x5 into DuckDB, once (minutes)")
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--connect4-only", action="store_true", help="leave cat and mouse out")
    opts = parser.parse_args()
    sys.path.insert(0, str(BENCH))
    from catmouse_graph import bench_graph

    c4 = ["connect4", "--width", "5", "--height", "4"]
    with tempfile.TemporaryDirectory(prefix="gamedb-write-") as work:
        folder = Path(work)
        counter = iter(range(10**6))

        def fresh(suffix: str) -> Path:
            return folder / f"{next(counter)}.{suffix}"

        print(f"load {os.getloadavg()[0]:.1f}; this checkout {GAMEDB}, d47abae {opts.base}")

        def base_c4() -> dict:
            return run(solve_args(opts.base, fresh("sqlite"), c4))

        for suffix, target, factor in (("duckdb", ">= 4x", 4.0), ("sqlite", ">= 2x", 2.0)):
            paired(f"solve connect4 5x4 into a new {suffix} file, against d47abae into SQLite",
                   lambda suffix=suffix: run(solve_args(GAMEDB, fresh(suffix), c4)), base_c4, opts.runs, target, lambda r, f=factor: r >= f)

        graph_runs = () if opts.connect4_only else ("duckdb", "sqlite")
        graph = folder / "graph.json"
        graph.write_text(json.dumps(bench_graph(opts.nodes, 2 * opts.nodes)))
        cat_mouse = ["cat-mouse", "--graph", str(graph), "--strategy", "retrograde"]

        def plain() -> dict:
            child = run([sys.executable, str(BENCH / "loopy_vs_plain.py"), "--child", "plain", str(graph)], stdout=True)
            found = json.loads(str(child["out"]).splitlines()[-1])
            return {"wall": found["seconds"], "cpu": found["cpu"], "peak": found["peak_mb"]}  # wall: the solve alone; CPU: its process

        for suffix in graph_runs:
            paired(f"cat-mouse on {opts.nodes:,} nodes, --strategy retrograde into a new {suffix} file, against the plain queue solver",
                   lambda suffix=suffix: run(solve_args(GAMEDB, fresh(suffix), cat_mouse)), plain, opts.runs, "no slower (>= 1x)", lambda r: r >= 1.0)

        if opts.large:
            db = fresh("duckdb")
            big = run(solve_args(GAMEDB, db, ["connect4", "--width", "5", "--height", "5"]))
            ok = big["wall"] <= 180 and big["peak"] <= 1024
            print("  solve connect4 5x5 into a new duckdb file (69,763,700 positions; d47abae: 8.3 min, 1.26 GB into SQLite)")
            print(f"    this checkout  {big['wall']:6.1f} s ({big['cpu']:.1f} s CPU), peak {big['peak']:,.0f} MB, "
                  f"{db.stat().st_size / 69_763_700:.1f} bytes/position (target <= 180 s and <= 1,024 MB: {'ok' if ok else 'MISSED'})")


if __name__ == "__main__":
    main()
