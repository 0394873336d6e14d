"""DuckDB files: the same rows and answers as SQLite, read-only readers side by side, and crafted files refused.

A crafted file is made with plain ``duckdb`` (no hardening) from a file gamedb
solved, and every read command runs on it as a user types it (a subprocess of
the installed ``gamedb`` script): one ``Error:`` line, exit 1, nothing of
``/etc/passwd`` anywhere.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")

from gamedb import Database, make_game  # noqa: E402
from gamedb.store.duckdb_file import DDL, connect  # noqa: E402
from gamedb.store.duckdb_schema import generated_ddl  # noqa: E402
from gamedb.store.location import locate  # noqa: E402

from tables import RUN_COLUMNS, assert_same_game  # noqa: E402

GAMEDB = str(Path(sys.executable).with_name("gamedb"))
GAMES = [
    ("tictactoe", "tictactoe", {}),
    ("nim-20", "nim", {"max": 20}),
    ("octal-0.77", "octal", {"code": "0.77", "max": 60}),
    ("cat-mouse", "cat-mouse", {"graph": [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]}),
    ("connect4-3x3-k3", "connect4", {"width": 3, "height": 3, "connect": 3}),
]


def gamedb(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([GAMEDB, *args], input=stdin, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path]:
    """The same games solved into a SQLite file and a DuckDB file."""
    folder = tmp_path_factory.mktemp("duck")
    lite, duck = folder / "games.sqlite", folder / "games.duckdb"
    for path in (lite, duck):
        with Database(path, create=True) as db:
            for name, fam, options in GAMES:
                db.solve(make_game(fam, **options), name)
    return lite, duck


def test_a_duckdb_file_is_chosen_by_its_suffix_or_its_url(tmp_path):
    assert locate("g.duckdb").is_duckdb and locate("g.duckdb").url.startswith("duckdb:////")
    assert locate(f"duckdb:///{tmp_path}/g.db").path == tmp_path / "g.db"
    assert not locate("g.sqlite").is_duckdb and not locate("postgresql://u@h/d").is_duckdb
    assert locate("g.DuckDB").is_duckdb and locate("G.DUCKDB").is_duckdb  # (a SQLite file was made under that name)
    assert gamedb("list", "--db", "duckdb:///:memory:").stdout == ""


def test_the_generated_catalog_is_the_one_the_migrations_build():
    assert DDL.read_text(encoding="utf-8") == generated_ddl()


@pytest.mark.parametrize("name", [g[0] for g in GAMES])
def test_rows_and_answers_are_those_of_sqlite(files, name):
    lite, duck = files
    with Database(lite) as a, Database(duck) as b:
        assert_same_game(a, b, name, ignore=RUN_COLUMNS)
    with Database(lite, readonly=True) as a, Database(duck, readonly=True) as b:
        assert a.probe(name) == b.probe(name)
        assert a.stats(name)["results"] == b.stats(name)["results"]
        assert list(a.positions(name)) == list(b.positions(name))


@pytest.mark.parametrize("args", [["list"], ["stats", "tictactoe"], ["query", "tictactoe", "X...O...."], ["export", "nim-20"],
                                  ["query", "cat-mouse", "--json"], ["verify", "connect4-3x3-k3"], ["db", "upgrade"]])
def test_the_cli_answers_as_on_sqlite(files, args):
    lite, duck = files
    a, b = gamedb(*args, "--db", str(lite)), gamedb(*args, "--db", str(duck))
    assert b.returncode == a.returncode == 0, b.stderr
    untimed = [line for line in b.stdout.replace(str(duck), str(lite)).splitlines() if "seconds" not in line]
    assert untimed == [line for line in a.stdout.splitlines() if "seconds" not in line]


def test_two_reader_processes_at_once(files):
    _, duck = files
    lines = "".join(f"{p}\n" for p in ["X........", "XO.......", "XOX......", "........."] * 50)
    readers = [subprocess.Popen([GAMEDB, "query", "tictactoe", "-", "--db", str(duck)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [reader.communicate(lines, timeout=120) for reader in readers]  # both open before either reads
    assert [reader.returncode for reader in readers] == [0, 0], [err for _, err in outs]
    assert outs[0][0] == outs[1][0] and outs[0][0].count("\n") == 200


def test_no_writer_opens_a_file_a_reader_holds(files, tmp_path):
    """The readers keep the game rows they read (DuckDBConnections.game_rows): sound while no one can write the file."""
    duck = tmp_path / "held.duckdb"
    duck.write_bytes(files[1].read_bytes())
    with Database(duck, readonly=True) as db:
        before = db.probe("tictactoe", "X........")
        solve = gamedb("--db", str(duck), "solve", "tictactoe", "--force", "-q")
        assert solve.returncode == 1 and solve.stderr.startswith("Error: ") and "lock" in solve.stderr, solve.stderr
        assert db.probe("tictactoe", "X........") == before


def test_copy_both_ways_gives_the_same_rows(files, tmp_path):
    lite, duck = files
    back, there = tmp_path / "back.sqlite", tmp_path / "there.duckdb"
    assert gamedb("copy", str(duck), str(back)).returncode == 0
    assert gamedb("copy", str(lite), str(there)).returncode == 0
    with Database(lite) as a, Database(back) as b, Database(there) as c:
        for name, _, _ in GAMES:
            assert_same_game(a, b, name, ignore=RUN_COLUMNS)
            assert_same_game(a, c, name, ignore=RUN_COLUMNS)


def test_a_solve_into_an_empty_duckdb_file_makes_the_database_there(tmp_path):
    """`touch games.duckdb` then a solve: the database is made in the empty file's place, as SQLite does (DuckDB refused
    it: "exists, but it is not a valid DuckDB database file!"); a read of the empty file says it holds no game yet."""
    empty = tmp_path / "games.duckdb"
    empty.write_bytes(b"")
    run = gamedb("--db", str(empty), "list")
    assert run.returncode == 1 and "is an empty file, not a DuckDB database yet" in run.stderr and run.stderr.count("\n") == 1, run.stderr
    run = gamedb("--db", str(empty), "solve", "nim", "--max", "5")
    assert run.returncode == 0 and "Solved nim: 6 positions" in run.stdout, run.stderr
    with Database(empty, readonly=True) as db:
        assert db.probe("nim", "5").result == "win"


def test_copy_from_duckdb_into_duckdb_and_onto_itself(files, tmp_path):
    """A new DuckDB file takes a DuckDB file's games (it was refused as "the same database", an empty file left behind);
    the same file as DST is refused in one line, the file untouched (DuckDB's own connection error before)."""
    _, duck = files
    there = tmp_path / "there ü.duckdb"
    run = gamedb("copy", str(duck), str(there), "-q")
    assert run.returncode == 0, run.stderr
    with Database(duck) as a, Database(there) as b:
        assert_same_game(a, b, "tictactoe", ignore=RUN_COLUMNS)
    before = there.read_bytes()
    for dst in (str(there), f"duckdb:///{there}"):
        same = gamedb("copy", str(there), dst)
        assert same.returncode == 1 and same.stderr.startswith("Error: the source and the destination are the same database"), same.stderr
        assert len(same.stderr.splitlines()) == 1
    assert there.read_bytes() == before


# --- crafted files --------------------------------------------------------------------------------

#: attack -> SQL run with plain duckdb on a copy of a solved file
ATTACKS = {
    "view reads a file": "CREATE VIEW leak AS SELECT * FROM read_text('/etc/passwd')",
    "macro reads a file": "CREATE MACRO leak() AS TABLE SELECT * FROM read_text('/etc/passwd')",
    "scalar macro": "CREATE MACRO m(x) AS x + 1",
    "view in place of a table": "ALTER TABLE player RENAME TO p0; CREATE VIEW player AS SELECT p0.* FROM p0, read_text('/etc/passwd')",
    "positions view replaced": "DROP VIEW positions; CREATE VIEW positions AS SELECT content AS game FROM read_text('/etc/passwd')",
    "extra table": "CREATE TABLE extra (x INTEGER)",
    "changed table": "ALTER TABLE token_board ALTER COLUMN nodes SET DEFAULT 7",
    "type": "CREATE TYPE mood AS ENUM ('a', 'b')",
    "schema": "CREATE SCHEMA other",
    "trigger": "CREATE TRIGGER t AFTER INSERT ON position FOR EACH STATEMENT UPDATE game SET name = 'pwned'",  # DuckDB >= 2
}


def _crafted(files, tmp_path, attack):
    """A copy of the solved DuckDB file with ``attack`` run in it by plain duckdb (skipped where this DuckDB lacks it)."""
    crafted = tmp_path / "crafted.duckdb"
    shutil.copy(files[1], crafted)
    plain = duckdb.connect(str(crafted))
    try:
        plain.execute(ATTACKS[attack])
    except duckdb.ParserException:
        pytest.skip(f"this DuckDB ({duckdb.__version__}) has no {attack}")
    finally:
        plain.close()
    return crafted


@pytest.mark.parametrize("attack", sorted(ATTACKS))
@pytest.mark.parametrize("command", [["list"], ["query", "tictactoe"], ["stats", "tictactoe"], ["export", "tictactoe"],
                                     ["verify", "tictactoe"], ["query", "tictactoe", "-"], ["db", "upgrade"]])
def test_a_crafted_file_is_refused_in_one_line(files, tmp_path, attack, command):
    crafted = _crafted(files, tmp_path, attack)
    run = gamedb(*command, "--db", str(crafted), stdin=".........\n")
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert run.stdout == "" and run.stderr.startswith("Error: ") and run.stderr.count("\n") == 1, run.stderr
    assert "root:" not in run.stderr
    assert "is not a gamedb database as gamedb writes it" in run.stderr or "gamedb never creates" in run.stderr


def test_a_trigger_never_fires_in_a_solve_into_its_file(files, tmp_path):
    """DuckDB 2 keeps triggers in a file: one there is refused before gamedb writes (it renamed every game on the first
    position row, and the solve failed on the names' unique key, its game left unfinished)."""
    crafted = _crafted(files, tmp_path, "trigger")
    run = gamedb("solve", "nim", "--max", "5", "--db", str(crafted))
    assert run.returncode == 1 and "it has a trigger 't', which gamedb never creates" in run.stderr, run.stderr
    plain = duckdb.connect(str(crafted), read_only=True)
    try:
        assert "pwned" not in {name for (name,) in plain.execute("SELECT name FROM game").fetchall()}
        assert ("nim",) not in plain.execute("SELECT name FROM game").fetchall()
    finally:
        plain.close()


@pytest.mark.parametrize("sql", ["SELECT * FROM read_text('/etc/passwd')", "INSTALL httpfs", "LOAD httpfs",
                                 "SET enable_external_access = true", "ATTACH '/etc/passwd' AS p", "COPY (SELECT 1) TO '/tmp/x.csv'"])
def test_every_connection_reaches_nothing_outside_its_file(sql):
    conn = connect(":memory:", read_only=False)
    with pytest.raises(duckdb.Error):
        conn.execute(sql)


def test_a_readable_folder_is_the_only_one_reached(tmp_path):
    """``readable`` (a cluster's work folder while its rows load): files in it are read, nothing else, and no setting changes;
    :func:`reading` gives that to an engine's connections for its block only."""
    from gamedb.store.duckdb_file import create_engine, reading
    from gamedb.store.location import locate

    work, other = tmp_path / "work", tmp_path / "work2"
    for folder in (work, other):
        folder.mkdir()
        connect(":memory:", read_only=False, readable=[folder]).execute(f"COPY (SELECT 7 AS x) TO '{folder}/p.parquet' (FORMAT parquet)")
    conn = connect(":memory:", read_only=False, readable=[work])
    assert conn.execute(f"SELECT x FROM read_parquet('{work}/p.parquet')").fetchall() == [(7,)]
    for sql in (f"SELECT x FROM read_parquet('{other}/p.parquet')", f"SELECT x FROM read_parquet('{work}/../work2/p.parquet')",
                "SELECT * FROM read_text('/etc/passwd')", "SET allowed_directories = ['/']", "SET enable_external_access = true"):
        with pytest.raises(duckdb.Error):
            conn.execute(sql)
    engine = create_engine(locate(tmp_path / "g.duckdb"), readonly=False, create=True)
    query = f"SELECT x FROM read_parquet('{work}/p.parquet')"
    with reading(engine, work), engine.connect() as inside:
        assert inside.exec_driver_sql(query).fetchall() == [(7,)]
    with engine.connect() as after, pytest.raises(Exception, match="disabled by configuration"):
        after.exec_driver_sql(query)
    engine.dispose()


def test_a_solve_keeps_duckdb_within_half_its_memory_limit(tmp_path):
    """A solve's connections to a DuckDB file (the rows a cluster wrote, loaded by the client) hold DuckDB's memory to
    half the solve's ``--memory-limit`` (the rest: the solver's arrays), not DuckDB's 80 % of the machine; after it, as before."""
    from gamedb.store.duckdb_file import create_engine
    from gamedb.store.location import locate
    from gamedb.store.locking import solve_settings

    engine = create_engine(locate(tmp_path / "g.duckdb"), readonly=False, create=True)
    setting = "SELECT current_setting('memory_limit')"
    with engine.connect() as conn:
        before = conn.exec_driver_sql(setting).scalar()
    with solve_settings(engine, 3 << 30), engine.connect() as conn:
        assert conn.exec_driver_sql(setting).scalar() == "1.5 GiB" != before
    with engine.connect() as conn:
        assert conn.exec_driver_sql(setting).scalar() == before
    engine.dispose()


def test_a_reader_keeps_duckdb_to_an_eighth_of_the_memory_available(tmp_path):
    """Read-only connections (queries, serve, verify's reads beside its arrays) hold DuckDB's page cache to
    ``reader_memory_limit()``, one value a process, whether through the engine or the file's own connections; a writer's
    default stays DuckDB's."""
    from gamedb.store.duckdb_file import reader_memory_limit

    setting = "SELECT current_setting('memory_limit')"
    writer = connect(tmp_path / "g.duckdb", read_only=False)
    default = writer.execute(setting).fetchone()[0]
    writer.close()
    reader = connect(tmp_path / "g.duckdb", read_only=True)
    number, unit = reader.execute(setting).fetchone()[0].split()
    second = connect(tmp_path / "g.duckdb", read_only=True)  # (a second configuration would be refused)
    reader.close(), second.close()
    shown = float(number) * {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
    limit = int(reader_memory_limit().removesuffix("B"))
    assert f"{number} {unit}" != default and abs(shown - limit) <= 0.05 * limit
    with Database(tmp_path / "h.duckdb", create=True) as db:
        db.solve(make_game("nim", max=20))
    run = subprocess.run([sys.executable, "-m", "gamedb", "--db", str(tmp_path / "h.duckdb"), "verify", "nim"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("OK: 21 positions"), run.stderr  # the file's connections and the engine's agree


@pytest.mark.parametrize("jobs", ["one a lane", "several a lane"])
def test_a_new_files_last_rows_appended_by_two_connections_keep_their_order(tmp_path, monkeypatch, jobs):
    """The rows left when the solver is done are appended by two connections at once (the second's transaction
    committed after the first's), each its share a job at a time: the file holds the full path's rows, in code order, and verifies."""
    from gamedb.solvers import retrograde
    from gamedb.solvers.solve import new_file, solve
    from gamedb.store import new_duckdb_file

    if jobs == "several a lane":  # batches of 512 positions, jobs of 1,500 rows: 14 batches, each lane's share cut into jobs
        monkeypatch.setattr(retrograde, "DENSE_WRITE_BLOCK", 512)
        monkeypatch.setattr(new_duckdb_file, "THREAD_ROWS", 1500)
        appended: list[int] = []
        real_append = new_duckdb_file.append_columns
        monkeypatch.setattr(new_duckdb_file, "append_columns", lambda conn, table, columns, *a, **k: (
            appended.append(len(next(iter(columns.values())))) if table == "position" else None, real_append(conn, table, columns, *a, **k))[1])

    near = {i: {i % 59 + 1, (i - 2) % 59 + 1, (i + 6) % 59 + 1, (i - 8) % 59 + 1} for i in range(1, 60)}  # a ring of 59 with chords
    graph = json.dumps([[30]] + [sorted(near[i] | ({0} if i == 30 else set())) for i in range(1, 60)])  # the hole beside node 30
    monkeypatch.setattr(new_duckdb_file, "APPEND_ROWS", 1 << 30)  # (every row waits for the end, as when the thread falls behind)
    monkeypatch.setattr(new_duckdb_file, "TWO_LANES", 256)
    lanes = []
    real = new_duckdb_file.NewDuckdbFile._append_in_two
    monkeypatch.setattr(new_duckdb_file.NewDuckdbFile, "_append_in_two", lambda self, table, batches: lanes.append(table) or real(self, table, batches))
    target = new_file(str(tmp_path / "new.duckdb"), make_game("cat-mouse", graph=graph))
    assert target is not None
    interval = sys.getswitchinterval()
    solve(target, make_game("cat-mouse", graph=graph))
    assert lanes == ["position"]
    assert sys.getswitchinterval() == interval  # (shortened while the file's thread appended)
    with Database(tmp_path / "full.duckdb", create=True) as db:
        db.solve(make_game("cat-mouse", graph=graph))
    read = "SELECT code, player, result, remoteness, degree, best_move FROM position ORDER BY rowid"
    new, full = (connect(tmp_path / f"{n}.duckdb", read_only=True).execute(read).fetchall() for n in ("new", "full"))
    assert new == sorted(new) == sorted(full) and len(new) == 7_020
    if jobs == "several a lane":
        assert len(appended) >= 4 and max(appended) < 2 * 1500 and sum(appended) == 7_020
    with Database(tmp_path / "new.duckdb") as db:
        assert db.verify(make_game("cat-mouse", graph=graph).default_name()).positions == 7_020


def test_the_last_rows_are_cut_where_both_connections_are_done_soonest(monkeypatch):
    """The thread's share and the other connection's: even when row groups and speeds are left out; the other
    connection's rows in whole row groups rather than a batch off them (its commit then writes no long last row group);
    everything to the other connection when the thread is far behind; nothing to cut in no rows."""
    from gamedb.store import new_duckdb_file
    from gamedb.store.new_duckdb_file import lanes_cut

    assert lanes_cut([], 0, 0) == 0
    batches = [1_000 * (i + 1) for i in range(100)]  # 100 batches of 1,000 rows
    assert lanes_cut(batches, 500_000, 0) == 0
    with monkeypatch.context() as m:
        m.setattr(new_duckdb_file, "ROW_GROUP", 1)
        m.setattr(new_duckdb_file, "THREAD_SHARE", 1.0)
        assert lanes_cut(batches, 0, 0) == 50  # (cut k: the first k batches are the thread's)
        assert lanes_cut(batches, 20_000, 0) == 40
    group = new_duckdb_file.ROW_GROUP
    ends = [4_096 * (i + 1) for i in range(6 * group // 4_096)]  # six row groups in batches of 4,096 rows
    cut = lanes_cut(ends, 0, 0)
    assert (ends[-1] - ends[cut - 1]) % group == 0 and 0 < cut < len(ends)


def test_two_new_files_at_once_give_back_the_switch_interval_when_both_are_done(tmp_path):
    """Each new DuckDB file shortens Python's switch interval while its thread appends; with two at once, the first done
    leaves it short for the other, and the last gives back the interval from before both."""
    from gamedb.solvers.solve import new_file
    from gamedb.store.new_duckdb_file import SWITCH_INTERVAL, NewDuckdbFile

    game = make_game("nim", max=3)
    before = sys.getswitchinterval()
    files = [new_file(str(tmp_path / f"{n}.duckdb"), game) for n in "ab"]
    first, second = (NewDuckdbFile(f.path, f.revision, "nim", game, "heaps") for f in files if f is not None)
    with first:
        with second:
            assert sys.getswitchinterval() == pytest.approx(min(before, SWITCH_INTERVAL))
            first.abort()  # (as finish() ends)
            first.abort()  # (and leaving its with block)
            assert sys.getswitchinterval() == pytest.approx(min(before, SWITCH_INTERVAL))
        assert sys.getswitchinterval() == before
    assert sys.getswitchinterval() == before and list(tmp_path.iterdir()) == []


def test_a_new_file_that_cannot_be_made_says_so_and_leaves_nothing(tmp_path, monkeypatch):
    """The file's thread makes the new DuckDB file while the solver starts: its failure is raised at the first use, and
    nothing is left behind."""
    from gamedb.errors import DatabaseError
    from gamedb.solvers.solve import new_file, solve
    from gamedb.store import new_duckdb_file

    def refused(*args, **kwargs):
        raise DatabaseError("cannot open it as a DuckDB database: refused")

    monkeypatch.setattr(new_duckdb_file, "connect", refused)
    game = make_game("cat-mouse", graph="[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]")
    target = new_file(str(tmp_path / "new.duckdb"), game)
    assert target is not None
    interval = sys.getswitchinterval()
    with pytest.raises(DatabaseError, match="refused"):
        solve(target, game)
    assert list(tmp_path.iterdir()) == []
    assert sys.getswitchinterval() == interval


def test_a_new_files_connection_leaves_syncing_to_its_writer(tmp_path, monkeypatch):
    """``synced=False`` (a new file's sink, which syncs the file itself before it is linked): DuckDB's own fsyncs off,
    and an older DuckDB that does not know the setting still connects, synced."""
    import _duckdb

    conn = connect(tmp_path / "a.duckdb", read_only=False, synced=False)
    assert conn.execute("SELECT current_setting('fsync_mode')").fetchone()[0].lower() == "none"
    assert connect(":memory:", read_only=False).execute("SELECT current_setting('fsync_mode')").fetchone()[0].lower() == "standard"
    conn.close()
    real, seen = _duckdb.connect, []

    def older(path, read_only=False, config=None):
        seen.append(sorted(config or {}))
        if "fsync_mode" in (config or {}):
            raise _duckdb.InvalidInputException("Invalid Input Error: The following options were not recognized: fsync_mode")
        return real(path, read_only=read_only, config=config)

    monkeypatch.setattr(_duckdb, "connect", older)
    assert connect(tmp_path / "b.duckdb", read_only=False, synced=False).execute("SELECT 42").fetchone() == (42,)
    assert ["fsync_mode" in names for names in seen] == [True, False]


def _backend_cases():
    from test_backends import CASES

    return CASES


@pytest.mark.parametrize("case_id,fam,options", _backend_cases(), ids=[c[0] for c in _backend_cases()])
def test_every_family_stores_the_rows_of_sqlite(fresh_db, tmp_path, case_id, fam, options):
    """test_backends' cases (every family), solved by the default strategy into a SQLite and a DuckDB file."""
    lite = fresh_db()
    with Database(tmp_path / "g.duckdb", create=True) as duck:
        lite.solve(make_game(fam, **options), case_id)
        duck.solve(make_game(fam, **options), case_id)
        assert_same_game(lite, duck, case_id, ignore=RUN_COLUMNS)
        assert duck.verify(case_id).positions == lite.game(case_id).positions
    lite.close()


def test_copy_between_duckdb_and_postgresql_both_ways(files, pg_url, tmp_path):
    lite, duck = files
    back = tmp_path / "back.duckdb"
    assert gamedb("copy", str(duck), pg_url).returncode == 0
    run = gamedb("copy", pg_url, str(back))
    assert run.returncode == 0, run.stderr
    with Database(lite) as a, Database(pg_url) as b, Database(back) as c:
        for name, _, _ in GAMES:
            assert_same_game(a, b, name, ignore=RUN_COLUMNS)
            assert_same_game(a, c, name, ignore=RUN_COLUMNS)
