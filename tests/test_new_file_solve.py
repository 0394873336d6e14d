"""A small heap game solved into a new file without SQLAlchemy stores what the full path stores.

`gamedb solve nim --max 13` into a file that does not exist yet goes through
the new file's sink (the standard library's sqlite3, no
SQLAlchemy: issue 12's 0.3 s). These tests hold it to the full path
(`Database.solve`, SQLAlchemy): every table, row, index, view, statistic and
schema stamp the same, for every heap family; the file in place only when
complete; anything it cannot do left to the full path.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamedb import Database, make_game
from gamedb.cli.solve_run import run_solve
from gamedb.games import family
from gamedb.solvers.heaps import solver as heap_solver
from gamedb.solvers.solve import NewFile, new_file, solve
from gamedb.store.new_sqlite_file import NewSqliteFile, TargetTaken
from gamedb.store.revisions import head_from_files
from gamedb.store.schema import game as game_table
from gamedb.store.sink import JSON_COLUMNS
from gamedb.store.sqlite_file import installed_migrations_dir

#: LeetCode 913, example 1 (a draw), and a ring with a chord
LEETCODE_913_EXAMPLE_1 = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
RING_OF_9 = [[(i - 1) % 9, (i + 1) % 9] + ([4] if i == 0 else [0] if i == 4 else []) for i in range(9)]
GRID = '["M..#","..#C","F..."]'
RING_OF_160 = [[(i - 1) % 160, (i + 1) % 160] for i in range(160)]

#: (CLI arguments after `solve`, the same game's family and options)
HEAP_GAMES = [
    (["nim", "--max", "13"], "nim", {"max": 13}),
    (["flip", "--max", "24"], "flip", {"max": 24}),
    (["octal", "--code", "0.77", "--max", "90"], "octal", {"code": "0.77", "max": 90}),  # Kayles: a period, sums with no remoteness
    (["octal", "--code", "0.137", "--max", "40"], "octal", {"code": "0.137", "max": 40}),
    (["grundy", "--max", "30"], "grundy", {"max": 30}),
    (["subtraction", "--set", "1,2,5", "--max", "200"], "subtraction", {"set": "1,2,5", "max": 200}),
]
#: partisan games without tiers, which the full path solves in memory (graph_memory)
GRAPH_GAMES = [
    (["cat-mouse", "--graph", json.dumps(LEETCODE_913_EXAMPLE_1)], "cat-mouse", {"graph": json.dumps(LEETCODE_913_EXAMPLE_1)}),  # a draw
    (["cat-mouse", "--graph", json.dumps(RING_OF_9)], "cat-mouse", {"graph": json.dumps(RING_OF_9)}),
    (["cat-mouse-grid", "--grid", GRID], "cat-mouse-grid", {"grid": GRID}),  # move rows
]

#: tier games of at most tier_memory.TIERS_INTO_NEW_FILE positions by their estimate, and a large cat-mouse (one commit: nothing to resume)
LARGER_GAMES = [
    (["connect4", "--width", "4", "--height", "3"], "connect4", {"width": 4, "height": 3}),
    (["cat-mouse", "--graph", json.dumps(RING_OF_160)], "cat-mouse", {"graph": json.dumps(RING_OF_160)}),  # 51,200 positions: indexes built after
]

#: game columns that say when and how fast, not what
TIMES = ("created_at", "solved_at", "enumerate_seconds", "solve_seconds")


def _gamedb(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`gamedb ...` as typed, with Python's import log on stderr (what the process imported)."""
    env = dict(os.environ)
    env.pop("GAMEDB_DB", None)
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "gamedb", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def _said(run: subprocess.CompletedProcess) -> str:
    """stderr without the import log."""
    return "".join(line + "\n" for line in run.stderr.splitlines() if not line.startswith("import time:"))


def _imported_sqlalchemy(run: subprocess.CompletedProcess) -> bool:
    return any(line.startswith("import time:") and line.split("|")[-1].strip() == "sqlalchemy" for line in run.stderr.splitlines())


