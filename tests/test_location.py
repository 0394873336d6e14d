"""The database location is read once (gamedb.store.location): a plain path is a SQLite file, ``://`` a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamedb.store.location import DEFAULT_PATH, locate


def test_plain_path_is_a_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    where = locate("x.sqlite")
    assert (where.kind, where.is_file, where.is_sqlite) == ("file", True, True)
    assert where.path == tmp_path / "x.sqlite"
    assert where.url == f"sqlite:///{tmp_path / 'x.sqlite'}"
    assert where.shown == "x.sqlite"
    assert locate().text == DEFAULT_PATH == "gamedb.sqlite"
    assert locate(where) is where


def test_home_is_expanded(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert locate("~/g.sqlite").path == tmp_path / "g.sqlite"


def test_server_url_hides_its_password() -> None:
    where = locate("postgresql://me:secret@127.0.0.1/games")
    assert (where.kind, where.is_file, where.is_sqlite, where.path) == ("url", False, False, None)
    assert where.url == "postgresql+psycopg://me:secret@127.0.0.1/games"
    assert "secret" not in where.shown and where.shown.startswith("postgresql://me:")
    assert locate("postgres://h/db").url == "postgresql+psycopg://h/db"


def test_sqlite_url_names_its_file() -> None:
    where = locate("sqlite:////tmp/a b.sqlite")
    assert (where.is_file, where.is_sqlite, where.path) == (False, True, Path("/tmp/a b.sqlite"))
    assert locate("sqlite://").path is None


def test_the_upgrade_command_names_the_file_as_a_shell_takes_it(tmp_path: Path) -> None:
    from gamedb.store.location import upgrade_command

    assert upgrade_command("old.sqlite") == "gamedb --db old.sqlite db upgrade"  # (without --db: ./gamedb.sqlite)
    assert upgrade_command(tmp_path / "my games.duckdb") == f"gamedb --db '{tmp_path}/my games.duckdb' db upgrade"


def test_the_upgrade_advice_for_a_server_says_where_its_hidden_password_goes() -> None:
    from gamedb.store.location import upgrade_advice

    shown = locate("postgresql://me:secret@127.0.0.1/games").shown
    assert "secret" not in shown and upgrade_advice(shown).endswith("db upgrade` with the password in place of ***")
    assert upgrade_advice("old.sqlite") == "run `gamedb --db old.sqlite db upgrade`"


def test_a_url_gamedb_cannot_read_still_hides_its_password() -> None:
    from gamedb.store.server_url import hide_password

    assert hide_password("postgresql://me:secret@localhost:notaport/db") == "postgresql://me:***@localhost:notaport/db"
    assert hide_password("postgresql://me:se@cr/et@h:x/db?a=1") == "postgresql://me:***@h:x/db?a=1"  # to the last @
    assert hide_password("postgresql://me@localhost:notaport/db") == "postgresql://me@localhost:notaport/db"
    assert hide_password("postgresql://localhost:notaport/db") == "postgresql://localhost:notaport/db"


@pytest.mark.parametrize("scheme", ["sqlite", "sqlite+pysqlite", "SQLite"])
def test_sqlite_urls_with_its_own_driver_solve_and_answer(cli, tmp_path: Path, scheme: str) -> None:
    url = f"{scheme}:///{tmp_path / 'g.sqlite'}"
    assert cli("solve", "nim", "--max", "3", "-q", db=url).exit_code == 0
    assert cli("query", "nim", "2", db=url).exit_code == 0
    assert cli("list", db=tmp_path / "g.sqlite").stdout.split("\n")[1].startswith("nim")


@pytest.mark.parametrize("url", ["sqlite:///rel.sqlite", "sqlite+pysqlite:///rel.sqlite", "SQLite:///rel.sqlite?timeout=5"])
def test_a_relative_path_in_a_sqlite_url_is_made_absolute_as_a_plain_path(tmp_path: Path, monkeypatch, url: str) -> None:
    # the URL's path was kept relative (messages said `no database at rel.sqlite`), a plain path's made absolute
    monkeypatch.chdir(tmp_path)
    where = locate(url)
    assert where.path == locate("rel.sqlite").path == tmp_path / "rel.sqlite"
    assert where.url == url.split(":", 1)[0].lower() + f":///{tmp_path / 'rel.sqlite'}" + url.partition("?")[1] + url.partition("?")[2]
    assert where.shown == url and not where.is_file and where.is_sqlite
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert locate("sqlite:///~/g.sqlite").path == tmp_path / "home" / "g.sqlite"
    assert locate("sqlite:///:memory:").url == "sqlite:///:memory:" and locate("sqlite://").path is None
    assert locate("sqlite:///file:g.sqlite?mode=ro&uri=true").url == "sqlite:///file:g.sqlite?mode=ro&uri=true"


@pytest.mark.parametrize("db", ["rel.sqlite", "sqlite:///rel.sqlite", "sqlite+pysqlite:///rel.sqlite", "duckdb:///rel.duckdb", "rel.duckdb"])
def test_no_database_names_the_files_absolute_path_for_a_path_or_a_url(tmp_path: Path, monkeypatch, db: str) -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "gamedb", "--db", db, "list"], cwd=tmp_path, capture_output=True, text=True)
    name = "rel.duckdb" if "duckdb" in db else "rel.sqlite"
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == f"Error: no database at {tmp_path / name} (solve a game first, or pass --db)\n"
    solved = subprocess.run([sys.executable, "-m", "gamedb", "--db", db, "solve", "nim", "--max", "3", "-q"], cwd=tmp_path, capture_output=True, text=True)
    assert solved.returncode == 0 and (tmp_path / name).is_file(), solved.stderr
