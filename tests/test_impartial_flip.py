"""The flip game (seed 003): run values against the mex recurrence, whole strings against a plain search."""

import itertools

import pytest

from gamedb import make_game
from gamedb.query import probe
from gamedb.store.rows import reader_of

from oracles.impartial import flip_run_values, flip_string_moves, flip_string_wins


@pytest.fixture(scope="module")
def flip_db(tmp_path_factory):
    from gamedb import Database

    db = Database(tmp_path_factory.mktemp("flip") / "flip.sqlite", create=True)
    db.solve(make_game("flip", max=2000))
    yield db
    db.close()


def test_single_runs_match_the_mex_recurrence(flip_db):
    expected = flip_run_values(2000)
    rows = list(flip_db.positions("flip"))
    assert [row["code"] for row in rows] == list(range(2001))
    assert [row["grundy"] for row in rows] == expected
    assert [row["text"] for row in rows[:4]] == ["-", "+", "++", "+++"]
    for row in rows:
        assert row["result"] == ("win" if row["grundy"] else "lose")
        assert row["degree"] == max(row["code"] - 1, 0)


def test_every_string_up_to_length_14_matches_a_plain_search(flip_db):
    record, game = flip_db.rules("flip")
    with flip_db.engine.connect() as conn:
        for length in range(1, 15):
            for chars in itertools.product("+-", repeat=length):
                s = "".join(chars)
                answer = probe(reader_of(conn), record, game, s)
                assert answer.result == ("win" if flip_string_wins(s) else "lose"), s


@pytest.mark.parametrize("s", ["++--+++", "++++", "+-+-++++-+++++", "----", "+++++++++", "++-++-++"])
def test_moves_are_the_flips_with_their_values(flip_db, s):
    answer = flip_db.probe("flip", s)
    expected = flip_string_moves(s)
    assert {m.move: m.position for m in answer.moves} == expected
    assert answer.degree == len(expected)
    for m in answer.moves:
        assert m.result == ("win" if flip_string_wins(m.position) else "lose")
    assert answer.result == ("win" if flip_string_wins(s) else "lose")
    if answer.result == "win":
        assert not flip_string_wins(expected[answer.best_move])
        assert answer.moves[0].move == answer.best_move


def test_seed_example_and_grundy_is_the_xor_of_the_runs(flip_db):
    g = flip_run_values(20)
    answer = flip_db.probe("flip", "+++----+-++----++++")  # runs 3, 1, 2, 4
    assert answer.grundy == g[3] ^ g[1] ^ g[2] ^ g[4]
    assert answer.player == "next"  # an impartial position: the player to move, whoever that is
    assert answer.outcome == ("N-position" if answer.grundy else "P-position")
    assert answer.to_dict(impartial=True)["grundy"] == answer.grundy


def test_long_runs_use_the_proven_period(flip_db):
    info = flip_db.stats("flip")["periodicity"]
    assert (info["proven"], info["period"], info["last_exceptional"]) == (True, 34, 52)
    values = flip_run_values(400)
    answer = flip_db.probe("flip", "+" * 3000 + "-" + "+" * 5)
    assert answer.grundy == values[53 + (3000 - 53) % 34] ^ values[5]
    assert len(answer.moves) == 2999 + 4
