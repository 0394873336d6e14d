"""Cat and mouse on a random 1,000-node graph: the whole `gamedb solve` process against a plain Python solver.

    python bench/loopy_vs_plain.py                 # the 1,000-node graph of bench/catmouse_graph.py (~2·10^6 positions)
    python bench/loopy_vs_plain.py --nodes 300     # smaller, a smoke test
    python bench/loopy_vs_plain.py --before /path/to/other/.venv/bin/gamedb   # and another checkout's, same rounds

Same run, each in a child process of its own (its peak memory its own), ``--runs`` rounds of the three in turn
(medians; the ratios taken round by round, so a machine whose load drifts compares like with like):

- the plain solver below: a queue with degree counters on flat arrays (a bytearray of outcomes, a list of
  counters), outcomes only, nothing stored;
- ``gamedb solve cat-mouse --graph FILE`` (the ``retrograde`` strategy) as a whole process into a new SQLite file
  and into a new DuckDB file: wall time, CPU time and peak memory;
- the retrograde solver alone, writing into a sink that keeps nothing: its time (the rest of the process is
  writing rows) and its memory per position (peak RSS less the RSS before the solve).

- the same command on LeetCode 913's six-node example, into a new file of each kind: the process's start-up and
  end (imports, the file made and read back), which the split below takes off;
- with ``--before GAMEDB`` (another checkout's ``gamedb`` script), its whole processes in the same rounds.

Prints figures, the split of each process's CPU (start-up, solver, the rows written) and the targets (issue 24): the
process no slower than the plain solver, at most 24 bytes per position while solving. The ratio's plain solver is its
solve alone (no Python start, no graph read): the stricter measure; the ratio to the plain solver run as a whole process,
as a user would run it, is printed beside it.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import deque
from contextlib import nullcontext
from pathlib import Path
from statistics import median

BENCH = Path(__file__).resolve().parent
GAMEDB = Path(sys.executable).with_name("gamedb")
UNKNOWN, MOUSE_WINS, CAT_WINS = 0, 1, 2


def plain_solve(graph: list[list[int]]) -> bytearray:
    """Who wins each state (mouse node, cat node, side to move), from the states where the game is over
    backwards: a state is won for its mover when one move reaches a state won for the mover, lost when every
    move reaches a state won for the other side; states never reached that way are draws (UNKNOWN)."""
    n = len(graph)
    outcome = bytearray(2 * n * n)  # index (mouse * n + cat) * 2 + side, side 0: the mouse moves
    cat_steps = [[b for b in targets if b != 0] for targets in graph]
    left = [0] * (2 * n * n)  # moves not yet known to lose, per state
    queue: deque[int] = deque()
    for mouse in range(n):
        for cat in range(1, n):
            state = (mouse * n + cat) * 2
            if mouse == 0 or mouse == cat:
                outcome[state] = outcome[state + 1] = MOUSE_WINS if mouse == 0 else CAT_WINS
                queue.extend((state, state + 1))
            else:
                left[state], left[state + 1] = len(graph[mouse]), len(cat_steps[cat])
    while queue:
        state = queue.popleft()
        winner = outcome[state]
        mouse, cat = divmod(state >> 1, n)
        if state & 1:  # the cat moves here, so the mouse moved last: it came from a neighbour
            before, mover = [(m * n + cat) * 2 for m in graph[mouse] if m != cat and m != 0], MOUSE_WINS
        else:  # the cat moved last
            before, mover = [(mouse * n + c) * 2 + 1 for c in cat_steps[cat] if c != mouse], CAT_WINS
        for previous in before:
            if outcome[previous] != UNKNOWN:
                continue
            if winner == mover:
                outcome[previous] = winner
                queue.append(previous)
            else:
                left[previous] -= 1
                if left[previous] == 0:
                    outcome[previous] = winner
                    queue.append(previous)
    return outcome


# --- the child processes -------------------------------------------------------------------------


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu() -> float:
    """CPU seconds (user + system) of this process so far: what a machine shared with other work inflates least."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def job_plain(graph_file: str) -> dict:
    graph = json.loads(Path(graph_file).read_text())
    t0 = time.perf_counter()
    outcome = plain_solve(graph)
    return {"seconds": time.perf_counter() - t0, "cpu": cpu(), "peak_mb": peak_mb(), "decided": len(outcome) - outcome.count(UNKNOWN)}


class KeepNothing:
    """A sink that keeps nothing (the solver's own time and memory)."""

    def begin(self):
        from gamedb.store.sink import Begun

        return Begun(1, "enumerating", {}, False)

    def loading(self, table, rows):
        return nullcontext()

    def clear(self, *args) -> None: ...
    def rows(self, *args) -> None: ...
    def tuples(self, *args) -> None: ...
    def columns(self, *args) -> None: ...
    def finish(self, **values) -> None:
        self.values = values


