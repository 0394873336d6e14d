"""A `gamedb query` process (the console script, Typer's command line) prints what the command line prints in
the test runner, on every family and on every failure, and imports neither SQLAlchemy nor pydantic."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

import pytest
from typer.testing import CliRunner

from gamedb import Database
from gamedb.cli.app import app, main

from registry import builtin, examples, solve_examples

#: every built-in family, at the options and with the positions it declares (``Game.examples``)
FAMILIES = builtin()


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    return solve_examples(tmp_path_factory.mktemp("process") / "games.sqlite", FAMILIES)


def _full(path, *args):
    result = CliRunner().invoke(app, ["--db", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def script(*argv):
    """(exit code, stdout, stderr) of the console script's entry point (:func:`gamedb.cli.app.main`) for ``argv``, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), mock.patch.object(sys, "argv", ["gamedb", *map(str, argv)]):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    return code, out.getvalue(), err.getvalue()


def _positions(path, fam):
    with Database(path, readonly=True) as db:
        start = db.probe(fam)
    return [None, *[m.position for m in start.moves[:3]], *examples(fam).positions]


@pytest.mark.parametrize("fam", FAMILIES)
def test_the_script_prints_what_the_runner_prints(solved, fam):
    check_script_and_runner(solved, fam)


def check_script_and_runner(solved, fam):
    """The console script answers the family's start, its first moves and its example positions as the command line in the runner does."""
    for position in _positions(solved, fam):
        for as_json in (False, True):
            args = ["query", fam] + ([position] if position is not None else []) + (["--json"] if as_json else [])
            found = script("--db", solved, *args)
            code, out, err = _full(solved, *args)
            assert code == 0, err
            assert found == (code, out, err), args
            if as_json:
                json.loads(found[1])


def _gamedb(*args, cwd=None):
    """`gamedb ...` as a user types it: the installed console script's entry point."""
    env = dict(os.environ, COLUMNS="80")  # help is wrapped to the terminal's width, as the test runner's is
    env.pop("GAMEDB_DB", None)
    code = (
        "import sys; from gamedb.cli import app\n"
        "marker = sys.argv.pop(1)\n"
        "try:\n    app.main()\nfinally:\n"
        "    heavy = sorted(m for m in ('sqlalchemy', 'pydantic', 'alembic', 'rich') if m in sys.modules)\n"
        "    open(marker, 'w').write(' '.join(heavy))\n"
    )
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def test_a_query_process_imports_no_sqlalchemy_or_pydantic(solved, tmp_path):
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
    "args,code,message",
    [
        (["query", "nosuch"], 1, "no game named 'nosuch'"),
        (["query", "tictactoe", "XXXX"], 2, "Error: "),
        (["query", "cat-mouse", "mouse=4,cat=2,turn=cat"], 1, "is not reachable"),
        (["query", "nim", "100"], 1, "larger than --max"),
        (["query", "tictactoe", "--help"], 0, "Usage"),
        (["query"], 2, "Missing argument"),
        (["query", "nim", "--json", "-f", "csv"], 2, "different formats"),
        (["list"], 0, "tictactoe"),
    ],
)
def test_a_process_fails_as_the_runner_does(solved, tmp_path, args, code, message):
    """A failure in a process is said as in the runner, and loads neither SQLAlchemy nor pydantic."""
    marker = tmp_path / "imported"
    run = _gamedb(str(marker), "--db", str(solved), *args)
    assert run.returncode == code, run.stderr
    assert message in run.stdout + run.stderr
    assert marker.read_text() == ""
    full_code, full_out, full_err = _full(solved, *args)
    if "--help" in args:  # wrapped to the width of the terminal, which differs between a process and the test runner
        run_out, full_out = run.stdout.split()[:12], full_out.split()[:12]
    else:
        run_out = run.stdout
    assert (run.returncode, run_out, run.stderr) == (full_code, full_out, full_err)


def test_a_server_url_or_missing_file_fails_as_in_the_runner(solved, tmp_path):
    for db in (tmp_path / "none.sqlite", "postgresql+psycopg://u@127.0.0.1:1/x"):
        found = script("--db", db, "query", "x")
        assert found[0] == 1 and found[2].startswith("Error: ")
        assert found == _full(db, "query", "x")


@pytest.mark.parametrize(
    "argv,code,needle",
    [
        (["--db", "{db}", "stats", "nim"], 0, "positions"),  # another command
        (["query", "flip", "-++-", "--db", "{db}"], 2, "No such option"),  # looks like an option
        (["--db={db}", "query", "nim", "3"], 0, "N-position"),
        (["--db", "{db}", "query", "flip", "--", "-++-"], 0, "-++-"),
        (["--db", "{db}", "query", "flip", "-p", "-++-", "-f", "csv"], 0, "-++-"),
        (["--db", "{db}", "query", "connect4", "--position", "-"], 0, "position   -"),
        (["--db", "{db}", "query", "nim", "--json", "-f", "csv"], 2, "different formats"),
        (["--db", "{db}", "query", "nim", "-f", "xml"], 2, "--format must be one of"),
    ],
)
def test_the_command_line_is_read_as_typed(solved, argv, code, needle):
    """Global options before or after the command, ``--``, ``--position -`` and option clashes, as the runner reads them."""
    argv = [a.format(db=solved) for a in argv]
    found = script(*argv)
    assert found[0] == code, found
    assert needle in found[1] + found[2]
    assert found == _runner(argv)


def _runner(argv):
    result = CliRunner().invoke(app, argv)
    return result.exit_code, result.stdout, result.stderr


def test_an_older_schema_fails_as_on_the_full_path(solved, tmp_path):
    import shutil
    import sqlite3

    old = tmp_path / "old.sqlite"
    shutil.copy(solved, old)
    with sqlite3.connect(old) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0003'")
    code, _, err = _full(old, "query", "nim")
    assert code == 1 and "db upgrade" in err
    assert script("--db", old, "query", "nim") == (code, "", err)
