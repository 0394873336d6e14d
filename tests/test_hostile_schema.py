"""A shared file is data: schema objects gamedb did not create, and files that are not regular files, are refused.

Each attack of issue 20 is made with plain sqlite3 (or the shell's mkfifo and
ln -s) and every command runs on it as a user types it: a subprocess of the
installed ``gamedb`` script with a timeout, so a hang fails the test instead
of hanging the suite. Every command must answer in one ``Error:`` line with
exit 1 or 2, print nothing on stdout, leave the file's bytes as they were and
make no file beside it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamedb import Database, make_game
from gamedb.store.file_check import differences, head_objects, normalized_sql, objects_of, set_budget

GAMEDB = str(Path(sys.executable).with_name("gamedb"))
#: seconds a command may take before it counts as hung (a check answers in about one)
HUNG = 60
ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
REFUSED = "is not a gamedb database as gamedb writes it"


def _view_in_place_of(table: str) -> tuple[str, ...]:
    """A table renamed and replaced by a view of the same name that never ends."""
    return (f"ALTER TABLE {table} RENAME TO old_{table}", f"CREATE VIEW {table} AS {ENDLESS} SELECT old_{table}.* FROM old_{table}, c")


#: attack -> (SQL run on a copy of the solved file, words the refusal must contain)
ATTACKS = {
    "alembic_version view": (
        (
            "ALTER TABLE alembic_version RENAME TO av",
            f"CREATE VIEW alembic_version AS {ENDLESS} SELECT x AS version_num FROM c ORDER BY x DESC",
        ),
        "a view 'alembic_version' where gamedb creates a table",
    ),
    "game view": (_view_in_place_of("game"), "a view 'game' where gamedb creates a table"),
    "position view": (_view_in_place_of("position"), "a view 'position' where gamedb creates a table"),
    "player view": (_view_in_place_of("player"), "a view 'player' where gamedb creates a table"),
    "replaced view": (
        ("DROP VIEW positions", f"CREATE VIEW positions AS {ENDLESS} SELECT x AS game FROM c"),
        "its view 'positions' is not the one gamedb creates",
    ),
    "extra view": ((f"CREATE VIEW extra AS {ENDLESS} SELECT x FROM c",), "a view 'extra', which gamedb never creates"),
    "insert trigger": (
        (
            "CREATE TRIGGER t AFTER INSERT ON position BEGIN "
            "UPDATE position SET result = 'win', remoteness = 7 WHERE game_id = new.game_id AND code = new.code; END",
        ),
        "a trigger 't' on 'position', which gamedb never creates",
    ),
    "update trigger": (
        ("CREATE TRIGGER wipe AFTER UPDATE ON position BEGIN UPDATE position SET result = 'tie' WHERE game_id = new.game_id; END",),
        "a trigger 'wipe' on 'position'",
    ),
    "delete trigger": (
        ("CREATE TRIGGER gone BEFORE DELETE ON game BEGIN DELETE FROM game WHERE id <> old.id; END",),
        "a trigger 'gone' on 'game'",
    ),
    "extra table": (("CREATE TABLE notes (x)",), "a table 'notes', which gamedb never creates"),
    "extra index": (("CREATE INDEX ix_mine ON position (result)",), "an index 'ix_mine' on 'position'"),
    "changed index": (
        ("DROP INDEX ix_move_child", "CREATE INDEX ix_move_child ON move (game_id, child, label)"),
        "its index 'ix_move_child' is not the one gamedb creates",
    ),
}

#: every command on a hostile file, as typed: {db} the file, {new} a path beside it that does not exist
COMMANDS = {
    "list": ["--db", "{db}", "list"],
    "query": ["--db", "{db}", "query", "tictactoe"],
    "query json": ["--db", "{db}", "query", "tictactoe", "X...O....", "--json"],
    "query -": ["--db", "{db}", "query", "tictactoe", "-"],
    "stats": ["--db", "{db}", "stats", "tictactoe"],
    "verify": ["--db", "{db}", "verify", "tictactoe", "--quiet"],
    "export": ["--db", "{db}", "export", "tictactoe", "--format", "jsonl"],
    "play": ["--db", "{db}", "play", "tictactoe"],
    "copy from": ["copy", "{db}", "{new}", "--quiet"],
    "copy into": ["copy", "{good}", "{db}", "nim", "--quiet"],
    "compact": ["--db", "{db}", "compact", "tictactoe"],
    "solve": ["--db", "{db}", "solve", "tictactoe", "--name", "mine", "--quiet"],
    "solve small": ["--db", "{db}", "solve", "nim", "--max", "5", "--name", "mine", "--quiet"],
    "db upgrade": ["--db", "{db}", "db", "upgrade"],
    "db index": ["--db", "{db}", "db", "index"],
    "serve": ["--db", "{db}", "serve", "--port", "0"],
}
#: the attacks every command is tried on; the others are tried on the commands of the light and the writing paths
EVERY_COMMAND = ("alembic_version view", "position view", "insert trigger")
SOME_COMMANDS = ("list", "query", "query json", "solve", "copy into")


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    """A solved file (tictactoe, nim) as gamedb writes it."""
    path = tmp_path_factory.mktemp("solved") / "games.sqlite"
    with Database(path, create=True) as db:
        db.solve(make_game("tictactoe"))
        db.solve(make_game("nim", max=6))
    return path


def gamedb(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The installed script as a user runs it; a command that hangs fails the test."""
    try:
        return subprocess.run([GAMEDB, *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=HUNG)
    except subprocess.TimeoutExpired:
        pytest.fail(f"gamedb {' '.join(args)} did not return within {HUNG} s")


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else "special"
            for p in sorted(folder.iterdir())}


