"""Every bad input gets a clear one-line answer and leaves the files alone (issue 6).

One table, ``CASES`` (in ``bad_input_cases.py``), lists bad inputs across every command (``solve`` for
every family and ``--game module:Class``, ``query``, ``stats``, ``verify``,
``export``, ``play``, ``copy``, ``compact``, ``list``, ``db upgrade``) and
every kind of mistake: malformed JSON, wrong types, out-of-range values,
unknown names, impossible positions, bad option values, files that are not
gamedb databases, a missing database, a too-old SQLite. Each case names the
exit code it must give (2 malformed input, 1 operational error) and a phrase
the message must contain.

Each case runs through the real command line (``gamedb.cli.app`` under
Click's runner; ``test_real_entry_point`` runs a few through
``python -m gamedb``) and must:

- exit with the expected code;
- print exactly one non-empty line on stderr, starting with ``Error:`` and
  containing the phrase;
- print no traceback, and raise nothing but ``SystemExit``;
- leave every file untouched: the database of small solved games (compared
  by content, a dump of every table), the other files given to the command,
  and no new file beside them (the missing database stays missing).

Every family also declares the bad positions a user will type
(``Game.examples.bad_positions``); ``test_every_family_refuses_its_bad_positions``
runs them, and an option the family does not have, for every registered
family, so a new family adds no row here.

Cases that fail because of a product bug outside the game families are
marked ``xfail(strict=True)`` with the symptom, so fixing the bug flips them.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app

from bad_input_cases import CASES, SOLVED, Case
from registry import builtin, examples, solve_examples

# --- fixtures ---------------------------------------------------------------------------------------


def _invoke(args, input: str | None = ""):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A folder holding the files the cases use, made once: the solved games and the bad files."""
    folder = tmp_path_factory.mktemp("bad-inputs-pristine")
    db = folder / "games.sqlite"
    for args in SOLVED:
        result = _invoke(["--db", db, "solve", *args, "-q"])
        assert result.exit_code == 0, (args, result.stderr)
    (db.parent / "games.sqlite.lock").unlink(missing_ok=True)  # the solver's lock file: not part of the database
    (folder / "notes.txt").write_text("these are not the games you are looking for\n")
    with sqlite3.connect(folder / "foreign.sqlite") as con:
        con.execute("CREATE TABLE t (x)")
        con.execute("INSERT INTO t VALUES (1)")
    con.close()
    (folder / "bad.json").write_text("[[1, 2],\n")
    (folder / "empty.json").write_text("\n")
    (folder / "empty.duckdb").write_bytes(b"")  # a file made with `touch` for a DuckDB database
    import duckdb

    duckdb.connect(str(folder / "made.duckdb")).close()
    (folder / "made.duckdb").rename(folder / "duck.sqlite")  # a DuckDB file under a SQLite name
    shutil.copyfile(folder / "foreign.sqlite", folder / "lite.duckdb")  # and a SQLite file under a DuckDB one
    for name, revision in (("newer.sqlite", "9999_from_the_future"), ("older.sqlite", "0001")):
        from gamedb import Database

        Database(folder / name, create=True).close()
        with sqlite3.connect(folder / name) as con:
            con.execute("UPDATE alembic_version SET version_num = ?", (revision,))
        con.close()
    return folder


@pytest.fixture
def workdir(pristine, tmp_path) -> Path:
    """A fresh copy of the pristine folder for one case."""
    folder = tmp_path / "work"
    shutil.copytree(pristine, folder)
    return folder


def _placeholders(folder: Path) -> dict[str, str]:
    return {
        "{db}": str(folder / "games.sqlite"),
        "{text}": str(folder / "notes.txt"),
        "{foreign}": str(folder / "foreign.sqlite"),
        "{missing}": str(folder / "missing.sqlite"),
        "{dir}": str(folder),
        "{badjson}": str(folder / "bad.json"),
        "{emptyjson}": str(folder / "empty.json"),
        "{newer}": str(folder / "newer.sqlite"),
        "{older}": str(folder / "older.sqlite"),
        "{duckassqlite}": str(folder / "duck.sqlite"),
        "{sqliteasduck}": str(folder / "lite.duckdb"),
        "{emptyduck}": str(folder / "empty.duckdb"),
    }


def _command_line(c: Case, folder: Path) -> list[str]:
    subs = _placeholders(folder)
    args = []
    for arg in c.args:
        for key, value in subs.items():
            arg = arg.replace(key, value)
        args.append(arg)
    return args if args[:1] == ["--db"] else ["--db", subs["{db}"], *args]


