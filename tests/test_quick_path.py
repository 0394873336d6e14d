"""The light path of `gamedb query` (no Typer, no SQLAlchemy: it reads the command line and runs the command's
own body) gives the same output as the full command line, on every family and on every failure; a command
line it does not read goes to the full path."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest
from typer.testing import CliRunner

from gamedb import Database
from gamedb.cli.app import app
from gamedb.cli.quick import QueryRequest, parse_query, try_quick

from registry import builtin, examples, solve_examples

#: every built-in family, at the options and with the positions it declares (``Game.examples``)
FAMILIES = builtin()


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    return solve_examples(tmp_path_factory.mktemp("quick") / "games.sqlite", FAMILIES)


def _full(path, *args):
    result = CliRunner().invoke(app, ["--db", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def light(*argv):
    """(exit code, stdout, stderr) of the light path for ``argv``, run in this process; None when it leaves
    ``argv`` to the full command line (having printed nothing)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            answered, code = try_quick([str(a) for a in argv]), 0
        except SystemExit as exc:
            answered, code = True, int(exc.code or 0)
    if not answered:
        assert out.getvalue() == err.getvalue() == "", "the light path printed, then gave up"
        return None
    return code, out.getvalue(), err.getvalue()


def _positions(path, fam):
    with Database(path, readonly=True) as db:
        start = db.probe(fam)
    return [None, *[m.position for m in start.moves[:3]], *examples(fam).positions]


@pytest.mark.parametrize("fam", FAMILIES)
def test_both_paths_print_the_same(solved, fam):
    check_both_paths(solved, fam)


def check_both_paths(solved, fam):
    """The light path answers the family's start, its first moves and its example positions as the full command line does."""
    for position in _positions(solved, fam):
        for as_json in (False, True):
            args = ["query", fam] + ([position] if position is not None else []) + (["--json"] if as_json else [])
            request = parse_query(["--db", str(solved), *args[0:]])
            assert request == QueryRequest(str(solved), fam, position, "json" if as_json else "table")
            quick = light("--db", solved, *args)
            assert quick is not None, f"the light path refused {args}"
            code, out, err = _full(solved, *args)
            assert code == 0, err
            assert quick == (code, out, err), args
            if as_json:
                json.loads(quick[1])


def _gamedb(*args, cwd=None):
    """`gamedb ...` as a user types it: the installed console script's entry point."""
    env = dict(os.environ, COLUMNS="80")  # help is wrapped to the terminal's width, as the test runner's is
    env.pop("GAMEDB_DB", None)
    code = (
        "import sys; from gamedb.cli import quick\n"
        "marker = sys.argv.pop(1)\n"
        "try:\n    quick.main()\nfinally:\n"
        "    heavy = sorted(m for m in ('sqlalchemy', 'typer', 'pydantic', 'alembic', 'rich') if m in sys.modules)\n"
        "    open(marker, 'w').write(' '.join(heavy))\n"
    )
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def test_a_query_process_imports_no_sqlalchemy_or_typer(solved, tmp_path):
    marker = tmp_path / "imported"
    run = _gamedb(str(marker), "--db", str(solved), "query", "tictactoe", "X...O....", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["remoteness"] == 7
    assert marker.read_text() == ""
    # GAMEDB_DB and --db=PATH are read the same way
    env_run = subprocess.run(
        [sys.executable, "-m", "gamedb", "query", "nim", "3 5 7"], capture_output=True, text=True, env=dict(os.environ, GAMEDB_DB=str(solved))
    )
    assert env_run.returncode == 0 and "N-position" in env_run.stdout


@pytest.mark.parametrize(
    "args,code,message,typer",
    [
        (["query", "nosuch"], 1, "no game named 'nosuch'", False),
        (["query", "tictactoe", "XXXX"], 2, "Error: ", False),
        (["query", "cat-mouse", "mouse=4,cat=2,turn=cat"], 1, "is not reachable", False),
        (["query", "nim", "100"], 1, "larger than --max", False),
        (["query", "tictactoe", "--help"], 0, "Usage", True),
        (["query"], 2, "Missing argument", True),
        (["query", "nim", "--json", "-f", "csv"], 2, "different formats", True),
        (["list"], 0, "tictactoe", True),
    ],
)
def test_both_paths_fail_alike_and_the_rest_goes_to_typer(solved, tmp_path, args, code, message, typer):
    """A failure on the light path is said as the full path says it; a command line it does not read goes to Typer."""
    marker = tmp_path / "imported"
    run = _gamedb(str(marker), "--db", str(solved), *args)
    assert run.returncode == code, run.stderr
    assert message in run.stdout + run.stderr
    assert ("typer" in marker.read_text()) is typer
    full_code, full_out, full_err = _full(solved, *args)
    if "--help" in args:  # wrapped to the width of the terminal, which differs between a process and the test runner
        run_out, full_out = run.stdout.split()[:12], full_out.split()[:12]
    else:
        run_out = run.stdout
    assert (run.returncode, run_out, run.stderr) == (full_code, full_out, full_err)


def test_a_server_url_or_missing_file_fails_as_on_the_full_path(tmp_path):
    for db in (tmp_path / "none.sqlite", "postgresql+psycopg://u@127.0.0.1:1/x"):
        found = light("--db", db, "query", "x")
        assert found is not None and found[0] == 1 and found[2].startswith("Error: ")
        assert found == _full(db, "query", "x")
    assert parse_query(["--db", "x.sqlite", "solve", "nim"]) is None
    assert parse_query(["query", "flip", "-++-"]) is None  # looks like an option: the full parser decides
    assert parse_query(["--db=x.sqlite", "query", "nim", "3"]) == QueryRequest("x.sqlite", "nim", "3")
    assert parse_query(["--db", "x", "query", "flip", "--", "-++-"]) == QueryRequest("x", "flip", "-++-")
    assert parse_query(["--db", "x", "query", "flip", "-p", "-++-", "-f", "csv"]) == QueryRequest("x", "flip", "-++-", "csv")
    assert parse_query(["--db", "x", "query", "nim", "-"]) == QueryRequest("x", "nim", None, "jsonl", stdin=True)
    assert parse_query(["--db", "x", "query", "connect4", "--position", "-"]) == QueryRequest("x", "connect4", "-")
    assert parse_query(["--db", "x", "query", "nim", "--json", "-f", "csv"]) is None  # a clash: the full parser says so
    assert parse_query(["--db", "x", "query", "nim", "-f", "xml"]) is None


def test_an_older_schema_fails_as_on_the_full_path(solved, tmp_path):
    import shutil
    import sqlite3

    old = tmp_path / "old.sqlite"
    shutil.copy(solved, old)
    with sqlite3.connect(old) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0003'")
    code, _, err = _full(old, "query", "nim")
    assert code == 1 and "db upgrade" in err
    assert light("--db", old, "query", "nim") == (code, "", err)