def _craft(solved: Path, folder: Path, sql: tuple[str, ...]) -> Path:
    path = folder / "shared.sqlite"
    shutil.copyfile(solved, path)
    with sqlite3.connect(path) as conn:
        for statement in sql:
            conn.execute(statement)
    conn.close()
    return path


def _assert_refused(run: subprocess.CompletedProcess[str], *words: str) -> None:
    assert run.returncode in (1, 2), (run.returncode, run.stdout[-500:], run.stderr[-500:])
    assert run.stdout == ""
    assert run.stderr.startswith("Error: ") and run.stderr.count("\n") == 1, run.stderr
    assert "Traceback" not in run.stderr
    for word in words:
        assert word in run.stderr, run.stderr


def _cases():
    for attack in ATTACKS:
        for command in COMMANDS if attack in EVERY_COMMAND else SOME_COMMANDS:
            yield pytest.param(attack, command, id=f"{attack}-{command}")


@pytest.mark.parametrize(("attack", "command"), list(_cases()))
def test_a_planted_object_is_refused_by_every_command(solved, tmp_path, attack, command):
    sql, words = ATTACKS[attack]
    folder = tmp_path / "share"
    folder.mkdir()
    db = _craft(solved, folder, sql)
    good = tmp_path / "good.sqlite"
    shutil.copyfile(solved, good)
    before = _snapshot(folder)
    args = [a.format(db=db.name, new="new.sqlite", good=good) for a in COMMANDS[command]]
    run = gamedb(*args, cwd=folder, stdin="X........\n")
    _assert_refused(run, REFUSED, words, "gamedb reads no file with objects it did not create")
    assert _snapshot(folder) == before  # nothing written, no journal, no new file


def test_the_trigger_of_the_issue_no_longer_corrupts_a_solve(solved, tmp_path):
    """`gamedb solve tictactoe --name mine` into a file with an insert trigger said "win in 7" (truth: a tie in 9)."""
    sql, _ = ATTACKS["insert trigger"]
    db = _craft(solved, tmp_path, sql)
    run = gamedb("--db", db.name, "solve", "tictactoe", "--name", "mine", cwd=tmp_path)
    _assert_refused(run, "a trigger 't' on 'position'")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM game WHERE name = 'mine'").fetchone() == (0,)
    conn.close()


@pytest.mark.parametrize("command", ["list", "query", "query json", "solve small"])
def test_a_fifo_is_refused_without_opening_it(tmp_path, command):
    fifo = tmp_path / "games.sqlite"
    os.mkfifo(fifo)
    link = tmp_path / "link.sqlite"
    link.symlink_to(fifo)
    for name, how in (("games.sqlite", ""), ("link.sqlite", " (through a symbolic link)")):
        args = [a.format(db=name, new="new.sqlite", good="x") for a in COMMANDS[command]]
        run = gamedb(*args, cwd=tmp_path)
        _assert_refused(run, f"{name} is not a regular file: it is a FIFO (named pipe){how}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite", "link.sqlite"]


