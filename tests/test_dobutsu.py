"""Dōbutsu shōgi: the rules move by move on hand-made positions, the array rules (forward, backward, the
mirror and the rotation) against the per-position rules, every stored value of the reduced variants against
the independent oracle (tests/oracles/dobutsu.py), and the command line."""

from __future__ import annotations

import random

import numpy as np
import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app
from gamedb.errors import InputError, PositionError
from gamedb.games import make_game
from gamedb.games.vector import RESULT_NAMES

from oracles import dobutsu as oracle

GAME = make_game("dobutsu")


def moves(text: str) -> dict[str, str]:
    """label -> child text of every move from ``text``, checked against the array rules on the way."""
    code = GAME.parse(text)
    found = {label: GAME.format(child) for label, child in GAME.moves(code)}
    exp = GAME.vector().expand(np.array([code], dtype=np.int64))
    assert [GAME.format(c) for c in exp.children.tolist()] == list(found.values())
    assert RESULT_NAMES[int(exp.primitive[0])] == GAME.primitive(code)
    return found


def test_start():
    assert GAME.format(GAME.start()) == "gle/.c./.C./ELG - first"
    assert sorted(moves("gle/.c./.C./ELG - first")) == ["b3b2", "b4a3", "b4c3", "c4c3"]
    assert moves("gle/.c./.C./ELG - first")["b3b2"] == "gle/.C./.../ELG C second"  # the captured chick in hand


def test_drops_anywhere_and_a_chick_dropped_on_the_far_rank_stays_a_chick():
    found = moves("l../.../.../..L GGEECC first")
    drops = [label for label in found if "*" in label]
    assert len(drops) == 3 * 10 and {label[0] for label in drops} == {"G", "E", "C"}
    assert found["C*b1"] == "lC./.../.../..L GGEEC second"
    assert found["G*b2"] == "l../.G./.../..L GEECC second"
    assert "C*a1" not in found and "C*c4" not in found  # occupied squares
    assert not [label for label in moves("lC./.../.../..L GGEEC first") if label.startswith("b1")]  # the chick on b1 has no step


def test_a_chick_promotes_on_the_far_rank_and_a_captured_hen_goes_back_as_a_chick():
    assert moves("l../..C/.../..L GGEEc first")["c2c1"] == "l.H/.../.../..L GGEEc second"
    found = moves("l../.h./.G./..L GEEC first")
    assert found["b3b2"] == "l../.G./.../..L GEECC second"
    assert moves(".../L../.cl/... GGEEC second")["b3b4"] == ".../L../..l/.h. GGEEC first"  # the second player's chick


def test_the_try():
    found = moves("..l/L../.../... GGEECC first")
    succeeded, failed = found["a2a1"], found["a2b1"]
    assert GAME.primitive(GAME.parse(succeeded)) == "lose"  # the second player cannot take the lion on a1
    assert GAME.primitive(GAME.parse(failed)) == "win"  # the lion on b1 is taken
    assert GAME.primitive(GAME.parse("L.l/.../.../... GGEECC first")) == "win"  # the lion survived the reply
    assert moves(failed) == {} and moves(succeeded) == {}


def test_capturing_the_lion_wins():
    position = "gle/.C./.../ELG C second"
    assert GAME.primitive(GAME.parse(position)) is None
    after = moves(position)["b1b2"]  # the second lion takes the chick ...
    assert after == "g.e/.l./.../ELG Cc first"
    assert GAME.primitive(GAME.parse("g.e/.l./..L/E.G Cc second")) == "win"  # ... a lion next to the other, its player to move
    assert moves("g.e/.l./..L/E.G Cc second") == {}


@pytest.mark.parametrize(
    "text,phrase",
    [
        ("gle/.c./.C./ELG first", "expected rows"),
        ("gle/.c./.C./EL - first", "expected rows"),
        ("gle/.c./.C./ELG - third", "expected rows"),
        ("gle/.c./.C./ELX - first", "expected rows"),
        ("g.e/.c./.C./ELG - first", "one lion each"),
        ("gLe/.c./.C./ELG - first", "one lion each"),
        ("gle/.c./.C./ELG C first", "2 pieces of kind C"),
        ("gle/.../.../ELG - first", "2 pieces of kind C"),
        ("gle/.c./.C./ELG Q first", "expected rows"),
    ],
)
def test_bad_positions(text, phrase):
    with pytest.raises(PositionError, match=phrase):
        GAME.parse(text)


