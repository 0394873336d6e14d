"""A large tier solve into a new SQLite file leaves the position table's secondary indexes out.

Everything gamedb does with the solved game works without them (``query`` in
the test runner and by the console script, ``verify``); ``gamedb db index`` builds
them; the SQL engine builds the remoteness index itself before its levels;
other engines solve into the same file. "Large" is
lowered here (``LEAVE_INDEXES_FROM``) so that Connect-Four 4x4 counts.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from gamedb import Database, make_game
from gamedb.store import new_sqlite_file, sql_sink

from tables import game_rows
from test_query_process import script

INDEXES = {"ix_position_text", "ix_position_remoteness"}


def position_indexes(path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'position'")}
    finally:
        con.close()


@pytest.fixture
def solved_without_indexes(cli, monkeypatch):
    for sink in (sql_sink, new_sqlite_file):  # the database's sink, and a new file's (this one: the file is new)
        monkeypatch.setattr(sink, "LEAVE_INDEXES_FROM", 60_000)  # 4x4: 80,541 positions stored (one per mirror pair)
    run = cli("solve", "connect4", "--width", "4", "--height", "4", "--quiet")
    assert run.exit_code == 0, run.stderr
    assert not position_indexes(cli.db_path) & INDEXES
    return cli


def test_query_and_verify_need_no_index(solved_without_indexes, fresh_db):
    cli = solved_without_indexes
    full = json.loads(cli("query", "connect4-4x4", "12", "--json").stdout)
    assert full["result"] == "tie" and len(full["moves"]) == full["degree"] == 4
    found = script("--db", cli.db_path, "query", "connect4-4x4", "12", "--json")
    assert found[0] == 0 and json.loads(found[1]) == full
    assert cli("verify", "connect4-4x4").exit_code == 0
    # the rows are the same as with the indexes (an uninterrupted solve at the usual threshold)
    reference = fresh_db()
    reference.solve(make_game("connect4", width=4, height=4), "connect4-4x4", strategy="tiers")
    with Database(cli.db_path) as db:
        assert game_rows(db, "connect4-4x4")["position"] == game_rows(reference, "connect4-4x4")["position"]


def test_db_index_builds_them(solved_without_indexes):
    cli = solved_without_indexes
    run = cli("db", "index")
    assert run.exit_code == 0 and "ix_position_text" in run.stdout and "ix_position_remoteness" in run.stdout
    assert position_indexes(cli.db_path) >= INDEXES
    assert "already" in cli("db", "index").stdout
    con = sqlite3.connect(cli.db_path)
    plan = " ".join(str(row) for row in con.execute("EXPLAIN QUERY PLAN SELECT code FROM position WHERE game_id = 1 AND text = '12'"))
    con.close()
    assert "ix_position_text" in plan


# the in-memory engine builds indexes only after loads of 50,000 rows or more (tic-tac-toe: 5,478)
@pytest.mark.parametrize("engine,built", [("sql", {"ix_position_remoteness"}), ("memory", set())])
def test_other_engines_solve_into_the_same_file(solved_without_indexes, engine, built):
    cli = solved_without_indexes
    run = cli("solve", "tictactoe", "--strategy", engine, "--quiet")
    assert run.exit_code == 0, run.stderr
    assert "tie in 9" in run.stdout
    assert position_indexes(cli.db_path) & INDEXES == built
    assert cli("verify", "tictactoe").exit_code == 0
    assert cli("verify", "connect4-4x4").exit_code == 0