def _contents(path: Path) -> dict[str, list[tuple]]:
    """Everything a file holds but times: the schema, every table's rows in order, the planner's statistics."""
    with sqlite3.connect(path) as conn:
        found: dict[str, list[tuple]] = {"schema": conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()}
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for table in tables:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})") if row[1] not in TIMES]
            found[table] = conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(columns)}").fetchall()
        found["journal_mode"] = conn.execute("PRAGMA journal_mode").fetchall()
    return found


NEW_FILE_GAMES = HEAP_GAMES + GRAPH_GAMES + LARGER_GAMES


@pytest.mark.parametrize("args,fam,options", NEW_FILE_GAMES, ids=[" ".join(a)[:40] for a, _, _ in NEW_FILE_GAMES])
def test_a_new_file_holds_what_the_full_path_writes(tmp_path, args, fam, options):
    run = _gamedb("--db", "light.sqlite", "solve", *args, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert not _imported_sqlalchemy(run)  # the new-file path, not the full one
    with Database(tmp_path / "full.sqlite", create=True) as db:
        db.solve(make_game(fam, **options))
    light, full = _contents(tmp_path / "light.sqlite"), _contents(tmp_path / "full.sqlite")
    assert light.keys() == full.keys()
    for key in full:
        assert light[key] == full[key], key
    assert full["position"] and full["sqlite_stat1"] and full["journal_mode"] == [("delete",)]
    kept = {"cat-mouse": "token_move", "cat-mouse-grid": "move", "connect4": "position"}.get(fam, "heap_rule")  # how the family keeps its moves
    assert full[kept]
    assert [name for name in os.listdir(tmp_path) if name.endswith(".new")] == []
    # the times are there too, as the full path writes them
    with sqlite3.connect(tmp_path / "light.sqlite") as conn:
        created, solved, enum_s, solve_s = conn.execute("SELECT created_at, solved_at, enumerate_seconds, solve_seconds FROM game").fetchone()
    assert created.endswith("+00:00") and solved >= created and enum_s >= 0 and solve_s >= 0
    # and every stored value is re-derived from the rules
    check = _gamedb("--db", "light.sqlite", "verify", make_game(fam, **options).default_name(), cwd=tmp_path)
    assert check.returncode == 0 and check.stdout.startswith("OK:"), check.stderr


@pytest.mark.parametrize("flags,symmetry", [([], True), (["--no-symmetry"], False)], ids=["symmetry", "no-symmetry"])
def test_a_new_tier_file_stores_canonical_positions_as_the_full_path_does(tmp_path, flags, symmetry):
    game = make_game("connect4", width=4, height=3)
    run = _gamedb("--db", "light.sqlite", "solve", "connect4", "--width", "4", "--height", "3", *flags, cwd=tmp_path)
    assert run.returncode == 0 and not _imported_sqlalchemy(run), run.stderr
    with Database(tmp_path / "full.sqlite", create=True) as db:
        db.solve(game, symmetry=symmetry)
    with Database(tmp_path / "every.sqlite", create=True) as db:
        every = db.solve(game, symmetry=False).positions  # the oracle: every reachable position
    assert _contents(tmp_path / "light.sqlite") == _contents(tmp_path / "full.sqlite")
    with sqlite3.connect(tmp_path / "light.sqlite") as conn:
        codes = np.array([code for (code,) in conn.execute("SELECT code FROM position")], dtype=np.int64)
    with Database(tmp_path / "light.sqlite", readonly=True) as db:
        record = db.game(game.default_name())
    assert record.reachable == every
    if symmetry:  # one position per mirror pair, each its class's canonical code
        assert every // 2 < len(codes) < every and (game.array_rules().canonical(codes) == codes).all()
        assert f"(one per symmetry class of {every:,} reachable)" in run.stdout
    else:
        assert len(codes) == every and "symmetry class" not in run.stdout


def test_a_large_load_leaves_the_file_as_compact_as_vacuum_does(tmp_path):
    """Connect-Four 4x4's 80,541 classes (a load that drops the indexes) go in through a copy into the empty table: pages
    filled as VACUUM fills them (rows inserted in key order left them 88 % full: 5x4 22.0 bytes a position, 19.4 after VACUUM)."""
    run = _gamedb("--db", "g.sqlite", "solve", "connect4", cwd=tmp_path)
    assert run.returncode == 0 and not _imported_sqlalchemy(run), run.stderr
    with sqlite3.connect(tmp_path / "g.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA freelist_count").fetchone() == (0,)
        assert conn.execute("SELECT name FROM sqlite_temp_master").fetchall() == []
        conn.execute(f"VACUUM INTO '{tmp_path / 'vacuumed.sqlite'}'")
    size, vacuumed = (tmp_path / "g.sqlite").stat().st_size, (tmp_path / "vacuumed.sqlite").stat().st_size
    assert size <= vacuumed * 1.01, (size, vacuumed)


def test_it_reports_as_the_full_path_and_then_finds_the_game_solved(tmp_path):
    light = _gamedb("--db", "g.sqlite", "solve", "nim", "--max", "13", cwd=tmp_path)
    # the full path's report of the same solve: into a file that exists, so the new-file path steps aside
    _gamedb("--db", "f.sqlite", "solve", "nim", "--max", "2", "--name", "other", cwd=tmp_path)
    full = _gamedb("--db", "f.sqlite", "solve", "nim", "--max", "13", cwd=tmp_path)
    assert _imported_sqlalchemy(full)
    assert light.returncode == full.returncode == 0
    assert light.stdout.split(" in ")[0] == full.stdout.split(" in ")[0] == "Solved nim: 14 positions, 91 moves"
    assert light.stdout.split(" s. ")[1] == full.stdout.split(" s. ")[1] == "Start 13: next to move, win in 1.\n"
    assert _said(light) == _said(full) == ""
    again = _gamedb("--db", "g.sqlite", "solve", "nim", "--max", "13", cwd=tmp_path)
    assert again.stdout == "nim is already solved in g.sqlite (14 positions); --force solves it again.\n"
    query = _gamedb("--db", "g.sqlite", "query", "nim", "6", "--json", cwd=tmp_path)
    assert json.loads(query.stdout)["grundy"] == 6


def test_a_name_and_quiet_are_honoured(tmp_path):
    run = _gamedb("--db", "g.sqlite", "solve", "--name", "small", "-q", "subtraction", "--set", "1,3", "--max", "9", cwd=tmp_path)
    assert run.returncode == 0 and not _imported_sqlalchemy(run)
    assert run.stdout.startswith("Solved small: 10 positions")
    with Database(tmp_path / "g.sqlite", readonly=True) as db:
        assert [g.name for g in db.games()] == ["small"]


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "connect4", "--width", "4", "--height", "3", "--strategy", "sql"],  # the SQL solver works in the database
        ["solve", "subtraction", "--set", "1,2,5", "--max", "100000"],  # more than one write batch: resumable batches
        ["solve", "tictactoe"],  # solved by tiers
        ["solve", "graph", "--file", str(Path(__file__).resolve().parents[1] / "examples" / "graphs" / "coin-split.json")],  # no estimate
    ],
)
def test_other_solves_go_the_full_way(tmp_path, args):
    run = _gamedb("--db", "g.sqlite", *args, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert _imported_sqlalchemy(run)


def test_a_memory_limit_is_honoured_in_a_new_file(tmp_path):
    graph = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]"  # LeetCode 913, example 1
    run = _gamedb("--db", "g.duckdb", "solve", "cat-mouse", "--graph", graph, "--memory-limit", "1G", cwd=tmp_path)
    assert run.returncode == 0 and not _imported_sqlalchemy(run), run.stderr
    assert run.stdout.startswith("Solved cat-mouse: 28 positions")
    # too little memory for the array solvers: the new file's solve gives way to the one that works in the database (a key-less
    # DuckDB position table: enumerated rows kept new by an anti-join)
    tight = _gamedb("--db", "h.duckdb", "solve", "cat-mouse", "--graph", graph, "--memory-limit", "100", cwd=tmp_path)
    assert tight.returncode == 0 and _imported_sqlalchemy(tight), tight.stderr
    assert tight.stdout.split(" in ")[0] == run.stdout.split(" in ")[0] and tight.stdout.split(" s. ")[1] == run.stdout.split(" s. ")[1]
    for db in ("g.duckdb", "h.duckdb"):
        check = _gamedb("--db", db, "verify", "cat-mouse", cwd=tmp_path)
        assert check.returncode == 0 and check.stdout.startswith("OK: 28 positions"), check.stderr


