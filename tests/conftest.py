"""Shared fixtures: a fresh database path and a CLI runner that types like a user."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamedb.cli import app

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