def _is_sqlite(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def content_digest(path: Path) -> str:
    """A SQLite file by content (a dump of every table and the schema), anything else by bytes."""
    if _is_sqlite(path):
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            digest = hashlib.sha256()
            for line in con.iterdump():
                digest.update(line.encode() + b"\n")
            return "sqlite:" + digest.hexdigest()
        finally:
            con.close()
    return "bytes:" + hashlib.sha256(path.read_bytes()).hexdigest()


def _files(folder: Path) -> list[str]:
    """Every file under ``folder`` (the solver's ``.lock`` files aside: they hold no data)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and not p.name.endswith(".lock"))


def assert_untouched(pristine: Path, folder: Path) -> None:
    """``folder`` (a copy of ``pristine`` a command ran in) holds the same files with the same contents.

    Identical bytes mean identical contents; only a file whose bytes changed
    is compared by content (a SQLite file may be rewritten without a change
    of data, which is fine).
    """
    assert _files(folder) == _files(pristine), "the command created or removed files"
    for name in _files(pristine):
        if (folder / name).read_bytes() != (pristine / name).read_bytes():
            assert content_digest(folder / name) == content_digest(pristine / name), f"the command changed {name}"


def check_one_line_error(exit_code: int, stdout: str, stderr: str, c: Case) -> None:
    assert "Traceback" not in stdout + stderr
    assert "secret" not in stdout + stderr, "a password in a URL was shown"
    assert exit_code == c.code, f"exit {exit_code}, expected {c.code}; stderr: {stderr!r} stdout: {stdout[-300:]!r}"
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    assert lines[0].startswith("Error: "), lines[0]
    assert c.message in lines[0], f"{c.message!r} not in {lines[0]!r}"


# --- the tests ------------------------------------------------------------------------------------------


def test_the_table_is_large_and_covers_every_command():
    cases = [p.values[0] for p in CASES]
    assert len(cases) >= 45
    assert len({p.id for p in CASES}) == len(CASES), "case ids must be unique"
    words = {a for c in cases for a in c.args}
    for command in ("solve", "query", "stats", "verify", "export", "play", "copy", "compact", "list", "upgrade", "--game"):
        assert command in words, f"no case for {command}"
    assert {1, 2} == {c.code for c in cases}


@pytest.mark.parametrize("c", CASES)
def test_bad_input(c: Case, pristine: Path, workdir: Path, monkeypatch):
    if c.sqlite_version is not None:
        monkeypatch.setattr(sqlite3, "sqlite_version", c.sqlite_version)
    result = _invoke(_command_line(c, workdir))
    monkeypatch.undo()
    unexpected = result.exception if not isinstance(result.exception, (SystemExit, type(None))) else None
    assert unexpected is None, f"raised {type(unexpected).__name__}: {unexpected}"
    check_one_line_error(result.exit_code, result.stdout, result.stderr, c)
    assert_untouched(pristine, workdir)


REAL_ENTRY_POINT = [
    "tictactoe-two-more-x", "subtraction-empty-entry", "list-foreign-sqlite", "grid-bare-rows", "query-port-not-a-number", "list-mysql",
    "games-mysql",
]


@pytest.mark.parametrize("case_id", REAL_ENTRY_POINT)
def test_real_entry_point(case_id: str, pristine: Path, workdir: Path):
    """A few cases through `python -m gamedb`, as a user runs it (no test runner in between)."""
    (c,) = [p.values[0] for p in CASES if p.id == case_id]
    run = subprocess.run(
        [sys.executable, "-m", "gamedb", *_command_line(c, workdir)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=workdir,
        timeout=120,
    )
    check_one_line_error(run.returncode, run.stdout, run.stderr, c)
    assert_untouched(pristine, workdir)


# --- every family: the bad positions it declares (``Game.examples.bad_positions``) ----------------------


@pytest.fixture(scope="module")
def family_examples(tmp_path_factory) -> Path:
    """A folder whose ``games.sqlite`` holds every built-in family's example game, under the family's name."""
    folder = tmp_path_factory.mktemp("bad-inputs-families")
    solve_examples(folder / "games.sqlite", builtin())
    return folder


@pytest.mark.parametrize("fam", builtin())
def test_every_family_refuses_its_bad_positions(fam: str, family_examples: Path):
    assert examples(fam).bad_positions, f"declare the bad positions a user will type in {fam}'s examples (Game.examples.bad_positions)"
    check_family_bad_inputs(fam, family_examples)


def check_family_bad_inputs(fam: str, folder: Path) -> None:
    """``gamedb query FAMILY TEXT`` for each bad position the family declares, and ``gamedb solve FAMILY`` with an
    option it does not have: one ``Error:`` line each (exit 2), no traceback, the database untouched.
    ``folder/games.sqlite`` holds the family's example game under the family's name."""
    db = folder / "games.sqlite"
    before = content_digest(db)
    cases = [Case(("query", fam, text), 2, phrase) for text, phrase in examples(fam).bad_positions]
    cases.append(Case(("solve", fam, "--no-such-option", "1"), 2, "No such option: --no-such-option"))
    for c in cases:
        result = _invoke(["--db", db, *c.args])
        unexpected = result.exception if not isinstance(result.exception, (SystemExit, type(None))) else None
        assert unexpected is None, f"{c.args}: raised {type(unexpected).__name__}: {unexpected}"
        check_one_line_error(result.exit_code, result.stdout, result.stderr, c)
    assert content_digest(db) == before, f"a bad input changed the database ({fam})"


@pytest.mark.parametrize("name, args", [
    ("new.sqlite", ["connect4", "--memory-limit", "1K"]),  # too large for the memory limit
    ("new.duckdb", ["connect4", "--memory-limit", "1K"]),
    ("new.duckdb", ["tictactoe", "--strategy", "sql"]),  # a strategy the backend does not run
], ids=["memory-sqlite", "memory-duckdb", "strategy-duckdb"])
def test_a_refused_solve_leaves_no_new_file(cli, tmp_path, name, args):
    """A solve refused after its new database file was opened removes the file it made (an empty database was left)."""
    r = cli("solve", *args, db=tmp_path / name)
    assert r.exit_code in (1, 2) and "Error: " in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_refused_solve_keeps_a_file_that_was_there(cli, tmp_path):
    """The file was there before (here with a game in it): a refused solve leaves it as it was."""
    db = tmp_path / "kept.sqlite"
    assert cli("solve", "tictactoe", "-q", db=db).exit_code == 0
    r = cli("solve", "connect4", "--memory-limit", "1K", db=db)
    assert r.exit_code == 1, r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["kept.sqlite"]
    assert "tictactoe" in cli("list", db=db).stdout