@pytest.mark.parametrize(("path", "kind"), [("/dev/urandom", "a character device"), ("/dev/null", "a character device"), (".", "a directory")])
@pytest.mark.parametrize("command", ["list", "query json", "db upgrade"])
def test_a_device_or_a_directory_is_not_a_database(tmp_path, path, kind, command):
    args = [a.format(db=path, new="new.sqlite", good="x") for a in COMMANDS[command]]
    run = gamedb(*args, cwd=tmp_path)
    _assert_refused(run, f"{path} is not a regular file: it is {kind}")
    assert "empty" not in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_wal_planted_beside_a_rollback_file_is_refused(solved, tmp_path):
    """A -wal with content beside a file in DELETE mode would be applied unseen: refused, naming it; the file is unchanged."""
    db = tmp_path / "games.sqlite"
    shutil.copyfile(solved, db)
    # a real write-ahead log of the same file, changing the start's value, planted beside the original
    other = tmp_path / "other"
    other.mkdir()
    shutil.copyfile(solved, other / "games.sqlite")
    writer = sqlite3.connect(other / "games.sqlite")
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE position SET result = 'win', remoteness = 1 WHERE code = (SELECT start_code FROM game WHERE name = 'tictactoe')")
    writer.commit()
    shutil.copyfile(other / "games.sqlite-wal", tmp_path / "games.sqlite-wal")
    writer.close()
    shutil.rmtree(other)
    before = _snapshot(tmp_path)
    for command in ("list", "query", "query json", "solve small"):
        args = [a.format(db="games.sqlite", new="new.sqlite", good="x") for a in COMMANDS[command]]
        run = gamedb(*args, cwd=tmp_path)
        _assert_refused(run, "games.sqlite-wal", "rollback-journal mode")
    assert _snapshot(tmp_path) == before
    (tmp_path / "games.sqlite-wal").unlink()
    run = gamedb("--db", "games.sqlite", "query", "tictactoe", "--json", cwd=tmp_path)
    assert run.returncode == 0 and '"result": "tie"' in run.stdout


def test_files_gamedb_writes_pass(solved, tmp_path):
    """The check refuses nothing gamedb makes: a new file, a file a solve finished, one in WAL mode."""
    db = tmp_path / "games.sqlite"
    shutil.copyfile(solved, db)
    assert gamedb("--db", "games.sqlite", "query", "tictactoe", "--json", cwd=tmp_path).returncode == 0
    assert gamedb("--db", "games.sqlite", "solve", "nim", "--max", "4", "--name", "small", "-q", cwd=tmp_path).returncode == 0
    assert gamedb("--db", "new.sqlite", "solve", "nim", "--max", "4", "-q", cwd=tmp_path).returncode == 0  # the light new-file solve
    assert gamedb("--db", "new.sqlite", "query", "nim", "--json", cwd=tmp_path).returncode == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    conn.close()
    for args in (["list"], ["query", "small", "--json"], ["db", "index"]):
        run = gamedb("--db", "games.sqlite", *args, cwd=tmp_path)
        assert run.returncode == 0, run.stderr