def test_bad_options():
    with pytest.raises(InputError, match="pieces="):
        make_game("dobutsu", pieces="GX")
    assert make_game("dobutsu", pieces="cg").parameters() == {"pieces": "GC"}


def playout_codes(game, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    found = set()
    for _ in range(count):
        code = game.start()
        for _ply in range(60):
            found.add(code)
            options = game.moves(code)
            if not options:
                break
            code = rng.choice(options)[1]
    return sorted(found)


def test_parents_are_the_moves_backwards():
    rules = GAME.vector()
    codes = np.array(playout_codes(GAME, 150, 3), dtype=np.int64)
    exp = rules.expand(codes)
    children = np.unique(exp.children)
    which, parents = rules.parents(children)
    pairs = list(zip(children[which].tolist(), parents.tolist(), strict=True))
    assert len(set(pairs)) == len(pairs)  # each (child, parent) once
    assert set(zip(exp.children.tolist(), np.repeat(codes, exp.degree).tolist(), strict=True)) <= set(pairs)
    for child, parent in random.Random(5).sample(pairs, 3000):
        assert child in [c for _, c in GAME.moves(parent)], (GAME.format(parent), GAME.format(child))


def test_primitive_values_alone_are_the_expansions():
    """VectorRules.primitive (what the retrograde solver's counters use for every move's child) agrees with expand, on
    positions played out and on the children of theirs whose mover wins or loses at once."""
    rules = GAME.vector()
    codes = np.array(playout_codes(GAME, 150, 8), dtype=np.int64)
    codes = np.unique(np.concatenate([codes, rules.expand(codes).children]))
    exp = rules.expand(codes)
    assert (rules.primitive(codes) == exp.primitive).all()
    assert len(set(exp.primitive.tolist())) == 3  # (undecided, won and lost at once: all met)


def test_mirror_and_rotation_are_symmetries():
    rules = GAME.vector()
    codes = np.array(playout_codes(GAME, 100, 4), dtype=np.int64)
    exp = rules.expand(codes)
    for image in (rules.mirror, rules.rotate):
        assert (image(image(codes)) == codes).all()
        other = rules.expand(image(codes))
        assert (other.primitive == exp.primitive).all() and (other.degree == exp.degree).all()
        assert sorted(other.children.tolist()) == sorted(image(exp.children).tolist())
    assert GAME.format(int(rules.mirror(np.array([GAME.parse("l.e/g.G/.C./EL. c first")]))[0])) == "e.l/G.g/.C./.LE c first"
    assert GAME.format(int(rules.rotate(np.array([GAME.parse("l.e/g.G/.C./EL. c first")]))[0])) == ".le/.c./g.G/E.L C second"


@pytest.mark.parametrize("pieces", ["", "G", "E"])
def test_every_stored_value_is_the_oracles(fresh_db, pieces):
    db = fresh_db()
    game = make_game("dobutsu", pieces=pieces)
    db.solve(game, "g", strategy="memory")
    stored = {row["text"]: (row["result"], row["remoteness"]) for row in db.positions("g")}
    assert stored == oracle.solve(game.format(game.start()))


def test_the_oracle_reads_the_rules_as_the_family():
    for code in playout_codes(GAME, 60, 6):
        position = oracle.parse(GAME.format(code))
        assert oracle.text(position) == GAME.format(code)
        assert oracle.primitive(position) == GAME.primitive(code)
        assert sorted(oracle.text(c) for c in oracle.children(position)) == sorted(GAME.format(c) for _, c in GAME.moves(code))


def test_query_and_play_on_the_command_line(tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)  # (GAMEDB, no variable gamedb reads, left every command on ./gamedb.sqlite: the cwd's file)
    where = str(tmp_path / "d.sqlite")
    result = runner.invoke(app, ["solve", "dobutsu", "--pieces", "", "-q"], env={"GAMEDB_DB": where})
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["query", "dobutsu-lions", ".l./.../.../.L. - first"], env={"GAMEDB_DB": where})
    assert result.exit_code == 0 and "win in 5" in result.output and "b4a3" in result.output, result.output
    result = runner.invoke(app, ["query", "dobutsu-lions", ".l./.../.../.L. first"], env={"GAMEDB_DB": where})
    assert result.exit_code == 2 and "Error: bad dobutsu position" in result.output
    result = runner.invoke(app, ["play", "dobutsu-lions"], input="b4a3\nq\n", env={"GAMEDB_DB": where})
    assert "b4a3" in result.output, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["d.sqlite"]  # nothing in the working directory's gamedb.sqlite
