"""The tier solver writes the other engines' position rows, row for row.

Compared with the in-memory engine (and on the smallest games the SQL
engine) on Connect-Four boards, tic-tac-toe and stone-ix (array rules and
per-position rules), on both backends; a game whose single tier has cycles
(cat and mouse) goes through the level-by-level path; that path and the
one-pass one agree on every Connect-Four tier.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from gamedb import Database, make_game
from gamedb.errors import InputError
from gamedb.games.base import Capabilities
from gamedb.games.connect4 import Connect4
from gamedb.games.two_tokens.cat_mouse import CatMouse
from gamedb.solvers import tier_values
from gamedb.solvers.tier_store import TierFolder
from gamedb.solvers.tiers import enumerate_tiers, solve_tier

from conftest import SEED_GRAPH_1
from oracles.cat_mouse import random_graph
from tables import game_rows

CASES = [
    ("connect4-4x4", "connect4", {"width": 4, "height": 4}),
    ("connect4-3x4-k3", "connect4", {"width": 3, "height": 4, "connect": 3}),
    ("connect4-5x3", "connect4", {"width": 5, "height": 3}),
    ("tictactoe", "tictactoe", {}),
    ("stone-ix", "stone-ix", {"max": 4}),
]
#: the two largest boards (some 10^5 positions, 25-45 s each) run on one backend each, to keep CI short:
#: both go through the same tier code, which the smaller cases run on both backends
ONE_BACKEND = {"connect4-4x4": "sqlite", "connect4-5x3": "postgresql"}


def _index_definitions(db) -> list[tuple[str, str]]:
    """The position table's indexes as the database has them (SQLite: sqlite_master; PostgreSQL: pg_indexes)."""
    with db.engine.connect() as conn:
        if conn.dialect.name == "duckdb":
            query = "SELECT index_name, sql FROM duckdb_indexes() WHERE table_name = 'position' ORDER BY 1"
        elif conn.dialect.name == "postgresql":
            query = "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'position' ORDER BY 1"
        else:
            query = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'position' ORDER BY 1"
        return [tuple(row) for row in conn.exec_driver_sql(query)]


def positions(db, name):
    return game_rows(db, name)["position"]


@pytest.mark.parametrize("case_id,fam,options", CASES, ids=[c[0] for c in CASES])
def test_tiers_write_the_memory_engines_positions(backend_db, case_id, fam, options):
    if ONE_BACKEND.get(case_id, backend_db.backend) != backend_db.backend:
        pytest.skip(f"{case_id} runs on {ONE_BACKEND[case_id]} only (ONE_BACKEND)")
    memory_db, tier_db = backend_db(), backend_db()
    game = make_game(fam, **options)
    memory_db.solve(game, case_id, strategy="memory")
    report = tier_db.solve(game, case_id, strategy="tiers", symmetry=False)
    assert report.strategy == "tiers"
    # a large load (5x3 on PostgreSQL: 50,000 positions or more) drops the secondary indexes and builds them again
    # as they were (on PostgreSQL from the server's own definitions: the remoteness index is partial there)
    assert _index_definitions(tier_db) == _index_definitions(memory_db)
    assert positions(tier_db, case_id) == positions(memory_db, case_id)
    assert tier_db.game(case_id).moves == memory_db.game(case_id).moves
    assert game_rows(tier_db, case_id)["move"] == []  # moves follow from the rules
    assert tier_db.verify(case_id).positions == memory_db.game(case_id).positions
    if game.symmetries > 1:  # with symmetry: exactly the rows of the canonical positions
        tier_db.solve(game, "sym", strategy="tiers")
        canonical = [row for row in positions(memory_db, case_id) if game.canonical(row[0]) == row[0]]
        assert positions(tier_db, "sym") == canonical and tier_db.verify("sym").positions == len(canonical)


