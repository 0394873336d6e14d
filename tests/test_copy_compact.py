"""Sharing a database: the file after a solve, `gamedb compact`, `gamedb copy` (SQLite <-> PostgreSQL)."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
import sqlalchemy as sa

from gamedb import Database, make_game
from gamedb.errors import GamedbError, GameExists, GameNotFound

from conftest import SEED_GRAPH_1, SEED_GRAPH_2
from oracles.cat_mouse import random_graph
from tables import assert_same_game, game_rows

#: games of a shared file: (name, family, options)
SHARED = [
    ("tictactoe", "tictactoe", {}),
    ("seed1", "cat-mouse", {"graph": SEED_GRAPH_1}),
    ("seed2", "cat-mouse", {"graph": SEED_GRAPH_2}),
    ("column", "connect4", {"width": 1, "height": 62, "connect": 4}),  # codes above 2**62
    ("kayles", "octal", {"code": "0.77", "max": 60}),  # heap game: heap_rule rows, no move rows
]

#: positions whose answers must survive compacting and copying: (game, position or None)
PROBES = [
    ("tictactoe", None),
    ("tictactoe", "X...O...."),
    ("tictactoe", "XOX.O...."),
    ("seed1", None),
    ("seed1", "mouse=3,cat=2,turn=cat"),
    ("seed2", None),
    ("column", None),
    ("kayles", None),
    ("kayles", "3 5 7"),
]


def _solve_shared(db: Database) -> None:
    for name, fam, options in SHARED:
        # tic-tac-toe with an engine that stores move rows (the tier solver, its default, stores none): compact drops them
        db.solve(make_game(fam, **options), name, strategy="memory" if fam == "tictactoe" else "auto")


def _answers(db: Database) -> list:
    return [db.probe(name, position) for name, position in PROBES]


def _journal_mode(path) -> str:
    with sqlite3.connect(path) as con:
        return con.execute("PRAGMA journal_mode").fetchone()[0]


# --- the file after a solve ----------------------------------------------------------

def test_solved_file_is_one_self_contained_file(tmp_path):
    path = tmp_path / "shared.sqlite"
    with Database(path, create=True) as db:
        with db.engine.connect() as conn:  # even a file left in WAL mode by someone else
            conn.exec_driver_sql("PRAGMA journal_mode = WAL")
        db.solve(make_game("tictactoe"), strategy="memory")  # an engine that stores move rows: both tables analysed
        assert _journal_mode(path) == "delete"
        assert not (tmp_path / "shared.sqlite-wal").exists()
        assert not (tmp_path / "shared.sqlite-shm").exists()
        with sqlite3.connect(path) as con:
            analyzed = {row[0] for row in con.execute("SELECT tbl FROM sqlite_stat1")}
        assert {"position", "move"} <= analyzed
    # a reader with nothing but the file, read-only
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert con.execute("SELECT result, remoteness FROM positions WHERE game = 'tictactoe' AND position = '.........'").fetchone() == ("tie", 9)
    con.close()


# --- compact -----------------------------------------------------------------------------

def test_compact_drops_moves_and_still_answers(backend_db):
    db = backend_db()
    _solve_shared(db)
    before = _answers(db)
    stats_before = db.stats("tictactoe")
    seed_moves = game_rows(db, "seed1")["move"]

    report = db.compact("tictactoe")
    assert report.game == "tictactoe" and report.moves_removed == 16167
    assert game_rows(db, "tictactoe")["move"] == []
    assert game_rows(db, "seed1")["move"] == seed_moves  # other games keep theirs
    assert _answers(db) == before  # moves listed too: from the rules and the position table
    assert db.probe("tictactoe").moves and db.stats("tictactoe")["results"] == stats_before["results"]
    assert db.verify("tictactoe").positions == 5478
    assert "compacted_at" in db.game("tictactoe").info
    assert db.compact("tictactoe").moves_removed == 0  # twice is harmless

    if backend_db.backend == "sqlite":
        assert report.bytes_after < report.bytes_before
        path = db.engine.url.database
        assert _journal_mode(path) == "delete"
        with sqlite3.connect(path) as con:
            assert con.execute("SELECT COUNT(*) FROM moves WHERE game = 'tictactoe'").fetchone() == (0,)
            assert con.execute("SELECT COUNT(*) FROM moves WHERE game = 'seed1'").fetchone() == (42,)


def test_compact_refuses_unfinished_and_unknown_games(backend_db):
    db = backend_db()
    db.solve(make_game("tictactoe"), "g", strategy="memory" if backend_db.backend == "duckdb" else "sql")  # (no sql there)
    with db.engine.begin() as conn:
        conn.execute(sa.text("UPDATE game SET status = 'solving' WHERE name = 'g'"))
    with pytest.raises(GamedbError, match="not fully solved"):
        db.compact("g")
    assert game_rows(db, "g")["move"]  # nothing dropped: a resumed solve needs them
    with pytest.raises(GameNotFound):
        db.compact("nope")


def test_cli_compact(cli, db_path):
    assert cli("solve", "tictactoe", "--strategy", "memory", "-q").exit_code == 0
    before = cli("query", "tictactoe", "X...O....", "--json").stdout
    run = cli("compact", "tictactoe")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith("Compacted tictactoe: dropped 16,167 moves; file ")
    assert cli("query", "tictactoe", "X...O....", "--json").stdout == before
    assert cli("verify", "tictactoe", "-q").exit_code == 0
    missing = cli("compact", "nope")
    assert missing.exit_code == 1 and missing.stderr.startswith("Error: no game named 'nope'")


# --- copy --------------------------------------------------------------------------------

def test_copy_between_sqlite_files(tmp_path):
    with Database(tmp_path / "a.sqlite", create=True) as a, Database(tmp_path / "b.sqlite", create=True) as b:
        _solve_shared(a)
        a.compact("column")
        b.solve(make_game("cat-mouse", graph=SEED_GRAPH_2), "other")  # the destination may hold other games
        report = a.copy_to(b)
        assert report.games == sorted(name for name, _, _ in SHARED)
        assert report.positions == sum(g.positions for g in a.games())
        for name, _, _ in SHARED:
            assert_same_game(a, b, name)
            b.verify(name)
        assert _answers(b) == _answers(a)
        assert [g.name for g in b.games()] == sorted([name for name, _, _ in SHARED] + ["other"])
    assert _journal_mode(tmp_path / "b.sqlite") == "delete"


def test_copy_round_trip_through_postgresql(tmp_path, pg_url):
    src, back = tmp_path / "src.sqlite", tmp_path / "back.sqlite"
    with Database(src, create=True) as a:
        _solve_shared(a)
        a.compact("seed2")
        with Database(pg_url) as pg:
            a.copy_to(pg)
            with Database(back, create=True) as b:
                pg.copy_to(b)
                for name, _, _ in SHARED:
                    assert_same_game(a, pg, name)
                    assert_same_game(a, b, name)
                    pg.verify(name)
                    b.verify(name)
                assert _answers(pg) == _answers(b) == _answers(a)
    assert _journal_mode(back) == "delete"
    assert not back.with_name("back.sqlite-wal").exists()


def test_copy_refuses_taken_names_unless_forced(tmp_path):
    with Database(tmp_path / "a.sqlite", create=True) as a, Database(tmp_path / "b.sqlite", create=True) as b:
        a.solve(make_game("tictactoe"))
        a.solve(make_game("cat-mouse", graph=SEED_GRAPH_1), "g")
        b.solve(make_game("cat-mouse", graph=SEED_GRAPH_2), "g")  # same name, another game
        with pytest.raises(GameExists, match="'g'"):
            a.copy_to(b)
        assert [g.name for g in b.games()] == ["g"]  # nothing written
        assert a.copy_to(b, ["tictactoe"]).games == ["tictactoe"]
        a.copy_to(b, ["g"], force=True)
        assert_same_game(a, b, "g")
        with pytest.raises(GameNotFound):
            a.copy_to(b, ["nope"])
        with pytest.raises(GamedbError, match="same database"):
            a.copy_to(Database(tmp_path / "a.sqlite"))


def test_copy_skips_unfinished_games(tmp_path):
    with Database(tmp_path / "a.sqlite", create=True) as a, Database(tmp_path / "b.sqlite", create=True) as b:
        a.solve(make_game("tictactoe"))
        a.solve(make_game("cat-mouse", graph=SEED_GRAPH_1), "g", strategy="sql")
        with a.engine.begin() as conn:
            conn.execute(sa.text("UPDATE game SET status = 'solving' WHERE name = 'g'"))
        report = a.copy_to(b)
        assert (report.games, report.skipped) == (["tictactoe"], ["g"])
        with pytest.raises(GamedbError, match="not fully solved"):
            a.copy_to(b, ["g"])


def test_cli_copy(cli, tmp_path):
    src, dst = tmp_path / "src.sqlite", tmp_path / "dst.sqlite"
    assert cli("solve", "tictactoe", "--strategy", "memory", "-q", db=src).exit_code == 0
    assert cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q", db=src).exit_code == 0
    run = cli("copy", str(src), str(dst), "tictactoe", "-q")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.strip() == "Copied 1 game (tictactoe): 5,478 positions, 16,167 moves."
    args = ["query", "tictactoe", "X...O....", "--json"]
    assert cli(*args, db=dst).stdout == cli(*args, db=src).stdout
    # copying everything again: the game copied before is there as it is here, so it is left (a killed copy resumes)
    again = cli("copy", str(src), str(dst), "-q")
    assert again.exit_code == 0 and "Already in the destination, as copied before: tictactoe." in again.stderr
    assert again.stdout.strip() == "Copied 1 game (cat-mouse): 28 positions, 0 moves."
    third = cli("copy", str(src), str(dst), "-q")  # nothing left to copy: stdout still says so (it was empty)
    assert third.exit_code == 0 and third.stdout == "Copied nothing: every game is in the destination already.\n"
    assert "Already in the destination, as copied before: cat-mouse, tictactoe." in third.stderr
    # another game of the same name is refused
    other = tmp_path / "other.sqlite"
    assert cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_2), "-q", db=other).exit_code == 0
    clash = cli("copy", str(other), str(dst), "-q")
    assert clash.exit_code == 1 and "already holds 'cat-mouse'" in clash.stderr
    assert cli("copy", str(src), str(dst), "--force", "-q").exit_code == 0
    assert [g["name"] for g in json.loads(cli("list", "--json", db=dst).stdout)] == ["cat-mouse", "tictactoe"]
    missing = cli("copy", str(tmp_path / "none.sqlite"), str(dst))
    assert missing.exit_code == 1 and "no database at" in missing.stderr
    same = cli("copy", str(src), str(src))
    assert same.exit_code == 1 and "same database" in same.stderr


def test_cli_copy_into_postgresql_and_back(cli, tmp_path, pg_url):
    src, back = tmp_path / "src.sqlite", tmp_path / "back.sqlite"
    assert cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q", db=src).exit_code == 0
    assert cli("copy", str(src), pg_url, "-q").exit_code == 0
    assert cli("verify", "cat-mouse", "-q", db=pg_url).exit_code == 0
    assert cli("copy", pg_url, str(back), "-q").exit_code == 0
    args = ["query", "cat-mouse", "mouse=3,cat=2,turn=cat", "--json"]
    assert cli(*args, db=back).stdout == cli(*args, db=pg_url).stdout == cli(*args, db=src).stdout


def test_copy_and_compact_have_help_with_example():
    from typer.testing import CliRunner

    from gamedb.cli.app import app

    for command in ("copy", "compact"):
        result = CliRunner().invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "Example:" in result.stdout, command


# --- two-token games keep move lists, not move rows -------------------------------------

def test_cat_mouse_keeps_move_lists_and_the_moves_view_generates_every_move(backend_db):
    """Cat and mouse stores the players' move lists; the moves view lists exactly the rules' moves with the children's values."""
    graph = random_graph(random.Random(7), 12, 0.3)
    game = make_game("cat-mouse", graph=graph)
    for engine in ("memory",) if backend_db.backend == "duckdb" else ("sql", "memory"):  # (no sql on DuckDB)
        db = backend_db()
        db.solve(game, "cm", strategy=engine)
        rows = game_rows(db, "cm")
        assert rows["move"] == []  # the SQL engine's working rows are gone too
        assert len(rows["token_move"]) == sum(len(nbrs) for nbrs in graph) + sum(len([b for b in nbrs if b]) for nbrs in graph)
        values = {row["text"]: (row["result"], row["remoteness"]) for row in db.positions("cm")}
        expected = []
        for text in values:
            state = game.parse(text)
            for order, (label, child) in enumerate(game.moves(state)):
                expected.append((text, order, label, game.format(child), *values[game.format(child)]))
        with db.engine.connect() as conn:
            listed = conn.execute(
                sa.text("SELECT position, ord, move, child, child_result, child_remoteness FROM moves WHERE game = 'cm'")
            ).all()
        assert sorted(map(tuple, listed)) == sorted(expected)
        assert db.game("cm").moves == len(expected)


def test_cli_copy_of_nothing_makes_no_file(cli, tmp_path):
    """An unfinished game named (refused) or nothing solved to copy: an empty database was left at DST."""
    src = tmp_path / "src.sqlite"
    assert cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "--strategy", "sql", "-q", db=src).exit_code == 0
    with sqlite3.connect(src) as con:
        con.execute("UPDATE game SET status = 'solving'")
    con.close()
    for dst in ("new.sqlite", "new ü.duckdb"):
        named = cli("copy", str(src), str(tmp_path / dst), "cat-mouse")
        assert named.exit_code == 1 and named.stderr.startswith("Error: game 'cat-mouse' is not fully solved"), named.stderr
        every = cli("copy", str(src), str(tmp_path / dst))
        assert every.exit_code == 0 and every.stdout.strip() == "No solved games to copy.", every.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src.sqlite"]