def test_a_file_that_exists_or_a_missing_folder_goes_the_full_way(tmp_path):
    game = family("nim").from_options(max=13)
    assert new_file(str(tmp_path / "g.sqlite"), game) is not None
    assert new_file(str(tmp_path / "g.sqlite"), game, "memory") is None  # a strategy that takes no heap game: the full path refuses it
    assert new_file(str(tmp_path / "g.sqlite"), game, memory_limit=1 << 30) == NewFile(tmp_path / "g.sqlite", _revision(), False, "auto", 1 << 30)
    assert new_file(str(tmp_path / "g.sqlite"), family("connect4").from_options(width=5, height=5)) is None  # resumable tier by tier
    assert new_file(str(tmp_path / "g.duckdb"), family("connect4").from_options(width=4, height=4)) == NewFile(tmp_path / "g.duckdb", _revision(), True)
    (tmp_path / "g.sqlite").write_bytes(b"")
    assert new_file(str(tmp_path / "g.sqlite"), game) is None  # an empty file: the full path makes it a database
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling.sqlite")
    assert new_file(str(tmp_path / "dangling.sqlite"), game) is None
    assert new_file(str(tmp_path / "no" / "g.sqlite"), game) is None
    assert new_file("postgresql+psycopg://u@127.0.0.1/x", game) is None
    missing = _gamedb("--db", "no/g.sqlite", "solve", "nim", "--max", "13", cwd=tmp_path)
    assert missing.returncode == 1 and _said(missing).startswith("Error: ") and "Traceback" not in missing.stderr