def job_solver(graph_file: str) -> dict:
    import numpy  # noqa: F401  (imported before the baseline)

    from gamedb import make_game
    from gamedb.solvers import retrograde
    from gamedb.solvers.retrograde_rules import LEVEL_PHASE

    game = make_game("cat-mouse", graph=graph_file)
    game.vector()
    base = rss_mb()
    phases: dict[str, float] = {}
    clock = [time.process_time(), "enumerate"]  # the phases in CPU seconds

    def progress(phase, done, total):
        if phase == LEVEL_PHASE:  # (within a level: counted with its level)
            return
        now = time.process_time()
        phases[clock[1]] = phases.get(clock[1], 0) + now - clock[0]
        clock[:] = [now, phase]

    t0, c0 = time.perf_counter(), cpu()
    sink = KeepNothing()
    solved = retrograde.solve(sink, game, memory_limit=16 << 30, progress=progress)
    seconds = time.perf_counter() - t0
    phases[clock[1]] = phases.get(clock[1], 0) + time.process_time() - clock[0]
    return {
        "seconds": seconds, "cpu": cpu() - c0, "phases": phases, "positions": solved.positions,
        "base_mb": base, "peak_mb": peak_mb(), "progress": sink.values["progress"],
    }


def run_child(*args: str) -> dict:
    """A job in a child process of its own; ``process``: that process's wall time, start to exit (Python's start, the
    graph read: the plain solver as a user would run it)."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1]) | {"process": time.perf_counter() - t0}


#: LeetCode 913's first example: a solve that is all start-up
TINY = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]"
KINDS = ("SQLite", "DuckDB")


def whole_process(graph_file: Path | str, db: Path, gamedb: Path = GAMEDB) -> dict:
    """``gamedb solve`` as a user runs it: wall time and the child's peak memory."""
    t0 = time.perf_counter()
    command = [str(gamedb), "--db", str(db), "solve", "cat-mouse", "--graph", str(graph_file), "-q"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    if status:
        raise SystemExit(f"gamedb solve into {db.name} failed ({status})")
    return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024, "bytes": db.stat().st_size}


