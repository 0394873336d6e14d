"""`gamedb compact` on a DuckDB file: written afresh, every row kept, the position rows in the dense order."""

from __future__ import annotations

import subprocess
import sys

import duckdb
import pytest

from gamedb import Database, make_game
from gamedb.store import duckdb_rewrite
from gamedb.store.duckdb_rewrite import ROW_GROUP

TABLES = ("game", "player", "position", "move", "heap_rule", "token_board", "token_move")
#: positions probed before and after: (game, position text or None for the start)
PROBES = [("sub", None), ("sub", "7"), ("c4", None), ("c4", "2213"), ("c4", "1111"), ("c4", "2323")]


def _rows(path) -> dict[str, list[tuple]]:
    """Every row of every table, sorted (the game row without its info, which records the compaction)."""
    conn = duckdb.connect(str(path), read_only=True)
    try:
        found = {t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in TABLES}
        names = [d[0] for d in conn.execute("SELECT * FROM game LIMIT 0").description]
    finally:
        conn.close()
    found["game"] = [tuple(v for k, v in zip(names, row, strict=True) if k != "info") for row in found["game"]]
    return found


def _physical(path) -> list[tuple[int, int, int, bool]]:
    """(rowid, game_id, code, has a best move) of the position rows, in the table's order."""
    conn = duckdb.connect(str(path), read_only=True)
    try:
        return conn.execute("SELECT rowid, game_id, code, best_move IS NOT NULL FROM position ORDER BY rowid").fetchall()
    finally:
        conn.close()


