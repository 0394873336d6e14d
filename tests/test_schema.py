"""Schema: models and migrations agree; a new file is created at head; old/new revisions are refused."""

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


def test_db_upgrade_on_current_file_is_a_no_op(cli, db_path):
    cli("solve", "tictactoe", "-q")
    run = cli("db", "upgrade")
    assert run.exit_code == 0 and "already at the newest" in run.stdout


def test_db_upgrade_from_older_revision_backs_up_first(cli, db_path):
    from alembic.script import ScriptDirectory

    from gamedb.store.database import alembic_config

    revisions = [r.revision for r in ScriptDirectory.from_config(alembic_config()).walk_revisions()]
    if len(revisions) < 2:
        pytest.skip("only one schema revision exists so far")
    oldest = revisions[-1]
    up = _alembic("-x", f"db={db_path}", "upgrade", oldest)
    assert up.returncode == 0, up.stderr
    refused = cli("list")
    assert refused.exit_code == 1 and "db upgrade`" in refused.stderr
    run = cli("db", "upgrade")
    assert run.exit_code == 0, run.stderr
    assert (db_path.parent / f"{db_path.name}.backup-{oldest}").exists()
    assert cli("list").exit_code == 0


def test_db_upgrade_refuses_strangers(cli, tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite at all" * 64)
    run = cli("db", "upgrade", db=junk)
    assert run.exit_code == 1 and run.stderr.startswith("Error:") and run.stderr.count("\n") == 1


def test_cat_mouse_solved_before_move_lists_still_verifies_after_upgrade(cli, db_path):
    """A cat-mouse game solved at schema 0002 kept a move row per move; after `db upgrade` it answers, verifies and lists its moves."""
    import sqlalchemy as sa

    from gamedb import Database, make_game

    game = make_game("cat-mouse", graph=[[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    db = Database(db_path, create=True)
    db.solve(game, "old")
    gid = db.game("old").id
    rows = [
        {"g": gid, "p": row["code"], "o": order, "c": game.encode(child), "l": label}
        for row in db.positions("old")
        for order, (label, child) in enumerate(game.moves(game.decode(row["code"])))
    ]
    with db.engine.begin() as conn:  # the layout of 0002: move rows, no move lists
        conn.execute(sa.text("INSERT INTO move (game_id, parent, ord, child, label) VALUES (:g, :p, :o, :c, :l)"), rows)
        moves = conn.execute(sa.text("SELECT COUNT(*) FROM move WHERE game_id = :g"), {"g": gid}).scalar()
        conn.execute(sa.text("DELETE FROM token_move"))
        conn.execute(sa.text("DELETE FROM token_board"))
    db.close()
    assert moves > 0
    down = _alembic("-x", f"db={db_path}", "downgrade", "0002")
    assert down.returncode == 0, down.stderr
    assert cli("db", "upgrade").exit_code == 0
    assert cli("verify", "old").exit_code == 0
    assert cli("query", "old", "--json").exit_code == 0
    with Database(db_path) as again, again.engine.connect() as conn:
        listed = conn.execute(sa.text("SELECT COUNT(*) FROM moves WHERE game = 'old'")).scalar()
    assert listed == moves


def _normalized_schema(path) -> list[tuple[str, str, str]]:
    import re
    import sqlite3

    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name").fetchall()
        version = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    normal = []
    for kind, name, sql in rows:
        sql = re.sub(r"\s+", " ", sql.replace('"', ""))
        sql = re.sub(r"\( ", "(", re.sub(r" \)", ")", sql))
        normal.append((kind, name, sql.strip()))
    return normal + [("version", "alembic_version", str(version))]


def test_a_new_file_has_the_schema_the_migrations_build(tmp_path):
    """A new SQLite file is created from the tables and views and stamped (no Alembic run): the same schema as migrating."""
    import sqlalchemy as sa

    from gamedb.store.database import head_revision, open_engine, upgrade

    created = tmp_path / "created.sqlite"
    open_engine(created, create=True).dispose()
    migrated = tmp_path / "migrated.sqlite"
    engine = sa.create_engine(f"sqlite:///{migrated}")
    with engine.begin() as conn:
        upgrade(conn)
    engine.dispose()
    assert _normalized_schema(created) == _normalized_schema(migrated)
    assert ("version", "alembic_version", str([(head_revision(),)])) in _normalized_schema(created)
    assert {kind for kind, _, _ in _normalized_schema(created)} >= {"table", "index", "view"}


def test_the_new_file_ddl_is_generated_from_the_tables():
    """gamedb/store/sqlite_ddl.sql is what gamedb.store.sqlite_schema generates from the tables and migrations now, byte for byte."""
    from gamedb.store.sqlite_file import GENERATED, new_file_statements
    from gamedb.store.sqlite_schema import compiled_statements, generated_text

    assert GENERATED.read_text() == generated_text(), "the tables changed: run `python -m gamedb.store.sqlite_schema`"
    assert new_file_statements() == compiled_statements()
    assert len(compiled_statements()) == 20  # 10 tables, 6 indexes, 3 views, alembic_version


def test_a_column_is_the_schema_one_revision_and_the_row_type(tmp_path):
    """Where a column goes (README, Development, "a new column"), checked to agree column for column:

    1. its table in ``gamedb/store/schema.py`` (the SQLAlchemy tables);
    2. one Alembic revision in ``migrations/versions/`` (the migrations build the same columns, in the same order);
    3. the row type: ``PositionRow`` (``gamedb/store/rows.py``) for the position table, ``GameRecord``
       (``gamedb/store/record.py``) for the game table.

    The SQLite DDL of a new file (``gamedb/store/sqlite_ddl.sql``) is generated from 1 by
    ``python -m gamedb.store.sqlite_schema``, not written (``test_the_new_file_ddl_is_generated_from_the_tables``).
    """
    from dataclasses import fields

    import sqlalchemy as sa

    from gamedb.store.database import upgrade
    from gamedb.store.record import GameRecord
    from gamedb.store.rows import PositionRow
    from gamedb.store.schema import game, metadata, position

    # 1 and 3: the tables and the row types
    assert PositionRow._fields == tuple(c.name for c in position.columns if c.name != "game_id")
    assert [f.name for f in fields(GameRecord) if f.name != "problem"] == [c.name for c in game.columns]
    # 1 and 2: the tables and the migrations
    migrated = tmp_path / "migrated.sqlite"
    engine = sa.create_engine(f"sqlite:///{migrated}")
    with engine.begin() as conn:
        upgrade(conn)
    engine.dispose()
    with sqlite3.connect(migrated) as conn:
        for table in metadata.sorted_tables:
            built = [row[1] for row in conn.execute(f"PRAGMA table_info({table.name})")]
            assert built == [c.name for c in table.columns], f"the migrations build {table.name} as {built}"
    conn.close()
