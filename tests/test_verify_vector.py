"""verify's fast pass on arrays (cat and mouse) agrees with the exact pass on every table.

The fast pass may only say "every row agrees"; when it does, the exact
pass must find nothing either, and when the exact pass finds a wrong row,
the fast pass must not agree. Checked on untouched tables of random graphs
and after random hand edits of every column (values of the right type and
of the wrong one), each on a fresh copy of the file.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from contextlib import closing

import duckdb
import numpy as np
import pytest

from gamedb import Database, make_game
from gamedb.errors import VerifyError
from gamedb.solvers import vector_verify as verify_vector
from gamedb.solvers.capabilities import array_rules
from gamedb.store import rows

from oracles.cat_mouse import random_graph

GRAPHS = [random_graph(random.Random(seed), n, p) for seed, (n, p) in enumerate([(5, 0.3), (7, 0.2), (9, 0.35), (12, 0.1), (8, 0.6)])]
GRAPHS.append([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])  # LeetCode 913 example 1: draws

#: hand edits: column -> values to try (besides values taken from other rows)
ODD_VALUES = {
    "text": ["", "mouse=1,cat=2,turn=mouse ", 7],
    "player": [2, -1, "0", None, 1.0],
    "result": ["WIN", "", None, 1, "draw ", 7],
    "remoteness": [None, -1, 0, 1, 10**12, "1", 2.0],
    "degree": [-1, 0, 99, "2", None],
    "best_move": [None, "", "99", 3, "x"],
    "grundy": [0, 1, None],
}


def _solve(location, graph) -> None:
    with Database(location, create=True) as db:
        db.solve(make_game("cat-mouse", graph=json.dumps(graph)), "cm")


def _fast(path):
    with Database(path) as db:
        return _fast_on(db)


def _fast_on(db):
    record, game = db.rules("cm")
    with db.engine.connect() as conn:
        return verify_vector.all_agree(conn, record.id, game.vector(), total=record.positions)


def _exact_fails(path, monkeypatch, name: str = "cm") -> bool:
    with monkeypatch.context() as m:
        m.setattr(verify_vector, "applies", lambda rows, vector: False)  # the exact pass alone
        with Database(path) as db:
            try:
                db.verify(name)
            except VerifyError:
                return True
    return False


@pytest.mark.parametrize("index", range(len(GRAPHS)))
def test_untouched_tables_agree(tmp_path, index, monkeypatch):
    path = tmp_path / "cm.sqlite"
    _solve(path, GRAPHS[index])
    with sqlite3.connect(path) as con:
        stored = con.execute("SELECT COUNT(*) FROM position").fetchone()[0]
    assert _fast(path) == stored
    assert not _exact_fails(path, monkeypatch)


def _connect(path):
    """A plain connection to the file (sqlite3 or duckdb), outside gamedb, to edit it by hand; closed after."""
    if path.suffix == ".duckdb":
        return closing(duckdb.connect(str(path)))
    return closing(sqlite3.connect(path, isolation_level=None))


@pytest.mark.parametrize("suffix", [".sqlite", ".duckdb"])
@pytest.mark.parametrize("index", range(len(GRAPHS)))
def test_fast_pass_agrees_only_when_the_exact_pass_does(tmp_path, index, suffix, monkeypatch):
    """SQLite keeps any value in any column; DuckDB's typed columns (read as numpy arrays) keep the edits they can cast."""
    template = tmp_path / f"template{suffix}"
    _solve(template, GRAPHS[index])
    with _connect(template) as con:
        codes = [c for (c,) in con.execute("SELECT code FROM position ORDER BY code").fetchall()]
        column_values = {col: [v for (v,) in con.execute(f"SELECT DISTINCT {col} FROM position").fetchall()] for col in ODD_VALUES}
    rng = random.Random(index)
    edits = 0
    for trial in range(40):
        column = rng.choice(sorted(ODD_VALUES))
        code = rng.choice(codes)
        value = rng.choice(ODD_VALUES[column] + column_values[column])
        path = tmp_path / f"edit{trial}{suffix}"
        shutil.copy(template, path)
        with _connect(path) as con:
            before = con.execute(f"SELECT {column} FROM position WHERE code = ?", (code,)).fetchone()[0]
            try:
                con.execute(f"UPDATE position SET {column} = ? WHERE code = ?", (value, code))
            except (sqlite3.IntegrityError, duckdb.ConstraintException, duckdb.ConversionException):
                continue  # NOT NULL, UNIQUE or a type the column cannot hold: not an edit a user can make
        fast, exact_fails = _fast(path), _exact_fails(path, monkeypatch)
        assert (fast is None) == exact_fails, (column, code, before, value)
        edits += exact_fails
        path.unlink()
    assert edits > 10  # most edits are caught (by both)


