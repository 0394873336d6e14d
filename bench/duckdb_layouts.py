"""Bytes a row of a DuckDB position table under layout variants, and their lookups (issue 24; docs/performance.md).

    python bench/duckdb_layouts.py FILE.duckdb                         # 21,483,520 rows from row 122,880,000 on
    python bench/duckdb_layouts.py FILE.duckdb --rows 2000000 --only asis,dense

A contiguous sample of the file's position rows in code order is copied once into a scratch file, then into a fresh
file per variant (one thread; one transaction unless the variant commits every N rows); each prints the file's bytes
a row and the median time of looking up 16 random codes at once and of one code (the files in turn). FILE is only read.
It was measured on a file from before schema revision 0008, whose best moves were labels: a newer file's ``best_move``
holds ``move_label`` ids already, which the VARCHAR variants store as their digits (not the labels).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import duckdb

COLUMNS = "game_id, code, text, player, result, remoteness, degree, best_move, grundy"
TABLE = ("game_id INTEGER NOT NULL, code BIGINT NOT NULL, text VARCHAR, player SMALLINT NOT NULL, result SMALLINT, "
         "remoteness INTEGER, degree INTEGER, best_move {best} , grundy INTEGER")
NO_DEGREE = COLUMNS.replace("degree", "NULL::INTEGER")
BEST_INT = "(SELECT k FROM labels WHERE label = best_move)"
DENSE = "(n - 1) // {group}, best_move IS NOT NULL, code"
#: name -> (rows per row group, select list, ORDER BY, rows per commit or 0, best move type)
VARIANTS: dict[str, tuple[int, str, str, int, str]] = {
    "asis-commits": (122880, COLUMNS, "code", 1 << 20, "VARCHAR"),
    "asis": (122880, COLUMNS, "code", 0, "VARCHAR"),
    "no-degree": (122880, NO_DEGREE, "code", 0, "VARCHAR"),
    "no-degree-best-int": (122880, NO_DEGREE.replace("best_move", BEST_INT), "code", 0, "SMALLINT"),
    "best-int-0": (122880, COLUMNS.replace("best_move", f"coalesce({BEST_INT}, 0)"), "code", 0, "SMALLINT"),
    "rg-2^20": (1 << 20, COLUMNS, "code", 0, "VARCHAR"),
    "rg-2^20-no-degree": (1 << 20, NO_DEGREE, "code", 0, "VARCHAR"),
    "dense": (122880, COLUMNS, DENSE.format(group=122880), 0, "VARCHAR"),
    "dense-commits": (122880, COLUMNS, DENSE.format(group=122880), 983040, "VARCHAR"),
    "dense-no-degree": (122880, NO_DEGREE, DENSE.format(group=122880), 0, "VARCHAR"),
    "dense-rg-2^20": (1 << 20, COLUMNS, DENSE.format(group=1 << 20), 0, "VARCHAR"),
}


def sample(source: Path, scratch: Path, first: int, rows: int) -> None:
    """Rows ``first`` to ``first + rows`` of ``source``'s position table (a file written in code order, as a solve writes
    it), numbered ``n`` from 1 in code order."""
    conn = duckdb.connect(str(scratch), config={"threads": 1, "memory_limit": "3GB"})
    conn.execute(f"ATTACH '{source}' AS src (READ_ONLY)")
    conn.execute(f"CREATE TABLE position AS SELECT row_number() OVER (ORDER BY code) AS n, {COLUMNS} FROM "
                 f"src.position WHERE rowid >= {first} AND rowid < {first + rows}")
    conn.execute("CREATE TABLE labels AS SELECT label, (row_number() OVER (ORDER BY label))::SMALLINT AS k "
                 "FROM (SELECT DISTINCT best_move AS label FROM position WHERE best_move IS NOT NULL)")
    conn.close()


def variant(scratch: Path, out: Path, spec: tuple[int, str, str, int, str]) -> float:
    """Bytes a row of the variant's fresh file."""
    group, select, order, commit, best = spec
    conn = duckdb.connect(config={"threads": 1, "memory_limit": "3GB"})
    conn.execute(f"ATTACH '{out}' AS dst (ROW_GROUP_SIZE {group})")
    conn.execute(f"ATTACH '{scratch}' AS s (READ_ONLY)")
    conn.execute("USE dst")
    conn.execute(f"CREATE TABLE position({TABLE.format(best=best)})")
    conn.execute("CREATE TEMP TABLE labels AS SELECT * FROM s.labels")
    (total,) = conn.execute("SELECT count(*) FROM s.position").fetchone()
    step = commit or total
    conn.execute("BEGIN")
    for low in range(0, total, step):
        conn.execute(f"INSERT INTO position SELECT {select} FROM s.position WHERE n > {low} AND n <= {low + step} ORDER BY {order}")
        if commit:
            conn.execute("COMMIT; BEGIN")
    conn.execute("COMMIT")
    conn.execute("CHECKPOINT")
    conn.close()
    return out.stat().st_size / total


def lookups(paths: dict[str, Path], codes: list[int]) -> dict[str, tuple[float, float]]:
    """name -> median milliseconds of 16 codes at once and of one code, the files taken in turn (the same load for each)."""
    conns = {name: duckdb.connect(str(path), read_only=True, config={"threads": 1}) for name, path in paths.items()}
    (game_id,) = next(iter(conns.values())).execute("SELECT game_id FROM position LIMIT 1").fetchone()
    sql = f"SELECT {COLUMNS} FROM position WHERE game_id = {game_id} AND code = ANY(?::BIGINT[])"
    rng = random.Random(1)
    times: dict[tuple[str, int], list[float]] = {}
    for k, rounds in ((16, 60), (1, 200)):
        for _ in range(rounds):
            wanted = rng.sample(codes, k)
            for name, conn in conns.items():
                start = time.perf_counter()
                conn.execute(sql, (wanted,)).fetchall()
                times.setdefault((name, k), []).append(time.perf_counter() - start)
    for conn in conns.values():
        conn.close()
    return {name: (statistics.median(times[name, 16]) * 1000, statistics.median(times[name, 1]) * 1000) for name in conns}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--first", type=int, default=1000 * 122880, help="rows skipped, in code order")
    parser.add_argument("--rows", type=int, default=21_483_520)
    parser.add_argument("--only", default=",".join(VARIANTS), help="variants, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="layouts.") as folder:  # the system's temporary folder: FILE is only read
        scratch = Path(folder) / "sample.duckdb"
        sample(args.file, scratch, args.first, args.rows)
        conn = duckdb.connect(str(scratch), read_only=True)
        codes = [code for (code,) in conn.execute("SELECT code FROM position USING SAMPLE 2000 ROWS").fetchall()]
        conn.close()
        print(f"{args.rows:,} rows from row {args.first:,} of {args.file}")
        paths = {name: Path(folder) / f"{name}.duckdb" for name in args.only.split(",")}
        sizes = {name: variant(scratch, out, VARIANTS[name]) for name, out in paths.items()}
        times = lookups(paths, codes)
        print(f"{'variant':<20} {'bytes a row':>11} {'16 codes ms':>11} {'1 code ms':>9}")
        for name, size in sizes.items():
            print(f"{name:<20} {size:>11.3f} {times[name][0]:>11.2f} {times[name][1]:>9.2f}")


if __name__ == "__main__":
    main()
