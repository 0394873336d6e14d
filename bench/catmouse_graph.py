"""Section 1 of bench/run.py: cat and mouse on a big random graph, solved end to end.

gamedb solves a deterministic random graph (LeetCode 913) of 1,000 nodes and
2,000 edges (about 2,000,000 positions and 8,000,000 moves) into a new
SQLite file; the same graph is solved by the pure-Python queue solver
(:mod:`pure_python_solver`) and the ratio printed; and the floor of any
SQL-backed solver is measured: as many bare integer rows inserted into a
new SQLite file. ``--sql``, ``--postgres`` and ``--verify`` add their rows.
"""

from __future__ import annotations

import json
import random
import resource
import sqlite3
import time
from pathlib import Path

from query_latency import sample_texts
from report import line, peak_mb, run_child, verdict

TARGET_RATIO = 1.0  # gamedb time / pure-Python time on the big graph
TARGET_PEAK_MB = 2048

GRAPH_SEED = 913


def bench_graph(nodes: int, edges: int, seed: int = GRAPH_SEED) -> list[list[int]]:
    """A connected random graph valid for LeetCode 913, the same for every run.

    A uniformly random recursive tree spans nodes 1..n-1, the hole (node 0)
    is joined to one random node, and random extra edges are added until
    there are ``edges`` edges. Every node then has a neighbour other than the
    hole, so neither player is ever stuck.
    """
    rng = random.Random(seed)
    chosen: set[tuple[int, int]] = set()
    others = list(range(1, nodes))
    rng.shuffle(others)
    for i in range(1, len(others)):
        a, b = others[i], others[rng.randrange(i)]
        chosen.add((min(a, b), max(a, b)))
    chosen.add((0, rng.randrange(1, nodes)))
    while len(chosen) < edges:
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        if a != b:
            chosen.add((min(a, b), max(a, b)))
    graph: list[list[int]] = [[] for _ in range(nodes)]
    for a, b in sorted(chosen):
        graph[a].append(b)
        graph[b].append(a)
    return graph


# --- jobs run in child processes -----------------------------------------------------------------


