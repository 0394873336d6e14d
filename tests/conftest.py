"""Shared fixtures: a fresh database path and a CLI runner that types like a user."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app

SEED_GRAPH_1 = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
SEED_GRAPH_2 = [[1, 3], [0], [3], [0, 2]]


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def cli(db_path):
    """cli("query", "tictactoe", "--json") runs `gamedb --db DB query tictactoe --json`."""
    runner = CliRunner()

    def run(*args: str, db: Path | str | None = None, input: str | None = None) -> Run:
        result = runner.invoke(app, ["--db", str(db or db_path), *args], input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Run(result.exit_code, result.stdout, result.stderr)

    run.db_path = db_path
    return run


@pytest.fixture(scope="session")
def empty_db_template(tmp_path_factory) -> Path:
    """An empty gamedb file at the newest schema, copied instead of migrating each time."""
    from gamedb import Database

    path = tmp_path_factory.mktemp("template") / "empty.sqlite"
    Database(path, create=True).close()
    return path


@pytest.fixture
def fresh_db(empty_db_template, tmp_path):
    """A function returning a new, empty gamedb database (a copy of the template)."""
    from gamedb import Database

    counter = iter(range(1_000_000))

    def make():
        path = tmp_path / f"db{next(counter)}.sqlite"
        shutil.copy(empty_db_template, path)
        return Database(path)

    return make


# --- PostgreSQL ---------------------------------------------------------------------
# GAMEDB_TEST_PG is a URL of a server where the tests may create databases
# (.ci/run starts a throwaway one). Without it the PostgreSQL variants skip;
# in CI (CI=true) they fail instead, so a broken server cannot pass unseen.

PG_ENV = "GAMEDB_TEST_PG"
BACKENDS = ["sqlite", "postgresql", "duckdb"]


def pg_admin_url() -> str:
    import os

    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"CI is set but {PG_ENV} is not: the PostgreSQL tests must run in CI (.ci/run starts a server)")
        pytest.skip(f"PostgreSQL tests need {PG_ENV}=postgresql+psycopg://USER@HOST:PORT/DB (.ci/run starts a server)")
    return url


class PgServer:
    """Creates isolated databases on the test server, each a copy of one migrated template."""

    def __init__(self, url: str):
        import uuid

        import sqlalchemy as sa

        self.url = sa.engine.make_url(url)
        self.admin = sa.create_engine(self.url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
        self.prefix = f"gamedb_t{uuid.uuid4().hex[:10]}"
        self.created: list[str] = []
        self.counter = 0
        self.template = self.create_empty(f"{self.prefix}_template")
        from gamedb import Database

        Database(self.url_of(self.template), create=True).close()

    def url_of(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def _exec(self, sql: str) -> None:
        with self.admin.connect() as conn:
            conn.exec_driver_sql(sql)

    def create_empty(self, name: str) -> str:
        self._exec(f'CREATE DATABASE "{name}" TEMPLATE template0')
        self.created.append(name)
        return name

    def new_database(self, *, migrated: bool = True) -> str:
        """URL of a new database: at the newest schema (a template copy), or empty."""
        self.counter += 1
        name = f"{self.prefix}_{self.counter}"
        if migrated:
            self._exec(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
            self.created.append(name)
        else:
            self.create_empty(name)
        return self.url_of(name)

    def drop(self, url: str) -> None:
        import sqlalchemy as sa

        name = sa.engine.make_url(url).database
        self._exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if name in self.created:
            self.created.remove(name)

    def close(self) -> None:
        for name in reversed(self.created):
            self._exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin.dispose()


@pytest.fixture(scope="session")
def pg_server():
    server = PgServer(pg_admin_url())
    yield server
    server.close()


@pytest.fixture
def pg_url(pg_server):
    """URL of a new PostgreSQL database at the newest schema, dropped after the test."""
    url = pg_server.new_database()
    yield url
    pg_server.drop(url)


@pytest.fixture(params=BACKENDS)
def backend_db(request, tmp_path):
    """A function returning a new, empty gamedb database on the parametrised backend (SQLite file, PostgreSQL database or DuckDB file)."""
    from gamedb import Database

    opened, urls = [], []
    counter = iter(range(1_000_000))
    server = request.getfixturevalue("pg_server") if request.param == "postgresql" else None

    def make():
        if server is None:
            location = str(tmp_path / f"backend{next(counter)}.{'duckdb' if request.param == 'duckdb' else 'sqlite'}")
        else:
            location = server.new_database()
            urls.append(location)
        db = Database(location, create=True)
        opened.append(db)
        return db

    make.backend = request.param
    yield make
    for db in opened:
        db.close()
    for url in urls:
        server.drop(url)


# --- gamedb serve ----------------------------------------------------------------------

@pytest.fixture(scope="session")
def web_db(tmp_path_factory) -> tuple[Path, list[str]]:
    """A SQLite file with one small solved game of every family (tests/web_games.py), and their names."""
    from web_games import solve_every_family

    path = tmp_path_factory.mktemp("web") / "every-family.sqlite"
    return path, solve_every_family(path)


@pytest.fixture(scope="session")
def web_db_more(web_db, tmp_path_factory) -> tuple[Path, list[str]]:
    """A copy of :func:`web_db` with larger games added: Connect-Four 4x4 (161,029 positions, about a
    second), the flip game from 300 cells and Nim heaps to 60 (long positions and heaps)."""
    from gamedb import Database
    from gamedb.games import family

    path = tmp_path_factory.mktemp("web-more") / "more.sqlite"
    shutil.copyfile(web_db[0], path)
    names = list(web_db[1])
    with Database(path) as db:
        for name, options in [("connect4", {"width": 4, "height": 4}), ("flip", {"max": 300}), ("nim", {"max": 60})]:
            names.append(db.solve(family(name).from_options(**options), name=f"{name}-big" if name != "connect4" else None).name)
    return path, names
