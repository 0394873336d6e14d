"""Connect-Four 5x4 solved with and without symmetry (the left-right mirror), on SQLite and on DuckDB: the solve's wall
time as a whole ``gamedb solve`` process and its CPU time (user + system: steadier on a busy machine), the file's
bytes, bytes per reachable position, the reachable and stored counts.

    python bench/symmetry.py            # 5x4 (3,945,711 positions, Tromp's count): about a minute on 2 cores
    python bench/symmetry.py --quick    # 4x4 (161,029 positions)

Each solve writes a new file in a temporary folder; the figures are printed, nothing is asserted.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMEDB = str(Path(sys.executable).with_name("gamedb"))
#: Tromp's counts of positions reachable from the empty board (John's Connect Four Playground)
TROMP = {(4, 4): 161_029, (5, 4): 3_945_711}


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def solve(db: Path, width: int, height: int, symmetry: bool) -> tuple[float, float, dict[str, object]]:
    """Solve into the new file ``db``; return (wall seconds, CPU seconds, ``gamedb stats --json``)."""
    flag = "--symmetry" if symmetry else "--no-symmetry"
    c0, t0 = _cpu(), time.perf_counter()
    subprocess.run([GAMEDB, "--db", str(db), "solve", "connect4", "--width", str(width), "--height", str(height), flag, "--name", "c4", "-q"],
                   check=True, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - t0, _cpu() - c0
    stats = json.loads(subprocess.run([GAMEDB, "--db", str(db), "stats", "c4", "--json"], check=True, capture_output=True, text=True).stdout)
    return seconds, cpu, stats


def main() -> None:
    width, height = (4, 4) if "--quick" in sys.argv else (5, 4)
    print(f"Connect-Four {width}x{height}: with symmetry (one position per mirror pair) and without")
    print(f"{'store':<8}{'symmetry':<10}{'solve s':>9}{'cpu s':>8}{'file MB':>10}{'B/reachable':>13}{'reachable':>12}{'stored':>12}")
    with tempfile.TemporaryDirectory() as work:
        for suffix in ("sqlite", "duckdb"):
            for symmetry in (True, False):
                db = Path(work) / f"c4-{symmetry}.{suffix}"
                seconds, cpu, stats = solve(db, width, height, symmetry)
                size = db.stat().st_size
                reachable, stored = int(str(stats["reachable"])), int(str(stats["positions"]))
                known = TROMP.get((width, height))
                mark = "" if known is None else ("  (Tromp's count)" if reachable == known else f"  (MISSED: Tromp's {known:,})")
                print(f"{suffix:<8}{'on' if symmetry else 'off':<10}{seconds:>9.1f}{cpu:>8.1f}{size / 1e6:>10.1f}{size / reachable:>13.1f}"
                      f"{reachable:>12,}{stored:>12,}{mark}")
                db.unlink()


if __name__ == "__main__":
    main()
