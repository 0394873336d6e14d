"""Dōbutsu shōgi solved by the retrograde strategy on reduced variants, one row per class of positions under the
game's four symmetries and without them, every stored value against the independent oracle (tests/oracles/dobutsu.py),
and a query of a position that is not its class's representative."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app
from gamedb.games.dobutsu import Dobutsu
from gamedb.solvers import retrograde, retrograde_rules

from oracles import dobutsu as oracle


class Unreduced(Dobutsu):
    """The family with no symmetry declared: one row per position."""

    symmetries = 1


def test_canonical_is_the_least_of_the_class():
    game = Dobutsu()
    rules = game.vector()
    text = "l.e/g.G/.C./EL. c first"
    code = game.parse(text)
    images = {code, game.parse("e.l/G.g/.C./.LE c first"), game.parse(".le/.c./g.G/E.L C second"), game.parse("el./.c./G.g/L.E C second")}
    assert game.canonical(code) == min(images) and {game.canonical(c) for c in images} == {min(images)}
    assert rules.canonical(np.array(sorted(images), dtype=np.int64)).tolist() == [min(images)] * 4


@pytest.mark.parametrize("pieces", ["", "G", "C"])
@pytest.mark.parametrize("family", [Dobutsu, Unreduced])
def test_every_stored_value_is_the_oracles(fresh_db, pieces, family):
    db = fresh_db()
    game = family(pieces)
    db.solve(game, "g", strategy="retrograde")
    stored = {row["code"]: (row["text"], row["result"], row["remoteness"]) for row in db.positions("g")}
    want = oracle.solve(game.format(game.start()))
    classes = {game.canonical(game.parse(text)): text for text in want} if family is Dobutsu else {game.parse(text): text for text in want}
    assert set(stored) == set(classes)
    assert len(stored) < len(want) / 3 if family is Dobutsu else len(stored) == len(want)
    for code, (text, result, remoteness) in stored.items():
        assert text == game.format(code) and (result, remoteness) == want[text], text


def test_query_of_a_position_that_is_not_its_class_representative(tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)  # (GAMEDB, no variable gamedb reads, left every command on ./gamedb.sqlite: the cwd's file)
    where = str(tmp_path / "d.sqlite")
    assert runner.invoke(app, ["solve", "dobutsu", "--pieces", "C", "--strategy", "retrograde", "-q"], env={"GAMEDB_DB": where}).exit_code == 0
    game = Dobutsu("C")
    want = oracle.solve(game.format(game.start()))
    typed = [t for t in sorted(want) if game.canonical(game.parse(t)) != game.parse(t) and want[t][0] != "draw" and want[t][1]][:40:8]
    typed += [t for t in sorted(want) if t.endswith("second") and game.format(game.canonical(game.parse(t))).endswith("first") and want[t][1]][:3]
    assert len(typed) == 8
    for text in typed + [game.format(game.start())]:
        result = runner.invoke(app, ["query", "dobutsu-C", text, "--json"], env={"GAMEDB_DB": where})
        assert result.exit_code == 0, result.output
        answer = json.loads(result.output)
        assert answer["position"] == text and (answer["result"], answer["remoteness"]) == want[text]
        mover = text.split()[-1]
        assert answer["player"] == mover and answer["winner"] == (mover if want[text][0] == "win" else {"first": "second", "second": "first"}[mover])
        children = {label: game.format(child) for label, child in game.moves(game.parse(text))}
        assert {move["move"]: move["position"] for move in answer["moves"]} == children
        assert all((move["result"], move["remoteness"]) == want[move["position"]] for move in answer["moves"])
        best = next(move for move in answer["moves"] if move["move"] == answer["best_move"])
        assert best["remoteness"] == answer["remoteness"] - 1 and best["result"] != answer["result"]
        assert best["move"] == next(label for label in children if want[children[label]] == (best["result"], best["remoteness"]))
    assert [p.name for p in tmp_path.iterdir()] == ["d.sqlite"]  # nothing in the working directory's gamedb.sqlite


@pytest.mark.parametrize("index_bytes", [None, 1 << 40], ids=["reverse index", "re-expansion"])
def test_classes_without_unmoves(fresh_db, monkeypatch, index_bytes):
    monkeypatch.setattr(retrograde, "has_parents", lambda rules: False)
    if index_bytes:
        monkeypatch.setattr(retrograde_rules.ReverseIndex, "BYTES_PER_MOVE", index_bytes)
    game = Dobutsu("E")
    db = fresh_db()
    db.solve(game, "g", strategy="retrograde")
    want = oracle.solve(game.format(game.start()))
    stored = {row["text"]: (row["result"], row["remoteness"]) for row in db.positions("g")}
    assert stored == {game.format(game.canonical(game.parse(text))): value for text, value in want.items()}


def test_size_checks_count_one_row_per_class(fresh_db, monkeypatch):
    """The disk check and the retrograde memory hook share capabilities.stored_estimate: Dōbutsu's 246,803,167 classes
    (no move rows on disk), cat-mouse's positions and moves as the family bounds them (no symmetry)."""
    import shutil
    from collections import namedtuple

    from gamedb import make_game
    from gamedb.solvers import capabilities
    from gamedb.solvers.solve import NotEnoughSpace, check_size

    full = Dobutsu()
    stored = capabilities.stored_estimate(full)
    assert (stored.positions, stored.moves, stored.classes) == (246_803_167, 938_671_869, (246_803_167, 938_671_869))
    every = capabilities.stored_estimate(Unreduced())  # no symmetry declared: every position, its classes not counted
    assert (every.positions, every.classes) == (987_146_084, None)
    need = retrograde.memory_need(full, "dobutsu")
    assert need is not None and "needs up to 246,803,167 positions" in need[1]
    monkeypatch.setattr(shutil, "disk_usage", lambda path: namedtuple("Usage", "total used free")(10**15, 0, 1))
    with pytest.raises(NotEnoughSpace, match=r"dobutsu needs up to 246,803,167 positions and 0 moves"):
        check_size(fresh_db().engine, full, "dobutsu", memory_limit=1 << 50)
    plain = make_game("cat-mouse", graph=[[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    assert capabilities.stored_estimate(plain) == plain.estimate() and plain.estimate().classes is None