def test_db_index_builds_the_indexes_the_schema_revisions_made(backend_db):
    """`gamedb db index` (Database.build_indexes) after the position table's indexes are gone gives them back
    exactly as the migrations (a server) or the new file's statements (SQLite) made them: partial where they were."""
    db = backend_db()
    db.solve(make_game("nim", max=5))
    if backend_db.backend == "duckdb":  # a DuckDB file's position table has no index until `db index`
        assert sorted(db.missing_indexes()) == ["ix_position_remoteness", "ix_position_text"]
        db.build_indexes()
    made = _index_definitions(db)
    assert any("remoteness IS NOT NULL" in definition for _, definition in made) == (backend_db.backend != "duckdb")  # no partial ones
    with db.engine.begin() as conn:
        for name, _ in made:
            if name.startswith("ix_"):
                conn.exec_driver_sql(f"DROP INDEX {name}")
    assert sorted(db.missing_indexes()) == ["ix_position_remoteness", "ix_position_text"]
    db.build_indexes()
    assert _index_definitions(db) == made


@pytest.mark.parametrize("fam,options", [("connect4", {"width": 3, "height": 3, "connect": 3}), ("tictactoe", {})])
def test_tiers_write_the_sql_engines_positions(fresh_db, fam, options):
    sql_db, tier_db = fresh_db(), fresh_db()
    game = make_game(fam, **options)
    sql_db.solve(game, "g", strategy="sql")
    tier_db.solve(game, "g", strategy="tiers", symmetry=False)
    assert positions(tier_db, "g") == positions(sql_db, "g")


def test_auto_picks_tiers_for_a_family_that_declares_them(fresh_db):
    db = fresh_db()
    assert db.solve(make_game("connect4", width=4, height=3), strategy="auto").strategy == "tiers"
    assert db.solve(make_game("cat-mouse", graph=json.dumps(SEED_GRAPH_1)), strategy="auto").strategy == "retrograde"


class OneTierCatMouse(CatMouse):
    """Cat and mouse with every position in tier 0: one tier full of cycles, per-position rules."""

    family = "cat-mouse"
    capabilities = Capabilities(tiers=True)

    def tier(self, state) -> int:
        return 0

    def vector(self):
        return None


@pytest.mark.parametrize("seed", range(6))
def test_a_tier_with_cycles_is_solved_level_by_level(fresh_db, seed):
    import random

    rng = random.Random(seed)
    graph = SEED_GRAPH_1 if seed == 0 else random_graph(rng, rng.randint(4, 25), rng.choice([0.0, 0.1, 0.3]))
    memory_db, tier_db = fresh_db(), fresh_db()
    memory_db.solve(CatMouse(graph=json.dumps(graph)), "g", strategy="memory")
    tier_db.solve(OneTierCatMouse(graph=json.dumps(graph)), "g", strategy="tiers")
    assert positions(tier_db, "g") == positions(memory_db, "g")


def test_leveled_and_one_pass_agree_on_every_connect4_tier(tmp_path):
    game = Connect4(width=4, height=4)
    rules = game.array_rules()
    folder = TierFolder(tmp_path / "tiers")
    folder.reset()
    counts, _ = enumerate_tiers(game, rules, folder, memory_limit=1 << 32)
    for t in sorted(counts, reverse=True):
        values, degree, _player, _best = solve_tier(rules, folder, t, counts)
        folder.save("result", t, values.result)
        folder.save("remoteness", t, values.remoteness)
        codes = folder.load("codes", t, mmap=False)
        exp = rules.expand(codes)
        if t < max(counts):
            nxt = folder.load("codes", t + 1, mmap=False)
            at = np.searchsorted(nxt, exp.children)
            outer_res, outer_rem = folder.load("result", t + 1)[at], folder.load("remoteness", t + 1)[at]
        else:
            outer_res, outer_rem = np.zeros(0, np.int8), np.zeros(0, np.int32)
        child = len(codes) + np.arange(len(exp.children))
        slow = tier_values.leveled(exp.primitive, exp.degree, child, np.asarray(outer_res), np.asarray(outer_rem))
        assert np.array_equal(slow.result, values.result), t
        assert np.array_equal(slow.remoteness, values.remoteness), t
        assert np.array_equal(slow.best, values.best), t


