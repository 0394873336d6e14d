"""What a user meets first, timed as whole processes: `gamedb query`, a small `gamedb solve`,
and `gamedb query NAME -` over many positions. Part of bench/run.py (section 4); alone:

    python bench/surface.py [--dir DIR]

Each figure is the median of several runs of the command a user types (the
console script next to this Python), beside a reference run in the same
conditions: the sqlite3 shell's time for the same lookup, and a solve into
a file that exists (SQLAlchemy) beside one into a new file. The machine's load
varies between runs; the ratios are steadier than the seconds.
"""

from __future__ import annotations

import compileall
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from report import ROOT, line, verdict

TARGET_QUERY_SECONDS = 0.15  # issue 12: a `gamedb query` process on a SQLite file, median of 20
TARGET_SOLVE_SECONDS = 0.3  # issue 12: `gamedb solve nim --max 13` into a new file, median of 10
TARGET_JSONL_PER_SECOND = 20_000  # issue 12: `gamedb query NAME -`, positions per second
TARGET_READ_SECONDS = 0.2  # issue 21: `gamedb list`, `stats`, `games` processes, median

QUERY_RUNS = 20
SOLVE_RUNS = 10


def gamedb_command() -> list[str]:
    """`gamedb` as installed beside this Python (the console script), else `python -m gamedb`."""
    script = Path(sys.executable).with_name("gamedb")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gamedb"]


def _env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode; so should this one
    env.pop("GAMEDB_DB", None)
    return env


def _timed(cmd: list[str], **kwargs) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=_env(), **kwargs)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr}")
    return seconds


def _sample_positions(db: Path, name: str, count: int) -> list[str]:
    import sqlite3

    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        texts = [t for (t,) in conn.execute("SELECT position FROM positions WHERE game = ? ORDER BY code", (name,))]
    return random.Random(12).sample(texts, min(count, len(texts)))


def measure_query_process(work: Path) -> dict:
    db = work / "surface.sqlite"
    gamedb = gamedb_command()
    _timed([*gamedb, "--db", str(db), "solve", "tictactoe", "-q"])
    sample = _sample_positions(db, "tictactoe", QUERY_RUNS)
    query = [_timed([*gamedb, "--db", str(db), "query", "tictactoe", text]) for text in sample]
    shell = shutil.which("sqlite3")
    lookup = []
    if shell:
        for text in sample:
            sql = f"SELECT result, winner, remoteness, best_move FROM positions WHERE game = 'tictactoe' AND position = '{text}'"
            lookup.append(_timed([shell, "-readonly", str(db), sql]))
    return {"db": db, "query": statistics.median(query), "shell": statistics.median(lookup) if lookup else None}


def measure_read_commands(db: Path) -> dict:
    """Median seconds of the `list`, `stats tictactoe` and `games` processes on the query's file."""
    gamedb = gamedb_command()
    commands = {"list": ["list"], "stats": ["stats", "tictactoe"], "games": ["games"]}
    return {name: statistics.median(_timed([*gamedb, "--db", str(db), *args]) for _ in range(QUERY_RUNS)) for name, args in commands.items()}


def measure_small_solve(work: Path) -> dict:
    gamedb = gamedb_command()
    new, existing = [], []
    kept = work / "kept.sqlite"
    _timed([*gamedb, "--db", str(kept), "solve", "tictactoe", "-q"])  # a file that exists already
    for i in range(SOLVE_RUNS):
        path = work / f"nim{i}.sqlite"
        new.append(_timed([*gamedb, "--db", str(path), "solve", "nim", "--max", "13", "-q"]))  # the new-file path: no SQLAlchemy
        path.unlink()
        existing.append(_timed([*gamedb, "--db", str(kept), "solve", "nim", "--max", "13", "--force", "-q"]))
    # the floor of any process that writes through SQLAlchemy: Python starting and importing it, nothing
    # else (the collector off during the import and no teardown, as the console script has them)
    floor = [_timed([sys.executable, "-c", "import gc, os; gc.disable(); import sqlalchemy; os._exit(0)"]) for _ in range(SOLVE_RUNS)]
    bare = [_timed([sys.executable, "-c", "pass"]) for _ in range(SOLVE_RUNS)]
    return {
        "new": statistics.median(new),
        "existing": statistics.median(existing),
        "floor": statistics.median(floor),
        "python": statistics.median(bare),
    }


def measure_jsonl(db: Path, count: int = 100_000) -> dict | None:
    """`gamedb query tictactoe -` over ``count`` positions read from stdin (None if the command has no stdin mode)."""
    texts = _sample_positions(db, "tictactoe", 10_000)
    lines = [texts[i % len(texts)] for i in range(count)]
    data = "".join(text + "\n" for text in lines)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([*gamedb_command(), "--db", str(db), "query", "tictactoe", "-"], input=data, capture_output=True, text=True, env=_env())
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        return None
    out = proc.stdout.splitlines()
    assert len(out) == count and json.loads(out[0])["position"] == lines[0]
    return {"count": count, "seconds": seconds, "per_second": count / seconds, "cpu_per_second": count / cpu}


def run(work: Path) -> None:
    compileall.compile_dir(str(ROOT / "gamedb"), quiet=1)  # bytecode, as an installed package has it
    print("\n5. what a user meets first: whole processes")
    print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: seconds scale with it, ratios much less)")
    q = measure_query_process(work)
    line(f"`gamedb query` process, median of {QUERY_RUNS}", f"{q['query']:.3f} s", verdict(q["query"] <= TARGET_QUERY_SECONDS, f"<= {TARGET_QUERY_SECONDS} s"))
    if q["shell"] is not None:
        line("  the sqlite3 shell, same lookup", f"{q['shell']:.3f} s; gamedb takes {q['query'] / q['shell']:.1f}x")
    for name, seconds in measure_read_commands(q["db"]).items():
        line(f"`gamedb {name}` process, median of {QUERY_RUNS}", f"{seconds:.3f} s", verdict(seconds <= TARGET_READ_SECONDS, f"<= {TARGET_READ_SECONDS} s"))
    s = measure_small_solve(work)
    line(
        f"`gamedb solve nim --max 13`, new file, median of {SOLVE_RUNS}",
        f"{s['new']:.3f} s",
        verdict(s["new"] <= TARGET_SOLVE_SECONDS, f"<= {TARGET_SOLVE_SECONDS} s"),
    )
    line("  into a file that exists (--force: SQLAlchemy)", f"{s['existing']:.3f} s")
    line(
        "  Python + `import sqlalchemy` alone, same run",
        f"{s['floor']:.3f} s (Python alone {s['python']:.3f} s): the floor of any process that writes through SQLAlchemy",
    )
    j = measure_jsonl(q["db"])
    if j is None:
        line("`gamedb query NAME -` (JSON Lines)", "not available")
    else:
        line(f"`gamedb query tictactoe -`, {j['count']:,} positions", f"{j['per_second']:,.0f} positions/s ({j['seconds']:.2f} s)",
             verdict(j["per_second"] >= TARGET_JSONL_PER_SECOND, f">= {TARGET_JSONL_PER_SECOND:,}/s"))
        line("  per second of the process's own CPU time", f"{j['cpu_per_second']:,.0f} positions/s (the machine's load aside)")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="folder for the database files (default: a temporary folder, removed)")
    args = parser.parse_args()
    work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="gamedb-surface-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        run(work)
    finally:
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
