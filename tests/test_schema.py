"""Schema: models and migrations agree; a new file is created at head; old/new revisions are refused."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gamedb import Database
from gamedb.errors import DatabaseError
from gamedb.store.database import head_revision

ROOT = Path(__file__).resolve().parents[1]


def _alembic(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "alembic", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_upgrade_from_empty_file_then_alembic_check(tmp_path):
    db = tmp_path / "empty.sqlite"
    up = _alembic("-x", f"db={db}", "upgrade", "head")
    assert up.returncode == 0, up.stderr
    check = _alembic("-x", f"db={db}", "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "No new upgrade operations detected" in check.stdout + check.stderr


def test_new_database_is_stamped_at_head(tmp_path):
    path = tmp_path / "new.sqlite"
    Database(path, create=True).close()
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head_revision()
        views = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'view'")}
    assert {"positions", "moves"} <= views


def test_downgrade_to_base_and_back(tmp_path):
    db = tmp_path / "roundtrip.sqlite"
    assert _alembic("-x", f"db={db}", "upgrade", "head").returncode == 0
    down = _alembic("-x", f"db={db}", "downgrade", "base")
    assert down.returncode == 0, down.stderr
    assert _alembic("-x", f"db={db}", "upgrade", "head").returncode == 0


def test_older_revision_says_how_to_upgrade(tmp_path):
    path = tmp_path / "old.sqlite"
    Database(path, create=True).close()
    with sqlite3.connect(path) as con:
        con.execute("UPDATE alembic_version SET version_num = '0000'")
    # an unknown revision id is "newer than this gamedb knows"
    with pytest.raises(DatabaseError, match="newer than this gamedb"):
        Database(path)


def test_missing_file_is_not_created_by_readers(tmp_path):
    path = tmp_path / "nothing.sqlite"
    with pytest.raises(DatabaseError, match="no database at"):
        Database(path)
    assert not path.exists()