def _revision() -> str:
    folder = installed_migrations_dir()
    assert folder is not None
    revision = head_from_files(folder)
    assert revision is not None
    return revision


def test_a_file_made_meanwhile_is_left_alone_and_the_full_path_takes_over(tmp_path, monkeypatch, capsys):
    target = tmp_path / "g.sqlite"
    original = heap_solver.compute

    def someone_else_makes_it(game, **kw):
        if game.max_heap == 13:  # ours; theirs (nim 3) computes as ever
            with Database(target, create=True) as db:  # another process solves into the same new file
                db.solve(make_game("nim", max=3), "theirs")
        return original(game, **kw)

    monkeypatch.setattr(heap_solver, "compute", someone_else_makes_it)
    game = family("nim").from_options(max=13)
    with pytest.raises(TargetTaken):
        solve(NewFile(target, _revision()), game, "nim")
    with Database(target, readonly=True) as db:
        assert [g.name for g in db.games()] == ["theirs"]
    assert os.listdir(tmp_path) == ["g.sqlite"]  # no temporary file left
    # at the command line: the new file is refused without a word, and the general path solves into the file made meanwhile
    target.unlink()
    capsys.readouterr()
    run_solve(str(target), game, None, False, True)
    out, err = capsys.readouterr()
    assert out.startswith("Solved nim: 14 positions") and err == ""
    with Database(target, readonly=True) as db:
        assert sorted(g.name for g in db.games()) == ["nim", "theirs"]


def test_a_bug_in_the_new_file_path_is_not_hidden_behind_the_general_one(tmp_path, monkeypatch):
    """An operational failure there (the file made meanwhile, above) hands over to the general path; an error of the code
    itself is raised, not paid for silently by solving again the slow way."""

    def broken(game, **kw):
        raise AttributeError("a bug")

    monkeypatch.setattr(heap_solver, "compute", broken)
    with pytest.raises(AttributeError, match="a bug"):
        run_solve(str(tmp_path / "g.sqlite"), family("nim").from_options(max=13), None, False, True)
    assert os.listdir(tmp_path) == []


