"""Symmetry: a game solved one canonical position per class answers every reachable position exactly as the game
solved without symmetry (value, remoteness, every move's value, best move), on every backend."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamedb import Database, make_game
from gamedb.errors import VerifyError

GAMEDB = str(Path(sys.executable).parent / "gamedb")


def gamedb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([GAMEDB, *args], capture_output=True, text=True, timeout=120)

#: (id, family, options): the families that declare symmetries, on boards small enough for every position
CASES = [
    ("tictactoe", "tictactoe", {}),
    ("connect4-4x4", "connect4", {"width": 4, "height": 4}),
    ("connect4-3x3-k3", "connect4", {"width": 3, "height": 3, "connect": 3}),
    ("connect4-5x2-k2", "connect4", {"width": 5, "height": 2, "connect": 2}),
]
#: the smaller cases, on the backends where a whole-game comparison costs more (PostgreSQL, DuckDB)
SMALL = [case for case in CASES if case[0] != "connect4-4x4"]


def _reachable(game) -> list[int]:
    """Every position reachable from the start, breadth first on the array rules (conformance-tested against the rules)."""
    rules = game.array_rules()
    seen = frontier = np.array([game.encode(game.start())], dtype=np.int64)
    while len(frontier):
        children = np.unique(rules.expand(frontier).children)
        frontier = children[~np.isin(children, seen)]
        seen = np.union1d(seen, frontier)
    return seen.tolist()


@pytest.mark.parametrize("fam,options", [(f, o) for _, f, o in CASES], ids=[i for i, _, _ in CASES])
def test_canonical_is_the_least_code_of_the_class_on_codes_and_on_arrays(fam, options):
    game = make_game(fam, **options)
    codes = _reachable(game)
    canonical = game.array_rules().canonical(np.array(codes, dtype=np.int64)).tolist()
    assert canonical == [game.canonical(code) for code in codes]
    assert all(c <= code for c, code in zip(canonical, codes, strict=True))
    assert {game.canonical(c) for c in canonical} == set(canonical) <= set(codes)  # a representative is its own, reachable
    one, other = (game.array_rules().expand(np.array(c, dtype=np.int64)) for c in (codes, canonical))
    for field in ("player", "primitive", "degree"):  # the class keeps the player to move, whether it is over, its moves
        assert np.array_equal(getattr(one, field), getattr(other, field)), field


def test_the_class_counts_are_the_published_ones(tmp_path):
    """Tic-tac-toe's counts as Wikipedia's "Tic-tac-toe" article (Combinatorics) gives them: 5,478 legal positions,
    765 up to rotation and reflection, 138 of those terminal."""
    game = make_game("tictactoe")
    codes = _reachable(game)
    assert (len(codes), len({game.canonical(c) for c in codes})) == (5478, 765)
    with Database(tmp_path / "t.sqlite", create=True) as db:
        db.solve(game)
        stats = db.stats("tictactoe")
    assert (stats["reachable"], stats["positions"], stats["primitive"]) == (5478, 765, 138)


def _both(make, fam, options):
    """The game solved with and without symmetry into one new database of the backend."""
    db = make()
    game = make_game(fam, **options)
    db.solve(game, "sym", symmetry=True)
    db.solve(game, "all", symmetry=False)
    return db, game


def _answers(db: Database, name: str, texts: list[str]) -> list[dict]:
    found = []
    for answer in db.probe_many(name, texts, batch=2000):
        data = answer.to_dict()
        data.pop("game")
        found.append(data)
    return found


def _assert_same_answers(db: Database, name: str = "sym", full: str = "all") -> int:
    """Every stored position of ``full`` (every reachable one) answers the same from ``name``."""
    texts = [row["text"] for row in db.positions(full)]
    a, b = _answers(db, name, texts), _answers(db, full, texts)
    for text, x, y in zip(texts, a, b, strict=True):
        assert x == y, text
    return len(texts)


@pytest.mark.parametrize("fam,options", [(f, o) for _, f, o in CASES], ids=[i for i, _, _ in CASES])
def test_every_position_answers_the_same_with_and_without_symmetry(tmp_path, fam, options):
    with Database(tmp_path / "g.sqlite", create=True) as db:
        game = make_game(fam, **options)
        db.solve(game, "sym", symmetry=True)
        db.solve(game, "all", symmetry=False)
        reachable = _reachable(game)
        stored = {row["code"] for row in db.positions("sym")}
        assert stored == {game.canonical(code) for code in reachable}
        assert _assert_same_answers(db) == len(reachable)
        sym, full = db.stats("sym"), db.stats("all")
        assert (sym["reachable"], sym["positions"], sym["symmetries"]) == (len(reachable), len(stored), game.symmetries)
        assert (full["reachable"], full["positions"], full["symmetries"]) == (len(reachable), len(reachable), 1)
        assert db.verify("sym").positions == len(stored)


@pytest.mark.parametrize("fam,options", [(f, o) for _, f, o in SMALL], ids=[i for i, _, _ in SMALL])
def test_every_backend_answers_the_same_with_and_without_symmetry(backend_db, fam, options):
    db, game = _both(backend_db, fam, options)
    assert _assert_same_answers(db) == len(_reachable(game))
    assert db.verify("sym").positions == db.stats("sym")["positions"]


def test_the_cli_solves_with_symmetry_by_default_and_without_on_request(tmp_path):
    db = tmp_path / "g.sqlite"
    assert gamedb("solve", "connect4", "--width", "4", "--height", "4", "-q", "--db", str(db)).returncode == 0
    assert gamedb("solve", "connect4", "--width", "4", "--height", "4", "--no-symmetry", "--name", "c4", "-q", "--db", str(db)).returncode == 0
    sym = json.loads(gamedb("stats", "connect4-4x4", "--json", "--db", str(db)).stdout)
    full = json.loads(gamedb("stats", "c4", "--json", "--db", str(db)).stdout)
    assert (sym["reachable"], sym["positions"], sym["symmetries"]) == (161029, 80541, 2)  # Tromp's 161,029
    assert (full["reachable"], full["positions"], full["symmetries"]) == (161029, 161029, 1)
    shown = gamedb("stats", "connect4-4x4", "--db", str(db)).stdout.splitlines()
    assert "reachable          161,029 (one position stored per class of 2 symmetries)" in shown
    labels = [line.split()[0] for line in shown]  # the counts by value are the stored classes': under positions, not reachable
    assert labels.index("positions") < labels.index("win") < labels.index("tie") < labels.index("reachable")
    assert sum(int(line.split()[1].replace(",", "")) for line in shown if line.split()[0] in ("win", "lose", "tie", "draw")) == 80541
    mirrored = [json.loads(gamedb("query", name, "4431", "--json", "--db", str(db)).stdout) for name in ("connect4-4x4", "c4")]
    assert mirrored[0] | {"game": ""} == mirrored[1] | {"game": ""}
    assert mirrored[0]["position"] == "3144"  # the user's board, written as its own smallest sequence (not the stored mirror's)
    assert gamedb("verify", "connect4-4x4", "-q", "--db", str(db)).stdout.startswith("OK: 80,541 positions")
    exported = gamedb("export", "connect4-4x4", "--format", "jsonl", "--db", str(db)).stdout.splitlines()
    assert len(exported) == 80541  # the stored (canonical) positions
    duck = tmp_path / "g.duckdb"
    assert gamedb("copy", str(db), str(duck), "connect4-4x4").returncode == 0  # the game row's symmetry goes along
    assert json.loads(gamedb("stats", "connect4-4x4", "--json", "--db", str(duck)).stdout)["reachable"] == 161029
    copied = json.loads(gamedb("query", "connect4-4x4", "4431", "--json", "--db", str(duck)).stdout)
    assert copied == mirrored[0]


def test_the_enumeration_progress_never_goes_back(tmp_path):
    """The tier solver's "enumerate tiers" count with symmetry on a game stored with texts (every position enumerated, the
    canonical ones kept) added the kept positions of the tiers before to the enumerated ones of this tier: a bar went
    back (tic-tac-toe: 1,856 then 1,680)."""
    seen: list[int] = []

    def progress(phase, done, total):
        if phase == "enumerate tiers":
            seen.append(done)

    with Database(tmp_path / "p.sqlite", create=True) as db:
        assert db.solve(make_game("tictactoe"), progress=progress).positions == 765
    assert seen == sorted(seen) and seen[-1] == 5478, seen


def test_bad_symmetry_options_are_refused_in_one_line(tmp_path):
    db = str(tmp_path / "g.sqlite")
    run = gamedb("solve", "nim", "--max", "5", "--symmetry", "--db", db)
    assert run.returncode == 2 and run.stderr.startswith("Error: --symmetry: the nim family declares no symmetries")
    run = gamedb("solve", "tictactoe", "--strategy", "memory", "--symmetry", "--db", db)
    assert run.returncode == 2 and run.stderr.startswith("Error: --symmetry: --strategy memory stores every position of this tictactoe game "
                                                    "(one per symmetry class: --strategy tiers); use --no-symmetry")
    assert gamedb("solve", "tictactoe", "--strategy", "memory", "-q", "--db", db).returncode == 0  # without symmetry, said nowhere
    assert json.loads(gamedb("stats", "tictactoe", "--json", "--db", db).stdout)["symmetries"] == 1
    # the retrograde strategy uses symmetries on vector rules only (Dōbutsu): tic-tac-toe's --symmetry was dropped unsaid
    run = gamedb("solve", "tictactoe", "--strategy", "retrograde", "--symmetry", "--name", "r", "--db", db)
    assert run.returncode == 2 and "--strategy retrograde stores every position of this tictactoe game" in run.stderr, run.stderr
    assert gamedb("solve", "tictactoe", "--strategy", "retrograde", "--name", "r", "-q", "--db", db).stdout.startswith("Solved r: 5,478 positions")


def test_verify_names_a_stored_position_that_is_not_canonical(tmp_path):
    import sqlite3

    path = tmp_path / "g.sqlite"
    with Database(path, create=True) as db:
        db.solve(make_game("tictactoe"), "t")
    game = make_game("tictactoe")
    code = game.encode(game.parse("X........"))
    assert game.canonical(code) == code
    other = game.encode(game.parse("..X......"))  # its mirror image: not canonical
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE position SET code = ?, text = '..X......' WHERE code = ?", (other, code))
    with Database(path) as db, pytest.raises(VerifyError, match="not the least code of its symmetry class"):
        db.verify("t")


@pytest.mark.parametrize("info", ['{"symmetry": {"group": "8"}}', '{"symmetry": 8}', '{"symmetry": {"group": 2}}'])
def test_a_damaged_symmetry_note_is_one_line(tmp_path, info):
    import sqlite3

    path = tmp_path / "g.sqlite"
    with Database(path, create=True) as db:
        db.solve(make_game("tictactoe"), "t")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE game SET info = ?", (info,))
    run = gamedb("query", "t", "X........", "--db", str(path))
    assert run.returncode == 1 and run.stderr.startswith("Error: game 't' is damaged in this file: ") and "symmetr" in run.stderr
