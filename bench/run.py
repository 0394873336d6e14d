"""gamedb's benchmark: one run, a few minutes, figures and ratios against targets.

    python bench/run.py            # everything below (about 4 minutes on 2 cores)
    python bench/run.py --quick    # a 300-node graph and Connect-Four 4x4: a smoke test (30 s)
    python bench/run.py --sql      # also the SQL engine on the big graph (about a minute more)
    python bench/run.py --verify   # also `gamedb verify` on the big graph (about a minute more)
    python bench/run.py --tiers    # only the tier solver's rows (Connect-Four 5x4, 4x6; --big: 5x5): see bench/tiers.py
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
   random positions of the big graph, and a whole ``gamedb query`` process.
4. Heap games (``bench/heap_solve.py``): ``subtraction --set 1,2,5 --max
   100000`` and ``octal --code 0.77 --max 5000`` as whole processes, with
   GamesmanPy's time for the same subtraction game (``--gamesmanpy-heaps CMD``).

Nothing here is a test: it prints numbers and ratios, and marks each target
``ok`` or ``MISSED``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# published Connect-Four figures (issue 4): positions reachable from the empty board, the start's value
# (for 4x4 also checked by tests/test_connect4.py against an independent oracle)
CONNECT4_KNOWN = {(4, 4): (161_029, "tie", 16), (5, 4): (3_945_711, "tie", 20)}

# targets (issue 5)
TARGET_RATIO = 1.0  # gamedb time / pure-Python time on the big graph
TARGET_PEAK_MB = 2048
TARGET_C4_SECONDS = 300
TARGET_QUERY_P99_MS = 1.0
TARGET_PROCESS_SECONDS = 0.5

GRAPH_SEED = 913


# --- the graph ------------------------------------------------------------------------------


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


# --- the pure-Python solver (the seeds' algorithm) ----------------------------------------------

MOUSE_TURN, CAT_TURN = 0, 1
DRAW, MOUSE_WIN, CAT_WIN = 0, 1, 2


def pure_python_solve(graph: list[list[int]]):
    """The seeds' queue algorithm (LeetCode 913, seed 000), with remoteness.

    ``results[mouse][cat][turn]`` is DRAW / MOUSE_WIN / CAT_WIN and
    ``degrees`` counts each state's moves not yet known to lose. The queue
    starts with the game-over states; popping a state walks its predecessors:
    a predecessor whose mover wins here is won at once, any other one loses a
    degree and is lost at zero. Each decided state gets remoteness = the
    popped state's + 1 (the queue pops in nondecreasing remoteness, so a win
    takes its shortest win and a loss its longest). Undecided states are draws.
    """
    n = len(graph)
    degrees = [[[0, 0] for _ in range(n)] for _ in range(n)]
    results = [[[DRAW, DRAW] for _ in range(n)] for _ in range(n)]
    remoteness = [[[None, None] for _ in range(n)] for _ in range(n)]
    for mouse in range(n):
        for cat in range(1, n):
            degrees[mouse][cat][MOUSE_TURN] = len(graph[mouse])
            degrees[mouse][cat][CAT_TURN] = len(graph[cat])
    for node in graph[0]:  # the cat may not enter the hole
        for mouse in range(n):
            degrees[mouse][node][CAT_TURN] -= 1
    queue = deque()
    for cat in range(1, n):
        for turn in (MOUSE_TURN, CAT_TURN):
            results[0][cat][turn] = MOUSE_WIN
            remoteness[0][cat][turn] = 0
            queue.append((0, cat, turn))
    for node in range(1, n):
        for turn in (MOUSE_TURN, CAT_TURN):
            results[node][node][turn] = CAT_WIN
            remoteness[node][node][turn] = 0
            queue.append((node, node, turn))
    while queue:
        mouse, cat, turn = queue.popleft()
        result = results[mouse][cat][turn]
        after = remoteness[mouse][cat][turn] + 1
        if turn == MOUSE_TURN:  # the cat moved here
            previous = [(mouse, c, CAT_TURN) for c in graph[cat] if c != 0]
        else:  # the mouse moved here
            previous = [(m, cat, MOUSE_TURN) for m in graph[mouse]]
        for pm, pc, pt in previous:
            if results[pm][pc][pt] != DRAW:
                continue
            if (result == MOUSE_WIN and pt == MOUSE_TURN) or (result == CAT_WIN and pt == CAT_TURN):
                results[pm][pc][pt] = result
                remoteness[pm][pc][pt] = after
                queue.append((pm, pc, pt))
            else:
                degrees[pm][pc][pt] -= 1
                if degrees[pm][pc][pt] == 0:
                    results[pm][pc][pt] = CAT_WIN if pt == MOUSE_TURN else MOUSE_WIN
                    remoteness[pm][pc][pt] = after
                    queue.append((pm, pc, pt))
    return results, remoteness


def pure_python_solve_flat(graph: list[list[int]]):
    """The same algorithm on flat lists indexed by ``(mouse * n + cat) * 2 + turn``: a tighter variant."""
    n = len(graph)
    size = 2 * n * n
    results = [DRAW] * size
    remoteness = [None] * size
    degrees = [0] * size
    cat_moves = [[c for c in nbrs if c != 0] for nbrs in graph]
    queue = deque()
    for mouse in range(n):
        for cat in range(1, n):
            s = (mouse * n + cat) * 2
            if mouse == 0 or mouse == cat:
                winner = MOUSE_WIN if mouse == 0 else CAT_WIN
                results[s] = results[s + 1] = winner
                remoteness[s] = remoteness[s + 1] = 0
                queue.append(s)
                queue.append(s + 1)
            else:
                degrees[s] = len(graph[mouse])
                degrees[s + 1] = len(cat_moves[cat])
    while queue:
        s = queue.popleft()
        result, after = results[s], remoteness[s] + 1
        rest, turn = divmod(s, 2)
        mouse, cat = divmod(rest, n)
        if turn == MOUSE_TURN:
            previous = [(mouse * n + c) * 2 + CAT_TURN for c in cat_moves[cat]]
            mover_wins = result == CAT_WIN
        else:
            previous = [(m * n + cat) * 2 for m in graph[mouse]]
            mover_wins = result == MOUSE_WIN
        for p in previous:
            if results[p] != DRAW:
                continue
            if mover_wins:
                results[p] = result
                remoteness[p] = after
                queue.append(p)
            else:
                degrees[p] -= 1
                if degrees[p] == 0:
                    results[p] = CAT_WIN if p % 2 == MOUSE_TURN else MOUSE_WIN
                    remoteness[p] = after
                    queue.append(p)
    return results, remoteness


# --- jobs run in child processes -----------------------------------------------------------------


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def job_gamedb(args) -> dict:
    from gamedb import Database, make_game

    server = "://" in args.db  # a SQLAlchemy URL (PostgreSQL) rather than a file
    db_path = None if server else Path(args.db)
    params = json.loads(args.params)
    game = make_game(args.family, **params)
    db = Database(args.db, create=True)
    phases: dict[str, float] = {}
    clock = [time.perf_counter(), None]

    def progress(phase, done, total):
        if phase != clock[1]:
            now = time.perf_counter()
            if clock[1] is not None:
                phases[clock[1]] = phases.get(clock[1], 0) + now - clock[0]
            clock[:] = [now, phase]

    t0 = time.perf_counter()
    report = db.solve(game, args.name, engine=args.engine, progress=progress, force=args.force)
    seconds = time.perf_counter() - t0
    if clock[1] is not None:
        phases[clock[1]] = phases.get(clock[1], 0) + time.perf_counter() - clock[0]
    start = db.probe(args.name)
    db.close()
    # the WAL and journal files a solve may leave
    files = [] if server else [db_path.with_name(db_path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
    return {
        "seconds": seconds,
        "positions": report.positions,
        "moves": report.moves,
        "peak_mb": peak_mb(),
        "cpu_seconds": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),  # user + system: what a loaded machine does not inflate
        "engine": report.engine,
        "start": [start.result, start.remoteness],
        "phases": phases,
        "file_bytes": None if server else db_path.stat().st_size,
        "extra_files": sorted(p.name for p in files if p.exists()),
    }


def job_pure(args) -> dict:
    graph = json.loads(Path(args.graph).read_text())
    solver = pure_python_solve_flat if args.flat else pure_python_solve
    t0 = time.perf_counter()
    results, remoteness = solver(graph)
    seconds = time.perf_counter() - t0
    out = {"seconds": seconds, "peak_mb": peak_mb()}
    if args.db:  # check the values against gamedb's on a sample of stored positions
        out["checked"], out["disagree"] = _compare(args.db, args.name, graph, results, remoteness, flat=args.flat)
    return out


def _compare(db_path, name, graph, results, remoteness, *, flat: bool, sample: int = 10_000):
    n = len(graph)
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
        gid = con.execute("SELECT id FROM game WHERE name = ?", (name,)).fetchone()[0]
        rows = con.execute("SELECT code, result, remoteness FROM position WHERE game_id = ?", (gid,)).fetchall()
    stored = random.Random(1).sample(rows, min(sample, len(rows)))
    disagree = 0
    for code, result, rem in stored:
        rest, turn = divmod(code, 2)
        mouse, cat = divmod(rest, n)
        if flat:
            value, r = results[code], remoteness[code]
        else:
            value, r = results[mouse][cat][turn], remoteness[mouse][cat][turn]
        mover_won = (value == MOUSE_WIN and turn == MOUSE_TURN) or (value == CAT_WIN and turn == CAT_TURN)
        mine = "draw" if value == DRAW else ("win" if mover_won else "lose")
        if (mine, r) != (result, rem):
            disagree += 1
    return len(stored), disagree


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


def _sample_texts(db, name: str, count: int, seed: int) -> list[str]:
    """The text of ``count`` random stored positions of game ``name`` (a SQLite file's ``Database``)."""
    record, game = db.rules(name)
    with db.engine.connect() as conn:
        codes = conn.exec_driver_sql("SELECT code FROM position WHERE game_id = ?", (record.id,)).scalars().all()
    return [game.format(game.decode(code)) for code in random.Random(seed).sample(codes, min(count, len(codes)))]


def job_queries(args) -> dict:
    from gamedb import Database

    db = Database(args.db, readonly=True)
    texts = _sample_texts(db, args.name, args.count, seed=2)
    for text in texts[:200]:  # warm up: caches, compiled statements
        db.probe(args.name, text)
    latencies = []
    for text in texts:
        t0 = time.perf_counter()
        db.probe(args.name, text)
        latencies.append(time.perf_counter() - t0)
    latencies.sort()
    return {
        "count": len(latencies),
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "sample": texts[:5],
    }


def job_agree(args) -> dict:
    """Probe the same random positions in two databases (``--db`` and the URL in ``--graph``) and count equal answers."""
    from gamedb import Database

    a, b = Database(args.db, readonly=True), Database(args.graph)
    texts = _sample_texts(a, args.name, args.count, seed=3)
    equal = sum(a.probe(args.name, text).to_json() == b.probe(args.name, text).to_json() for text in texts)
    return {"checked": len(texts), "equal": equal}


from tiers import job_floor_rows, run_tiers  # noqa: E402 - bench/ is the script's folder

JOBS = {"floor_rows": job_floor_rows, "gamedb": job_gamedb, "pure": job_pure, "floor": job_floor, "verify": job_verify, "queries": job_queries, "agree": job_agree}


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


def run_child(*args: str) -> dict:
    """Run one job in a fresh interpreter; its JSON answer."""
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", *args], capture_output=True, text=True, cwd=ROOT
    )
    if proc.returncode != 0:
        raise SystemExit(f"benchmark job {args[0]} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --- the report ---------------------------------------------------------------------------------


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<46} {value:<34} {target}", flush=True)


