"""gamedb's benchmark: one run, a few minutes, figures and ratios against targets.

    python bench/run.py            # everything below (about 4 minutes on 2 cores)
    python bench/run.py --quick    # a 300-node graph and Connect-Four 4x4: a smoke test (30 s)
    python bench/run.py --sql      # also the SQL engine on the big graph (about a minute more)
    python bench/run.py --verify   # also `gamedb verify` on the big graph (about a minute more)
    python bench/run.py --tiers    # only the tier solver's rows (Connect-Four 5x4, 4x6; --big: 5x5): see bench/tiers.py
    python bench/run.py --api-only # only the big graph's solve and the `gamedb serve` API latency (needs gamedb[web])
    python bench/run.py --postgres postgresql+psycopg://USER@HOST/DB   # also solve the big graph on a server
    bash .ci/postgres.sh sh -c '.venv/bin/python bench/run.py --postgres "$GAMEDB_TEST_PG"'   # ... on a throwaway one

What it measures, each heavy part in a child process of its own so that its
peak memory (maximum resident set) is its own:

1. A deterministic random cat-and-mouse graph (LeetCode 913) of 1,000 nodes
   and 2,000 edges: about 2,000,000 positions and 8,000,000 moves.
   - gamedb solves it end to end (enumerate, propagate, write, finish the
     file) into a new SQLite file, with the engine ``auto`` picks;
   - a pure-Python solver (the seeds' queue algorithm with degree counters:
     plain lists and a deque, no numpy, no database) solves the same graph,
     and its values are checked against gamedb's on 10,000 positions;
   - the floor of any SQL-backed solver: inserting as many bare integer rows
     (one per position and one per move, no indexes) into a new SQLite file.
2. Connect-Four 5x4 (3,945,711 positions), solved end to end.
3. Query latency: one position in-process (``Database.probe``) over 10,000
   random positions of the big graph, a whole ``gamedb query`` process, and
   one position from ``gamedb serve``'s JSON API through a real HTTP server
   (median of 100 requests; skipped without the ``web`` extra).
4. Heap games (``bench/heap_solve.py``): ``subtraction --set 1,2,5 --max
   100000`` and ``octal --code 0.77 --max 5000`` as whole processes, with
   GamesmanPy's time for the same subtraction game (``--gamesmanpy-heaps CMD``).
5. What a user meets first (``bench/surface.py``): a ``gamedb query`` process
   on a small file beside the sqlite3 shell and the full command line, a
   small ``gamedb solve`` into a new file, ``gamedb query NAME -`` throughput.
   ``--surface`` runs only this part (about a minute).

Nothing here is a test: it prints numbers and ratios, and marks each target
``ok`` or ``MISSED``.

The parts, one module each beside this script: ``catmouse_graph.py`` (1),
``pure_python_solver.py`` (the solver 1 compares with), ``connect4_solve.py``
(2), ``query_latency.py`` (3), ``heap_solve.py`` (4), ``surface.py`` (5),
``tiers.py`` (``--tiers``); ``report.py`` prints the rows and runs the child
processes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

import catmouse_graph
import connect4_solve
import query_latency
from catmouse_graph import job_agree, job_floor, job_gamedb, job_verify
from pure_python_solver import job_pure
from query_latency import job_api, job_queries
from report import ROOT, line, run_child, verdict
from tiers import job_floor_rows, run_tiers

#: the jobs ``run.py --child JOB`` runs, each in a fresh interpreter (:func:`report.run_child`)
JOBS = {
    "floor_rows": job_floor_rows, "gamedb": job_gamedb, "pure": job_pure, "floor": job_floor, "verify": job_verify,
    "queries": job_queries, "agree": job_agree, "api": job_api,
}


def child_main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("job", choices=sorted(JOBS))
    for opt in ("--db", "--name", "--family", "--params", "--engine", "--graph"):
        parser.add_argument(opt)
    parser.add_argument("--flat", action="store_true")
    parser.add_argument("--force", action="store_true")
    for opt in ("--positions", "--moves", "--count"):
        parser.add_argument(opt, type=int)
    args = parser.parse_args(argv)
    print(json.dumps(JOBS[args.job](args)))


def main() -> None:
    parser = argparse.ArgumentParser(description="gamedb benchmark: prints figures, ratios and targets.")
    parser.add_argument("--quick", action="store_true", help="small sizes: a 300-node graph and Connect-Four 4x4")
    parser.add_argument("--sql", action="store_true", help="also solve the big graph with --engine sql (with --postgres: on the server too)")
    parser.add_argument("--verify", action="store_true", help="also time `gamedb verify` on the big graph")
    parser.add_argument("--api-only", action="store_true", help="only solve the big graph and time `gamedb serve`'s API on it")
    parser.add_argument("--dir", help="folder for the database files (default: a temporary folder, removed)")
    parser.add_argument("--keep", action="store_true", help="keep the database files")
    parser.add_argument("--surface", action="store_true", help="only section 4: query and small-solve processes, JSON Lines throughput")
    parser.add_argument(
        "--postgres", metavar="URL", help="also solve the big graph on this PostgreSQL server (postgresql+psycopg://...) and compare its answers"
    )
    parser.add_argument("--gamesmanpy-heaps", metavar="CMD", help="a shell command solving subtraction {1,2,5} to 100000 with GamesmanPy (section 4)")
    parser.add_argument("--tiers", action="store_true", help="only the tier solver's rows: Connect-Four 5x4 and 4x6 (bench/tiers.py)")
    parser.add_argument("--big", action="store_true", help="with --tiers: also Connect-Four 5x5 (69,763,700 positions)")
    parser.add_argument("--huge", action="store_true", help="with --tiers --big: also Connect-Four 6x4 (94,910,577 positions)")
    parser.add_argument("--gamesmanpy", metavar="CMD", help="with --tiers: CMD VARIANT solves Connect-Four VARIANT (5x4) with GamesmanPy, for the ratio")
    args = parser.parse_args()

    import numpy
    import sqlalchemy

    nodes, edges = (300, 600) if args.quick else (1000, 2000)
    c4 = (4, 4) if args.quick else (5, 4)
    work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="gamedb-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(
        f"gamedb benchmark: {os.cpu_count()} CPUs, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"SQLAlchemy {sqlalchemy.__version__}, numpy {numpy.__version__}; files in {work}"
    )
    try:
        if args.tiers:
            run_tiers(args, work, run_child, line, verdict)
        else:
            if not args.surface:
                _run(args, work, nodes, edges, c4)
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            import surface

            surface.run(work)
    finally:
        if not args.dir and not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def _run(args, work: Path, nodes: int, edges: int, c4: tuple[int, int]) -> None:
    big, graph_file, solved = catmouse_graph.solve_rows(work, nodes, edges)
    if args.api_only:
        print("\n3. queries on the big graph's database")
        query_latency.report_api(big)
        return
    q, times = query_latency.measure_queries(big)  # printed in section 3
    catmouse_graph.comparison_rows(args, work, graph_file, big, solved)
    connect4_solve.rows(work, *c4)
    query_latency.rows(q, times, big)

    print("\n4. heap games, whole `gamedb solve` processes into a new file")
    sys.path.insert(0, str(ROOT / "bench"))
    import heap_solve

    heap_solve.section(line, verdict, repeat=1 if args.quick else 3, gamesmanpy=args.gamesmanpy_heaps, postgres=args.postgres)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child_main(sys.argv[2:])
    else:
        main()
