"""The strategy table: the game row records which strategy stored a game, older files get it from `db upgrade`,
`--strategy` chooses (`--engine` and `engine=` still do, saying they are deprecated), and a file that names a
strategy gamedb does not have, or one that cannot have stored its game, is one line."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from gamedb import Database, make_game
from gamedb.solvers.choice import CHOICES

ROOT = Path(__file__).resolve().parents[1]
GRAPH = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]"
#: (name, solve arguments, the strategy that stores it)
SOLVES = [
    ("nim", ["nim", "--max", "20"], "heaps"),
    ("tictactoe", ["tictactoe", "--strategy", "memory"], "graph-memory"),
    ("cat-mouse", ["cat-mouse", "--graph", GRAPH, "--strategy", "sql"], "graph-sql"),
    ("cat-mouse-auto", ["cat-mouse", "--graph", GRAPH, "--name", "cat-mouse-auto"], "retrograde"),  # auto: fits in memory
    ("connect4-4x3", ["connect4", "--width", "4", "--height", "3"], "tiers"),  # auto: a family with tiers
]


def _stored(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT name, strategy FROM game"))


@pytest.fixture
def solved(cli, db_path) -> Path:
    for _, args, _ in SOLVES:
        run = cli("solve", *args, "-q")
        assert run.exit_code == 0, run.stderr
    return db_path


def test_the_game_row_says_which_strategy_stored_it(solved):
    assert _stored(solved) == {name: strategy for name, _, strategy in SOLVES}


def test_a_small_solve_into_a_new_file_records_its_strategy(tmp_path):
    """`gamedb solve nim --max 13` into a new file goes through the sink of a new file, without SQLAlchemy."""
    path = tmp_path / "new.sqlite"
    run = subprocess.run([sys.executable, "-m", "gamedb", "--db", str(path), "solve", "nim", "--max", "13"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert _stored(path) == {"nim": "heaps"}


def _outputs(cli, path: Path) -> dict[str, tuple[str, str, str]]:
    found = {}
    for name, _, _ in SOLVES:
        found[name] = (cli("query", name, "--json").stdout, cli("stats", name).stdout, cli("verify", name).stdout)
        assert all(found[name]), name
    return found


def test_a_file_at_revision_0005_answers_alike_after_db_upgrade(cli, solved):
    """The column dropped as revision 0005 had none; `db upgrade` fills it from the guess gamedb made before
    (heaps for a heap game, tiers for the tier solver's, else graph-sql) and every output stays as it was."""
    with sqlite3.connect(solved) as conn:  # the tier solver's mark in the progress of a game gamedb solved at 0005
        conn.execute("UPDATE game SET progress = json_set(progress, '$.engine', 'tiers') WHERE strategy = 'tiers'")
    before = _outputs(cli, solved)
    down = subprocess.run([sys.executable, "-m", "alembic", "-x", f"db={solved}", "downgrade", "0005"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert down.returncode == 0, down.stderr
    with sqlite3.connect(solved) as conn:
        assert "strategy" not in [row[1] for row in conn.execute("PRAGMA table_info(game)")]
    refused = cli("query", "nim", "3")
    assert refused.exit_code == 1 and "db upgrade`" in refused.stderr
    assert cli("db", "upgrade").exit_code == 0
    assert _stored(solved) == {"nim": "heaps", "tictactoe": "graph-sql", "cat-mouse": "graph-sql", "cat-mouse-auto": "graph-sql",
                               "connect4-4x3": "tiers"}
    assert _outputs(cli, solved) == before


@pytest.mark.parametrize(
    "strategy,message",
    [
        ("bogus", "strategy 'bogus' is none of heaps, tiers, retrograde, graph-memory, graph-sql"),
        ("heaps", "its strategy heaps cannot solve a game of its family 'tictactoe'"),
        (None, "strategy is not text"),
    ],
)
def test_a_strategy_the_file_makes_up_is_one_line(cli, solved, strategy, message):
    with sqlite3.connect(solved) as conn:
        conn.execute("UPDATE game SET strategy = ? WHERE name = 'tictactoe'", (strategy,))
    for args in (["query", "tictactoe", "--json"], ["verify", "tictactoe"]):
        run = cli(*args)
        assert run.exit_code == 1 and message in run.stderr and "Traceback" not in run.stderr, run.stderr
        assert run.stderr.count("\n") == 1
    assert cli("query", "nim", "3").exit_code == 0  # the other games stay usable


def test_strategy_choices_are_the_tables(cli):
    assert CHOICES == ("auto", "tiers", "retrograde", "memory", "sql")  # the order --strategy auto tries them
    bad = cli("solve", "tictactoe", "--strategy", "fast")
    assert bad.exit_code == 2 and "'fast' is not one of 'auto', 'tiers', 'retrograde', 'memory', 'sql'" in bad.stderr
    assert "--strategy" in cli("solve", "tictactoe", "--help").stdout
    assert "--engine" not in cli("solve", "tictactoe", "--help").stdout  # the deprecated alias is not offered


def test_engine_is_a_deprecated_alias(cli, db_path):
    run = cli("solve", "tictactoe", "--engine", "memory", "-q")
    assert run.exit_code == 0
    assert run.stderr == "Note: --engine is deprecated; use --strategy (it takes the same values).\n"
    assert _stored(db_path) == {"tictactoe": "graph-memory"}
    refused = cli("solve", "nim", "--engine", "memory")
    assert refused.exit_code == 2 and "cannot solve this game" in refused.stderr


def test_engine_keyword_warns_and_still_chooses(tmp_path):
    with Database(tmp_path / "a.sqlite", create=True) as db:
        with pytest.warns(DeprecationWarning, match="strategy="):
            report = db.solve(make_game("tictactoe"), engine="sql")
        assert report.strategy == "graph-sql" and not report.already_solved
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            report = db.solve(make_game("cat-mouse", graph=json.loads(GRAPH)), strategy="memory")
        assert report.strategy == "graph-memory"


def test_a_postgresql_database_at_0005_answers_alike_after_db_upgrade(cli, pg_url):
    import sqlalchemy as sa

    for _, args, _ in SOLVES[:3]:
        assert cli("solve", *args, "-q", db=pg_url).exit_code == 0
    before = [cli("query", name, "--json", db=pg_url).stdout for name, _, _ in SOLVES[:3]]
    down = subprocess.run([sys.executable, "-m", "alembic", "-x", f"db={pg_url}", "downgrade", "0005"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert down.returncode == 0, down.stderr
    assert "db upgrade`" in cli("query", "nim", "3", db=pg_url).stderr
    assert cli("db", "upgrade", db=pg_url).exit_code == 0
    engine = sa.create_engine(pg_url)
    try:
        with engine.connect() as conn:
            stored = dict(conn.execute(sa.text("SELECT name, strategy FROM game")).all())
    finally:
        engine.dispose()
    assert stored == {"nim": "heaps", "tictactoe": "graph-sql", "cat-mouse": "graph-sql"}
    assert [cli("query", name, "--json", db=pg_url).stdout for name, _, _ in SOLVES[:3]] == before


def test_strategy_memory_limit_and_symmetry_with_game_and_before_the_family(cli, db_path, monkeypatch):
    """`gamedb solve --game module:Class --strategy memory` was 'No such option: --strategy' (a plugin game could not keep
    its move rows, as the README says to), and so was `gamedb solve --strategy memory tictactoe`; both take it now."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "examples" / "plugin"))
    run = cli("solve", "--game", "gamedb_takeaway:TakeAway", "--set", "matches=5", "--name", "mine", "--strategy", "memory", "-q")
    assert run.exit_code == 0, run.stderr
    run = cli("solve", "--strategy", "memory", "--no-symmetry", "tictactoe", "-q")
    assert run.exit_code == 0, run.stderr
    assert _stored(db_path) == {"mine": "graph-memory", "tictactoe": "graph-memory"}
    with sqlite3.connect(db_path) as con:  # the move rows the memory strategy keeps
        assert con.execute("SELECT count(*) FROM moves WHERE game = 'mine'").fetchone()[0] == 18
    con.close()
    run = cli("solve", "--strategy", "memory", "tictactoe", "--strategy", "sql", "--name", "t3")
    assert run.exit_code == 2 and "two values of --strategy" in run.stderr
    run = cli("solve", "--game", "gamedb_takeaway:TakeAway", "--memory-limit", "lots")
    assert run.exit_code == 2 and "--memory-limit must be a size" in run.stderr
    run = cli("solve", "--strategy", "memory", "nim", "--max", "3")  # the strategy as typed, not the game row's name for it
    assert run.exit_code == 2 and "Error: --strategy memory cannot solve this game (it takes no impartial game)" in run.stderr