def _assert_dense(path, groups: int) -> list[tuple[int, int, int, bool]]:
    """The position rows of ``path`` in the dense order, in ``groups`` row groups; their :func:`_physical` rows."""
    rows = _physical(path)
    assert [r[0] for r in rows] == list(range(len(rows)))
    conn = duckdb.connect(str(path), read_only=True)
    sizes = conn.execute("SELECT sum(count) FROM pragma_storage_info('position') WHERE column_name = 'code' AND segment_type = 'BIGINT' "
                         "GROUP BY row_group_id ORDER BY row_group_id").fetchall()
    conn.close()
    assert [n for (n,) in sizes[:-1]] == [ROW_GROUP] * (groups - 1)  # DuckDB's row groups are the dense order's
    by_group: dict[int, list[tuple[int, int, int, bool]]] = {}
    for row in rows:
        by_group.setdefault(row[0] // ROW_GROUP, []).append(row)
    assert len(by_group) == groups
    last = (-1, -1)
    for members in by_group.values():  # row groups in (game, code) order, disjoint: their zone maps find a code
        keys = [(g, c) for _, g, c, _ in members]
        assert min(keys) > last
        last = max(keys)
        for game_id in {g for g, _ in keys}:  # inside a game's part: no best move first, each part by code
            part = [(has, code) for _, g, code, has in members if g == game_id]
            assert part == sorted(part)
    return rows


def _solved(path) -> list:
    with Database(path, create=True) as db:
        db.solve(make_game("subtraction", set="1,2,5", max="300000"), "sub")  # 300,001 rows: the next game starts mid row group
        db.solve(make_game("connect4", width="4", height="4"), "c4")  # 80,541 rows, 13,378 without a best move (over)
        db.build_indexes()  # the position table's indexes (`db index`): built again in the new file
        return [db.probe(name, text) for name, text in PROBES]


def test_compact_writes_a_duckdb_file_afresh_in_the_dense_order(tmp_path):
    path = tmp_path / "games.duckdb"
    answers = _solved(path)
    before = _rows(path)

    with Database(path) as db:
        report = db.compact("c4")
        assert report.game == "c4" and report.bytes_before is not None and report.bytes_after is not None
    assert _rows(path) == before  # every row of every table, as it was
    assert not list(tmp_path.glob(".games.duckdb.*"))  # the temporary file and its folders gone
    conn = duckdb.connect(str(path), read_only=True)
    assert conn.execute("SELECT free_blocks FROM pragma_database_size()").fetchone() == (0,)
    conn.close()

    rows = _assert_dense(path, groups=4)
    assert sum(not has for *_, has in rows) == 13379  # connect4's positions over, and heap 0

    with Database(path, readonly=True) as db:  # the catalog check passes; every answer as before
        assert [db.probe(name, text) for name, text in PROBES] == answers
    with Database(path) as db:
        assert db.missing_indexes() == []
        assert db.verify("c4").positions == 80541
        db.solve(make_game("tictactoe"), "ttt")  # the game ids go on
        assert sorted(r.id for r in db.games()) == [1, 2, 3]


def test_compact_of_a_duckdb_file_from_the_cli(cli, tmp_path):
    path = tmp_path / "g.duckdb"
    assert cli("solve", "tictactoe", "-q", db=path).exit_code == 0
    said = {what: cli(*what, db=path).stdout for what in (("query", "tictactoe", "X...O....", "--json"), ("export", "tictactoe", "--format", "csv"))}
    run = cli("compact", "tictactoe", db=path)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith("Compacted tictactoe: dropped 0 moves; file ")
    assert {what: cli(*what, db=path).stdout for what in said} == said  # the export in code order: rows are read by code
    assert len(said[("export", "tictactoe", "--format", "csv")].splitlines()) == 1 + 765  # one a symmetry class
    assert cli("verify", "tictactoe", "-q", db=path).exit_code == 0
    assert cli("copy", str(path), str(tmp_path / "copy.sqlite"), "-q").exit_code == 0  # read by code, into SQLite
    assert {what: cli(*what, db=tmp_path / "copy.sqlite").stdout for what in said} == said


def test_a_failed_rewrite_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "g.duckdb"
    with Database(path, create=True) as db:
        db.solve(make_game("tictactoe"), "ttt")
    before = _rows(path)
    monkeypatch.setattr(duckdb_rewrite, "RANGE_ROWS", "x")  # the statement that reads the ranges fails
    with Database(path) as db, pytest.raises(duckdb.Error):  # (the CLI says a database error in one line)
        db.compact("ttt")
    assert _rows(path) == before and not list(tmp_path.glob(".g.duckdb.*"))


def test_a_large_new_duckdb_file_is_written_dense_and_answers_as_any_other(cli, tmp_path, monkeypatch):
    solve = ("solve", "connect4", "--width", "4", "--height", "4", "--name", "c4", "-q")  # a new file: its own writer
    texts = [None, "2213", "1111", "2323", "12341234"]
    answers = {}
    for name in ("plain.duckdb", "file.sqlite", "dense.duckdb"):
        if name == "dense.duckdb":
            monkeypatch.setattr(duckdb_rewrite, "DENSE_FROM", 80541)  # this game's rows: written afresh once linked
        assert cli(*solve, db=tmp_path / name).exit_code == 0
        with Database(tmp_path / name, readonly=True) as db:
            answers[name] = [db.probe("c4", text) for text in texts]
    assert answers["dense.duckdb"] == answers["plain.duckdb"] == answers["file.sqlite"]
    assert _rows(tmp_path / "dense.duckdb")["position"] == _rows(tmp_path / "plain.duckdb")["position"]
    assert _physical(tmp_path / "plain.duckdb") != _physical(tmp_path / "dense.duckdb")  # (the plain file: by code)
    _assert_dense(tmp_path / "dense.duckdb", groups=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dense.duckdb", "file.sqlite", "plain.duckdb"]


def test_a_large_new_duckdb_file_is_written_dense_without_sqlalchemy(tmp_path):
    """The rewrite after a solve into a new file reads the newest revision as the new file was created at it: the process
    imports no SQLAlchemy (nor Alembic), as ``gamedb`` typed on the command line (DENSE_FROM lowered to this game's rows)."""
    probe = "from gamedb.store import duckdb_rewrite\nduckdb_rewrite.DENSE_FROM = 6027\nfrom gamedb.cli.app import main\nmain()\n"
    path = tmp_path / "dense.duckdb"
    args = ["--db", str(path), "solve", "connect4", "--width", "4", "--height", "3", "--name", "c4", "-q"]
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", probe, *args], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    imported = {line.split("|")[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}
    assert {"gamedb.store.duckdb_rewrite", "gamedb.store.duckdb_file"} <= imported  # the log is read
    assert not {"sqlalchemy", "alembic"} & imported
    rows = _assert_dense(path, groups=1)
    assert len(rows) == 6027 and [r[2] for r in rows] != sorted(r[2] for r in rows)  # written afresh: not in code order
