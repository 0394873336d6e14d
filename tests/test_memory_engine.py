"""The in-memory engine writes exactly the tables of the SQL engine, and falls back to it.

Every row of ``position`` and ``move`` (and the game row, but for clocks) is
compared between a solve with ``engine="sql"`` and one with
``engine="memory"``, on games with every kind of value: tic-tac-toe (ties),
Connect-Four, random cat-and-mouse graphs (draws, long wins), graph files
(ties, several moves to one child).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from gamedb import make_game
from gamedb.errors import GamedbError, InputError
from gamedb.games.base import Game
from gamedb.solvers.graph_memory import TooLarge

from conftest import SEED_GRAPH_1, SEED_GRAPH_2
from oracles.cat_mouse import random_graph
from oracles.cat_mouse_grid import random_grid
from tables import RUN_COLUMNS, assert_same_game

ROOT = Path(__file__).resolve().parents[1]


def _cat_mouse_graphs():
    rng = random.Random(20261122)
    graphs = [SEED_GRAPH_1, SEED_GRAPH_2]
    for _ in range(12):
        graphs.append(random_graph(rng, rng.randint(3, 40), rng.choice([0.0, 0.05, 0.1, 0.2, 0.4])))
    return graphs


#: cat-and-mouse grids (LeetCode 1728): the examples' and random ones (draws, long wins, staying put)
GRIDS = [
    {"grid": ["####F", "#C...", "M...."], "cat_jump": 1, "mouse_jump": 2},
    {"grid": ["C...#", "...#F", "....#", "M...."], "cat_jump": 2, "mouse_jump": 5},
    {"grid": ["...#F", ".#.##", "M.C.."]},
    *[{"grid": random_grid(random.Random(i), 4, 4, 0.2), "cat_jump": 1 + i % 2, "mouse_jump": 1 + i // 2} for i in range(4)],
]

CASES = [
    ("tictactoe", "tictactoe", {}),
    ("connect4-4x3", "connect4", {"width": 4, "height": 3}),
    ("connect4-3x3-k3", "connect4", {"width": 3, "height": 3, "connect": 3}),
    *[(f"graph-{p.stem}", "graph", {"file": str(p)}) for p in sorted((ROOT / "examples" / "graphs").glob("*.json"))],
    *[(f"cat-mouse-{i}", "cat-mouse", {"graph": json.dumps(g)}) for i, g in enumerate(_cat_mouse_graphs())],
    *[(f"grid-{i}", "cat-mouse-grid", options) for i, options in enumerate(GRIDS)],
]
#: the in-memory strategies, each held to the SQL engine's rows
IN_MEMORY = {"memory": "graph-memory", "retrograde": "retrograde"}


@pytest.mark.parametrize("strategy", IN_MEMORY)
@pytest.mark.parametrize("case_id,fam,options", CASES, ids=[c[0] for c in CASES])
def test_memory_engine_writes_the_sql_engines_rows(backend_db, case_id, fam, options, strategy):
    if backend_db.backend == "duckdb":
        pytest.skip("--strategy sql does not run on DuckDB (test_duckdb compares its rows with SQLite's)")
    sql_db, memory_db = backend_db(), backend_db()
    game = make_game(fam, **options)
    sql_db.solve(game, case_id, strategy="sql")
    phases = []
    report = memory_db.solve(game, case_id, strategy=strategy, progress=lambda phase, done, total: phases.append(phase))
    assert report.strategy == IN_MEMORY[strategy] and "write" in phases
    assert_same_game(sql_db, memory_db, case_id, ignore=RUN_COLUMNS)
    assert memory_db.verify(case_id).positions == memory_db.game(case_id).positions


def test_random_graph_files_with_repeated_moves_and_ties(fresh_db):
    """Graph files where several moves reach one child, terminal ties and cycles."""
    rng = random.Random(7)
    for _ in range(15):
        names = [f"p{i}" for i in range(rng.randint(2, 25))]
        positions = {}
        for name in names:
            if rng.random() < 0.25:
                positions[name] = {"player": rng.choice(["A", "B"]), "value": rng.choice(["win", "lose", "tie"])}
            else:
                moves = [{"label": f"m{j}", "to": rng.choice(names)} for j in range(rng.randint(1, 4))]
                positions[name] = {"player": rng.choice(["A", "B"]), "moves": moves}
        data = {"players": ["A", "B"], "start": names[0], "positions": positions}
        game = make_game("graph", file=json.dumps(data))
        a, b, c = fresh_db(), fresh_db(), fresh_db()
        a.solve(game, "g", strategy="sql")
        b.solve(game, "g", strategy="memory")
        c.solve(game, "g", strategy="retrograde")
        assert_same_game(a, b, "g", ignore=RUN_COLUMNS)
        assert_same_game(a, c, "g", ignore=RUN_COLUMNS)


def test_auto_solves_small_games_in_memory_and_large_ones_in_sql(fresh_db):
    game = make_game("cat-mouse", graph=json.dumps(random_graph(random.Random(1), 30, 0.1)))
    reference = fresh_db()
    reference.solve(game, "cm", strategy="sql")

    small = fresh_db()
    assert small.solve(game, "cm").strategy == "retrograde"
    assert_same_game(reference, small, "cm", ignore=RUN_COLUMNS)

    tight = fresh_db()
    assert tight.solve(game, "cm", memory_limit="20k").strategy == "graph-sql"  # the in-memory engines gave up
    assert_same_game(reference, tight, "cm", ignore=RUN_COLUMNS)


def test_forced_memory_engine_over_budget_fails_cleanly(fresh_db):
    db = fresh_db()
    game = make_game("tictactoe")
    with pytest.raises(TooLarge):
        db.solve(game, "ttt", strategy="memory", memory_limit=10_000)
    # nothing was written; the same command with room solves it
    assert db.games() == []
    db.solve(game, "ttt", strategy="memory")
    assert db.probe("ttt").result == "tie"


def test_killed_while_writing_leaves_no_rows(fresh_db, monkeypatch):
    from gamedb.solvers import graph_solution as memory_engine

    db = fresh_db()
    game = make_game("tictactoe")
    original = memory_engine.write

    def write_then_die(sink, *args, **kwargs):
        original(sink, *args, **kwargs)
        raise KeyboardInterrupt  # after every row is inserted, before the commit

    monkeypatch.setattr(memory_engine, "write", write_then_die)
    with pytest.raises(KeyboardInterrupt):
        db.solve(game, "ttt", strategy="memory")
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM position").scalar() == 0
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM move").scalar() == 0
    monkeypatch.setattr(memory_engine, "write", original)
    report = db.solve(game, "ttt")
    assert not report.resumed and report.positions == 765  # nothing was left to resume (tiers: one per symmetry class)


def test_engine_option_is_checked(fresh_db):
    db = fresh_db()
    with pytest.raises(InputError, match="auto, tiers, retrograde, memory, sql"):
        db.solve(make_game("tictactoe"), strategy="fast")
    with pytest.raises(InputError, match="memory_limit="):
        db.solve(make_game("tictactoe"), memory_limit="lots")


def test_memory_engine_does_not_resume_a_begun_sql_solve(fresh_db, monkeypatch):
    """An interrupted SQL solve resumes in SQL under auto; forcing memory on it is refused."""
    from gamedb.solvers import graph_sql as sql_engine

    db = fresh_db()
    game = make_game("cat-mouse", graph=json.dumps(SEED_GRAPH_1))

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    original = sql_engine.propagate
    monkeypatch.setattr(sql_engine, "propagate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        db.solve(game, "cm", strategy="sql")
    monkeypatch.setattr(sql_engine, "propagate", original)
    with pytest.raises(InputError, match="unfinished solve of this game by the graph-sql strategy"):
        db.solve(game, "cm", strategy="memory")
    assert db.solve(game, "cm").strategy == "graph-sql" and db.probe("cm").result == "draw"


class _Stuck(Game):
    """Position 1 is not over but has no move: broken rules."""

    family = "stuck"

    def start(self):
        return 0

    def moves(self, state):
        return [("go", 1)] if state == 0 else []

    def primitive(self, state):
        return None

    def to_move(self, state):
        return state

    def encode(self, state):
        return state

    def decode(self, code):
        return code

    def format(self, state):
        return f"s{state}"

    def parse(self, text):
        return int(text[1:])


@pytest.mark.parametrize("engine", ["sql", "memory", "retrograde"])
def test_stuck_position_is_reported_by_every_engine(fresh_db, engine):
    with pytest.raises(GamedbError, match="'s1' has no legal moves"):
        fresh_db().solve(_Stuck(), "stuck", strategy=engine)


@pytest.mark.parametrize("graph", _cat_mouse_graphs()[:6])
def test_cat_mouse_vector_rules_agree_with_expand(graph):
    game = make_game("cat-mouse", graph=json.dumps(graph))
    vector = game.vector()
    n = len(graph)
    codes = np.array([c for c in range(vector.code_limit) if (c >> 1) % n != 0], dtype=np.int64)
    exp = vector.expand(codes)
    texts = vector.texts(codes)
    offset = np.concatenate(([0], np.cumsum(exp.degree)))
    labels = vector.labels(np.repeat(codes, exp.degree), exp.children)
    names = {0: None, 1: "win", 2: "lose", 3: "tie"}
    for i, code in enumerate(codes.tolist()):
        player, text, prim, moves = game.expand(code)
        assert (player, text, prim) == (exp.player[i], texts[i], names[int(exp.primitive[i])])
        assert [child for _, child in moves] == exp.children[offset[i] : offset[i + 1]].tolist()
        assert [label for label, _ in moves] == labels[offset[i] : offset[i + 1]]


@pytest.mark.parametrize("engine", ["sql", "memory"])
def test_solved_file_is_one_analyzed_file(tmp_path, engine):
    """After a solve: WAL checkpointed and gone, journal back to DELETE, planner statistics stored."""
    import sqlite3

    from gamedb import Database

    path = tmp_path / "one.sqlite"
    db = Database(path, create=True)
    db.solve(make_game("cat-mouse", graph=json.dumps(SEED_GRAPH_1)), strategy=engine)
    db.solve(make_game("tictactoe"), strategy=engine)
    db.solve(make_game("tictactoe"), strategy=engine)  # already solved: a no-op leaves the file as it is
    db.close()
    assert not (tmp_path / "one.sqlite-wal").exists() and not (tmp_path / "one.sqlite-shm").exists()
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        analyzed = {row[0] for row in con.execute("SELECT tbl FROM sqlite_stat1")}
    assert {"position", "move"} <= analyzed


def test_cat_mouse_fast_paths_write_the_same_rows(fresh_db, monkeypatch):
    """Both engines on the numpy fast path against the per-position rules."""
    game = make_game("cat-mouse", graph=json.dumps(random_graph(random.Random(3), 25, 0.15)))
    reference = fresh_db()
    monkeypatch.setattr(type(game), "vector", lambda self: None)  # one expand() per position
    reference.solve(game, "cm", strategy="sql")
    monkeypatch.undo()
    for engine in ("sql", "memory"):
        db = fresh_db()
        db.solve(game, "cm", strategy=engine)
        assert_same_game(reference, db, "cm", ignore=RUN_COLUMNS)


def test_sql_engine_statements_are_driven_by_indexes(fresh_db):
    """EXPLAIN QUERY PLAN of every level statement: no full scan of position or move (see DESIGN, known pitfalls)."""
    import re

    from gamedb.solvers.graph_sql import TOKEN_MOVES, statements

    db = fresh_db()
    db.solve(make_game("cat-mouse", graph=json.dumps(random_graph(random.Random(4), 30, 0.1))), "cm", strategy="sql")
    db.solve(make_game("tictactoe"), strategy="sql")
    with db.engine.connect() as conn:
        for name, stmt in [*statements("sqlite").items(), *((f"{n} (move lists)", s) for n, s in statements("sqlite", TOKEN_MOVES).items())]:
            sql = re.sub(r":\w+", "?", stmt.text)
            plan = [row[3] for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, (1,) * sql.count("?"))]
            scans = [step for step in plan if re.match(r"SCAN (position|move|c|m|p|s|b|solve_counter)\b", step)]
            assert not scans, (name, plan)
            if "move lists" in name:  # parents through the index on target, children by the key of the move lists
                assert any("ix_token_move_target" in step or "PRIMARY KEY (game_id=? AND player=? AND node=?)" in step for step in plan), (name, plan)
                assert not any(re.match(r"SCAN (m|b)\b", step) for step in plan), (name, plan)  # token_board (tb) is one row per game
            else:
                assert any("ix_move_child" in step or "PRIMARY KEY (game_id=? AND parent=?)" in step for step in plan), (name, plan)