def test_fast_pass_reads_duckdb_columns_as_arrays(tmp_path, monkeypatch):
    """DuckDB's typed columns come as numpy arrays (fetchnumpy), not as a tuple per row."""
    path = tmp_path / "cm.duckdb"
    _solve(path, GRAPHS[2])
    pages, read_page = [], verify_vector._read_page
    monkeypatch.setattr(verify_vector, "_read_page", lambda table, vector, page: read_page(table, vector, pages.append(page) or page))
    with Database(path) as db:
        assert _fast_on(db) == db.game("cm").positions
    assert pages and all(isinstance(column, np.ndarray) for page in pages for column in page.values())


def test_fast_pass_reads_postgresql_too(backend_db):
    """On either backend the fast pass agrees on an untouched table: verify never falls back there."""
    db = backend_db()
    db.solve(make_game("cat-mouse", graph=json.dumps(GRAPHS[2])), "cm")
    assert _fast_on(db) == db.game("cm").positions


def _solve_connect4(path, monkeypatch, texts: bool) -> None:
    """Connect-Four 4x3 by tiers, one row per mirror class, with its move-sequence texts or (as a game of 10^6 positions or
    more is) without them."""
    with monkeypatch.context() as m:
        if not texts:
            m.setattr(rows, "TEXT_LEFT_OUT_FROM", 0)
        with Database(path, create=True) as db:
            db.solve(make_game("connect4", width=4, height=3), "c4", strategy="tiers")


def _fast_c4(path):
    with Database(path) as db:
        record, game = db.rules("c4")
        with db.engine.connect() as conn:
            return verify_vector.all_agree(conn, record.id, array_rules(game), total=record.positions, symmetric=True)


@pytest.mark.parametrize("by_tiers", [False, True], ids=["in-memory", "by-tiers"])
@pytest.mark.parametrize("suffix", [".sqlite", ".duckdb"])
def test_fast_pass_checks_a_tier_familys_classes(tmp_path, suffix, by_tiers, monkeypatch):
    """Connect-Four's tier rules on arrays (no vector rules of its own): without texts the fast pass agrees, and after
    hand edits it agrees only where the exact pass does; with texts (the least move sequence: the exact pass's) it leaves
    the table to the exact pass. ``by_tiers``: the rows do not fit in memory at once, so they are spilled to files by
    tier and checked a tier at a time (Connect-Four 6x5's 1.4·10^9 classes on a 24 GB machine)."""
    if by_tiers:
        monkeypatch.setattr(verify_vector, "fits", lambda rows, memory_limit=None: False)
        spilled = []
        real_load = verify_vector._Spill.load
        monkeypatch.setattr(verify_vector._Spill, "load", lambda self, t: spilled.append(t) or real_load(self, t))
    with_texts = tmp_path / f"texts{suffix}"
    _solve_connect4(with_texts, monkeypatch, texts=True)
    assert _fast_c4(with_texts) is None
    with Database(with_texts) as db:
        assert db.verify("c4").positions == db.game("c4").positions
    template = tmp_path / f"template{suffix}"
    _solve_connect4(template, monkeypatch, texts=False)
    with _connect(template) as con:
        codes = [c for (c,) in con.execute("SELECT code FROM position ORDER BY code").fetchall()]
        assert con.execute("SELECT COUNT(text) FROM position").fetchone()[0] == 0
    assert _fast_c4(template) == len(codes) > 500
    phases: set[str] = set()
    with Database(template) as db:  # `verify` takes the fast pass (the exact one alone: 15,000 positions a second)
        assert db.verify("c4", progress=lambda phase, done, total: phases.add(phase)).positions == len(codes)
    assert "check" in phases and "verify" not in phases
    assert not by_tiers or sorted(set(spilled)) == list(range(13))  # (every tier read back from its files: 12 plies)
    assert [p.name for p in tmp_path.iterdir() if "verify" in p.name] == []  # (the spill folder, beside the file: removed)
    rng, edits = random.Random(4), 0
    for trial in range(25):
        column = rng.choice(["result", "remoteness", "best_move", "code", "degree"])
        value = rng.choice({"result": [1, 2, 3, 4], "remoteness": [0, 1, 5, None], "best_move": ["1", "4", None, "9"],
                            "code": [rng.choice(codes) + 1, 3], "degree": [0, 1, 4]}[column])
        path = tmp_path / f"edit{trial}{suffix}"
        shutil.copy(template, path)
        with _connect(path) as con:
            try:
                con.execute(f"UPDATE position SET {column} = ? WHERE code = ?", (value, rng.choice(codes)))
            except (sqlite3.IntegrityError, duckdb.ConstraintException, duckdb.ConversionException):
                continue
        exact_fails = _exact_fails(path, monkeypatch, "c4")
        assert (_fast_c4(path) is None) == exact_fails, (column, value)
        edits += exact_fails
        path.unlink()
    assert edits > 8


