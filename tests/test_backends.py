"""PostgreSQL gives the same answers as SQLite: every family, every position row.

These tests need a server: GAMEDB_TEST_PG (see tests/conftest.py, .ci/run).
Each test gets its own database, created from a migrated template and
dropped afterwards.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from gamedb import Database, make_game
from gamedb.games import BUILTIN, family

from conftest import SEED_GRAPH_1, SEED_GRAPH_2
from oracles.cat_mouse import random_graph
from tables import RUN_COLUMNS, assert_same_game, game_rows

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "graphs"


def _random_graphs(count: int) -> list[list[list[int]]]:
    rng = random.Random(5)
    return [random_graph(rng, rng.randint(4, 12), rng.choice([0.15, 0.3, 0.5])) for _ in range(count)]


#: (test id, family, options): small instances; every registered family needs one
EXPLICIT_CASES = [
    ("tictactoe", "tictactoe", {}),
    ("cat-mouse-seed1", "cat-mouse", {"graph": SEED_GRAPH_1}),
    ("cat-mouse-seed2", "cat-mouse", {"graph": SEED_GRAPH_2}),
    ("cat-mouse-seed3", "cat-mouse", {"graph": [[2, 3], [3, 4], [0, 4], [0, 1], [1, 2]]}),
    *[(f"cat-mouse-random{i}", "cat-mouse", {"graph": g}) for i, g in enumerate(_random_graphs(3))],
    ("connect4-3x3-k3", "connect4", {"width": 3, "height": 3, "connect": 3}),
    ("connect4-1x62", "connect4", {"width": 1, "height": 62, "connect": 4}),  # codes above 2**62
    *[(f"graph-{p.stem}", "graph", {"file": str(p)}) for p in sorted(EXAMPLES.glob("*.json"))],
    ("cat-mouse-grid", "cat-mouse-grid", {"grid": ["####F", "#C...", "M...."], "cat_jump": 1, "mouse_jump": 2}),
    ("flip-60", "flip", {"max": 60}),
    ("octal-0.77", "octal", {"code": "0.77", "max": 200}),
    ("octal-4.07", "octal", {"code": "4.07", "max": 80}),
    ("grundy-150", "grundy", {"max": 150}),
    ("nim-30", "nim", {"max": 30}),
    ("subtraction-1,2,5", "subtraction", {"set": "1,2,5", "max": 100}),
    ("stone-ix-6", "stone-ix", {"max": 6}),
]


def _cases():
    """The explicit cases, plus the example options (``Game.examples``) of any other registered family."""
    cases = list(EXPLICIT_CASES)
    covered = {fam for _, fam, _ in cases}
    for fam in BUILTIN:
        if fam not in covered:
            cases.append((f"{fam}-examples", fam, dict(family(fam).examples.options)))
    return cases


CASES = _cases()


@pytest.mark.parametrize("case_id,fam,options", CASES, ids=[c[0] for c in CASES])
def test_postgresql_stores_the_same_rows_as_sqlite(fresh_db, pg_url, case_id, fam, options):
    """The SQL engine on SQLite, and on PostgreSQL both the SQL engine and the default (auto) one."""
    lite = fresh_db()
    with Database(pg_url) as pg:
        lite.solve(make_game(fam, **options), case_id, strategy="sql")
        pg.solve(make_game(fam, **options), case_id, strategy="sql")
        auto = pg.solve(make_game(fam, **options), "auto", strategy="auto", symmetry=False)  # (with symmetry: test_symmetry)
        assert_same_game(lite, pg, case_id, ignore=RUN_COLUMNS)
        expected = game_rows(pg, case_id)
        if auto.strategy == "tiers":  # the tier solver stores no move rows: the moves follow from the rules
            expected["move"] = []
        assert game_rows(pg, "auto") == expected
        assert pg.probe(case_id) == lite.probe(case_id)
        assert pg.stats(case_id)["results"] == lite.stats(case_id)["results"]
        assert pg.verify(case_id).positions == lite.game(case_id).positions
    lite.close()


def test_many_games_in_one_postgresql_database(pg_url):
    """A game solved after others: the planner must not plan its levels from the others' statistics."""
    with Database(pg_url) as pg:
        for i, graph in enumerate(_random_graphs(4)):
            pg.solve(make_game("cat-mouse", graph=graph), f"g{i}", strategy="sql")
        pg.solve(make_game("tictactoe"), strategy="sql")
        assert [g.name for g in pg.games()] == ["g0", "g1", "g2", "g3", "tictactoe"]
        pg.solve(make_game("tictactoe"), force=True, strategy="sql")  # delete and solve again
        for g in pg.games():
            pg.verify(g.name)


def test_resume_after_interrupted_level_on_postgresql(pg_url, fresh_db):
    """A solve stopped mid-way (status 'solving', progress at some level) resumes to the same tables."""
    game = make_game("cat-mouse", graph=SEED_GRAPH_1)

    class Stop(Exception):
        pass

    def stop_at_level_2(phase, done, total):
        if phase == "win/lose levels" and done == 2:
            raise Stop

    with Database(pg_url) as pg:
        with pytest.raises(Stop):
            pg.solve(game, progress=stop_at_level_2, strategy="sql")
        assert pg.game("cat-mouse").status == "solving"
        assert pg.solve(game, strategy="sql").resumed
        lite = fresh_db()
        lite.solve(game, strategy="sql")
        assert_same_game(lite, pg, "cat-mouse", ignore=RUN_COLUMNS + ("progress",))
        lite.close()