def test_a_failure_half_way_leaves_no_file(tmp_path, monkeypatch):
    def broken(game, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(heap_solver, "compute", broken)
    with pytest.raises(OSError):
        solve(NewFile(tmp_path / "g.sqlite", _revision()), family("nim").from_options(max=13), "nim")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_the_summary_reads_the_start_on_the_writers_connection(tmp_path, monkeypatch, capsys, suffix):
    """The line of a solve into a new file says the start's stored value, read as `gamedb query` reads it but on the
    writer's connection before it closes the file (no second open of it, checked as anyone's file); a failure of that
    read is the solve's: nothing is linked."""
    if suffix == "duckdb":
        pytest.importorskip("duckdb")
    from gamedb import api

    def no_second_open(*args, **kwargs):
        raise AssertionError("the new file was opened again to read its start")

    monkeypatch.setattr(api.Database, "probe", no_second_open)
    path, game = tmp_path / f"g.{suffix}", make_game("cat-mouse", graph="[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]")
    assert new_file(str(path), game) is not None
    run_solve(str(path), game, None, False, True)
    out = capsys.readouterr().out
    assert out.startswith("Solved cat-mouse: 28 positions, 42 moves in ") and out.endswith(" s. Start mouse=1,cat=2,turn=mouse: mouse to move, draw.\n")
    monkeypatch.undo()
    with Database(path, readonly=True) as db:
        start = db.probe("cat-mouse")
        assert (start.position, start.result, start.remoteness, start.player) == ("mouse=1,cat=2,turn=mouse", "draw", None, "mouse")

    def unreadable(reader):
        raise OSError(5, "Input/output error")

    with pytest.raises(OSError):
        solve(NewFile(tmp_path / f"h.{suffix}", _revision(), suffix == "duckdb"), game, "t", read_back=unreadable)
    assert not (tmp_path / f"h.{suffix}").exists() and sorted(os.listdir(tmp_path)) == [f"g.{suffix}"]


def test_two_solves_of_one_new_file_at_once(tmp_path):
    args = [sys.executable, "-m", "gamedb", "--db", "g.sqlite", "solve", "octal", "--code", "0.77", "--max", "400"]
    runs = [subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outs
    said = sorted(out for out, _ in outs)  # one solved it; the other found it solved, at its start or when its link failed
    assert said[0].startswith("Solved octal-0.77: 401 positions")
    assert said[1] == "octal-0.77 is already solved in g.sqlite (401 positions); --force solves it again.\n"
    assert sorted(os.listdir(tmp_path)) == ["g.sqlite"]
    with Database(tmp_path / "g.sqlite", readonly=True) as db:
        assert [g.name for g in db.games()] == ["octal-0.77"]
        assert db.verify("octal-0.77").positions == 401


def test_the_json_columns_are_the_tables():
    assert set(JSON_COLUMNS) == {c.name for c in game_table.columns if c.type.__class__.__name__ == "JSON"}


def test_the_writer_is_used_inside_a_with_block_only(tmp_path):
    new = NewSqliteFile(tmp_path / "g.sqlite", _revision(), "nim", family("nim").from_options(max=3), "heaps")
    with pytest.raises(AssertionError):
        new.rows("player", [{"game_id": 1, "idx": 0, "name": "x"}])


@pytest.mark.parametrize("args", [["nim", "--max", "3"], ["tictactoe"]], ids=["new-file path", "full path"])
def test_a_blank_name_is_refused_before_a_file_is_made(tmp_path, args):
    run = _gamedb("--db", "g.sqlite", "solve", "--name", " ", *args, cwd=tmp_path)
    assert run.returncode == 2 and _said(run) == "Error: a game's name (--name) must not be empty or blank, got ' '\n"
    assert os.listdir(tmp_path) == []
