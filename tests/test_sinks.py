"""The Sink interface is all a new store implements: the solvers write the same rows into any sink.

A store that keeps rows in Python lists (what a new backend would implement,
and nothing more) is handed to the heap solver and the in-memory graph
solver as they are; what it holds must equal, row for row, what the full
path (Database.solve, SQLAlchemy) stores for the same game.
"""

from __future__ import annotations

import json
from collections import defaultdict
from contextlib import nullcontext

import pytest

from gamedb import Database, make_game
from gamedb.solvers import retrograde
from gamedb.solvers.heaps import solver as heap_solver
from gamedb.store.schema import metadata
from gamedb.store.sink import Begun, Sink, new_game_row, player_rows, values_of
from gamedb.store.status import SOLVED

from tables import RUN_COLUMNS, game_row, game_rows


class ListSink:
    """A store of lists: every method of the Sink protocol, nothing else."""

    writes_outside_gil = True  # (the tier writer reads the next range in a thread meanwhile, as into DuckDB)

    def __init__(self, name, game, strategy):
        self.name, self.game, self.strategy = name, game, strategy
        self.row: dict = {}
        self.tables: dict[str, list[dict]] = defaultdict(list)
        self.commits = 0
        self.finished = False

    def begin(self) -> Begun:
        self.row = {**{c.name: None for c in metadata.tables["game"].columns}, "id": 7, **new_game_row(self.name, self.game, self.strategy)}
        self.rows("player", player_rows(7, self.game))
        return Begun(7, self.row["status"], {}, False)

    def clear(self, tables):
        for table in tables:
            self.tables[table] = []

    def rows(self, table, rows):
        self.tables[table] += [dict(row) for row in rows]

    def columns(self, table, columns):
        values = [values_of(column) for column in columns.values()]
        self.tables[table] += [{"game_id": 7, **dict(zip(columns, row, strict=True))} for row in zip(*values, strict=True)]

    def loading(self, table, rows, notes=None):
        self.notes = notes
        return nullcontext()

    def update(self, **values):
        self.row.update(values)

    def commit(self):
        self.commits += 1

    def finish(self, **values):
        self.update(**values)
        self.finished = True

    def abort(self):
        self.tables.clear()

    def stored(self) -> dict[str, list[tuple]]:
        """Its rows as tests/tables.game_rows gives a database's: by primary key, without the game id (a best move as
        its label: a database numbers them in ``move_label``, left out)."""
        found = {}
        for table in metadata.sorted_tables:
            if "game_id" in table.c and table.name not in ("solve_queue", "solve_counter", "move_label"):
                names = [c.name for c in table.columns if c.name != "game_id"]
                key = [names.index(c.name) for c in table.primary_key.columns if c.name != "game_id"]
                rows = [tuple(row.get(n) for n in names) for row in self.tables[table.name]]
                found[table.name] = sorted(rows, key=lambda r: [r[k] for k in key])
        return found


GRAPH = json.dumps([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])


#: (family, options, commits: the rules, then one per batch of 100 heaps; a graph solve commits only when it finishes)
GAMES = [
    ("octal", {"code": "0.77", "max": 90}, 2),
    ("subtraction", {"set": "1,2,5", "max": 300}, 4),
    ("cat-mouse", {"graph": GRAPH}, 0),
    ("cat-mouse-grid", {"grid": '["M..#","..#C","F..."]'}, 0),
]


@pytest.mark.parametrize("fam,options,commits", GAMES)
def test_a_store_of_lists_gets_what_the_database_gets(tmp_path, monkeypatch, fam, options, commits):
    game = make_game(fam, **options)
    sink: Sink = ListSink("g", game, "heaps" if game.capabilities.heap_rules else "retrograde")
    monkeypatch.setattr(heap_solver, "WRITE_BATCH", 100)  # several committed batches for the larger heap game
    if game.capabilities.heap_rules:
        solved = heap_solver.solve(sink, game)
    else:
        solved = retrograde.solve(sink, game, memory_limit=1 << 30)
    with Database(tmp_path / "full.sqlite", create=True) as db:
        db.solve(game, "g")
        expected_rows, expected_game = game_rows(db, "g"), game_row(db, "g", ignore=RUN_COLUMNS)
        expected_strategy = game_row(db, "g")["strategy"]
    assert sink.finished and sink.row["status"] == SOLVED and sink.commits == commits
    assert (solved.positions, solved.moves) == (expected_game["positions"], expected_game["moves"])
    assert {k: v for k, v in sink.row.items() if k not in RUN_COLUMNS} == expected_game
    assert sink.row["strategy"] == expected_strategy  # the strategy the full path recorded
    assert sink.stored() == expected_rows
    assert expected_rows["position"]


