"""A DuckDB file beside a SQLite file: the same Connect-Four solved into each, then read back (issue 22).

Prints, for each store: the whole ``gamedb solve connect4 --width W --height H``
process (median of ``--runs``), the file's bytes per position, the
``gamedb query`` process on it (median) and ``gamedb query NAME -`` on every
position of tic-tac-toe (positions per second). Also the cost of ``import
duckdb``. Run: ``python bench/duckdb_store.py [--width 4 --height 4 --runs 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMEDB = str(Path(sys.executable).with_name("gamedb"))


def timed(args: list[str], stdin: str | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(args, input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    opts = parser.parse_args()
    imports = [timed([sys.executable, "-c", "import duckdb"]) - timed([sys.executable, "-c", "pass"]) for _ in range(opts.runs)]
    print(f"import duckdb: {statistics.median(imports) * 1000:.0f} ms (median of {opts.runs})")
    with tempfile.TemporaryDirectory() as folder:
        texts = None
        for suffix in ("sqlite", "duckdb"):
            db = Path(folder, f"c4.{suffix}")
            solves = []
            for _ in range(opts.runs):
                db.unlink(missing_ok=True)
                solves.append(timed([GAMEDB, "solve", "connect4", "--width", str(opts.width), "--height", str(opts.height), "--db", str(db), "-q"]))
            name = f"connect4-{opts.width}x{opts.height}"
            stats = subprocess.run([GAMEDB, "stats", "--json", "--db", str(db), name], capture_output=True, text=True, check=True)
            positions = json.loads(stats.stdout)["positions"]
            size = db.stat().st_size
            subprocess.run([GAMEDB, "solve", "tictactoe", "--db", str(db), "-q"], capture_output=True, check=True)
            if texts is None:
                export = subprocess.run([GAMEDB, "export", "tictactoe", "--db", str(db)], capture_output=True, text=True, check=True).stdout
                texts = "".join(line.split(",", 1)[0] + "\n" for line in export.splitlines()[1:])
            query = statistics.median(timed([GAMEDB, "query", "tictactoe", "X...O....", "--db", str(db)]) for _ in range(max(5, opts.runs)))
            stream = timed([GAMEDB, "query", "tictactoe", "-", "--db", str(db)], stdin=texts * 4)
            print(
                f"{suffix:6}: solve connect4 {opts.width}x{opts.height} {statistics.median(solves):.2f} s, "
                f"{size / positions:.1f} bytes/position ({positions:,} positions), "
                f"query process {query * 1000:.0f} ms, query - {texts.count(chr(10)) * 4 / stream:,.0f} positions/s"
            )


if __name__ == "__main__":
    main()
