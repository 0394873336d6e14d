"""The tier solver's rows of the benchmark (issue 11), run by ``python bench/run.py --tiers``.

    python bench/run.py --tiers                       # Connect-Four 5x4 and 4x6 (a few minutes)
    python bench/run.py --tiers --big                 # also 5x5 (69,763,700 positions; about 15 minutes)
    python bench/run.py --tiers --gamesmanpy CMD      # also GamesmanPy on 5x4: CMD VARIANT solves it (e.g. a script)
    python bench/run.py --tiers --big --huge --only 6x4   # only the boards named (repeatable)
    bash .ci/postgres.sh sh -c '.venv/bin/python bench/run.py --tiers --only 5x4 --postgres "$GAMEDB_TEST_PG"'   # also on PostgreSQL

Every board is solved end to end (``--strategy tiers``, a new SQLite file) in
a child process of its own, so its peak memory is its own, and compared
with the published count of positions and value of the start (John
Tromp's). Printed: seconds, positions per second, peak memory, bytes per
position of the file, and the floor of SQLite for the same rows (the
solved file's position rows inserted again with ``executemany`` into a new
file, a hundred rows per statement, then the indexes the solved file has built; boards up to
:data:`FLOOR_UP_TO` positions), with each target ``ok`` or ``MISSED``.
With ``--postgres URL`` the same board is solved on that server too (rows
through ``COPY``) and its start value compared. The load average is
printed with each row: the machine is shared.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import time
from pathlib import Path

#: (width, height) -> (positions, start value, remoteness, seconds, peak MB, bytes per position); None: no target
BOARDS = {
    (5, 4): (3_945_711, "tie", 20, 20, None, None),
    (4, 6): (15_835_683, "tie", 24, 90, 1536, None),
    (5, 5): (69_763_700, "tie", 25, 900, 3072, 60),
}
#: the second player wins 6x4 (the start is a loss for X, to move)
BIG_EXTRA = {(6, 4): (94_910_577, "lose", 24, None, None, None)}
TARGET_GAMESMANPY_RATIO = 4.0
#: the floor (the rows inserted again) is measured for boards up to this many positions
FLOOR_UP_TO = 20_000_000
#: the board GamesmanPy solves for the ratio
GAMESMANPY_BOARD = (5, 4)

def job_floor_rows(args) -> dict:
    """Insert the position rows of a solved file again, bare, timing only the inserts: batches of 200,000
    rows, as many rows per ``INSERT`` statement as gamedb writes (``ROWS_PER_INSERT``), the rows
    already Python tuples."""
    from gamedb.store.sink import ROWS_PER_INSERT as FLOOR_ROWS_PER_INSERT

    src = sqlite3.connect(args.graph)
    dst_path = Path(args.db)
    dst = sqlite3.connect(dst_path)
    dst.execute("PRAGMA journal_mode = WAL")
    dst.execute("PRAGMA synchronous = NORMAL")
    dst.execute("PRAGMA cache_size = -262144")
    # the solved file's own table, so the same rows are stored alike: a copy of its types fell behind the schema (the
    # label id of best_move kept as text since revision 0008; text NOT NULL, which every board's NULL texts failed)
    ((table,),) = src.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'position'")
    dst.execute(table)  # (its foreign key names a game table the floor has not: SQLite checks none unless asked)
    columns = "game_id, code, text, player, result, remoteness, degree, best_move"
    rows = src.execute(f"SELECT {columns} FROM position ORDER BY game_id, code")
    width = len(columns.split(", "))
    statement = f"INSERT INTO position ({columns}) VALUES " + ", ".join([f"({', '.join('?' * width)})"] * FLOOR_ROWS_PER_INSERT)
    single = f"INSERT INTO position ({columns}) VALUES ({', '.join('?' * width)})"
    insert = 0.0
    count = 0
    while batch := rows.fetchmany(200_000):
        whole = len(batch) - len(batch) % FLOOR_ROWS_PER_INSERT
        flat = [value for row in batch[:whole] for value in row]
        step = FLOOR_ROWS_PER_INSERT * width
        groups = [tuple(flat[i : i + step]) for i in range(0, len(flat), step)]
        t0 = time.perf_counter()
        dst.executemany(statement, groups)
        dst.executemany(single, batch[whole:])
        insert += time.perf_counter() - t0
        count += len(batch)
    t0 = time.perf_counter()
    dst.commit()
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'position' AND sql IS NOT NULL ORDER BY name"):
        dst.execute(sql)  # the indexes the solve left in its file (a large tier solve leaves them out)
    dst.commit()
    dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    dst.close()
    return {"rows": count, "insert_seconds": insert, "index_seconds": time.perf_counter() - t0, "file_bytes": dst_path.stat().st_size}


def run_gamesmanpy(command: str, variant: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``command variant``."""
    before = sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])
    t0 = time.perf_counter()
    proc = subprocess.run([command, variant], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"GamesmanPy failed: {proc.stderr[-2000:]}")
    return time.perf_counter() - t0, sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2]) - before


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def run_tiers(args, work: Path, run_child, line, verdict) -> None:
    boards = dict(BOARDS)
    if not args.big:
        boards.pop((5, 5), None)
    elif args.huge:
        boards.update(BIG_EXTRA)
    if args.only:
        wanted = {tuple(int(x) for x in text.lower().split("x")) for text in args.only}
        boards = {board: figures for board, figures in {**BOARDS, **BIG_EXTRA}.items() if board in wanted}
    print("\n6. the tier solver on Connect-Four (--strategy tiers)")
    for (width, height), (known, value, rem, t_target, mb_target, b_target) in boards.items():
        db = work / f"c4-{width}x{height}.sqlite"
        print(f"  Connect-Four {width}x{height} ({load()})")
        run = run_child(
            "gamedb", "--db", str(db), "--name", "c4", "--family", "connect4", "--params", json.dumps({"width": width, "height": height}), "--engine", "tiers"
        )
        pos, seconds = run["positions"], run["seconds"]
        agrees = (pos, *run["start"]) == (known, value, rem)
        line("    positions, moves", f"{pos:,}, {run['moves']:,}", verdict(agrees, f"{known:,} positions, {value} in {rem} (Tromp)"))
        line("    end to end", f"{seconds:.1f} s, {pos / seconds:,.0f} positions/s", verdict(seconds <= t_target, f"<= {t_target} s") if t_target else "")
        line("    CPU time (user + system)", f"{run['cpu_seconds']:.1f} s, {pos / run['cpu_seconds']:,.0f} positions per CPU second")
        line("    phases", ", ".join(f"{k} {v:.1f} s" for k, v in run["phases"].items()))
        line("    peak memory", f"{run['peak_mb']:,.0f} MB", verdict(run["peak_mb"] <= mb_target, f"<= {mb_target} MB") if mb_target else "")
        per = run["file_bytes"] / pos
        line(
            "    database file",
            f"{run['file_bytes'] / 1e6:,.0f} MB, {per:.1f} bytes/position",
            verdict(per <= b_target, f"<= {b_target} B/position") if b_target else "",
        )
        if pos <= FLOOR_UP_TO:
            floor = run_child("floor_rows", "--graph", str(db), "--db", str(work / "floor.sqlite"))
            (work / "floor.sqlite").unlink(missing_ok=True)
            bare = floor["insert_seconds"] + floor["index_seconds"]
            line(
                "    SQLite floor, the same rows",
                f"insert {floor['insert_seconds']:.1f} s ({floor['rows'] / floor['insert_seconds']:,.0f} rows/s) + indexes {floor['index_seconds']:.1f} s",
            )
            line("    gamedb / floor", f"{seconds / bare:.2f}x ({load()})")
        if args.postgres:
            pg = run_child(
                "gamedb", "--db", args.postgres, "--name", f"c4-{width}x{height}", "--family", "connect4",
                "--params", json.dumps({"width": width, "height": height}), "--engine", "tiers", "--force",
            )  # fmt: skip
            same = (pg["positions"], *pg["start"]) == (pos, *run["start"])
            line(
                "    PostgreSQL (COPY per range), same board",
                f"{pg['seconds']:.1f} s, CPU {pg['cpu_seconds']:.1f} s, peak {pg['peak_mb']:,.0f} MB: {pg['seconds'] / seconds:.2f}x SQLite's time",
                verdict(same, "same positions and start value"),
            )
            line("      phases", ", ".join(f"{k} {v:.1f} s" for k, v in pg["phases"].items()) + f" ({load()})")
        if (width, height) == GAMESMANPY_BOARD and args.gamesmanpy:
            wall, cpu = run_gamesmanpy(args.gamesmanpy, f"{width}x{height}")
            ratio = wall / seconds
            line(
                "    GamesmanPy, same board (solve + its SQLite file)",
                f"{wall:.1f} s: gamedb {ratio:.1f}x faster",
                verdict(ratio >= TARGET_GAMESMANPY_RATIO, f">= {TARGET_GAMESMANPY_RATIO}x"),
            )
            line("      in CPU time", f"{cpu:.1f} s: gamedb {cpu / run['cpu_seconds']:.1f}x less")
        db.unlink(missing_ok=True)
    if not args.gamesmanpy:
        line("  GamesmanPy", "not run (--gamesmanpy CMD: a command that solves Connect-Four VARIANT with it)")