# --- schema on PostgreSQL --------------------------------------------------------------

def _alembic(*args):
    return subprocess.run([sys.executable, "-m", "alembic", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_alembic_upgrade_check_downgrade_on_empty_postgresql(pg_server):
    url = pg_server.new_database(migrated=False)
    try:
        up = _alembic("-x", f"db={url}", "upgrade", "head")
        assert up.returncode == 0, up.stderr
        check = _alembic("-x", f"db={url}", "check")
        assert check.returncode == 0, check.stdout + check.stderr
        down = _alembic("-x", f"db={url}", "downgrade", "base")
        assert down.returncode == 0, down.stderr
        assert _alembic("-x", f"db={url}", "upgrade", "head").returncode == 0
    finally:
        pg_server.drop(url)


def test_new_postgresql_database_gets_schema_and_views(pg_server):
    url = pg_server.new_database(migrated=False)
    try:
        with Database(url, create=True) as db:
            db.solve(make_game("cat-mouse", graph=SEED_GRAPH_2))
            with db.engine.connect() as conn:
                views = set(conn.execute(sa.text("SELECT table_name FROM information_schema.views WHERE table_schema = 'public'")).scalars())
                assert {"positions", "moves"} <= views
                row = conn.execute(
                    sa.text("SELECT result, winner, remoteness, best_move FROM positions WHERE game = 'cat-mouse' AND position = 'mouse=1,cat=2,turn=mouse'")
                ).one()
                assert tuple(row) == ("win", "mouse", 1, "0")
                moves = conn.execute(
                    sa.text("SELECT move, child, child_result FROM moves WHERE game = 'cat-mouse' AND position = 'mouse=1,cat=2,turn=mouse'")
                ).all()
                assert [tuple(m) for m in moves] == [("0", "mouse=0,cat=2,turn=cat", "lose")]
    finally:
        pg_server.drop(url)


# --- the command line against a server ------------------------------------------------


def test_cli_on_postgresql_answers_like_sqlite(cli, pg_url, db_path):
    graph = json.dumps(SEED_GRAPH_1)
    for db in (db_path, pg_url):
        assert cli("solve", "cat-mouse", "--graph", graph, "-q", db=db).exit_code == 0
        assert cli("solve", "tictactoe", "-q", db=db).exit_code == 0
    for args in (["query", "cat-mouse", "--json"], ["query", "tictactoe", "X...O....", "--json"], ["query", "cat-mouse", "mouse=3,cat=2,turn=cat"]):
        lite, pg = cli(*args, db=db_path), cli(*args, db=pg_url)
        assert (pg.exit_code, pg.stdout) == (lite.exit_code, lite.stdout) == (0, lite.stdout)
    assert cli("verify", "tictactoe", "-q", db=pg_url).exit_code == 0
    listed = json.loads(cli("list", "--json", db=pg_url).stdout)
    assert [g["name"] for g in listed] == ["cat-mouse", "tictactoe"]
    missing = cli("query", "nope", db=pg_url)
    assert missing.exit_code == 1 and "no game named 'nope'" in missing.stderr


def test_cli_reports_unreachable_server_in_one_line(cli):
    run = cli("list", db="postgresql+psycopg://nobody@127.0.0.1:1/nothing")
    assert run.exit_code == 1
    assert run.stderr.startswith("Error: ") and "Traceback" not in run.stderr


def test_level_statements_on_postgresql_look_moves_up_by_node(pg_url):
    """On a server the level statements of move lists look token_move up by node or target, as they run in a solve.

    Plans are taken inside the solve, with the statistics the solve leaves
    the planner. A scan of token_move by (game, player) alone, repeated for
    every frontier position, once made an 80,000-position solve take 80 s
    instead of 4 s: the node count came from a join to token_board, and
    token_move had never been analysed.
    """
    db = Database(pg_url, create=True)
    plans = []

    def explain(conn, cursor, statement, params, context, executemany):
        if not executemany and "token_move" in statement and statement.lstrip().startswith("UPDATE"):
            raw = conn.connection.driver_connection.cursor()
            raw.execute("EXPLAIN (FORMAT JSON) " + statement, params)
            plans.append((statement, raw.fetchone()[0][0]["Plan"]))

    sa.event.listen(db.engine, "before_cursor_execute", explain)
    graph = random_graph(random.Random(11), 60, 0.08)
    db.solve(make_game("cat-mouse", graph=json.dumps(graph)), "cm", strategy="sql")
    sa.event.remove(db.engine, "before_cursor_execute", explain)

    def repeated_scans(node, repeated=False):
        """The plan's nodes, each with whether it runs again for every row of something else
        (the inner side of a nested loop, or a subplan); a single pass (hash or merge join input) is fine."""
        yield node, repeated
        for child in node.get("Plans", []):
            again = repeated or child.get("Parent Relationship") == "SubPlan"
            again = again or (node["Node Type"] == "Nested Loop" and child.get("Parent Relationship") == "Inner")
            yield from repeated_scans(child, again)

    assert len(plans) > 10
    for statement, plan in plans:
        for node, repeated in repeated_scans(plan):
            if not repeated or node.get("Relation Name", node.get("Index Name", "")).find("token_move") < 0:
                continue
            cond = node.get("Index Cond") or node.get("Recheck Cond") or ""  # a bitmap heap scan rechecks its index's condition
            assert "node =" in cond or "target =" in cond, (statement[:80], node["Node Type"], cond)
    db.close()


def test_solve_on_postgresql_sets_work_mem_for_its_own_connections(pg_url):
    """A solve asks the server for sort and hash memory from --memory-limit (a sixteenth); later connections get the default."""
    db = Database(pg_url, create=True)
    with db.engine.connect() as conn:
        default = conn.exec_driver_sql("SHOW work_mem").scalar()
    seen = set()

    def show(conn, cursor, statement, params, context, executemany):
        if statement.lstrip().startswith("UPDATE position"):
            raw = conn.connection.driver_connection.cursor()
            raw.execute("SHOW work_mem")
            seen.add(raw.fetchone()[0])

    sa.event.listen(db.engine, "before_cursor_execute", show)
    db.solve(make_game("cat-mouse", graph=json.dumps(SEED_GRAPH_1)), "cm", strategy="sql", memory_limit="512M")
    sa.event.remove(db.engine, "before_cursor_execute", show)
    assert seen == {"32MB"}
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW work_mem").scalar() == default
    db.close()


def test_cli_never_shows_the_password_of_a_server_url(cli, pg_url):
    """The test server trusts every connection, so a password in the URL is accepted and ignored: each line must hide it."""
    url = sa.engine.make_url(pg_url).set(password="pw-not-to-show").render_as_string(hide_password=False)
    runs = [
        cli("solve", "nim", "--max", "3", "-q", db=url),
        cli("solve", "nim", "--max", "3", "-q", db=url),  # already solved in ...
        cli("db", "upgrade", db=url),  # already at the newest revision
    ]
    assert [run.exit_code for run in runs] == [0, 0, 0]
    assert "already solved in" in runs[1].stdout and "already at the newest" in runs[2].stdout
    with sa.create_engine(pg_url, poolclass=sa.pool.NullPool).begin() as conn:
        conn.exec_driver_sql("DROP TABLE position, move, game, alembic_version CASCADE")
    runs.append(cli("db", "upgrade", db=url))  # not a gamedb database
    assert runs[-1].exit_code == 1 and "not a gamedb database" in runs[-1].stderr
    for run in runs:
        assert "pw-not-to-show" not in run.stdout + run.stderr


def test_a_read_whose_server_connection_is_lost_fails_in_one_line(pg_url, caplog):
    """A server stopped under a read (here: the read's backend terminated) fails it with the driver's error; the lost
    connection is dropped, not rolled back by the pool, which logged 'Exception during reset' and a traceback on stderr."""
    import psycopg

    from gamedb.store.file_check import driver_error_message

    with Database(pg_url, create=True) as db:
        db.solve(make_game("nim", max=3))
        admin = sa.create_engine(pg_url, poolclass=sa.pool.NullPool)
        with pytest.raises(psycopg.OperationalError) as lost, db.read() as reader:
            (pid,) = reader.fetch("SELECT pg_backend_pid()")[0]
            with admin.connect() as conn:
                conn.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
            reader.fetch("SELECT 1")
        admin.dispose()
        assert "the server was stopped or restarted" in (driver_error_message(lost.value) or "")
        assert [record.getMessage() for record in caplog.records if record.levelno >= 30] == []
        assert [g.name for g in db.games()] == ["nim"]  # the next read has a new connection


def test_a_role_that_may_only_read_is_told_why_a_solve_fails(cli, pg_url, pg_server):
    """Before: 'database error: permission denied for table game', nothing about the role in the URL."""
    import uuid

    role = f"gamedb_reader_{uuid.uuid4().hex[:8]}"
    with sa.create_engine(pg_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool).connect() as conn:
        conn.exec_driver_sql(f"CREATE ROLE {role} LOGIN")
        conn.exec_driver_sql(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
    try:
        reader = sa.engine.make_url(pg_url).set(username=role).render_as_string(hide_password=False)
        assert cli("list", db=reader).exit_code == 0  # (it may read)
        run = cli("solve", "nim", "--max", "3", "-q", db=reader)
        assert run.exit_code == 1 and "Traceback" not in run.stderr
        assert run.stderr.startswith("Error: cannot write gamedb's table 'game' (and 10 more) in postgresql+psycopg://")  # before any work
        assert f"as their owner, GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}; " in run.stderr
    finally:
        pg_server.drop(pg_url)  # (the role owns grants in it)
        with pg_server.admin.connect() as conn:
            conn.exec_driver_sql(f"DROP ROLE {role}")
