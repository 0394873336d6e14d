"""Dōbutsu shōgi solved by the retrograde strategy on reduced variants, one row per class of positions under the
game's four symmetries and without them, every stored value against the independent oracle (tests/oracles/dobutsu.py),
and a query of a position that is not its class's representative."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app
from gamedb.games.dobutsu import Dobutsu

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


def test_query_of_a_position_that_is_not_its_class_representative(tmp_path):
    runner = CliRunner()
    where = str(tmp_path / "d.sqlite")
    assert runner.invoke(app, ["solve", "dobutsu", "--pieces", "G", "--strategy", "retrograde", "-q"], env={"GAMEDB": where}).exit_code == 0
    game = Dobutsu("G")
    want = oracle.solve(game.format(game.start()))
    for text in [t for t in want if game.canonical(game.parse(t)) != game.parse(t)][:3] + [game.format(game.start())]:
        result = runner.invoke(app, ["query", "dobutsu-G", text, "--json"], env={"GAMEDB": where})
        assert result.exit_code == 0, result.output
        print(result.output)
