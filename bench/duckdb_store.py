"""A DuckDB file beside a SQLite file: the same Connect-Four solved into each, then read back (issue 22).

Prints, for each store: the whole ``gamedb solve connect4 --width W --height H``
process (median of ``--runs``), the file's bytes per position, the
``gamedb query connect4-WxH POSITION`` process on it (median), one position
asked in-process (``Database.probe``, p50 and p99 of ``--probes`` random
positions reached by random play), and ``gamedb query NAME -`` (positions per
second of the whole process, wall and CPU) on ``--stream`` Connect-Four positions
reached by random play and on every reachable position of tic-tac-toe, ten times
over (a stream long enough that the process's start, ~0.2 s, is not what is
measured). Also the cost of ``import duckdb``. The DuckDB row is held to issue
22's targets: the query process <= 0.3 s, a lookup p50 <= 5 ms, ``query -`` >=
20,000 positions/s (wall; Connect-Four's texts are its smallest move sequences,
searched for every board of a batch at once, and its answer carries every move's).
Run: ``python bench/duckdb_store.py [--width 5 --height 4 --runs 3 --stream 50000]``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMEDB = str(Path(sys.executable).with_name("gamedb"))
TARGET_QUERY_SECONDS = 0.3
TARGET_PROBE_MS = 5.0
TARGET_STREAM_RATE = 20_000


def timed(args: list[str], stdin: str | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(args, input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - start


def rates(args: list[str], stdin: str) -> tuple[float, float]:
    """(wall, CPU) positions per second of one ``query NAME -`` process answering the lines of ``stdin``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(args, stdin)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = stdin.count("\n")
    return lines / wall, lines / (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def median_rates(args: list[str], stdin: str, runs: int) -> tuple[float, float]:
    """The median (wall, CPU) rates of ``runs`` processes (:func:`rates`): one process is at the mercy of a shared box."""
    measured = [rates(args, stdin) for _ in range(runs)]
    return statistics.median(r[0] for r in measured), statistics.median(r[1] for r in measured)


def every_tictactoe_text() -> list[str]:
    """The 5,478 positions of tic-tac-toe reachable from the start."""
    from gamedb import make_game

    game = make_game("tictactoe")
    seen, todo = set(), [game.start()]
    while todo:
        state = todo.pop()
        text = game.format(state)
        if text not in seen:
            seen.add(text)
            todo += [child for _, child in game.moves(state)]
    return sorted(seen)


def random_texts(width: int, height: int, count: int, seed: int = 1) -> list[str]:
    """Texts of ``count`` positions reached by random play from the start (some repeated)."""
    from gamedb import make_game

    game = make_game("connect4", width=width, height=height)
    rng = random.Random(seed)
    texts = []
    while len(texts) < count:
        state = game.start()
        for _ in range(rng.randrange(width * height)):
            moves = game.moves(state)
            if not moves:
                break
            state = rng.choice(moves)[1]
        texts.append(game.format(state))
    return texts


def probe_ms(db: Path, name: str, texts: list[str]) -> tuple[float, float]:
    """(p50, p99) milliseconds of one ``Database.probe`` each, after 50 to warm up."""
    from gamedb import Database

    with Database(db, readonly=True) as opened:
        for text in texts[:50]:
            opened.probe(name, text)
        latencies = []
        for text in texts:
            start = time.perf_counter()
            opened.probe(name, text)
            latencies.append(time.perf_counter() - start)
    latencies.sort()
    return 1000 * latencies[len(latencies) // 2], 1000 * latencies[int(len(latencies) * 0.99)]


def verdict(ok: bool, target: str) -> str:
    return f"target {target}: {'met' if ok else 'MISSED'}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, default=5)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--probes", type=int, default=1000)
    parser.add_argument("--stream", type=int, default=50_000, help="Connect-Four positions in the query - stream")
    opts = parser.parse_args()
    imports = [timed([sys.executable, "-c", "import duckdb"]) - timed([sys.executable, "-c", "pass"]) for _ in range(opts.runs)]
    print(f"import duckdb: {statistics.median(imports) * 1000:.0f} ms (median of {opts.runs})")
    name = f"connect4-{opts.width}x{opts.height}"
    texts = random_texts(opts.width, opts.height, opts.probes)
    stream = "".join(text + "\n" for text in random_texts(opts.width, opts.height, opts.stream, seed=2))
    ttt = "".join(text + "\n" for text in every_tictactoe_text()) * 10
    with tempfile.TemporaryDirectory() as folder:
        for suffix in ("sqlite", "duckdb"):
            db = Path(folder, f"c4.{suffix}")
            solves = []
            for _ in range(opts.runs):
                db.unlink(missing_ok=True)
                solves.append(timed([GAMEDB, "--db", str(db), "solve", "connect4", "--width", str(opts.width), "--height", str(opts.height), "-q"]))
            stats = subprocess.run([GAMEDB, "--db", str(db), "stats", "--json", name], capture_output=True, text=True, check=True)
            positions = json.loads(stats.stdout)["positions"]
            size = db.stat().st_size
            query = statistics.median(timed([GAMEDB, "--db", str(db), "query", name, texts[i]]) for i in range(max(7, opts.runs)))
            p50, p99 = probe_ms(db, name, texts)
            c4_rate, c4_cpu = median_rates([GAMEDB, "--db", str(db), "query", name, "-"], stream, opts.runs)
            subprocess.run([GAMEDB, "--db", str(db), "solve", "tictactoe", "-q"], capture_output=True, check=True)
            ttt_rate, ttt_cpu = median_rates([GAMEDB, "--db", str(db), "query", "tictactoe", "-"], ttt, opts.runs)
            reachable = json.loads(stats.stdout)["reachable"]
            print(f"{suffix:6}: solve {name} {statistics.median(solves):.2f} s, {size / positions:.2f} bytes a stored position "
                  f"({positions:,}), {size / reachable:.2f} a reachable one ({reachable:,})")
            held = suffix == "duckdb"
            print(f"        `gamedb query {name}` process {query:.3f} s (median)"
                  + (f"; {verdict(query <= TARGET_QUERY_SECONDS, f'<= {TARGET_QUERY_SECONDS} s')}" if held else ""))
            print(f"        in-process probe p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(texts):,} random positions)"
                  + (f"; {verdict(p50 <= TARGET_PROBE_MS, f'p50 <= {TARGET_PROBE_MS:g} ms')}" if held else ""))
            for game, lines, rate, cpu in ((name, stream, c4_rate, c4_cpu), ("tictactoe", ttt, ttt_rate, ttt_cpu)):
                print(f"        query {game} - : {rate:,.0f} positions/s ({cpu:,.0f}/s of CPU; {lines.count(chr(10)):,} lines; median of {opts.runs})"
                      + (f"; {verdict(rate >= TARGET_STREAM_RATE, f'>= {TARGET_STREAM_RATE:,}')}" if held else ""))


if __name__ == "__main__":
    main()
