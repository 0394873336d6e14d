"""What a new user met in a first hour (issue 25), typed as a user types it.

Each command runs twice where it matters: in Typer's test runner
(:class:`CliRunner`) and as a process of the console script
(``python -m gamedb``), and both must say the same.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamedb import Database, make_game
from gamedb.cli.app import app, hoist_global_options
from gamedb.cli.info import dash_reads_stdin


def typed(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``gamedb ARGS`` as a process of the console script."""
    env = dict(os.environ)
    env.pop("GAMEDB_DB", None)
    return subprocess.run([sys.executable, "-m", "gamedb", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          input=input if input is not None else "", timeout=300)


def both(*args: str, input: str | None = None) -> list[tuple[int, str, str]]:
    """``gamedb ARGS`` both ways: [(exit code, stdout, stderr) in the test runner, of a process]."""
    run = typed(*args, input=input)
    return [full(*args, input=input), (run.returncode, run.stdout, run.stderr)]


def full(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """``gamedb ARGS`` in Typer's test runner, with no --db added."""
    result = CliRunner().invoke(app, list(args), input=input if input is not None else "")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def c4(tmp_path_factory) -> Path:
    """A file with Connect-Four 3x3 (connect 3) under its default name, and tic-tac-toe."""
    path = tmp_path_factory.mktemp("first") / "games.sqlite"
    with Database(path, create=True) as db:
        db.solve(make_game("connect4", width=3, height=3, connect=3))
        db.solve(make_game("tictactoe"))
    return path


# --- 1. `query NAME -- -`: after --, `-` is a position ------------------------------------------

def test_dash_after_double_dash_is_a_position(c4):
    with Database(c4, readonly=True) as db:
        start = db.probe("connect4-3x3-k3")
    assert start.position == "-"
    for args in (["query", "connect4-3x3-k3", "--", "-"], ["query", "--", "connect4-3x3-k3", "-"], ["query", "connect4-3x3-k3", "--position", "-"]):
        for code, out, err in both("--db", str(c4), *args):
            assert code == 0, err
            assert out.splitlines()[1] == "position   -", out  # the start, answered; stdin is not read
            assert f"value      {start.result} in {start.remoteness}" in out
        jsoned = typed("--db", str(c4), args[0], "--json", *args[1:])
        assert json.loads(jsoned.stdout)["position"] == "-"
    # before --, `-` still reads positions from stdin
    run = typed("--db", str(c4), "query", "connect4-3x3-k3", "-", input="-\n1\n")
    assert [json.loads(line)["position"] for line in run.stdout.splitlines()] == ["-", "1"]
    code, out, _ = full("--db", str(c4), "query", "connect4-3x3-k3", "-", input="-\n1\n")
    assert [json.loads(line)["position"] for line in out.splitlines()] == ["-", "1"]


def test_dash_reading_rules():
    assert dash_reads_stdin(["nim", "-"]) and dash_reads_stdin(["nim", "-", "--json"])
    assert not dash_reads_stdin(["nim", "--", "-"]) and not dash_reads_stdin(["--", "nim", "-"])
    assert not dash_reads_stdin(["nim", "--format", "-"]) and not dash_reads_stdin(["nim", "-p", "-"])
    assert dash_reads_stdin(["c", "-", "--", "-"]) and not dash_reads_stdin(["c", "--", "-", "-"])


# --- 4. global options after the command ---------------------------------------------------------

def test_global_options_are_moved_before_the_command():
    assert hoist_global_options(["stats", "t", "--db", "x"]) == ["--db", "x", "stats", "t"]
    assert hoist_global_options(["--db", "a", "query", "t", "--db=b", "--json"]) == ["--db", "a", "--db=b", "query", "t", "--json"]
    assert hoist_global_options(["query", "t", "--", "--db", "x"]) == ["query", "t", "--", "--db", "x"]
    assert hoist_global_options(["db", "upgrade", "--db", "x"]) == ["--db", "x", "db", "upgrade"]
    assert hoist_global_options(["query", "t", "--db", "x", "--json"]) == ["--db", "x", "query", "t", "--json"]
    assert hoist_global_options(["stats", "t", "--db"]) == ["stats", "t", "--db"]  # without its value: the command refuses it


@pytest.mark.parametrize(
    "args,shows",
    [
        (["stats", "tictactoe"], "5,478"),
        (["stats", "tictactoe", "--json"], '"reachable": 5478'),
        (["list"], "connect4-3x3-k3"),
        (["verify", "tictactoe", "-q"], "OK: 765 positions"),
        (["query", "tictactoe", "X...O...."], "value      tie in 7"),
        (["export", "tictactoe", "--format", "jsonl"], '"position": "........."'),
        (["db", "index"], "Every index is there already."),
    ],
)
def test_db_after_the_command(c4, tmp_path, args, shows):
    for where in ("after", "before"):
        line = [*args, "--db", str(c4)] if where == "after" else ["--db", str(c4), *args]
        code, out, err = full(*line)
        assert code == 0, (line, err)
        assert shows in out, (line, out)
        run = typed(*line, cwd=tmp_path)  # no gamedb.sqlite there: the --db given must be the one used
        assert (run.returncode, run.stdout) == (code, out), run.stderr
    assert not (tmp_path / "gamedb.sqlite").exists()


def test_db_after_the_command_solve_into_a_new_file(tmp_path):
    run = typed("solve", "nim", "--max", "5", "--db", str(tmp_path / "n.sqlite"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "n.sqlite").exists() and not (tmp_path / "gamedb.sqlite").exists()
    assert typed("query", "nim", "3 5", "--db", str(tmp_path / "n.sqlite"), "--json", cwd=tmp_path).returncode == 0


def test_db_without_a_value_after_the_command(c4):
    code, _, err = full("stats", "tictactoe", "--db")
    assert code == 2 and err.startswith("Error: ") and "--db" in err, err


# --- 5. a family's name stands for its one stored game -----------------------------------------------

def test_a_family_name_finds_its_one_game(tmp_path):
    path = tmp_path / "g.sqlite"
    with Database(path, create=True) as db:
        db.solve(make_game("connect4", width=3, height=3, connect=3))
        db.solve(make_game("nim", max=5))
    note = "Note: using connect4-3x3-k3, the one connect4 game in this database.\n"
    expected = full("--db", str(path), "query", "connect4-3x3-k3", "2")
    for args, shows in (
        (["query", "connect4", "2"], expected[1]),
        (["query", "connect4", "--json"], '"game": "connect4-3x3-k3"'),
        (["stats", "connect4"], "connect4-3x3-k3 (connect4, solved)"),
        (["verify", "connect4", "-q"], "OK: 359 positions of connect4-3x3-k3"),
        (["export", "connect4", "--format", "jsonl"], '"position": "-"'),
        (["play", "connect4"], "You play X"),
    ):
        code, out, err = full("--db", str(path), *args)
        assert (code, err) == (0, note), (args, err)
        assert shows in out, (args, out)
        run = typed("--db", str(path), *args)
        assert (run.returncode, run.stderr) == (0, note)
        assert shows in run.stdout
    run = typed("--db", str(path), "query", "connect4", "-", input="1\n")
    assert run.stderr == note and json.loads(run.stdout)["game"] == "connect4-3x3-k3"
    # a name that is a stored game's is that game, whatever the families
    code, out, err = full("--db", str(path), "query", "nim", "3")
    assert code == 0 and err == ""
    # two games of the family: none is chosen, both are named
    with Database(path) as db:
        db.solve(make_game("connect4", width=4, height=3, connect=3))
    for code, _out, err in both("--db", str(path), "query", "connect4"):
        assert code == 1
        assert err == "Error: no game named 'connect4' in this database; 2 connect4 games are stored: connect4-3x3-k3, connect4-4x3-k3 (name one)\n"
    code, _, err = full("--db", str(path), "query", "chess")
    assert code == 1 and err == "Error: no game named 'chess' in this database (stored: connect4-3x3-k3, connect4-4x3-k3, nim)\n"
    with Database(path, readonly=True) as db:  # the library takes exact names; stored_name is how a caller lets a family stand for its game
        assert db.stored_name("nim") == "nim"
        with pytest.raises(KeyError, match="2 connect4 games"):
            db.stored_name("connect4")


# --- 6. a heap past --max names the other stored game that has it ------------------------------------

def test_a_heap_past_max_names_the_game_that_has_it(tmp_path):
    path = tmp_path / "g.sqlite"
    db = str(path)
    assert typed("--db", db, "solve", "nim", "--max", "10", "-q").returncode == 0
    code, out, err = full("--db", db, "solve", "nim", "--max", "20")
    assert code == 0
    other = out.split()[1].rstrip(":")
    assert other.startswith("nim-") and other != "nim"
    assert err == (f"Note: nim holds another game in this database; this one is stored as {other}: query it by that name "
                   f"(--name chooses the name; --name nim --force replaces nim with this game).\n")
    said = (f"Error: heap 15 is larger than --max 10 of game 'nim', and the octal periodicity theorem (Guy and Smith) does not apply "
            f"to Nim, so only components up to 10 are known; the game '{other}' (max=20) has it: gamedb query {other} '3 15'\n")
    for code, _out, err in both("--db", db, "query", "nim", "3 15"):
        assert (code, err) == (1, said)
    # the command it gives answers
    assert json.loads(typed("--db", db, "query", other, "3 15", "--json").stdout)["grundy"] == 3 ^ 15
    # many positions: the error line names it too, on both paths
    for out in (typed("--db", db, "query", "nim", "-", input="15\n").stdout, full("--db", db, "query", "nim", "-", input="15\n")[1]):
        assert json.loads(out)["error"].endswith(f"; the game '{other}' (max=20) has it")
    # past every stored game: the advice to solve with a larger --max stays
    code, _, err = full("--db", db, "query", "nim", "25")
    assert code == 1 and err.endswith("so only components up to 10 are known; solve again with a larger --max\n")
    with Database(path, readonly=True) as database:  # the library's error says which game holds it, and names it in holders
        with pytest.raises(KeyError) as caught:
            database.probe("nim", "15")
        assert caught.value.holders == (other,) and "gamedb query" not in str(caught.value)


def test_stone_ix_past_max_names_the_game_that_has_it(tmp_path):
    with Database(tmp_path / "s.sqlite", create=True) as db:
        db.solve(make_game("stone-ix", max=2), "small")
        db.solve(make_game("stone-ix", max=4), "large")
        with pytest.raises(KeyError, match=r"has 3 stones of residue 0; this game was solved with max=2; the game 'large' \(max=4\) has it$"):
            db.probe("small", "c0=3,c1=1,c2=0,sum=0,turn=alice")


# --- 8. the Python API: to_json() is JSON text, to_dict() the object; no CLI options in its messages ----

def test_to_json_is_text_and_to_dict_the_object(c4, tmp_path):
    with Database(c4, readonly=True) as db:
        answer = db.probe("tictactoe", "X...O....")
        assert isinstance(answer.to_json(), str) and isinstance(answer.to_dict(), dict)
        assert json.loads(answer.to_json()) == answer.to_dict() == db.query_json("tictactoe", "X...O....")
        assert json.loads(answer.to_json(indent=None)) == answer.to_dict() and "\n" not in answer.to_json(indent=None)
    # what --json prints is to_json()'s text
    assert typed("--db", str(c4), "query", "tictactoe", "X...O....", "--json").stdout == answer.to_json() + "\n"
    assert full("--db", str(c4), "query", "tictactoe", "X...O....", "--json")[1] == answer.to_json() + "\n"


def test_a_missing_database_names_no_cli_option_in_python(tmp_path):
    from gamedb.errors import DatabaseError

    missing = tmp_path / "missing.sqlite"
    with pytest.raises(DatabaseError) as caught:
        Database(missing)
    assert str(caught.value) == f"no database at {missing}" and "--" not in str(caught.value)
    # the command line adds its own hint
    for code, err in ((lambda r: (r.returncode, r.stderr))(typed("--db", str(missing), "query", "nim")), full("--db", str(missing), "stats", "nim")[::2]):
        assert (code, err) == (1, f"Error: no database at {missing} (solve a game first, or pass --db)\n")


# --- 9. compact on a file it cannot write -------------------------------------------------------------

def test_compact_of_a_read_only_file_says_so_in_one_line():
    import shutil

    from test_shared_files import _make_share, run_as_other_user

    base, folder = _make_share("delete")
    try:
        db = folder / "games.sqlite"
        code, out, err = run_as_other_user(["--db", str(db), "compact", "tictactoe"])
        assert (code, out) == (1, "")
        assert err == f"Error: cannot compact tictactoe: {db} is read-only here (Permission denied)\n"
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(base)


def test_cannot_write_names_the_work_and_the_reason(tmp_path):
    import errno as codes

    from gamedb.store.locking import cannot_write

    denied = OSError(codes.EROFS, "Read-only file system")
    assert str(cannot_write("compact t", "/m/g.sqlite", denied)) == "cannot compact t: /m/g.sqlite is read-only here (Read-only file system)"
    assert str(cannot_write("solve t", "/m/g.sqlite", denied, Path("/m/g.sqlite.lock"))) == (
        "cannot solve t: the folder of /m/g.sqlite is read-only here (Read-only file system creating /m/g.sqlite.lock)"
    )
    assert str(cannot_write("copy t", "/m/g.sqlite", OSError(codes.EIO, "Input/output error"))) == "cannot copy t: Input/output error: /m/g.sqlite"


# --- 7. one vocabulary for impartial games: next / previous ------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def _alembic(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "alembic", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def _view_rows(path: Path, game: str) -> list[tuple[str, str, str | None]]:
    import sqlite3

    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT position, player, winner FROM positions WHERE game = ? ORDER BY code LIMIT 3", (game,)).fetchall()
    finally:
        con.close()


def test_impartial_games_say_next_and_previous_everywhere(tmp_path):
    for new_file in (True, False):  # a new file made without SQLAlchemy, and one made through it
        path = tmp_path / f"{new_file}.sqlite"
        if new_file:
            assert typed("--db", str(path), "solve", "nim", "--max", "4", "-q").returncode == 0
        else:
            with Database(path, create=True) as db:
                db.solve(make_game("nim", max=4))
        with Database(path) as db:
            db.solve(make_game("tictactoe"))
        expected = [("0", "next", "previous"), ("1", "next", "next"), ("2", "next", "next")]
        assert _view_rows(path, "nim") == expected
        exported = [json.loads(line) for line in full("--db", str(path), "export", "nim", "--format", "jsonl")[1].splitlines()]
        assert [(row["position"], row["player"], row["winner"]) for row in exported[:3]] == expected
        csv_lines = full("--db", str(path), "export", "nim")[1].splitlines()
        assert csv_lines[1] == "0,next,lose,previous,0,0,,0,0"
        answers = [json.loads(typed("--db", str(path), "query", "nim", text, "--json").stdout) for text in ("0", "1")]
        assert [(a["player"], a["winner"]) for a in answers] == [("next", "previous"), ("next", "next")]
        # a partisan game keeps its players' names
        assert _view_rows(path, "tictactoe")[0] == (".........", "X", None)
        assert json.loads(full("--db", str(path), "export", "tictactoe", "--format", "jsonl")[1].splitlines()[0])["player"] == "X"


def test_a_file_of_revision_0004_asks_for_db_upgrade_which_renames(tmp_path):
    """A file made before the positions view said next/previous: every command asks for `db upgrade` in one line
    (an older file is checked against its own revision's objects only by the upgrade), which converts it."""
    path = tmp_path / "old.sqlite"
    with Database(path, create=True) as db:
        db.solve(make_game("nim", max=6))
    down = _alembic("-x", f"db={path}", "downgrade", "0004")
    assert down.returncode == 0, down.stderr
    assert _view_rows(path, "nim")[0] == ("0", "first", "second")  # the view as 0004 made it
    upgrade = f"gamedb --db {path} db upgrade"  # the file named: `gamedb db upgrade` alone upgrades ./gamedb.sqlite
    for args in (["query", "nim", "3 5", "--json"], ["stats", "nim"], ["list"]):
        code, _, err = full("--db", str(path), *args)
        assert code == 1 and upgrade in err, (args, err)
        run = typed("--db", str(path), *args)
        assert run.returncode == 1 and upgrade in run.stderr
    from gamedb.store.database import head_revision

    code, out, _ = full("--db", str(path), "db", "upgrade")
    assert code == 0 and f"from schema revision 0004 to {head_revision()}" in out
    assert _view_rows(path, "nim")[0] == ("0", "next", "previous")
    assert json.loads(typed("--db", str(path), "query", "nim", "3 5", "--json").stdout)["grundy"] == 6


def test_positions_view_on_postgresql(pg_url):
    import sqlalchemy as sa

    with Database(pg_url) as db:
        db.solve(make_game("nim", max=3))
        db.solve(make_game("tictactoe"))
        with db.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT position, player, winner FROM positions WHERE game = 'nim' ORDER BY code")).all()
            # XO.XO....: the stored (canonical) position of XX.OO.... under tic-tac-toe's symmetries
            start = conn.execute(sa.text("SELECT player, winner FROM positions WHERE game = 'tictactoe' AND position = 'XO.XO....'")).one()
    assert [tuple(r) for r in rows] == [("0", "next", "previous"), ("1", "next", "next"), ("2", "next", "next"), ("3", "next", "next")]
    assert tuple(start) == ("X", "X")
    code, out, err = full("export", "nim", "--format", "csv", "--db", pg_url)  # --db after the command, on a server
    assert code == 0 and out.splitlines()[1] == "0,next,lose,previous,0,0,,0,0", err
