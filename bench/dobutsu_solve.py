"""Dōbutsu shōgi solved by ``gamedb solve`` into a DuckDB file, one row per class of positions (issue 24).

Runs ``gamedb solve dobutsu --pieces P --db FILE`` as a process (wall time, its
peak memory), then reads the file: the rows stored, the counts by value (and
how many are over at once), the deepest remoteness, the start's value and the
file's bytes per row. ``--report FILE`` only reads a file solved before (the
full game's figures in docs/dobutsu.md: that solve ran under ``/usr/bin/time -v``).

    python bench/dobutsu_solve.py --pieces GE
    python bench/dobutsu_solve.py --report /work/notes/dobutsu.duckdb
    python bench/dobutsu_solve.py --pieces GE --unreduced   # also every position, each checked against its class
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np

from gamedb import Database
from gamedb.games.dobutsu import Dobutsu
from gamedb.values import RESULT_WORDS

GAMEDB = str(Path(sys.executable).with_name("gamedb"))


def report(path: Path) -> None:
    conn = duckdb.connect(str(path), read_only=True)
    games = conn.execute("SELECT id, name, positions, moves, solve_seconds, start_position, start_code, parameters FROM game").fetchall()
    for game_id, name, positions, moves, seconds, start, start_code, parameters in games:
        by_value = conn.execute(
            "SELECT result, count(*), count(*) FILTER (WHERE remoteness = 0), max(remoteness) FROM position WHERE game_id = ? GROUP BY result ORDER BY result",
            [game_id],
        ).fetchall()
        code = Dobutsu(json.loads(parameters)["pieces"]).canonical(start_code)  # the start's class representative
        value = conn.execute("SELECT result, remoteness FROM position WHERE game_id = ? AND code = ?", [game_id, code]).fetchone()
        print(f"{name}: {positions:,} rows (one per class), {moves:,} moves of theirs, solved in {seconds:,.0f} s by the solver")
        for result, count, over, deepest in by_value:
            print(f"  {RESULT_WORDS[result]}: {count:,} ({over:,} over at once, deepest {deepest})")
        print(f"  start {start}: {RESULT_WORDS[value[0]]}" + ("" if value[1] is None else f" in {value[1]}"))
        print(f"  file {path.stat().st_size:,} bytes: {path.stat().st_size / positions:.1f} bytes per row")
        rows, total, xor = conn.execute(f"SELECT count(*), sum({FINGERPRINT}::HUGEINT), bit_xor({FINGERPRINT}) FROM position p LEFT JOIN move_label l "
                                        "ON l.game_id = p.game_id AND l.id = p.best_move WHERE p.game_id = ?", [game_id]).fetchone()
        same = "" if rows != RECORD22[0] else " (record22's: the same)" if (rows, total, xor) == RECORD22 else f" (record22's: {RECORD22[1:]})"
        print(f"  rows' fingerprint: {rows:,} rows, sum {total} and XOR {xor} of {FINGERPRINT}{same}")
    conn.close()


#: a row as one number, its best move by its label (ids may differ between files): two solves' rows compared by the
#: count, sum and XOR of it
FINGERPRINT = "hash(p.code, p.player, p.result, p.remoteness, p.degree, l.name)"
#: the full game's, record22 (docs/dobutsu.md)
RECORD22 = (246_803_167, 2276394713357938487077184922, 7648801662572492512)


class Unreduced(Dobutsu):
    """The family with no symmetry declared: one row per position."""

    symmetries = 1


def against_unreduced(pieces: str, classes: Path, folder: str) -> None:
    """Solve every position (no symmetries) and check each one's value is its class representative's."""
    path = Path(folder) / "unreduced.duckdb"
    with Database(path, create=True) as db:
        db.solve(Unreduced(pieces), "unreduced", strategy="retrograde")
    query = "SELECT code, result, coalesce(remoteness, -1) AS remoteness FROM position ORDER BY code"
    every, by_class = (duckdb.connect(str(p), read_only=True).execute(query).fetchnumpy() for p in (path, classes))
    representative = Dobutsu(pieces).vector().canonical(every["code"])
    at = np.minimum(np.searchsorted(by_class["code"], representative), len(by_class["code"]) - 1)
    same = (by_class["code"][at] == representative) & (by_class["result"][at] == every["result"]) & (by_class["remoteness"][at] == every["remoteness"])
    print(f"unreduced: {len(representative):,} positions in {len(np.unique(representative)):,} classes; {int((~same).sum()):,} differ from their class")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", default="GE", help="kinds besides the lions (the game's --pieces)")
    parser.add_argument("--report", type=Path, help="only read this DuckDB file, solved before")
    parser.add_argument("--unreduced", action="store_true", help="also solve every position and check it against its class")
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dobutsu.duckdb"
        began = time.perf_counter()
        subprocess.run([GAMEDB, "solve", "dobutsu", "--pieces", args.pieces, "--db", str(path), "-q"], check=True, capture_output=True)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
        print(f"gamedb solve dobutsu --pieces {args.pieces!r}: {time.perf_counter() - began:.1f} s wall, peak {peak:,} MB")
        report(path)
        if args.unreduced:
            against_unreduced(args.pieces, path, folder)


if __name__ == "__main__":
    main()
