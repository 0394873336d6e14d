"""A game larger than the memory a solve may use still solves, in SQL on disk.

A child process caps its own address space (``ulimit -v``, RLIMIT_AS) at what
it uses after importing everything plus a small headroom, then solves a
cat-and-mouse game whose database is larger than that headroom. Forced to
solve in memory it runs out of memory; with ``--memory-limit`` the ``auto``
engine solves it with the retrograde strategy, or, under a limit too small
for that, with the SQL engine, to the same tables as an unconstrained solve.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gamedb import Database, make_game

from oracles.cat_mouse import random_graph
from tables import RUN_COLUMNS, assert_same_game

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc to size the cap"),
]

HEADROOM = 64 << 20  # bytes of address space above what the imports take

CHILD = """
import resource, sys
import numpy, sqlalchemy  # everything a solve imports, before the cap is measured
from gamedb import Database, make_game
import gamedb.solvers.graph_sql, gamedb.solvers.enumeration, gamedb.solvers.graph_memory, gamedb.games.two_tokens.cat_mouse_vector

def vm_bytes(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024

path, graph, engine, limit, headroom = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
db = Database(path, create=True)
game = make_game("cat-mouse", graph=graph)
cap = vm_bytes("VmSize") + headroom
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
report = db.solve(game, "cm", strategy=engine, memory_limit=limit)
print(report.positions, report.moves, vm_bytes("VmPeak") - (cap - headroom))
"""


def _solve_capped(path: Path, graph: str, engine: str, limit: str):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MALLOC_ARENA_MAX="2")
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(path), graph, engine, limit, str(HEADROOM)],
        capture_output=True, text=True, env=env, timeout=600,
    )


def test_game_larger_than_memory_solves_in_sql_under_a_memory_cap(tmp_path):
    graph = json.dumps(random_graph(random.Random(11), 300, 0.03))
    game = make_game("cat-mouse", graph=graph)
    reference = Database(tmp_path / "reference.sqlite", create=True)
    reference.solve(game, "cm", strategy="memory")
    from gamedb.solvers.graph_memory import estimate_bytes

    solved = reference.game("cm")
    assert estimate_bytes(solved.positions, solved.moves) > HEADROOM  # the in-memory engine's arrays outgrow the cap

    # in memory, the game does not fit under the cap
    in_memory = _solve_capped(tmp_path / "memory.sqlite", graph, "memory", "100G")
    assert in_memory.returncode != 0
    assert "MemoryError" in in_memory.stderr or "Cannot allocate memory" in in_memory.stderr, in_memory.stderr[-2000:]

    # auto with --memory-limit: the retrograde strategy (24 bytes per position) fits 30M; under 3M the SQL engine
    # solves it; both within the cap
    for limit, strategy in (("30M", "retrograde"), ("3M", "graph-sql")):
        capped = _solve_capped(tmp_path / f"capped-{limit}.sqlite", graph, "auto", limit)
        assert capped.returncode == 0, capped.stderr[-2000:]
        positions, moves, used = map(int, capped.stdout.split())
        assert positions == reference.game("cm").positions and used <= HEADROOM
        assert Database(tmp_path / f"capped-{limit}.sqlite").game("cm").strategy == strategy
        assert_same_game(reference, Database(tmp_path / f"capped-{limit}.sqlite"), "cm", ignore=RUN_COLUMNS)
