"""Size limits: a game that cannot fit the disk or the memory limit is refused before anything is written.

Families that know their size (:meth:`Game.estimate`) are checked before the
game row is created: against the free space beside a SQLite file, and with
``--strategy memory`` against ``--memory-limit``. The refusal is one line with
the estimate in it, exit code 1, and leaves the database file byte for byte
as it was. The estimates are upper bounds, and not loose ones.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
from collections import namedtuple
from pathlib import Path

import pytest

from gamedb import make_game
from gamedb.errors import GamedbError, InputError
from gamedb.sizes import parse_size
from gamedb.solvers.graph_memory import TooLarge
from gamedb.solvers.solve import NotEnoughSpace, disk_bytes
from gamedb.store.locking import SolveInProgress, others_solving, solve_lock

from conftest import SEED_GRAPH_1, SEED_GRAPH_2
from oracles.cat_mouse import random_graph

GRID = ["M.......", "........", "...##...", "........", "........", "....C...", "........", "......F."]
Usage = namedtuple("Usage", "total used free")


@pytest.fixture
def stored(cli, db_path):
    """A database holding a solved tic-tac-toe; returns a function telling whether the file is as it was."""
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    folder = db_path.parent
    before = (db_path.read_bytes(), sorted(p.name for p in folder.iterdir()))

    def unchanged() -> bool:
        return (db_path.read_bytes(), sorted(p.name for p in folder.iterdir())) == before

    return unchanged


def _games(db_path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db_path) as con:
        rows = con.execute("SELECT name, status FROM game ORDER BY name").fetchall()
    con.close()
    return rows


def _one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in stderr, stderr
    return lines[0]


def _graph(n: int = 200, seed: int = 3) -> str:
    return json.dumps(random_graph(random.Random(seed), n, 0.04))


# --- the disk ------------------------------------------------------------------------------------


def test_game_too_large_for_the_disk_is_refused_before_writing(cli, db_path, stored, monkeypatch):
    game = make_game("cat-mouse", graph=_graph())
    positions, moves = game.estimate()[:2]
    free = 5 * 10**6
    seen = []

    def tiny_disk(path):
        seen.append(Path(path))
        return Usage(10**9, 10**9 - free, free)

    monkeypatch.setattr(shutil, "disk_usage", tiny_disk)
    run = cli("solve", "cat-mouse", "--graph", _graph(), "-q")
    assert run.exit_code == 1
    line = _one_error_line(run.stderr)
    assert f"{positions:,} positions" in line and f"{moves:,} moves" in line, line
    assert re.search(r"~[\d.,]+ MB on disk", line) and "only 5.0 MB are free in " + str(db_path.parent) in line, line
    assert seen == [db_path.parent]
    assert _games(db_path) == [("tictactoe", "solved")] and stored()


def test_disk_check_applies_to_every_engine_and_leaves_room_for_the_solve(fresh_db, monkeypatch):
    db = fresh_db()
    game = make_game("cat-mouse", graph=_graph())
    need = disk_bytes(*game.estimate()[:2])
    for engine in ("auto", "sql", "memory"):
        # enough for the finished file, not for the file and its write-ahead log while solving
        monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 0, need + 1))
        with pytest.raises(NotEnoughSpace, match=f"cm needs up to {game.estimate().positions:,} positions"):
            db.solve(game, "cm", strategy=engine)
        assert db.games() == []
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 0, 3 * need))
    assert db.solve(game, "cm").positions <= game.estimate().positions


def test_forced_resolve_is_checked_too_and_keeps_the_old_game(cli, db_path, monkeypatch):
    assert cli("solve", "cat-mouse", "--graph", _graph(60), "-q").exit_code == 0
    before = db_path.read_bytes()
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**9, 10**9, 1000))
    run = cli("solve", "cat-mouse", "--graph", _graph(), "--force", "-q")
    assert run.exit_code == 1 and "positions" in _one_error_line(run.stderr)
    assert db_path.read_bytes() == before
    assert cli("query", "cat-mouse").exit_code == 0


# --- the memory limit ---------------------------------------------------------------------------------


def test_game_too_large_for_the_memory_limit_is_refused_with_engine_memory(cli, db_path, stored):
    game = make_game("cat-mouse", graph=_graph())
    positions, moves = game.estimate()[:2]
    run = cli("solve", "cat-mouse", "--graph", _graph(), "--strategy", "memory", "--memory-limit", "1M", "-q")
    assert run.exit_code == 1
    line = _one_error_line(run.stderr)
    assert f"{positions:,} positions" in line and f"{moves:,} moves" in line and "--memory-limit is 1.0 MB" in line, line
    assert re.search(r"~[\d.,]+ MB of memory", line), line
    assert _games(db_path) == [("tictactoe", "solved")] and stored()  # no stray unfinished game row


def test_memory_refusal_in_python_without_an_estimate_leaves_no_row(fresh_db):
    """A family without an estimate outgrows the limit while enumerating: still no game row."""
    db = fresh_db()
    game = make_game("tictactoe")
    assert game.estimate() is None
    with pytest.raises(TooLarge):
        db.solve(game, "ttt", strategy="memory", memory_limit=10_000)
    assert db.games() == []
    assert db.solve(game, "ttt", strategy="memory").strategy == "graph-memory"


def test_auto_engine_goes_to_sql_when_memory_is_too_small(fresh_db):
    db = fresh_db()
    game = make_game("cat-mouse", graph=_graph(80))
    report = db.solve(game, "cm", memory_limit="100k")
    assert report.strategy == "graph-sql" and report.positions > 0
    assert db.game("cm").solved


@pytest.mark.parametrize("limit", ["0", "0k", "0.1"])
def test_zero_memory_limit_is_malformed(cli, db_path, stored, limit):
    run = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "--memory-limit", limit, "-q")
    assert run.exit_code == 2 and "--memory-limit" in _one_error_line(run.stderr)
    assert _games(db_path) == [("tictactoe", "solved")] and stored()


def test_memory_limit_values():
    assert parse_size("2G") == 2 << 30 and parse_size(4096) == 4096
    for bad in (0, -1, "0", "", "-5M", "lots", True, 1.5):
        with pytest.raises(InputError, match="memory_limit="):
            parse_size(bad)


def test_memory_limit_up_to_one_pib_as_the_error_writes_it():
    """`--memory-limit 2000T` said 'must be at most 1.1 PB', a size it refused when typed ('1P' was no size)."""
    assert parse_size("1P") == parse_size("1024T") == parse_size("1PiB") == 1 << 50
    for too_large in ("2P", "1025T", str((1 << 50) + 1)):
        with pytest.raises(InputError, match=r"memory_limit= must be at most 1P \(1 PiB, 1024T\), got"):
            parse_size(too_large)


def test_memory_engine_refused_for_impartial_games_before_writing(cli, db_path, stored):
    run = cli("solve", "flip", "--max", "10", "--strategy", "memory", "-q")
    assert run.exit_code == 2, run.stderr
    assert _games(db_path) == [("tictactoe", "solved")] and stored()


# --- other refusals leave the file as it was ---------------------------------------------------------


def test_refusals_do_not_touch_the_file(cli, db_path, stored):
    # a different game under a stored name
    run = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "--name", "tictactoe", "-q")
    assert run.exit_code == 1 and "different game" in _one_error_line(run.stderr)
    assert stored()
    # the same game again: nothing to do
    run = cli("solve", "tictactoe", "-q")
    assert run.exit_code == 0 and "already solved" in run.stdout
    assert stored()


def test_same_name_different_parameters_leaves_journal_mode(cli, db_path):
    assert cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "--name", "g", "-q").exit_code == 0
    before = db_path.read_bytes()
    run = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_2), "--name", "g", "-q")
    assert run.exit_code == 1 and "different game" in run.stderr
    assert db_path.read_bytes() == before  # the header still says rollback journal, not WAL


# --- the estimates -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "family, options",
    [
        ("cat-mouse", {"graph": SEED_GRAPH_1}),
        ("cat-mouse", {"graph": SEED_GRAPH_2}),
        ("cat-mouse", {"graph": _graph(40, 1)}),
        ("cat-mouse", {"graph": _graph(120, 2)}),
        ("cat-mouse-grid", {"grid": json.dumps(GRID), "cat_jump": 2, "mouse_jump": 2}),
        ("cat-mouse-grid", {"grid": json.dumps(["M.#F", "..#.", "C..."])}),
        ("connect4", {"width": 3, "height": 3, "connect": 3}),
        ("connect4", {"width": 4, "height": 4}),
        ("connect4", {"width": 1, "height": 20}),
        ("connect4", {"width": 5, "height": 3, "connect": 3}),  # games end early: the loosest bound
    ],
)
def test_estimates_bound_the_solved_sizes(fresh_db, family, options):
    game = make_game(family, **options)
    positions, moves = game.estimate()[:2]
    report = fresh_db().solve(game, symmetry=False)  # the estimates bound every reachable position
    slack = 4 if options.get("connect") == 3 else 2
    assert report.positions <= positions <= slack * report.positions + 100
    assert report.moves <= moves <= slack * report.moves + 100


def test_cat_mouse_estimate_is_at_most_2_n_squared():
    for n in (3, 10, 50):
        graph = random_graph(random.Random(n), n, 0.2)
        positions = make_game("cat-mouse", graph=json.dumps(graph)).estimate().positions
        assert positions <= 2 * n * n
    # nodes neither animal can reach are not counted
    graph = [[1, 2], [0, 2], [0, 1], [4], [3]]
    assert make_game("cat-mouse", graph=json.dumps(graph)).estimate().positions == 2 * 3 * 2


def test_the_disk_check_counts_the_move_rows_a_strategy_writes(fresh_db, monkeypatch):
    """Connect-Four 5x5 by the tier solver writes no move rows: 171,976,894 positions at most (~31 GB with room to solve) fit
    40 GB; the in-memory strategy writes one per move (432,819,880 of them) and is refused there."""
    from gamedb.solvers.solve import check_size

    engine = fresh_db().engine
    game = make_game("connect4", width=5, height=5)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 0, 40 * 10**9))
    for strategy in ("auto", "tiers"):
        check_size(engine, game, "c", strategy=strategy, memory_limit=1 << 40)
    with pytest.raises(NotEnoughSpace, match=r"c needs up to 171,976,894 positions and 432,819,880 moves"):
        check_size(engine, game, "c", strategy="memory", memory_limit=1 << 40)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 0, 30 * 10**9))
    with pytest.raises(NotEnoughSpace, match=r"c needs up to 171,976,894 positions and 0 moves"):
        check_size(engine, game, "c", memory_limit=1 << 40)


def test_estimate_of_a_huge_game_is_cheap_and_refused(fresh_db):
    db = fresh_db()
    game = make_game("connect4", width=7, height=6)
    positions = game.estimate().positions
    assert positions > 10**12
    with pytest.raises(NotEnoughSpace, match=r"needs up to [\d,]+ positions .* PB on disk"):
        db.solve(game)
    assert db.games() == []


# --- the solve lock lives in the database file ----------------------------------------------------------------


def test_solve_leaves_only_the_database_file(cli, db_path):
    assert cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "--strategy", "sql", "-q").exit_code == 0
    assert cli("solve", "connect4", "--width", "3", "--height", "3", "--connect", "3", "-q").exit_code == 0
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]
    with open(db_path, "rb") as f:
        assert f.read(20)[18:20] == b"\x01\x01"  # rollback journal: one self-contained file


def test_solve_lock_refuses_the_same_game_only(fresh_db):
    db = fresh_db()
    with solve_lock(db.engine, "a"):
        with pytest.raises(SolveInProgress), solve_lock(db.engine, "a"):
            pass
        with pytest.raises(SolveInProgress, match="being solved by another process"):
            db.solve(make_game("tictactoe"), "a")
        assert others_solving(db.engine, "b") and not others_solving(db.engine, "a")
        with solve_lock(db.engine, "b"):
            pass
        assert db.solve(make_game("tictactoe"), "b").positions == 765  # one per class of 8 symmetries
    with solve_lock(db.engine, "a"):  # released
        pass
    assert not others_solving(db.engine, "b")
    assert [g.name for g in db.games()] == ["b"]


def test_refused_errors_are_gamedb_errors():
    assert issubclass(NotEnoughSpace, GamedbError) and NotEnoughSpace.exit_code == 1
    assert issubclass(TooLarge, GamedbError) and TooLarge.exit_code == 1


def test_the_tier_solver_says_its_memory_first_and_refuses_beyond_the_limit(cli, db_path, stored):
    """Connect-Four's tier bounds (the boards of k stones, lines ignored) give the tier solver's memory before it starts."""
    from gamedb.solvers.tier_memory import memory_estimate, tier_bytes

    game = make_game("connect4", width=4, height=4)
    need, largest, second = memory_estimate(game)
    bounds = sorted(game.estimate().tiers.values())
    assert (largest, second) == (bounds[-1], bounds[-2]) and need == tier_bytes(largest, second)
    # the bounds hold: no tier has more positions than its bound (Tromp's 161,029 in all)
    from gamedb.solvers.tier_store import TierFolder
    from gamedb.solvers.tiers import enumerate_tiers

    folder = TierFolder(db_path.parent / "tiers")
    folder.reset()
    counts, _ = enumerate_tiers(game, game.array_rules(), folder, memory_limit=1 << 32)
    folder.remove()
    assert sum(counts.values()) == 161_029 and all(n <= game.estimate().tiers[t] for t, n in counts.items())

    run = cli("solve", "connect4", "--width", "4", "--height", "4", "--memory-limit", "100M", "-q")
    assert run.exit_code == 1
    line = _one_error_line(run.stderr)
    assert "tier solver" in line and f"{largest:,}" in line and "--memory-limit is 105 MB" in line, line
    assert stored()  # nothing written
    run = cli("solve", "connect4", "--width", "4", "--height", "4", "--memory-limit", "2G")
    assert run.exit_code == 0, run.stderr
    assert "The tier solver needs up to ~" in run.stderr and f"up to {largest:,} and {second:,} positions" in run.stderr
    assert "memory limit 2.1 GB" in run.stderr


def test_a_cluster_solve_is_not_held_to_the_one_process_tier_memory(fresh_db, monkeypatch):
    # Connect-Four 5x6: the one-process tier solver needs ~143 GB (its two largest tiers at once); a cluster solve's memory
    # is its slices' (announced before it starts), so the one-process figure must not refuse it
    from gamedb.solvers.solve import check_size

    db = fresh_db()
    game = make_game("connect4", width=5, height=6)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**15, 0, 10**15))
    with pytest.raises(TooLarge, match="needs up to ~143 GB of memory in the tier solver"):
        check_size(db.engine, game, "c", strategy="tiers", memory_limit=16 << 30)
    check_size(db.engine, game, "c", strategy="tiers", memory_limit=16 << 30, cluster=True)
