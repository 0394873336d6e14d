"""Benchmark: solve an octal game by the heap engine and query a huge heap.

    .venv/bin/python bench/heap_solve.py            # Kayles (0.77) to heap 5000
    .venv/bin/python bench/heap_solve.py 0.137 3000
    .venv/bin/python bench/heap_solve.py 0.77 5000 postgresql+psycopg://...

Prints the solve time, the options the SQL levels examined per second, the
proven period and the time to answer a heap of 10^12 + 7.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from gamedb import Database, make_game


def main() -> None:
    code = sys.argv[1] if len(sys.argv) > 1 else "0.77"
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    with tempfile.TemporaryDirectory() as tmp:
        location = sys.argv[3] if len(sys.argv) > 3 else str(Path(tmp) / "bench.sqlite")
        with Database(location, create=True) as db:
            game = make_game("octal", code=code, max=top)
            started = time.perf_counter()
            report = db.solve(game, f"bench-{code}-{top}", force=True)
            seconds = time.perf_counter() - started
            stats = db.stats(report.name)
            started = time.perf_counter()
            answer = db.probe(report.name, str(10**12 + 7))
            probe_ms = (time.perf_counter() - started) * 1000
    print(f"octal {code} --max {top}: {seconds:.2f} s, {report.moves:,} options, {report.moves / seconds:,.0f} options/s")
    print(f"period: {stats['extra']}")
    print(f"heap 10^12+7: grundy {answer.grundy}, best move {answer.best_move}, {probe_ms:.1f} ms")


if __name__ == "__main__":
    main()