def test_a_duckdb_file_not_in_code_order_is_left_to_the_exact_pass(tmp_path, monkeypatch):
    """The fast pass reads a DuckDB file a range of row numbers at a time: rows stored out of code order (here in reverse)
    make it stand aside, and the exact pass still verifies every value."""
    monkeypatch.setattr(verify_vector, "CHUNK", 16)  # pages of 16 rows: 135 positions in 9 of them
    path = tmp_path / "cm.duckdb"
    _solve(path, GRAPHS[2])
    assert _fast(path) == 135
    with _connect(path) as con:
        con.execute("CREATE TEMP TABLE reversed AS SELECT * FROM position ORDER BY code DESC")
        con.execute("DELETE FROM position")
        con.execute("INSERT INTO position SELECT * FROM reversed ORDER BY code DESC")
        con.execute("CHECKPOINT")
    assert _fast(path) is None
    with Database(path) as db:
        assert db.verify("cm").positions == db.game("cm").positions


@pytest.mark.parametrize("change", ["other", "unknown"])
def test_a_duckdb_page_gives_best_moves_as_label_ids(tmp_path, change):
    """A DuckDB page gives each best move as its label's id (and the result as its stored code): the fast pass agrees, and
    fails a best move changed by hand to another label's id, or to an id no label has."""
    path = tmp_path / "cm.duckdb"
    _solve(path, GRAPHS[2])
    assert _fast(path) == 135
    with _connect(path) as con:
        code, label = con.execute("SELECT code, best_move FROM position WHERE best_move IS NOT NULL ORDER BY code LIMIT 1").fetchone()
        assert isinstance(label, int)
        other = con.execute("SELECT max(best_move) FROM position WHERE best_move <> ?", (label,)).fetchone()[0]
        if change == "unknown":
            other = con.execute("SELECT max(id) + 1 FROM move_label").fetchone()[0]
        con.execute("UPDATE position SET best_move = ? WHERE code = ?", (other, code))
    assert _fast(path) is None


def test_a_spill_that_fills_the_disk_says_so_in_one_line(tmp_path, monkeypatch):
    """The rows of a tier game too large to hold go to a folder beside the database file; a full disk there is one line
    that says where and how much, and the folder is gone."""
    import errno

    from gamedb.store.disk_full import DiskFull

    path = tmp_path / "c4.sqlite"
    _solve_connect4(path, monkeypatch, texts=False)
    monkeypatch.setattr(verify_vector, "fits", lambda rows, memory_limit=None: False)
    folders = []

    def full(self, *args):
        folders.append(self.folder)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(verify_vector._Spill, "add", full)
    with Database(path) as db, pytest.raises(DiskFull) as caught:
        db.verify("c4")
    assert folders and folders[0].parent == tmp_path and not folders[0].exists()
    assert "no space left on device while verify spilled the rows to" in str(caught.value) and "needs about" in str(caught.value)
    assert "\n" not in str(caught.value)
