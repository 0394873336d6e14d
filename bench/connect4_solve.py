"""Section 2 of bench/run.py: Connect-Four (5x4; 4x4 with --quick) solved end to end, checked against the published count."""

from __future__ import annotations

import json
from pathlib import Path

from catmouse_graph import TARGET_PEAK_MB
from report import line, run_child, verdict

# published Connect-Four figures (issue 4): positions reachable from the empty board, the start's value
# (for 4x4 also checked by tests/test_connect4.py against an independent oracle)
CONNECT4_KNOWN = {(4, 4): (161_029, "tie", 16), (5, 4): (3_945_711, "tie", 20)}
TARGET_C4_SECONDS = 300


def rows(work: Path, width: int, height: int) -> None:
    """Solve Connect-Four ``width`` x ``height`` in a child process and print its rows."""
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
        stored = f" ({c4_run['positions']:,} stored, one per symmetry class)" if c4_run["reachable"] != c4_run["positions"] else ""
        line("positions, moves", f"{c4_run['reachable']:,}{stored}, {c4_run['moves']:,}")
        result, remoteness = c4_run["start"]
        known = CONNECT4_KNOWN.get((width, height))
        expected = f"{known[0]:,} positions, a {known[1]} in {known[2]}" if known else "no published figure"
        agrees = known is not None and (c4_run["reachable"], result, remoteness) == known
        line("  start position", f"{result} in {remoteness}", verdict(agrees, expected) if known else "")
        line(
            f"gamedb solve, end to end ({c4_run['engine']} engine)",
            f"{c4_run['seconds']:.1f} s",
            verdict(c4_run["seconds"] <= TARGET_C4_SECONDS, f"<= {TARGET_C4_SECONDS} s"),
        )
        line("  phases", ", ".join(f"{k} {v:.1f} s" for k, v in c4_run["phases"].items()))
        line("  peak memory", f"{c4_run['peak_mb']:,.0f} MB", verdict(c4_run["peak_mb"] <= TARGET_PEAK_MB, f"<= {TARGET_PEAK_MB} MB"))
        line("  database file", f"{c4_run['file_bytes'] / 1e6:,.0f} MB, {c4_run['file_bytes'] / c4_run['positions']:.0f} bytes/position")
        c4_db.unlink(missing_ok=True)
