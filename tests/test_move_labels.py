"""Best moves as label ids (revision 0008): each game's move labels stored once in ``move_label``.

Every writer numbers a game's labels the same way (gamedb.store.move_labels): stored ones keep their ids, new ones
get the next as first met; the SQL solver numbers them in name order. The readers and the ``positions`` view say the
labels; an id no label has is damage in one line; a file at 0007 (labels in the rows) answers as it is, and
``db upgrade`` numbers its labels with the same outputs.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from test_packed_positions import GAMES, _alembic, _downgrade, _outputs, _process_cli, _raw

from gamedb import Database, make_game
from gamedb.store.database import head_revision
from gamedb.store.move_labels import MoveLabels
from gamedb.store.sink import LabelColumn

CAT_MOUSE = GAMES[2]


def _solve(path: Path, games=GAMES, **options) -> None:
    with Database(path, create=True) as db:
        for name, family, parameters in games:
            db.solve(make_game(family, **parameters), name, symmetry=False, **options)


def _labels_of(path: Path, game: str) -> dict[int, str]:
    return dict(_raw(path, f"SELECT l.id, l.name FROM move_label l JOIN game g ON g.id = l.game_id WHERE g.name = '{game}'"))


def test_ids_are_given_as_labels_are_first_met_and_stored_ones_keep_theirs():
    labels = MoveLabels({"a": 0, "b": 1})
    assert labels.ids(["b", None, "c", "a", "c"]) == [1, None, 2, 0, 2]
    assert labels.unwritten() == {"id": [2], "name": ["c"]}  # (columns, as every sink writes them)
    names = ["x", "c", "y"]  # a label table: all its names numbered at once, in its order
    column = labels.ids(LabelColumn(np.array([2, -1, 0, 1]), names))
    assert column.tolist() == [4, None, 3, 2]
    assert labels.unwritten() == {"id": [3, 4], "name": ["x", "y"]} and labels.unwritten() is None
    assert labels.mapping(names) is labels.mapping(names)  # worked out once for a table given with every batch
    names.append("z")  # a table the solver added to
    assert labels.mapping(names).tolist() == [3, 2, 4, 5, -1]
    ids = np.array([0, 5])
    assert labels.ids(ids) is ids  # an integer array is ids
    assert labels.ids(("9", None)) == [6, None]  # a sequence is labels: no value looked at to tell (a copy says it hands ids)


def test_a_copy_says_it_hands_stored_ids_and_they_go_as_they_are(tmp_path, monkeypatch):
    """`gamedb copy` writes the game's move_label rows, then its positions' ids as they are: the sink is told so, and
    numbers nothing (it looked at every value of a page to tell ids from labels)."""
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    _solve(a, GAMES[:1])

    def numbered(self, column):
        raise AssertionError("a copy's best moves were handed to MoveLabels")

    monkeypatch.setattr(MoveLabels, "ids", numbered)
    with Database(a) as src, Database(b, create=True) as dst:
        src.copy_to(dst)
    for table in ("move_label", "position"):
        assert _raw(b, f"SELECT * FROM {table} ORDER BY 1, 2") == _raw(a, f"SELECT * FROM {table} ORDER BY 1, 2")


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_best_moves_are_label_ids_and_the_view_says_the_labels(tmp_path, suffix):
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
    path = tmp_path / f"g.{suffix}"
    _solve(path)
    for name, _, _ in GAMES:
        labels = _labels_of(path, name)
        assert sorted(labels) == list(range(len(labels)))  # numbered from 0, each label once
        assert len(set(labels.values())) == len(labels)
        stored = _raw(path, f"SELECT p.best_move FROM position p JOIN game g ON g.id = p.game_id WHERE g.name = '{name}' AND p.best_move IS NOT NULL")
        assert stored and {type(i) for (i,) in stored} == {int} and {i for (i,) in stored} <= set(labels)
        shown = _raw(path, f"SELECT code, best_move FROM positions WHERE game = '{name}' ORDER BY code")
        raw = _raw(path, f"SELECT p.code, p.best_move FROM position p JOIN game g ON g.id = p.game_id WHERE g.name = '{name}' ORDER BY p.code")
        assert shown == [(code, labels.get(i) if i is not None else None) for code, i in raw]
    with Database(path) as db:
        assert db.probe("tictactoe", "XX.OO....").best_move == "3"


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_the_same_solve_gives_the_same_ids(tmp_path, suffix):
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
    a, b = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    _solve(a)
    _solve(b)
    for table in ("move_label", "position"):
        assert _raw(a, f"SELECT * FROM {table} ORDER BY ALL" if suffix == "duckdb" else f"SELECT * FROM {table} ORDER BY 1, 2") == \
            _raw(b, f"SELECT * FROM {table} ORDER BY ALL" if suffix == "duckdb" else f"SELECT * FROM {table} ORDER BY 1, 2")


def test_the_sql_solver_numbers_labels_in_name_order_and_answers_as_the_others(cli, tmp_path):
    arrays, sql = tmp_path / "arrays.sqlite", tmp_path / "sql.sqlite"
    _solve(arrays, [CAT_MOUSE, GAMES[0]])
    _solve(sql, [CAT_MOUSE, GAMES[0]], strategy="sql")
    for name in ("cat-mouse", "tictactoe"):
        labels = _labels_of(sql, name)
        assert list(labels.values()) == sorted(labels.values()) and sorted(labels) == list(range(len(labels)))
    assert _outputs(cli, sql, [CAT_MOUSE, GAMES[0]]) == _outputs(cli, arrays, [CAT_MOUSE, GAMES[0]])
    assert cli("verify", "cat-mouse", db=sql).exit_code == 0


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_a_best_move_no_label_has_is_damage_in_one_line(tmp_path, suffix):
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
    path = tmp_path / f"g.{suffix}"
    _solve(path, GAMES[:1])
    if suffix == "duckdb":
        from gamedb.store.duckdb_file import connect

        conn = connect(path, read_only=False)
        conn.execute("UPDATE position SET best_move = 999 WHERE text = 'XX.OO....'")
        conn.close()
    else:
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE position SET best_move = 999 WHERE text = 'XX.OO....'")
    run = _process_cli("query", "tictactoe", "XX.OO....", db=path)
    assert run.exit_code == 1 and run.stderr.count("\n") == 1, run.stderr
    assert "best_move '999' is the id of none of the game's move labels" in run.stderr
    run = _process_cli("verify", "tictactoe", db=path)
    assert run.exit_code == 1 and "999" in run.stderr + run.stdout


def test_text_where_a_label_id_belongs_is_damage_too(cli, db_path):
    _solve(db_path, GAMES[:1])
    with sqlite3.connect(db_path) as conn:  # (SQLite keeps text in an INTEGER column)
        conn.execute("UPDATE position SET best_move = 'nowhere' WHERE text = 'XX.OO....'")
    run = cli("query", "tictactoe", "XX.OO....")
    assert run.exit_code == 1 and "best_move 'nowhere' is the id of none of the game's move labels" in run.stderr


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_a_file_at_0007_answers_as_it_is_and_db_upgrade_numbers_its_labels(cli, tmp_path, suffix):
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
        cli = _process_cli  # (see test_packed_positions: a read-only DuckDB instance may outlive an in-process run)
    path = tmp_path / f"old.{suffix}"
    _solve(path)
    before = _outputs(cli, path)
    _downgrade(path, "0007")
    assert _raw(path, "SELECT version_num FROM alembic_version") == [("0007",)]
    assert {type(b) for (b,) in _raw(path, "SELECT best_move FROM position WHERE best_move IS NOT NULL")} == {str}  # labels, as 0007 stored
    assert _outputs(cli, path) == before  # read as it is: no upgrade asked for
    assert "db upgrade`" in cli("verify", "nim", db=path).stderr
    run = cli("db", "upgrade", db=path)
    assert run.exit_code == 0 and f"to {head_revision()}" in run.stdout, run.stderr
    labels = _labels_of(path, "tictactoe")
    assert list(labels.values()) == sorted(labels.values())  # numbered in name order by the upgrade
    assert _outputs(cli, path) == before
    for name, _, _ in GAMES:
        assert cli("verify", name, db=path).exit_code == 0


def test_a_postgresql_database_at_0007_is_upgraded_with_the_same_answers(cli, pg_url):
    with Database(pg_url) as db:
        for name, family, options in GAMES:
            db.solve(make_game(family, **options), name, symmetry=False)
    before = _outputs(cli, pg_url)  # type: ignore[arg-type]
    _alembic(pg_url, "downgrade", "0007")
    assert "db upgrade`" in cli("query", "nim", "3", db=pg_url).stderr  # a server is read at the newest revision only
    assert cli("db", "upgrade", db=pg_url).exit_code == 0
    assert _outputs(cli, pg_url) == before  # type: ignore[arg-type]
    for name, _, _ in GAMES:
        assert cli("verify", name, db=pg_url).exit_code == 0


def test_parts_labels_are_numbered_as_their_rows_in_code_order_would_be():
    """A part's best moves index a label list it carries (gamedb.store.part_files): a table numbered whole, in its order;
    labels met, in the order of the codes that first meet them in the range loaded (parts cut otherwise than the ranges:
    a tier's slices), each once; a name first met past the range waits for its range."""
    from gamedb.store.move_labels import LabelList
    from gamedb.store.part_files import indexed

    columns, met = indexed({"code": np.array([3, 5, 8, 9]), "best_move": np.array(["b", None, "a", "b"], dtype=object)})
    assert columns["best_move"].tolist() == [0, -1, 1, 0] and met == LabelList(["b", "a"], [3, 8])
    labels = MoveLabels({"z": 0})
    other = LabelList(["c", "a", "z"], [4, 20, 30])
    assert labels.in_parts([met, other], (0, 10)) == [[1, 3], [2, 3, 0]]  # b (3), c (4), a (8); z stored
    assert labels.unwritten() == {"id": [1, 2, 3], "name": ["b", "c", "a"]}
    assert labels.in_parts([LabelList(["d", "e"], [25, 12])], (10, 20)) == [[-1, 4]]  # d: first met past the range
    assert labels.in_parts([LabelList(["x", "c"])], (20, 30)) == [[5, 2]]  # a table: all of it


@pytest.mark.parametrize("kind", ["sqlite", "parquet"])
def test_a_part_without_its_label_list_asks_for_a_fresh_work_folder(tmp_path, kind):
    """Parts a gamedb before label lists wrote (the folder of a cluster solve begun by it) stop the load in one line."""
    from gamedb.errors import GamedbError
    from gamedb.store.part_files import parquet_labels, part_labels

    if kind == "sqlite":
        path = tmp_path / "t0_s0_9.part"
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE part (code, best_move)")
        read = lambda: part_labels(path)  # noqa: E731
    else:
        import duckdb
        import sqlalchemy as sa

        path = tmp_path / "t0_s0_9.parquet"
        duckdb.connect().execute(f"COPY (SELECT 1 AS code, 'a1' AS best_move) TO '{path}' (FORMAT parquet)")
        engine = sa.create_engine("duckdb:///:memory:")
        conn = engine.connect()
        read = lambda: parquet_labels(conn, [path])  # noqa: E731
    with pytest.raises(GamedbError, match=f"remove the folder {tmp_path}"):
        read()
