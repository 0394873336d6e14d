"""Benchmark: ``gamedb query nim -`` over every position of heaps up to 5, 7, 9, 11, 13 (issue 25).

    .venv/bin/python bench/heap_sum_stream.py --before /tmp/gamedb-d47abae      # git archive d47abae | tar -x -C DIR
    .venv/bin/python bench/heap_sum_stream.py --lines 10000 --repeat 3

The stream is every line ``a b c d e`` with 0 <= a <= 5, b <= 7, c <= 9,
d <= 11, e <= 13: 80,640 positions, answered as JSON lines by one process
after ``gamedb solve nim --max 13`` into a new SQLite file. ``--lines N``
takes N of them, spread evenly over the stream. Each figure is the CPU
seconds (user + system) of the whole ``query`` process, the median of
``--repeat`` runs; with ``--before DIR`` the same command runs with
``PYTHONPATH=DIR`` (an older source tree, its ``migrations`` beside its
``gamedb``), each run of it right after one of this tree, so that both see
the same load, and the two outputs must be byte-identical. CPU seconds, not
wall: the machine is shared, and a loaded machine stretches wall time.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

#: issue 25: at least this many times faster than before (d47abae), on the whole stream
TARGET_SPEEDUP = 10.0
TOPS = (5, 7, 9, 11, 13)


def stream(lines: int | None) -> str:
    every = [" ".join(map(str, heaps)) for heaps in itertools.product(*(range(top + 1) for top in TOPS))]
    if lines is not None and lines < len(every):
        step = len(every) / lines
        every = [every[int(i * step)] for i in range(lines)]
    return "\n".join(every) + "\n"


def run(args: list[str], stdin: Path, source: str | None = None) -> tuple[float, str]:
    """(CPU seconds of the whole process, sha256 of its stdout)."""
    env = dict(os.environ, PYTHONPATH=source) if source else None
    with stdin.open() as feed:
        # cwd: not this tree, whose gamedb `python -m` would import ahead of PYTHONPATH
        proc = subprocess.Popen([sys.executable, "-m", "gamedb", *args], stdin=feed, stdout=subprocess.PIPE, env=env, cwd=tempfile.gettempdir())
        digest = hashlib.sha256(proc.stdout.read()).hexdigest()  # type: ignore[union-attr]
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(args)} failed (PYTHONPATH={source})")
    return usage.ru_utime + usage.ru_stime, digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="DIR", help="also run an older gamedb source tree (PYTHONPATH=DIR)")
    parser.add_argument("--lines", type=int, help="answer only this many lines of the stream, spread over it")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (the median is shown)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gamedb-sum-stream-") as tmp:
        work = Path(tmp)
        db = work / "nim.sqlite"
        subprocess.run([sys.executable, "-m", "gamedb", "--db", str(db), "solve", "nim", "--max", "13", "-q"], check=True, cwd=tmp, capture_output=True)
        lines = work / "stream.txt"
        lines.write_text(stream(args.lines))
        count = lines.read_text().count("\n")
        query = ["--db", str(db), "query", "nim", "-"]
        now, old, digests = [], [], set()
        for _ in range(args.repeat):
            seconds, digest = run(query, lines)
            now.append(seconds)
            digests.add(digest)
            if args.before:
                seconds, digest = run(query, lines, args.before)
                old.append(seconds)
                digests.add(digest)
        after = statistics.median(now)
        print(f"query nim - over {count:,} positions (heaps up to {' '.join(map(str, TOPS))}), CPU seconds, median of {args.repeat}")
        print(f"  this tree    {after:8.2f} s   {count / after:10,.0f} positions/s")
        if old:
            before = statistics.median(old)
            speedup = before / after
            print(f"  before       {before:8.2f} s   {count / before:10,.0f} positions/s   ({args.before})")
            print(f"  speed-up     {speedup:8.1f}x   target >= {TARGET_SPEEDUP:.0f}x: {'ok' if speedup >= TARGET_SPEEDUP else 'MISSED'}")
            print(f"  outputs      {'byte-identical' if len(digests) == 1 else 'DIFFER'}")
            if len(digests) != 1:
                raise SystemExit(1)


if __name__ == "__main__":
    main()
