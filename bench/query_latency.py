"""Section 3 of bench/run.py: query latency on the big graph's database.

One position in-process (``Database.probe``) over 10,000 random positions,
a whole ``gamedb query`` process, and one position from ``gamedb serve``'s
JSON API through a real HTTP server (median of 100 requests; skipped
without the ``web`` extra).
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from report import line, run_child, verdict

TARGET_QUERY_P99_MS = 1.0
TARGET_PROCESS_SECONDS = 0.5
TARGET_API_MS = 50.0  # issue 14: a position from `gamedb serve`, median of 100 requests


def sample_texts(db, name: str, count: int, seed: int) -> list[str]:
    """The text of ``count`` random stored positions of game ``name`` (a SQLite file's ``Database``)."""
    record, game = db.rules(name)
    with db.engine.connect() as conn:
        codes = conn.exec_driver_sql("SELECT code FROM position WHERE game_id = ?", (record.id,)).scalars().all()
    return [game.format(game.decode(code)) for code in random.Random(seed).sample(codes, min(count, len(codes)))]


def job_queries(args) -> dict:
    from gamedb import Database

    db = Database(args.db, readonly=True)
    texts = sample_texts(db, args.name, args.count, seed=2)
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


def job_api(args) -> dict:
    """``--count`` random positions asked of a real `gamedb serve` (a child process on a free port), one HTTP request each."""
    import re
    import urllib.parse
    import urllib.request

    from gamedb import Database

    db = Database(args.db, readonly=True)
    texts = sample_texts(db, args.name, args.count + 20, seed=4)
    db.close()
    server = subprocess.Popen(
        [sys.executable, "-m", "gamedb", "--db", args.db, "serve", "--port", "0"], stderr=subprocess.PIPE, text=True
    )
    try:
        started = server.stderr.readline()
        found = re.search(r"at (http://\S+/) ", started)
        if not found:
            raise SystemExit(f"gamedb serve did not start: {started}{server.stderr.read()}")
        base = f"{found.group(1)}api/games/{urllib.parse.quote(args.name)}/positions?position="
        latencies = []
        for i, text in enumerate(texts):  # the first 20 warm up: the rules are built on the first request
            t0 = time.perf_counter()
            with urllib.request.urlopen(base + urllib.parse.quote(text)) as response:
                answer = json.load(response)
            if i >= 20:
                latencies.append(time.perf_counter() - t0)
            if answer["position"] != text:
                raise SystemExit(f"the API answered {answer['position']!r} for {text!r}")
    finally:
        server.terminate()
        server.wait()
    latencies.sort()
    return {"count": len(latencies), "p50_ms": 1000 * statistics.median(latencies), "max_ms": 1000 * latencies[-1]}


# --- the rows ------------------------------------------------------------------------------------


def rows(q: dict, times: list[float], big: Path) -> None:
    """Print section 3: the figures :func:`measure_queries` took, then the API's."""
    print("\n3. queries on the big graph's database (measured right after its solve)")
    line(
        f"in-process probe, {q['count']:,} random positions",
        f"p50 {q['p50_ms']:.2f} ms, p99 {q['p99_ms']:.2f} ms",
        verdict(q["p99_ms"] <= TARGET_QUERY_P99_MS, f"p99 <= {TARGET_QUERY_P99_MS} ms"),
    )
    median = statistics.median(times)
    line(
        f"`gamedb query` process, median of {len(times)}",
        f"{median:.2f} s (max {max(times):.2f} s)",
        verdict(median <= TARGET_PROCESS_SECONDS, f"<= {TARGET_PROCESS_SECONDS} s"),
    )
    report_api(big)


def report_api(big: Path) -> None:
    """One position from `gamedb serve`'s JSON API through a real HTTP server, median of 100 requests."""
    try:
        from gamedb.web import require_web_extra

        require_web_extra()
    except Exception as exc:  # noqa: BLE001 - without the web extra there is nothing to measure
        line("`gamedb serve` API", f"skipped: {exc}")
        return
    api = run_child("api", "--db", str(big), "--name", "bench", "--count", "100")
    line(
        f"`gamedb serve` API, median of {api['count']}",
        f"{api['p50_ms']:.1f} ms (max {api['max_ms']:.1f} ms)",
        verdict(api["p50_ms"] <= TARGET_API_MS, f"<= {TARGET_API_MS:.0f} ms") + f", ratio {api['p50_ms'] / TARGET_API_MS:.2f}",
    )


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

