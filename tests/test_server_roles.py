"""A PostgreSQL role that may not create gamedb's tables (since PostgreSQL 15 only a database's owner may create in its
schema public), typed as a user types it: one line that says what to grant, no traceback, nothing left behind."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
import sqlalchemy as sa


def typed(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GAMEDB_DB"}
    return subprocess.run([sys.executable, "-m", "gamedb", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          stdin=subprocess.DEVNULL, timeout=300)


@pytest.fixture
def role_url(pg_server) -> Iterator[tuple[str, str, str]]:
    """(URL as a new login role without CREATE on public, that role, the database's URL as its owner); both dropped after."""
    owner_url = pg_server.new_database(migrated=False)
    role = f"{pg_server.prefix}_player"
    pg_server._exec(f'CREATE ROLE "{role}" LOGIN')
    url = sa.engine.make_url(owner_url).set(username=role, password="secret").render_as_string(hide_password=False)
    try:
        yield url, role, owner_url
    finally:
        pg_server.drop(owner_url)
        pg_server._exec(f'DROP ROLE IF EXISTS "{role}"')


def _tables(owner_url: str) -> list[str]:
    engine = sa.create_engine(owner_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return sa.inspect(conn).get_table_names()
    finally:
        engine.dispose()


def _one_line(run: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in run.stdout + run.stderr and "secret" not in run.stdout + run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def test_a_role_that_may_not_create_tables_is_told_what_to_grant(role_url, tmp_path):
    url, role, owner_url = role_url
    src = tmp_path / "src.sqlite"
    assert typed("--db", str(src), "solve", "nim", "--max", "3", "-q", cwd=tmp_path).returncode == 0
    for args in (["--db", url, "solve", "nim", "--max", "3", "-q"], ["copy", str(src), url]):
        run = typed(*args, cwd=tmp_path)
        line = _one_line(run)
        assert run.returncode == 1, line
        assert f"the role {role} may not create gamedb's tables in schema public of postgresql+psycopg://{role}:***@" in line
        assert f"GRANT CREATE ON SCHEMA public TO {role}" in line and "a database the role owns" in line
    assert _tables(owner_url) == []
    engine = sa.create_engine(owner_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with engine.connect() as conn:  # what the message says to do, done: the same command then works
        conn.exec_driver_sql(f'GRANT CREATE ON SCHEMA public TO "{role}"')
    engine.dispose()
    run = typed("--db", url, "solve", "nim", "--max", "3", "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "nim" in typed("--db", url, "list", cwd=tmp_path).stdout


def test_a_role_whose_search_path_names_no_schema_is_told_so(role_url, tmp_path):
    url, role, owner_url = role_url
    engine = sa.create_engine(owner_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        conn.exec_driver_sql(f'GRANT CREATE ON SCHEMA public TO "{role}"')
        conn.exec_driver_sql(f'ALTER ROLE "{role}" SET search_path = nowhere')
    engine.dispose()
    run = typed("--db", url, "solve", "nim", "--max", "3", "-q", cwd=tmp_path)
    line = _one_line(run)
    assert run.returncode == 1, line
    assert "no schema of the search_path (nowhere) exists" in line and f"ALTER ROLE {role} SET search_path = public" in line
    assert _tables(owner_url) == []


def _as_owner(owner_url: str, *statements: str) -> None:
    engine = sa.create_engine(owner_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        for statement in statements:
            conn.exec_driver_sql(statement)
    engine.dispose()


def test_a_role_that_may_not_read_or_write_gamedbs_tables_is_told_what_to_grant(role_url, tmp_path):
    # the tables exist (made by their owner), the role may not use them: was 'cannot open URL as a gamedb database:
    # permission denied for table alembic_version' (or 'database error: permission denied for table position') alone
    url, role, owner_url = role_url
    assert typed("--db", owner_url, "solve", "nim", "--max", "5", "-q", cwd=tmp_path).returncode == 0
    read = f"(permission denied): as their owner, GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"
    write = (f"(permission denied): as their owner, GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}; "
             f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}")
    where = f"in postgresql+psycopg://{role}:***@"
    for args in (["list"], ["query", "nim", "3"], ["stats", "nim"], ["serve", "--port", "0"]):
        line = _one_line(run := typed("--db", url, *args, cwd=tmp_path))
        assert run.returncode == 1 and line.startswith(f"Error: cannot read gamedb's table 'alembic_version' (and 10 more) {where}")
        assert line.endswith(read), line
    _as_owner(owner_url, f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{role}"', f'REVOKE SELECT ON position FROM "{role}"')
    line = _one_line(run := typed("--db", url, "query", "nim", "3", cwd=tmp_path))
    assert run.returncode == 1 and line.startswith(f"Error: cannot read gamedb's table 'position' {where}") and line.endswith(read)
    _as_owner(owner_url, f'GRANT SELECT ON position TO "{role}"')  # as the message says: reads work, a solve is told what more
    assert typed("--db", url, "query", "nim", "3", cwd=tmp_path).returncode == 0
    for args in (["--db", url, "solve", "tictactoe", "-q"], ["copy", owner_url, url, "--force"]):
        line = _one_line(run := typed(*args, cwd=tmp_path))
        assert run.returncode == 1 and line.startswith(f"Error: cannot write gamedb's table 'game' (and 10 more) {where}")
        assert line.endswith(write), line
    _as_owner(owner_url, f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "{role}"')
    line = _one_line(run := typed("--db", url, "solve", "tictactoe", "-q", cwd=tmp_path))
    assert run.returncode == 1 and line.startswith(f"Error: cannot write gamedb's sequence 'game_id_seq' {where}")
    _as_owner(owner_url, f'GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
    run = typed("--db", url, "solve", "tictactoe", "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "tictactoe" in typed("--db", url, "list", cwd=tmp_path).stdout