def test_published_connect4_counts_of_small_boards(tmp_path, monkeypatch):
    """Tromp's counts of positions (John's Connect Four Playground): 4x4 161,029; 5x4 is the benchmark's. Without texts
    only the canonical positions are expanded (their classes counted by the rules): the same codes as every position's."""
    game = Connect4(width=4, height=4)
    folder = TierFolder(tmp_path / "t")
    folder.reset()
    counts, reachable = enumerate_tiers(game, game.array_rules(), folder, memory_limit=1 << 32)
    assert sum(counts.values()) == reachable == 161_029
    assert sorted(counts) == list(range(17))
    folder.reset()
    counts, reachable = enumerate_tiers(game, game.array_rules(), folder, memory_limit=1 << 32, canon=game.array_rules().canonical)
    assert (sum(counts.values()), reachable) == (80_541, 161_029)  # the mirror pairs, and the boards that are their own mirror
    every = {t: folder.load("codes", t, mmap=False) for t in counts}
    monkeypatch.setattr("gamedb.solvers.tiers.keeps_paths", lambda game, rules: False)  # as for a game stored without texts
    folder.reset()
    by_class, reachable = enumerate_tiers(game, game.array_rules(), folder, memory_limit=1 << 32, canon=game.array_rules().canonical)
    assert (by_class, reachable) == (counts, 161_029)
    assert all(np.array_equal(folder.load("codes", t, mmap=False), every[t]) for t in counts)


def test_tiers_refuse_a_family_without_tiers_and_a_memory_limit_too_small(fresh_db):
    db = fresh_db()
    with pytest.raises(InputError, match="declares no tiers"):
        db.solve(make_game("cat-mouse", graph=json.dumps(SEED_GRAPH_1)), strategy="tiers")
    from gamedb.solvers.tiers import TooLarge

    with pytest.raises(TooLarge, match="needs up to .* in the tier solver"):  # before the solve, from the family's bounds
        db.solve(make_game("connect4", width=4, height=4), strategy="tiers", memory_limit=1 << 20)
    with pytest.raises(TooLarge, match="more than the memory limit"):  # no bounds: as the first tier is found
        db.solve(make_game("tictactoe"), strategy="tiers", memory_limit=1 << 20)


def test_a_tier_solve_refused_while_enumerating_leaves_the_file_as_it_was(cli, db_path):
    """No bounds on tic-tac-toe's tiers: the limit is found too small at the first tier, before any write.
    A new game leaves no row and no work folder (in a file the command made: no file); with --force the stored game stays."""
    assert make_game("tictactoe").estimate() is None
    run = cli("solve", "tictactoe", "--strategy", "tiers", "--memory-limit", "1M", "-q")
    assert run.exit_code == 1 and "more than the memory limit" in run.stderr and "--memory-limit" in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not db_path.exists()
    assert cli("solve", "connect4", "--width", "3", "--height", "3", "--connect", "3", "-q").exit_code == 0  # a file with another game
    run = cli("solve", "tictactoe", "--strategy", "tiers", "--memory-limit", "1M", "-q")
    assert run.exit_code == 1 and "more than the memory limit" in run.stderr, run.stderr
    listed = cli("list")
    assert listed.exit_code == 0 and "tictactoe" not in listed.stdout and "connect4" in listed.stdout, listed.stdout
    assert not list(db_path.parent.glob(db_path.name + ".tiers-*"))
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    before = cli("query", "tictactoe", "--json").stdout
    run = cli("solve", "tictactoe", "--strategy", "tiers", "--memory-limit", "1M", "--force", "-q")
    assert run.exit_code == 1 and "more than the memory limit" in run.stderr, run.stderr
    assert cli("query", "tictactoe", "--json").stdout == before
    assert not list(db_path.parent.glob(db_path.name + ".tiers-*"))


