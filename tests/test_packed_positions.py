"""Packed position rows (revision 0007): result codes, no texts for large games, older files read as they are.

The code table is gamedb.values.RESULT_CODES; the views say the words; a game of
``TEXT_LEFT_OUT_FROM`` positions or more (lowered here) is written without texts and
every output (query, export, stats, verify, the Python API) stays byte for byte what
it is with texts; a file at 0006 answers without an upgrade, and `db upgrade` packs
it with the same outputs; an out-of-range code is damage in one line.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from gamedb import Database, make_game
from gamedb.store import rows
from gamedb.store.database import head_revision
from gamedb.values import RESULT_CODES

ROOT = Path(__file__).resolve().parents[1]
GAMES = [
    ("tictactoe", "tictactoe", {}),
    ("nim", "nim", {"max": 9}),
    ("cat-mouse", "cat-mouse", {"graph": [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]}),
    ("connect4-4x3", "connect4", {"width": 4, "height": 3}),
]
SOME = {"tictactoe": "XX.OO....", "nim": "7", "cat-mouse": "mouse=2,cat=4,turn=mouse", "connect4-4x3": "12"}


def _solve(path: Path, games=GAMES) -> None:
    with Database(path, create=True) as db:
        for name, family, options in games:
            db.solve(make_game(family, **options), name, symmetry=False)  # every position: the tests tamper with given ones


def _outputs(cli, path: Path, games=GAMES) -> dict[str, tuple[str, ...]]:
    found = {}
    for name, _, _ in games:
        runs = [cli("query", name, "--json", db=path), cli("query", name, SOME[name], db=path), cli("stats", name, db=path),
                cli("export", name, db=path), cli("export", name, "--format", "jsonl", db=path)]
        assert all(run.exit_code == 0 for run in runs), [run.stderr for run in runs]
        found[name] = tuple("".join(line for line in run.stdout.splitlines(True) if not _TIMES.search(line)) for run in runs)
    return found


_TIMES = re.compile(r"seconds|solved at|gamedb version")  # stats lines of when and how fast, not what


def _process_cli(*args: str, db: Path) -> SimpleNamespace:
    run = subprocess.run([sys.executable, "-m", "gamedb", "--db", str(db), *args], capture_output=True, text=True, timeout=300)
    return SimpleNamespace(exit_code=run.returncode, stdout=run.stdout, stderr=run.stderr)


def _raw(path: Path, sql: str) -> list[tuple]:
    if path.suffix == ".duckdb":
        from gamedb.store.duckdb_file import connect

        conn = connect(path, read_only=True)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()


def _alembic(db: str, *args: str) -> None:
    run = subprocess.run([sys.executable, "-m", "alembic", "-x", f"db={db}", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_results_are_stored_as_codes_and_the_views_say_the_words(tmp_path, suffix):
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
    path = tmp_path / f"g.{suffix}"
    _solve(path, GAMES[:1])
    pairs = _raw(path, "SELECT DISTINCT p.result, v.result FROM position p JOIN positions v ON v.code = p.code")
    assert sorted(pairs) == sorted((code, word) for word, code in RESULT_CODES.items() if word != "draw")  # tic-tac-toe has no draw
    assert _raw(path, "SELECT COUNT(*) FROM position WHERE text IS NULL") == [(0,)]  # a small game keeps its texts
    with Database(path, readonly=True) as db:
        assert db.stats("tictactoe")["results"] == {"win": 2836, "lose": 1574, "tie": 1068, "draw": 0}


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_a_large_game_is_stored_without_texts_and_every_output_is_the_same(cli, tmp_path, monkeypatch, suffix):
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
    with_texts, without = tmp_path / f"texts.{suffix}", tmp_path / f"none.{suffix}"
    _solve(with_texts)
    monkeypatch.setattr(rows, "TEXT_LEFT_OUT_FROM", 20)  # all but nim (10 heaps) count as large
    _solve(without)
    assert _raw(without, "SELECT COUNT(*) FROM position WHERE text IS NOT NULL") == [(10,)]  # nim's heaps keep theirs
    assert _raw(without, "SELECT COUNT(*) FROM positions WHERE position IS NULL")[0][0] > 5000  # the view shows none
    assert _outputs(cli, without) == _outputs(cli, with_texts)
    for name, _, _ in GAMES:
        assert cli("verify", name, db=without).exit_code == 0
    with Database(with_texts, readonly=True) as a, Database(without, readonly=True) as b:
        assert list(a.positions("connect4-4x3")) == list(b.positions("connect4-4x3"))
        assert a.probe("cat-mouse", SOME["cat-mouse"]) == b.probe("cat-mouse", SOME["cat-mouse"])


@pytest.mark.parametrize("code", [7, 0, -1])
def test_a_result_code_out_of_the_table_is_damage_in_one_line(cli, db_path, code):
    _solve(db_path, GAMES[:1])
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE position SET result = ? WHERE text = 'XX.OO....'", (code,))
    for args in (["query", "tictactoe", "XX.OO....", "--json"], ["export", "tictactoe"], ["verify", "tictactoe"]):
        run = cli(*args)
        assert run.exit_code == 1 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, (args, run.stderr)
        assert f"position 'XX.OO....': result code '{code}' is none of 1 (win), 2 (lose), 3 (tie), 4 (draw)" in run.stderr


def _downgrade(path: Path, revision: str) -> None:
    """A file brought down to ``revision`` by the migrations; a DuckDB file on gamedb's own connection (integer division
    as the views were made with), in a process of its own (this one may still hold the CLI runs' read-only DuckDB
    instance, which refuses a writer's configuration)."""
    if path.suffix != ".duckdb":
        _alembic(str(path), "downgrade", revision)
        return
    downgrade = (
        "import sys; from alembic import command; from gamedb.store.database import alembic_config; "
        "from gamedb.store.duckdb_file import create_engine; from gamedb.store.location import locate; "
        "engine = create_engine(locate(sys.argv[1]), readonly=False)\n"
        f"with engine.begin() as conn: command.downgrade(alembic_config(conn), '{revision}')"
    )
    run = subprocess.run([sys.executable, "-c", downgrade, str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_a_file_at_0006_answers_as_it_is_and_db_upgrade_packs_it(cli, tmp_path, suffix):
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
        cli = _process_cli  # each command in a process of its own, as a user runs them: an in-process run's read-only DuckDB
        # instance can outlive it, and DuckDB refuses the writer's configuration (db upgrade) beside it
    path = tmp_path / f"old.{suffix}"
    _solve(path)
    before = _outputs(cli, path)
    _downgrade(path, "0006")
    assert _raw(path, "SELECT version_num FROM alembic_version") == [("0006",)]
    assert {r for (r,) in _raw(path, "SELECT DISTINCT result FROM position")} == {"win", "lose", "tie", "draw"}  # words, as 0006 stored
    assert _outputs(cli, path) == before  # read as it is: no upgrade asked for
    assert "db upgrade`" in cli("verify", "nim", db=path).stderr  # a command that writes or verifies asks for it
    assert "db upgrade`" in cli("compact", "nim", db=path).stderr  # before it deletes a move row
    assert _outputs(cli, path) == before
    run = cli("db", "upgrade", db=path)
    assert run.exit_code == 0 and f"to {head_revision()}" in run.stdout, run.stderr
    assert {r for (r,) in _raw(path, "SELECT DISTINCT result FROM position")} == set(RESULT_CODES.values())
    assert _outputs(cli, path) == before
    for name, _, _ in GAMES:
        assert cli("verify", name, db=path).exit_code == 0


def test_a_0006_file_with_an_object_gamedb_did_not_make_is_refused(cli, tmp_path):
    path = tmp_path / "old.sqlite"
    _solve(path, GAMES[:1])
    _alembic(str(path), "downgrade", "0006")
    with sqlite3.connect(path) as conn:
        conn.execute("DROP VIEW positions")
        conn.execute("CREATE VIEW positions AS SELECT 1 AS result")
    run = cli("query", "tictactoe", db=path)
    assert run.exit_code == 1 and "its view 'positions' is not the one gamedb creates" in run.stderr


def test_the_ddl_of_the_older_readable_revisions_is_generated():
    from gamedb.store.sqlite_file import READABLE_OLDER, older_ddl
    from gamedb.store.sqlite_schema import older_text

    for revision in READABLE_OLDER:
        assert older_ddl(revision).read_text() == older_text(revision), "run `python -m gamedb.store.sqlite_schema`"
    pytest.importorskip("duckdb")
    from gamedb.store.duckdb_file import older_ddl as duck_ddl
    from gamedb.store.duckdb_schema import generated_ddl

    for revision in READABLE_OLDER:
        assert duck_ddl(revision).read_text(encoding="utf-8") == generated_ddl(revision), "run `python -m gamedb.store.duckdb_schema`"


def test_a_postgresql_database_at_0006_is_packed_by_db_upgrade(cli, pg_url):
    for name, family, options in GAMES:
        with Database(pg_url) as db:
            db.solve(make_game(family, **options), name, symmetry=False)  # every position: the tests tamper with given ones
    before = _outputs(cli, pg_url)  # type: ignore[arg-type]
    _alembic(pg_url, "downgrade", "0006")
    assert "db upgrade`" in cli("query", "nim", "3", db=pg_url).stderr  # a server is read at the newest revision only
    assert cli("db", "upgrade", db=pg_url).exit_code == 0
    assert _outputs(cli, pg_url) == before  # type: ignore[arg-type]
    assert cli("verify", "cat-mouse", db=pg_url).exit_code == 0


def test_db_upgrade_leaves_out_the_texts_of_a_large_game_of_gamedbs_families(cli, tmp_path):
    """The upgrade decides by the game row's count (10^6, as a new solve): the row says so here, then says the truth again."""
    path = tmp_path / "old.sqlite"
    _solve(path, GAMES[:2])
    before = _outputs(cli, path, GAMES[:2])
    _alembic(str(path), "downgrade", "0006")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE game SET positions = 1000000 WHERE name = 'tictactoe'")
    assert cli("db", "upgrade", db=path).exit_code == 0
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE game SET positions = 5478 WHERE name = 'tictactoe'")
    assert _raw(path, "SELECT g.name, COUNT(p.text) FROM position p JOIN game g ON g.id = p.game_id GROUP BY g.name ORDER BY g.name") == [
        ("nim", 10), ("tictactoe", 0)]
    assert _outputs(cli, path, GAMES[:2]) == before


def test_solve_says_when_a_game_is_stored_without_texts(cli, monkeypatch):
    monkeypatch.setattr(rows, "TEXT_LEFT_OUT_FROM", 1000)
    run = cli("solve", "tictactoe", "--no-symmetry", "-q")
    assert run.exit_code == 0 and "Note: a game of 5,478 positions is stored without position texts" in run.stderr
    assert "Note" not in cli("solve", "nim", "--max", "9", "-q").stderr  # 10 positions: texts kept, nothing said