def job_gamedb(args) -> dict:
    from gamedb import Database, make_game
    from gamedb.solvers.retrograde_rules import LEVEL_PHASE

    server = "://" in args.db  # a SQLAlchemy URL (PostgreSQL) rather than a file
    db_path = None if server else Path(args.db)
    params = json.loads(args.params)
    game = make_game(args.family, **params)
    db = Database(args.db, create=True)
    phases: dict[str, float] = {}
    clock = [time.perf_counter(), None]

    def progress(phase, done, total):
        if phase != clock[1] and phase != LEVEL_PHASE:  # (within a level: counted with its level)
            now = time.perf_counter()
            if clock[1] is not None:
                phases[clock[1]] = phases.get(clock[1], 0) + now - clock[0]
            clock[:] = [now, phase]

    t0 = time.perf_counter()
    report = db.solve(game, args.name, strategy=args.engine, progress=progress, force=args.force)
    seconds = time.perf_counter() - t0
    if clock[1] is not None:
        phases[clock[1]] = phases.get(clock[1], 0) + time.perf_counter() - clock[0]
    start = db.probe(args.name)
    reachable = db.stats(args.name).get("reachable") or report.positions  # (stored one row per symmetry class: fewer rows)
    db.close()
    # the WAL and journal files a solve may leave
    files = [] if server else [db_path.with_name(db_path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
    return {
        "seconds": seconds,
        "positions": report.positions,
        "reachable": reachable,
        "moves": report.moves,
        "peak_mb": peak_mb(),
        "cpu_seconds": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),  # user + system: what a loaded machine does not inflate
        "engine": report.strategy,
        "start": [start.result, start.remoteness],
        "phases": phases,
        "file_bytes": None if server else db_path.stat().st_size,
        "extra_files": sorted(p.name for p in files if p.exists()),
    }


def job_floor(args) -> dict:
    """Bare rows, no indexes, one transaction: what any SQL-backed solver must at least write."""
    path = Path(args.db)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE position (code INTEGER, value INTEGER)")
    con.execute("CREATE TABLE move (parent INTEGER, child INTEGER, ord INTEGER)")
    t0 = time.perf_counter()
    con.executemany("INSERT INTO position VALUES (?, ?)", ((i, i & 7) for i in range(args.positions)))
    con.executemany("INSERT INTO move VALUES (?, ?, ?)", ((i >> 2, i, i & 3) for i in range(args.moves)))
    con.commit()
    con.close()
    return {"seconds": time.perf_counter() - t0, "peak_mb": peak_mb(), "file_bytes": path.stat().st_size}


def job_verify(args) -> dict:
    from gamedb import Database

    db = Database(args.db, readonly=True)
    t0 = time.perf_counter()
    report = db.verify(args.name)
    return {"seconds": time.perf_counter() - t0, "positions": report.positions, "peak_mb": peak_mb()}


def job_agree(args) -> dict:
    """Probe the same random positions in two databases (``--db`` and the URL in ``--graph``) and count equal answers."""
    from gamedb import Database

    a, b = Database(args.db, readonly=True), Database(args.graph)
    texts = sample_texts(a, args.name, args.count, seed=3)
    equal = sum(a.probe(args.name, text).to_dict() == b.probe(args.name, text).to_dict() for text in texts)
    return {"checked": len(texts), "equal": equal}


# --- the rows ------------------------------------------------------------------------------------


def solve_rows(work: Path, nodes: int, edges: int) -> tuple[Path, Path, dict]:
    """Write the graph, solve it with gamedb and print its rows; (the database, the graph file, the solve's figures)."""
    graph = bench_graph(nodes, edges)
    graph_file = work / "graph.json"
    graph_file.write_text(json.dumps(graph))
    params = json.dumps({"graph": str(graph_file)})

    print(f"\n1. cat-and-mouse on a random graph: {nodes:,} nodes, {edges:,} edges (seed {GRAPH_SEED})")
    big = work / "catmouse.sqlite"
    solved = run_child("gamedb", "--db", str(big), "--name", "bench", "--family", "cat-mouse", "--params", params, "--engine", "auto")
    pos, mov, t_gamedb = solved["positions"], solved["moves"], solved["seconds"]
    phases = ", ".join(f"{k} {v:.1f} s" for k, v in solved["phases"].items())
    line("positions, moves", f"{pos:,}, {mov:,}")
    line(f"gamedb solve, end to end ({solved['engine']} engine)", f"{t_gamedb:.1f} s")
    line("  phases", phases)
    line("  positions per second", f"{pos / t_gamedb:,.0f}")
    line("  peak memory", f"{solved['peak_mb']:,.0f} MB", verdict(solved["peak_mb"] <= TARGET_PEAK_MB, f"<= {TARGET_PEAK_MB} MB"))
    line("  database file", f"{solved['file_bytes'] / 1e6:,.0f} MB, {solved['file_bytes'] / pos:.0f} bytes/position")
    line("  one self-contained file (no -wal/-shm)", "yes" if not solved["extra_files"] else f"no: {', '.join(solved['extra_files'])}")
    return big, graph_file, solved


def comparison_rows(args, work: Path, graph_file: Path, big: Path, solved: dict) -> None:
    """The pure-Python solver, the floor of bare rows, and the rows ``--sql``, ``--postgres`` and ``--verify`` ask for."""
    params = json.dumps({"graph": str(graph_file)})
    pos, mov, t_gamedb = solved["positions"], solved["moves"], solved["seconds"]
    pure = run_child("pure", "--graph", str(graph_file), "--db", str(big), "--name", "bench")
    ratio = t_gamedb / pure["seconds"]
    line("pure-Python queue solver (seeds' algorithm)", f"{pure['seconds']:.1f} s, peak {pure['peak_mb']:,.0f} MB")
    line("  agrees with gamedb on", f"{pure['checked'] - pure['disagree']:,} of {pure['checked']:,} sampled positions")
    line("ratio gamedb / pure-Python", f"{ratio:.2f}", verdict(ratio <= TARGET_RATIO, f"<= {TARGET_RATIO}"))
    flat = run_child("pure", "--graph", str(graph_file), "--flat", "--db", str(big), "--name", "bench")
    agrees = f"agrees on {flat['checked'] - flat['disagree']:,} of {flat['checked']:,}"
    line("  (same algorithm on flat lists)", f"{flat['seconds']:.1f} s, ratio {t_gamedb / flat['seconds']:.2f}; {agrees}")

    floor = run_child("floor", "--db", str(work / "floor.sqlite"), "--positions", str(pos), "--moves", str(mov))
    line(f"bulk insert of {pos + mov:,} bare rows (floor)", f"{floor['seconds']:.1f} s ({(pos + mov) / floor['seconds']:,.0f} rows/s)")
    line("gamedb / floor", f"{t_gamedb / floor['seconds']:.2f}x")
    (work / "floor.sqlite").unlink(missing_ok=True)
    # cat-mouse keeps one row per position and the move lists (token_move), no row per move
    kept = run_child("floor", "--db", str(work / "floor.sqlite"), "--positions", str(pos), "--moves", "0")
    line(f"  bare rows for the positions alone ({pos:,})", f"{kept['seconds']:.1f} s; gamedb / that floor {t_gamedb / kept['seconds']:.2f}x")
    (work / "floor.sqlite").unlink(missing_ok=True)

    if args.sql:
        sql_db = work / "catmouse-sql.sqlite"
        sql = run_child("gamedb", "--db", str(sql_db), "--name", "bench", "--family", "cat-mouse", "--params", params, "--engine", "sql")
        line("gamedb --engine sql, end to end", f"{sql['seconds']:.1f} s, peak {sql['peak_mb']:,.0f} MB")
        line("  phases", ", ".join(f"{k} {v:.1f} s" for k, v in sql["phases"].items()))
        line("  ratio to pure-Python / to floor", f"{sql['seconds'] / pure['seconds']:.2f} / {sql['seconds'] / floor['seconds']:.2f}x")
        sql_db.unlink(missing_ok=True)

    if args.postgres:
        pg = run_child("gamedb", "--db", args.postgres, "--name", "bench", "--family", "cat-mouse", "--params", params, "--engine", "auto", "--force")
        line(f"gamedb on PostgreSQL ({pg['engine']} engine)", f"{pg['seconds']:.1f} s, {pg['seconds'] / t_gamedb:.2f}x SQLite, peak {pg['peak_mb']:,.0f} MB")
        same = run_child("agree", "--db", str(big), "--graph", args.postgres, "--name", "bench", "--count", "10000")
        line("  answers equal to SQLite's on", f"{same['equal']:,} of {same['checked']:,} sampled positions")
        if args.sql:  # the bounded-memory engine on the server as well
            pg_sql = run_child("gamedb", "--db", args.postgres, "--name", "bench", "--family", "cat-mouse", "--params", params, "--engine", "sql", "--force")
            line("gamedb --engine sql on PostgreSQL", f"{pg_sql['seconds']:.1f} s, peak {pg_sql['peak_mb']:,.0f} MB")
            line("  phases", ", ".join(f"{k} {v:.1f} s" for k, v in pg_sql["phases"].items()))
            same = run_child("agree", "--db", str(big), "--graph", args.postgres, "--name", "bench", "--count", "10000")
            line("  answers equal to SQLite's on", f"{same['equal']:,} of {same['checked']:,} sampled positions")

    if args.verify:
        checked = run_child("verify", "--db", str(big), "--name", "bench")
        line("gamedb verify (every position)", f"{checked['seconds']:.1f} s ({checked['positions'] / checked['seconds']:,.0f} positions/s)")
