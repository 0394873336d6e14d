"""What the schema check of a shared file (gamedb.store.file_check) costs a `gamedb query` process.

    python bench/schema_check.py --before DIR [--runs 20]

DIR is a source tree of gamedb from before the check (e.g. ``git worktree add
/tmp/before d47abae``). The same query runs as a fresh process from each
tree, alternately (the machine's load varies; alternating spreads it over
both), and the medians are printed with the target of issue 12 (0.15 s per
query process). Then, in fresh processes of this tree, the check alone:
building the expected objects in memory (once per process) and reading and
comparing the file's ``sqlite_master``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from report import ROOT, line, verdict

TARGET_QUERY_SECONDS = 0.15

# the console script's entry point in either tree (an older tree had a light query path, gamedb.cli.quick)
_QUERY = """
import sys
sys.path.insert(0, {tree!r})
try:
    from gamedb.cli.quick import main
except ImportError:
    from gamedb.cli.app import main
main()
"""
_CHECK = """
import sys, time, sqlite3
sys.path.insert(0, {tree!r})
t0 = time.perf_counter()
from gamedb.store.file_check import check_file, check_schema, head_objects
from pathlib import Path
t1 = time.perf_counter()
head_objects()
t2 = time.perf_counter()
check_file(Path({db!r}))
conn = sqlite3.connect("file:" + {db!r} + "?mode=ro", uri=True)
check_schema(conn, "bench")
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode; so do both trees here
    return env


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(cmd: list[str], cpu: list[float] | None = None) -> float:
    """Wall seconds of ``cmd``; its CPU seconds (user + system) appended to ``cpu``: steadier under load."""
    t0, c0 = time.perf_counter(), _cpu()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=_env())
    seconds = time.perf_counter() - t0
    if cpu is not None:
        cpu.append(_cpu() - c0)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])} failed: {proc.stderr}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, type=Path, help="a gamedb source tree from before the check")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gamedb-bench-") as work:
        db = str(Path(work) / "bench.sqlite")
        _timed([sys.executable, "-c", _QUERY.format(tree=str(ROOT)), "--db", db, "solve", "tictactoe", "-q"])
        trees = {"before": str(args.before.resolve()), "after": str(ROOT)}
        times: dict[str, list[float]] = {name: [] for name in trees}
        cpu: dict[str, list[float]] = {name: [] for name in trees}
        for tree in trees.values():  # warm: bytecode written (compileall), files in the page cache
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(tree) / "gamedb")], check=True, env=_env())
            _timed([sys.executable, "-c", _QUERY.format(tree=tree), "--db", db, "query", "tictactoe", "X...O...."])
        for _ in range(args.runs):
            for name, tree in trees.items():
                query = [sys.executable, "-c", _QUERY.format(tree=tree), "--db", db, "query", "tictactoe", "X...O...."]
                times[name].append(_timed(query, cpu[name]))
        print(f"`gamedb query tictactoe X...O....` as a fresh process, median of {args.runs} (alternating):")
        before, after = (statistics.median(times[name]) for name in trees)
        cpu_before, cpu_after = (statistics.median(cpu[name]) for name in trees)
        line("before the check", f"{before:.3f} s (CPU {cpu_before:.3f} s)")
        line(
            "with the check",
            f"{after:.3f} s (CPU {cpu_after:.3f} s): {(after - before) * 1000:+.1f} ms",
            verdict(after <= TARGET_QUERY_SECONDS, f"<= {TARGET_QUERY_SECONDS} s"),
        )
        line("difference in CPU time", f"{(cpu_after - cpu_before) * 1000:+.1f} ms")
        parts = []
        for _ in range(args.runs):
            check = [sys.executable, "-c", _CHECK.format(tree=str(ROOT), db=db)]
            out = subprocess.run(check, capture_output=True, text=True, check=True, env=_env())
            parts.append([float(x) for x in out.stdout.split()])
        imports, build, check = (statistics.median(p[i] for p in parts) * 1000 for i in range(3))
        print(f"the check alone, in a fresh process, median of {args.runs}:")
        line("importing file_check", f"{imports:.2f} ms")
        line("building the expected objects in memory", f"{build:.2f} ms")
        line("stat, reading and comparing sqlite_master", f"{check:.2f} ms")


if __name__ == "__main__":
    main()