def test_an_older_file_upgraded_by_the_migrations_passes(tmp_path):
    """A file built by the migrations (how every file below the newest revision was made) spells the
    statements otherwise: it is read, and `db upgrade` from an older revision still works."""
    import sqlalchemy as sa
    from alembic import command

    from gamedb.store.database import alembic_config

    db = tmp_path / "old.sqlite"
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
    engine.dispose()
    run = gamedb("--db", "old.sqlite", "db", "upgrade", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert gamedb("--db", "old.sqlite", "solve", "nim", "--max", "4", "-q", cwd=tmp_path).returncode == 0
    run = gamedb("--db", "old.sqlite", "query", "nim", "--json", cwd=tmp_path)
    assert run.returncode == 0 and '"result": "win"' in run.stdout


def _old_file(solved: Path, folder: Path) -> Path:
    """A copy of ``solved`` taken back to revision 0002 by the migrations."""
    db = folder / "old.sqlite"
    shutil.copyfile(solved, db)
    down = subprocess.run(
        [sys.executable, "-m", "alembic", "-x", f"db={db}", "downgrade", "0002"],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=120,
    )
    assert down.returncode == 0, down.stderr
    return db


def test_db_upgrade_refuses_an_older_file_with_a_trigger(solved, tmp_path):
    db = _old_file(solved, tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TRIGGER t AFTER INSERT ON heap_rule BEGIN DELETE FROM game; END")
    conn.close()
    before = _snapshot(tmp_path)
    run = gamedb("--db", db.name, "db", "upgrade", cwd=tmp_path)
    _assert_refused(run, REFUSED, "a trigger 't' on 'heap_rule'")
    assert _snapshot(tmp_path) == before  # no backup either


def test_db_upgrade_never_writes_its_backup_through_a_planted_link(solved, tmp_path):
    """`ln -s ~/.ssh/authorized_keys old.sqlite.backup-0002; gamedb --db old.sqlite db upgrade` created the link's target."""
    db = _old_file(solved, tmp_path)
    target = tmp_path / "ssh" / "authorized_keys"
    target.parent.mkdir()
    planted = tmp_path / "old.sqlite.backup-0002"
    planted.symlink_to(target)
    original = db.read_bytes()
    run = gamedb("--db", db.name, "db", "upgrade", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert not target.exists() and not os.path.lexists(target)
    assert planted.is_symlink() and os.readlink(planted) == str(target)
    backup = tmp_path / "old.sqlite.backup-0002.1"
    assert backup.is_file() and not backup.is_symlink() and backup.read_bytes() == original
    assert str(backup) in run.stdout


def test_a_backup_name_taken_meanwhile_is_refused(solved, tmp_path, monkeypatch):
    """The backup is opened with O_EXCL | O_NOFOLLOW: a link planted after the name was chosen is refused in one line."""
    from gamedb.errors import DatabaseError
    from gamedb.store import upgrade

    db = tmp_path / "old.sqlite"
    shutil.copyfile(solved, db)
    target = tmp_path / "target"
    real_lexists = os.path.lexists

    def plant_then_look(path):  # the link appears between the look and the open
        if str(path).endswith(".backup-0002") and not real_lexists(path):
            os.symlink(target, path)
            return False
        return real_lexists(path)

    monkeypatch.setattr(upgrade.os.path, "lexists", plant_then_look)
    with pytest.raises(DatabaseError, match="appeared meanwhile"):
        upgrade.backup_copy(db, "0002")
    assert not target.exists()


def test_a_long_statement_is_stopped_by_the_budget():
    """The budget stops a statement that runs past it (the per-statement clock restarts for each statement)."""
    conn = sqlite3.connect(":memory:")
    set_budget(conn, 0.2)
    short = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT COUNT(*) FROM c"
    for _ in range(3):  # a statement after another one has its own budget
        assert conn.execute(short).fetchone() == (1000,)
        time.sleep(0.1)
    start = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        conn.execute(f"{ENDLESS} SELECT MAX(x) FROM c").fetchone()
    assert time.monotonic() - start < 5
    assert conn.execute("PRAGMA trusted_schema").fetchone() == (0,)
    set_budget(conn, None)  # no budget: long work runs on
    assert conn.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT MAX(x) FROM c").fetchone() == (3000000,)


def test_a_read_past_its_budget_is_said_in_one_line(solved, tmp_path):
    """A legitimate schema with rows that make a short read slow (200,000 games to list): one line, exit 1."""
    db = tmp_path / "games.sqlite"
    shutil.copyfile(solved, db)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO game (name, family, parameters, rules_version, impartial, status, start_code, start_position, created_at, "
            "gamedb_version) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
            "SELECT 'g' || i, family, parameters, rules_version, impartial, 'enumerating', start_code, start_position, created_at, "
            "gamedb_version FROM game, n WHERE game.name = 'nim'"
        )
    conn.close()
    run = subprocess.run([GAMEDB, "--db", str(db), "list"], capture_output=True, text=True, timeout=HUNG,
                         env={**os.environ, "GAMEDB_READ_BUDGET": "0.05"})
    _assert_refused(run, "a statement ran longer than the 0.05 s gamedb gives one read")


def test_the_expected_objects_come_from_the_new_file_statements():
    """head_objects is what a new file holds, and a file the migrations build differs only in whitespace."""
    import sqlalchemy as sa

    from gamedb.store.sqlite_file import newest_revision
    from gamedb.store.sqlite_schema import objects_at

    expected = head_objects()
    assert {kind for kind, _ in expected} == {"table", "index", "view"}
    assert ("view", "positions") in expected and ("table", "alembic_version") in expected
    migrated = objects_at(str(newest_revision()))
    assert migrated.keys() == expected.keys() and migrated != expected  # the same objects, spelled otherwise
    assert differences(migrated, expected) == [] and differences(expected, migrated) == []
    engine = sa.create_engine("sqlite://", poolclass=sa.pool.StaticPool)
    with engine.connect() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x)")
        conn.exec_driver_sql("CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END")
        found = objects_of(conn.connection.driver_connection)
    engine.dispose()
    assert differences(found, expected) == [
        "it has a trigger 'tr' on 't', which gamedb never creates",
        "it has a table 't', which gamedb never creates",
    ]


def test_only_whitespace_outside_quotes_is_normalized():
    assert normalized_sql("CREATE TABLE t (\n\ta INT, \n\tb TEXT\n)\n\n") == "CREATE TABLE t(a INT,b TEXT)"
    assert normalized_sql("SELECT 'a  b'") != normalized_sql("SELECT 'a b'")
    assert normalized_sql('SELECT "x  y" FROM t') == 'SELECT "x  y" FROM t'
    assert normalized_sql("SELECT 'it''s  ok',  1") == "SELECT 'it''s  ok',1"
    assert normalized_sql("SELECT 1  -- a") != normalized_sql("SELECT 1")


#: PostgreSQL: code attached to gamedb's relations, and a relation of the wrong kind (view text is not compared: server_check)
PG_ATTACKS = {
    "trigger": (
        (
            "CREATE FUNCTION evil() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.result := 'win'; RETURN NEW; END $$",
            "CREATE TRIGGER t BEFORE INSERT ON position FOR EACH ROW EXECUTE FUNCTION evil()",
        ),
        "a trigger 't' on 'position', which gamedb never creates",
    ),
    "rule": (("CREATE RULE r AS ON INSERT TO position DO ALSO DELETE FROM game",), "a rule 'r' on 'position'"),
    "policy": (("CREATE POLICY p ON game USING (false)",), "a row-level security policy 'p' on 'game'"),
    "alembic_version view": (
        (
            "ALTER TABLE alembic_version RENAME TO av",
            f"CREATE VIEW alembic_version AS {ENDLESS} SELECT x::varchar AS version_num FROM c ORDER BY x DESC",
        ),
        "a view 'alembic_version' where gamedb creates a table",
    ),
    "game view": (
        ("ALTER TABLE game RENAME TO old_game", f"CREATE VIEW game AS {ENDLESS} SELECT old_game.* FROM old_game, c"),
        "a view 'game' where gamedb creates a table",
    ),
}


@pytest.mark.parametrize("attack", list(PG_ATTACKS))
def test_postgresql_refuses_what_gamedb_did_not_create(pg_url, tmp_path, attack):
    import sqlalchemy as sa

    with Database(pg_url) as db:
        db.solve(make_game("nim", max=5))
    engine = sa.create_engine(pg_url, poolclass=sa.pool.NullPool)
    sql, words = PG_ATTACKS[attack]
    with engine.begin() as conn:
        for statement in sql:
            conn.exec_driver_sql(statement)
    for args in (["list"], ["query", "nim", "--json"], ["solve", "tictactoe", "--name", "mine", "-q"], ["db", "upgrade"]):
        run = gamedb("--db", pg_url, *args, cwd=tmp_path)
        _assert_refused(run, REFUSED, words)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM pg_class WHERE relname = 'game' OR relname = 'old_game'").scalar() >= 1
        names = [name for (name,) in conn.exec_driver_sql("SELECT name FROM " + ("old_game" if attack == "game view" else "game"))]
    engine.dispose()
    assert names == ["nim"]  # the solve wrote nothing


def test_postgresql_reads_have_a_statement_timeout(pg_url):
    import sqlalchemy as sa

    with Database(pg_url, budget=0.3) as db, db.engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "300ms"
        with pytest.raises(sa.exc.OperationalError, match="statement timeout"):
            conn.exec_driver_sql("SELECT pg_sleep(3)")


def test_a_solve_never_builds_its_schema_around_a_planted_object(tmp_path):
    """A file holding only a view (no table, no revision) is not taken for an empty file to create the schema in."""
    db = tmp_path / "lone.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute(f"CREATE VIEW extra AS {ENDLESS} SELECT x FROM c")
    conn.close()
    before = _snapshot(tmp_path)
    for args in (["solve", "nim", "--max", "3", "-q"], ["solve", "tictactoe", "--strategy", "sql", "-q"], ["list"]):
        run = gamedb("--db", db.name, *args, cwd=tmp_path)
        _assert_refused(run, "lone.sqlite is not a gamedb database (it has tables or views but no gamedb schema version)")
    assert _snapshot(tmp_path) == before


def test_a_whole_game_scan_runs_without_the_budget(solved):
    """`serve`'s counts by result scan a whole game: lifted for that read only, back for the next."""
    import sqlalchemy as sa

    from gamedb.store.database import without_budget

    slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT MAX(x) FROM c"
    with Database(solved, readonly=True, budget=0.05) as db, db.engine.connect() as conn:
        with pytest.raises(sa.exc.OperationalError, match="interrupted"):
            conn.exec_driver_sql(slow).scalar()
        with without_budget(conn):
            assert conn.exec_driver_sql(slow).scalar() == 3000000
        with pytest.raises(sa.exc.OperationalError, match="interrupted"):
            conn.exec_driver_sql(slow).scalar()