def verdict(ok: bool, text: str) -> str:
    return f"target {text}: {'ok' if ok else 'MISSED'}"


def main() -> None:
    parser = argparse.ArgumentParser(description="gamedb benchmark: prints figures, ratios and targets.")
    parser.add_argument("--quick", action="store_true", help="small sizes: a 300-node graph and Connect-Four 4x4")
    parser.add_argument("--sql", action="store_true", help="also solve the big graph with --engine sql (with --postgres: on the server too)")
    parser.add_argument("--verify", action="store_true", help="also time `gamedb verify` on the big graph")
    parser.add_argument("--dir", help="folder for the database files (default: a temporary folder, removed)")
    parser.add_argument("--keep", action="store_true", help="keep the database files")
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
            _run(args, work, nodes, edges, c4)
    finally:
        if not args.dir and not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def _run(args, work: Path, nodes: int, edges: int, c4: tuple[int, int]) -> None:
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

    q, times = measure_queries(big)  # printed in section 3
    pure = run_child("pure", "--graph", str(graph_file), "--db", str(big), "--name", "bench")
    ratio = t_gamedb / pure["seconds"]
    line("pure-Python queue solver (seeds' algorithm)", f"{pure['seconds']:.1f} s, peak {pure['peak_mb']:,.0f} MB")
    line("  agrees with gamedb on", f"{pure['checked'] - pure['disagree']:,} of {pure['checked']:,} sampled positions")
    line("ratio gamedb / pure-Python", f"{ratio:.2f}", verdict(ratio <= TARGET_RATIO, f"<= {TARGET_RATIO}"))
    flat = run_child("pure", "--graph", str(graph_file), "--flat", "--db", str(big), "--name", "bench")
    line("  (same algorithm on flat lists)", f"{flat['seconds']:.1f} s, ratio {t_gamedb / flat['seconds']:.2f}; agrees on {flat['checked'] - flat['disagree']:,} of {flat['checked']:,}")

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

    width, height = c4
    print(f"\n2. Connect-Four {width}x{height}")
    try:
        from gamedb.games import family

        family("connect4")
        available = True
    except Exception as exc:  # noqa: BLE001 - any failure to load the family means: skip
        available = False
        line("skipped", f"the connect4 family is not available ({exc})")
    if available:
        c4_db = work / "connect4.sqlite"
        c4_params = json.dumps({"width": width, "height": height})
        c4_run = run_child("gamedb", "--db", str(c4_db), "--name", "c4", "--family", "connect4", "--params", c4_params, "--engine", "auto")
        line("positions, moves", f"{c4_run['positions']:,}, {c4_run['moves']:,}")
        result, remoteness = c4_run["start"]
        known = CONNECT4_KNOWN.get((width, height))
        expected = f"{known[0]:,} positions, a {known[1]} in {known[2]}" if known else "no published figure"
        agrees = known is not None and (c4_run["positions"], result, remoteness) == known
        line("  start position", f"{result} in {remoteness}", verdict(agrees, expected) if known else "")
        line(f"gamedb solve, end to end ({c4_run['engine']} engine)", f"{c4_run['seconds']:.1f} s", verdict(c4_run["seconds"] <= TARGET_C4_SECONDS, f"<= {TARGET_C4_SECONDS} s"))
        line("  phases", ", ".join(f"{k} {v:.1f} s" for k, v in c4_run["phases"].items()))
        line("  peak memory", f"{c4_run['peak_mb']:,.0f} MB", verdict(c4_run["peak_mb"] <= TARGET_PEAK_MB, f"<= {TARGET_PEAK_MB} MB"))
        line("  database file", f"{c4_run['file_bytes'] / 1e6:,.0f} MB, {c4_run['file_bytes'] / c4_run['positions']:.0f} bytes/position")
        c4_db.unlink(missing_ok=True)

    print("\n3. queries on the big graph's database (measured right after its solve)")
    line(f"in-process probe, {q['count']:,} random positions", f"p50 {q['p50_ms']:.2f} ms, p99 {q['p99_ms']:.2f} ms", verdict(q["p99_ms"] <= TARGET_QUERY_P99_MS, f"p99 <= {TARGET_QUERY_P99_MS} ms"))
    median = statistics.median(times)
    line(f"`gamedb query` process, median of {len(times)}", f"{median:.2f} s (max {max(times):.2f} s)", verdict(median <= TARGET_PROCESS_SECONDS, f"<= {TARGET_PROCESS_SECONDS} s"))

    print("\n4. heap games, whole `gamedb solve` processes into a new file")
    sys.path.insert(0, str(ROOT / "bench"))
    import heap_solve

    heap_solve.section(line, verdict, repeat=1 if args.quick else 3, gamesmanpy=args.gamesmanpy_heaps, postgres=args.postgres)


def measure_queries(big: Path) -> tuple[dict, list[float]]:
    """Probe latencies in-process and whole `gamedb query` processes on the solved graph.

    Run while the machine is otherwise idle: before the PostgreSQL runs,
    whose server keeps working (autovacuum) after they return.
    """
    q = run_child("queries", "--db", str(big), "--name", "bench", "--count", "10000")
    times = []
    for text in q["sample"]:
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "gamedb", "--db", str(big), "query", "bench", text], capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            raise SystemExit(f"gamedb query failed: {proc.stderr}")
    return q, times


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child_main(sys.argv[2:])
    else:
        main()