def test_cli_solves_with_tiers_and_queries_every_move(cli):
    run = cli("solve", "connect4", "--width", "4", "--height", "4", "--strategy", "tiers", "--quiet")
    assert run.exit_code == 0, run.stderr
    assert "80,541 positions (one per symmetry class of 161,029 reachable)" in run.stdout and "tie in 16" in run.stdout
    answer = json.loads(cli("query", "connect4-4x4", "12", "--json").stdout)
    assert [m["move"] for m in answer["moves"]] and len(answer["moves"]) == answer["degree"] == 4
    assert cli("verify", "connect4-4x4").exit_code == 0
    bad = cli("solve", "cat-mouse", "--graph", "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]", "--strategy", "tiers")
    assert bad.exit_code == 2 and "declares no tiers" in bad.stderr


def test_the_plugin_examples_tiers_and_array_rules(fresh_db):
    """The take-away example (examples/plugin) declares tiers that moves skip over, and array rules."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "plugin"))
    try:
        from gamedb_takeaway import TakeAway
    finally:
        sys.path.pop(0)
    from test_tier_arrays import check_conformance, reachable

    game = TakeAway(matches=30, max_take=4)
    check_conformance(game, reachable(game))
    memory_db, tier_db = fresh_db(), fresh_db()
    memory_db.solve(game, "tk", strategy="memory")
    assert tier_db.solve(game, "tk", strategy="auto").strategy == "tiers"
    assert positions(tier_db, "tk") == positions(memory_db, "tk")


def test_the_tier_writer_hands_best_moves_as_label_ids_where_the_rules_have_a_label_table(tmp_path, monkeypatch):
    """Connect-Four's rules keep a table of their labels: the writer's batches carry the best moves as ids into it (a
    LabelColumn, which DuckDB reads without a Python string a row; a row store gets the strings), and the rows are the
    memory engine's."""
    from gamedb.solvers import tier_store
    from gamedb.store.sink import LabelColumn

    kinds = set()
    real = tier_store.range_columns

    def spied(*args, **kwargs):
        columns = real(*args, **kwargs)
        kinds.add(type(columns["best_move"]))
        return columns

    monkeypatch.setattr(tier_store, "range_columns", spied)
    game = make_game("connect4", width=4, height=3)
    with Database(tmp_path / "t.duckdb", create=True) as tier_db, Database(tmp_path / "m.sqlite", create=True) as memory_db:
        tier_db.solve(game, "c", strategy="tiers", symmetry=False)
        memory_db.solve(game, "c", strategy="memory")
        assert kinds == {LabelColumn}
        assert positions(tier_db, "c") == positions(memory_db, "c")


def test_two_duckdb_files_solving_the_same_game_have_work_folders_of_their_own(tmp_path):
    """The work folder of a tier solve into an existing DuckDB file lies beside that file: a DuckDB engine's URL is
    ``duckdb://`` whatever its file, so two files solving the same game at once shared one temporary folder and each
    removed the other's arrays (FileNotFoundError: codes-6.npy). Both solves then hold the same rows."""
    pytest.importorskip("duckdb")
    folders = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.duckdb"
        with Database(path, create=True) as db:
            db.solve(make_game("nim", max=3))  # (the file exists now: the next solve goes through the database's engine)
            folders.append(TierFolder.for_game(db.engine, "tictactoe", "key").path)
            db.solve(make_game("tictactoe"), strategy="tiers")
    assert folders[0] != folders[1] and [f.parent for f in folders] == [tmp_path, tmp_path]
    assert [f.name.split(".tiers-")[0] for f in folders] == ["a.duckdb", "b.duckdb"]