def test_the_tier_solver_writes_into_any_sink(tmp_path):
    """The tier solver's rows go through the sink it is handed (a load over several commits, its notes kept in the
    solve's progress): a store of lists gets the rows the database gets."""
    from gamedb.solvers import tier_store
    from gamedb.solvers.tiers import enumerate_tiers, rules_of, solve_tiers

    game = make_game("connect4", width=4, height=3)
    rules = rules_of(game)
    folder = tier_store.TierFolder(tmp_path / "tiers")
    folder.reset()
    counts, _ = enumerate_tiers(game, rules, folder, memory_limit=1 << 30)
    folder.write_manifest({"key": "k", "tiers": {str(t): n for t, n in counts.items()}})
    sink = ListSink("g", game, "tiers")
    sink.begin()
    state = {"tiers": len(counts), "moves": 0}
    positions, moves = solve_tiers(sink, rules, folder, state)
    with Database(tmp_path / "full.sqlite", create=True) as db:
        db.solve(game, "g", strategy="tiers", symmetry=False)  # as solve_tiers above: every position
        expected_rows, expected_game = game_rows(db, "g"), game_row(db, "g", ignore=RUN_COLUMNS)
    assert sink.finished and sink.row["status"] == SOLVED and sink.commits == len(counts) + 1  # a commit per tier, one range
    assert (positions, moves) == (expected_game["positions"], expected_game["moves"]) and sink.row["progress"] == expected_game["progress"]
    assert sink.notes is state  # the sink's notes on the load go into the solve's progress
    assert sink.stored()["position"] == expected_rows["position"] and len(expected_rows["position"]) == positions
    assert not folder.path.exists()


def test_copy_writes_through_the_destinations_sink(tmp_path, monkeypatch):
    """``gamedb copy`` appends through the destination's SqlSink: columns in, the same rows out."""
    from gamedb.store import sql_sink, transfer

    calls: list[str] = []

    class Counting(sql_sink.SqlSink):
        def columns(self, table, columns):
            calls.append(table)
            super().columns(table, columns)

    monkeypatch.setattr(transfer, "SqlSink", Counting)
    monkeypatch.setattr(transfer, "PAGE", 7)  # several pages
    with Database(tmp_path / "a.sqlite", create=True) as src, Database(tmp_path / "b.sqlite", create=True) as dst:
        for fam, options in (("cat-mouse-grid", {"grid": '["M..#","..#C","F..."]'}), ("subtraction", {"set": "1,2,5", "max": 30})):
            src.solve(make_game(fam, **options), fam)
        src.copy_to(dst)
        for fam in ("cat-mouse-grid", "subtraction"):
            assert game_rows(src, fam)["position"]
            assert game_rows(dst, fam) == game_rows(src, fam)
            assert game_row(dst, fam) == game_row(src, fam)
    assert calls.count("position") > 2 and calls.count("move") > 2


def test_a_column_of_label_ids_reads_as_its_strings_everywhere(tmp_path):
    """A :class:`LabelColumn` (indices into a list of labels, -1 NULL) is what its strings are to a row store, end to end and
    sliced; into DuckDB it goes as its indices and its names, with the same rows as the strings'."""
    import numpy as np

    from gamedb.store.duckdb_file import append_columns, connect
    from gamedb.store.sink import LabelColumn, column_inserts, scattered

    a, b = LabelColumn(np.array([1, -1, 0], dtype=np.int32), ["x", "y"]), LabelColumn(np.array([0, -1], dtype=np.int32), ["z"])
    assert values_of(a) == ["y", None, "x"] and values_of(a[1:]) == [None, "x"] and len(a) == 3
    assert values_of(LabelColumn.joined([a, b])) == ["y", None, "x", "z", None]
    assert values_of(LabelColumn.joined([a, a[:1]])) == ["y", None, "x", "y"]
    assert values_of(scattered(4, np.array([0, 2]), LabelColumn(np.array([1, 0], dtype=np.int32), ["p", "q"]))) == ["q", None, "p", None]
    assert values_of(scattered(3, np.array([1]), ["s"])) == [None, "s", None]
    ((_, rows),) = column_inserts("t", {"k": [1, 2, 3], "label": a}, {})
    assert rows == [(1, "y", 2, None, 3, "x")]
    conn = connect(tmp_path / "t.duckdb", read_only=False)
    conn.execute("CREATE TABLE t (g INTEGER, k INTEGER, label VARCHAR)")
    append_columns(conn, "t", {"k": np.arange(5), "label": LabelColumn.joined([a, b])}, {"g": 7})
    append_columns(conn, "t", {"k": np.arange(5, 7), "label": LabelColumn(np.array([-1, -1], dtype=np.int32), [])}, {"g": 7})  # no names at all
    append_columns(conn, "t", {"k": np.array([7]), "label": LabelColumn(np.array([2], dtype=np.int32), ["p", "q", "r"])}, {"g": 7})  # (as strings)
    assert conn.execute("SELECT g, k, label FROM t ORDER BY k").fetchall() == [
        (7, 0, "y"), (7, 1, None), (7, 2, "x"), (7, 3, "z"), (7, 4, None), (7, 5, None), (7, 6, None), (7, 7, "r")]
    conn.close()
