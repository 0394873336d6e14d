"""Bytes per reachable position of a solved game's file (file size / positions), against d47abae's (issue 22).

    python bench/store_bytes.py                      # connect4 5x4 on SQLite and DuckDB, cat and mouse on DuckDB
    python bench/store_bytes.py --with-5x5           # and connect4 5x5 (69,763,700 positions: minutes)
    python bench/store_bytes.py --gamedb /work/base-d47/.venv/bin/gamedb --db-first   # the same on an older checkout

Each game is solved by a ``gamedb solve`` process into a new file (SQLite: measured again after ``gamedb compact``,
which VACUUMs it); the positions are ``stats --json``'s. Cat and
mouse is the 1,000-node random graph of bench/catmouse_graph.py (about 2·10^6 positions). Targets: DuckDB at most
6 bytes (Connect-Four) and 8 (cat and mouse), SQLite at most 20.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent

#: bytes per position on d47abae (SQLite, the file as its solve left it): issue 22's figures
BEFORE = {"connect4 5x4": 42.5, "connect4 5x5": 47.1, "cat-mouse 1000": 98.0}
#: (store, game) -> at most this many bytes per position
TARGETS = {"sqlite": 20.0, "duckdb": 6.0, ("duckdb", "cat-mouse 1000"): 8.0}


def measure(gamedb: str, db_first: bool, db: Path, args: list[str], name: str) -> tuple[float, int, float]:
    """(bytes per position, positions, seconds) of ``gamedb solve ARGS`` into the new file ``db``."""
    where = ["--db", str(db)]
    start = time.perf_counter()
    subprocess.run([gamedb, *where, "solve", *args, "-q"] if db_first else [gamedb, "solve", *args, "-q", *where], check=True)
    seconds = time.perf_counter() - start
    stats = subprocess.run([gamedb, *where, "stats", name, "--json"] if db_first else [gamedb, "stats", name, "--json", *where],
                           capture_output=True, text=True, check=True)
    positions = int(json.loads(stats.stdout)["positions"])
    return db.stat().st_size / positions, positions, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gamedb", default=str(Path(sys.executable).with_name("gamedb")))
    parser.add_argument("--db-first", action="store_true", help="put --db before the command (older checkouts)")
    parser.add_argument("--with-5x5", action="store_true")
    parser.add_argument("--stores", default="sqlite,duckdb")
    parser.add_argument("--only", help="one game's label, e.g. 'connect4 5x5'")
    opts = parser.parse_args()
    sys.path.insert(0, str(BENCH))
    from catmouse_graph import bench_graph

    with tempfile.TemporaryDirectory() as folder:
        graph = Path(folder, "graph.json")
        graph.write_text(json.dumps(bench_graph(1000, 2000)))
        games = [("connect4 5x4", ["connect4", "--width", "5", "--height", "4"], "connect4-5x4")]
        if opts.with_5x5:
            games.append(("connect4 5x5", ["connect4", "--width", "5", "--height", "5"], "connect4-5x5"))
        games.append(("cat-mouse 1000", ["cat-mouse", "--graph", str(graph), "--name", "cm"], "cm"))
        for label, args, name in games:
            if opts.only and label != opts.only:
                continue
            for store in opts.stores.split(","):
                if store == "sqlite" and label.startswith("cat-mouse"):
                    continue  # (the target is DuckDB's)
                db = Path(folder, f"{name}.{store}")
                per, positions, seconds = measure(opts.gamedb, opts.db_first, db, args, name)
                target = TARGETS.get((store, label), TARGETS[store])
                verdict = "met" if per <= target else "MISSED"
                print(f"{label:15} {store:6}: {per:6.2f} bytes/position ({positions:,} positions, {db.stat().st_size:,} bytes, "
                      f"solve {seconds:.1f} s); d47abae {BEFORE[label]} -> {BEFORE[label] / per:.1f}x smaller; target <= {target:g}: {verdict}",
                      flush=True)
                if store == "sqlite":  # VACUUM packs the b-tree pages a load in code order leaves 88 % full
                    where = ["--db", str(db)]
                    subprocess.run([opts.gamedb, *where, "compact", name] if opts.db_first else [opts.gamedb, "compact", name, *where],
                                   capture_output=True, check=True)
                    per = db.stat().st_size / positions
                    print(f"{label:15} {store:6}: {per:6.2f} bytes/position after `gamedb compact` (VACUUM); "
                          f"d47abae {BEFORE[label]} -> {BEFORE[label] / per:.1f}x smaller; target <= {target:g}: {'met' if per <= target else 'MISSED'}",
                          flush=True)
                db.unlink()


if __name__ == "__main__":
    main()