def in_turn(commands: dict[str, Path], round_: int) -> list[tuple[str, Path]]:
    """The commands in the order of round ``round_``: reversed every other round (none gains from going first)."""
    return list(commands.items())[:: -1 if round_ % 2 else 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--edges", type=int, help="default: twice the nodes")
    parser.add_argument("--runs", type=int, default=3, help="rounds of the plain solver and the processes (default 3)")
    parser.add_argument("--before", type=Path, help="another checkout's gamedb script, timed in the same rounds")
    parser.add_argument("--seeds", help="by graph instead: the random graphs of these seeds (e.g. 913,1,2,3,4,5), each "
                        "solved by the plain solver and by gamedb into a new DuckDB file, a line a graph")
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH))
    from catmouse_graph import bench_graph

    import gamedb

    # gamedb's bytecode written, as an installed package has it (under PYTHONDONTWRITEBYTECODE each run compiled ~40 modules: 0.1 s)
    compileall.compile_dir(Path(gamedb.__file__).parent, quiet=1)
    commands = {"now": GAMEDB} | ({"before": args.before} if args.before else {})
    if args.seeds:
        by_graph([int(seed) for seed in args.seeds.split(",")], args.nodes, args.edges or 2 * args.nodes, args.runs, commands)
        return

    with tempfile.TemporaryDirectory(prefix="gamedb-loopy-") as work:
        graph_file = Path(work) / "graph.json"
        graph_file.write_text(json.dumps(bench_graph(args.nodes, args.edges or 2 * args.nodes)))
        print(f"cat and mouse, random graph of {args.nodes:,} nodes (bench/catmouse_graph.py), load {os.getloadavg()[0]:.1f}")
        files = iter(range(10**6))

        def new(kind: str) -> Path:
            return Path(work) / f"new{next(files)}.{kind.lower()}"

        rounds = []  # (plain, {(who, kind): process}) per round
        for r in range(args.runs):
            plain = run_child("plain", str(graph_file))
            # each kind's files together, SQLite's last (its fsync's write-back slowed the DuckDB solve after it by 4 %);
            # with --before, the two checkouts take turns at going first
            found = {(who, kind): whole_process(graph_file, new(kind), command) for kind in KINDS[::-1] for who, command in in_turn(commands, r)}
            found |= {("start-up", kind): whole_process(TINY, new(kind)) for kind in KINDS}
            rounds.append((plain, found))
        plain = {key: median(p[key] for p, _ in rounds) for key in ("seconds", "process", "cpu", "peak_mb")} | {"decided": rounds[0][0]["decided"]}
        runs = {key: {k: median(g[key][k] for _, g in rounds) for k in ("seconds", "cpu", "peak_mb", "bytes")} for key in rounds[0][1]}
        alone = run_child("solver", str(graph_file))
        n = alone["positions"]
        print(f"  positions                                  {n:,}")
        print(f"  plain Python queue solver (outcomes only)  {plain['seconds']:.2f} s ({plain['cpu']:.2f} s CPU), peak {plain['peak_mb']:,.0f} MB; "
              f"as a whole process {plain['process']:.2f} s")
        for kind in KINDS:
            for who in commands:
                run = runs[(who, kind)]
                ratio = median(g[(who, kind)]["seconds"] / p["seconds"] for p, g in rounds)
                cpu_ratio = median(g[(who, kind)]["cpu"] / p["cpu"] for p, g in rounds)
                whole = median(g[(who, kind)]["seconds"] / p["process"] for p, g in rounds)
                print(f"  gamedb solve into a new {kind} file ({who:<6}) {run['seconds']:.2f} s ({run['cpu']:.2f} s CPU), peak {run['peak_mb']:,.0f} MB, "
                      f"file {run['bytes'] / n:.1f} bytes/position; ratio to plain {ratio:.2f}, in CPU {cpu_ratio:.2f} "
                      f"(target <= 1: {'ok' if ratio <= 1 else 'MISSED'}); to its whole process {whole:.2f}")
        phases = ", ".join(f"{k} {v:.2f} s" for k, v in alone["phases"].items())
        print(f"  retrograde solver alone, rows kept nowhere {alone['seconds']:.2f} s ({alone['cpu']:.2f} s CPU: {phases})")
        for kind in KINDS:
            start, run = runs[("start-up", kind)], runs[("now", kind)]
            rest = run["cpu"] - start["cpu"] - alone["cpu"]
            print(f"    {kind:<6} process split in CPU        start-up and end {start['cpu']:.2f} s ({start['seconds']:.2f} s wall, "
                  f"the six-node example), solver {alone['cpu']:.2f} s, the rows written {rest:.2f} s")
        per = (alone["peak_mb"] - alone["base_mb"]) * 2**20 / n
        print(f"    memory while solving                     {per:.1f} bytes/position (peak {alone['peak_mb']:,.0f} MB less "
              f"{alone['base_mb']:,.0f} MB before; target <= 24: {'ok' if per <= 24 else 'MISSED'})")
        assert alone["progress"]["phase"] == "done" and plain["decided"] > 0


def by_graph(seeds: list[int], nodes: int, edges: int, runs: int, commands: dict[str, Path]) -> None:
    """The ratio graph by graph: how much of a graph the plain solver decides (it touches nothing else) sets its time."""
    sys.path.insert(0, str(BENCH))
    from catmouse_graph import bench_graph

    print(f"cat and mouse by graph: {nodes:,} nodes, {edges:,} edges, seeds {seeds}, {runs} rounds (medians), load {os.getloadavg()[0]:.1f}")
    print("  seed  hole's neighbours  decided   plain (process)  " + "  ".join(f"DuckDB ({who})  ratio (to its process)" for who in commands))
    with tempfile.TemporaryDirectory(prefix="gamedb-loopy-") as work:
        for seed in seeds:
            graph = bench_graph(nodes, edges, seed)
            graph_file = Path(work) / f"graph{seed}.json"
            graph_file.write_text(json.dumps(graph))
            rounds = []
            for r in range(runs):
                plain = run_child("plain", str(graph_file))
                files = {who: Path(work) / f"g{seed}_{r}_{who}.duckdb" for who in commands}
                rounds.append((plain, {who: whole_process(graph_file, files[who], command) for who, command in in_turn(commands, r)}))
            plain_s, process_s = (median(p[key] for p, _ in rounds) for key in ("seconds", "process"))
            cells = "  ".join(f"{median(g[who]['seconds'] for _, g in rounds):>11.2f} s  {median(g[who]['seconds'] / p['seconds'] for p, g in rounds):5.2f}"
                              f" ({median(g[who]['seconds'] / p['process'] for p, g in rounds):.2f})" for who in commands)
            print(f"  {seed:>4}  {len(graph[0]):>17}  {rounds[0][0]['decided'] / (2 * nodes * nodes):>6.0%}  {plain_s:>5.2f} s ({process_s:.2f} s)  {cells}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        job = {"plain": job_plain, "solver": job_solver}[sys.argv[2]]
        print(json.dumps(job(*sys.argv[3:])))
    else:
        main()
