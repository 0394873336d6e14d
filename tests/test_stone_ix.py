"""Stone game IX (LeetCode 2029, seed 004): stored winners against the seed's closed form."""

import itertools

import pytest

from gamedb import make_game
from gamedb.errors import PositionError, PositionNotFound

from oracles.impartial import stone_ix_alice_wins, stone_ix_leetcode


@pytest.fixture(scope="module")
def stone_db(tmp_path_factory):
    from gamedb import Database

    db = Database(tmp_path_factory.mktemp("stones") / "stones.sqlite", create=True)
    db.solve(make_game("stone-ix", max=20))
    yield db
    db.close()


def test_every_start_with_at_most_20_of_each_residue_matches_the_closed_form(stone_db):
    winners = {}
    for row in stone_db.positions("stone-ix"):
        if row["text"].endswith("sum=0,turn=alice"):
            winner = {"win": "Alice", "lose": "Bob"}[row["result"]]
            winners[row["text"]] = winner
    assert len(winners) == 21**3
    for c0, c1, c2 in itertools.product(range(21), repeat=3):
        expected = "Alice" if stone_ix_alice_wins(c0, c1, c2) else "Bob"
        assert winners[f"c0={c0},c1={c1},c2={c2},sum=0,turn=alice"] == expected, (c0, c1, c2)


@pytest.mark.parametrize("stones, alice", [([2, 1], True), ([2], False), ([5, 1, 2, 4, 3], False)])
def test_leetcode_examples(stone_db, stones, alice):
    assert stone_ix_leetcode(stones) is alice
    answer = stone_db.probe("stone-ix", ",".join(map(str, stones)))
    assert answer.winner == ("Alice" if alice else "Bob")
    assert answer.player == "Alice"


def test_full_state_text_and_moves(stone_db):
    answer = stone_db.probe("stone-ix", "c0=0,c1=1,c2=1,sum=0,turn=alice")
    assert answer.position == "c0=0,c1=1,c2=1,sum=0,turn=alice"
    assert (answer.result, answer.winner, answer.remoteness) == ("win", "Alice", 2)
    assert {m.move: m.position for m in answer.moves} == {
        "1": "c0=0,c1=0,c2=1,sum=1,turn=bob",
        "2": "c0=0,c1=1,c2=0,sum=2,turn=bob",
    }
    # taking a 0 first makes the removed sum 0: Alice has lost at once
    zero_first = stone_db.probe("stone-ix", "c0=1,c1=0,c2=0,sum=0,turn=alice")
    assert zero_first.moves[0].position == "c0=0,c1=0,c2=0,sum=0,turn=bob,over"
    over = stone_db.probe("stone-ix", "c0=0,c1=0,c2=0,sum=0,turn=bob,over")
    assert (over.result, over.winner, over.degree) == ("win", "Bob", 0)
    # all stones gone without a multiple of 3: Bob wins even on Alice's turn
    empty = stone_db.probe("stone-ix", "c0=0,c1=0,c2=0,sum=1,turn=alice")
    assert (empty.result, empty.winner) == ("lose", "Bob")


def test_bad_and_unsolved_positions(stone_db):
    with pytest.raises(PositionError):
        stone_db.probe("stone-ix", "c0=1,c1=1,c2=1,sum=3,turn=bob")
    with pytest.raises(PositionError):
        stone_db.probe("stone-ix", "c0=1,c1=1,c2=1,sum=0,turn=bob")
    with pytest.raises(PositionError):
        stone_db.probe("stone-ix", "five stones")
    with pytest.raises(PositionNotFound, match="solved with max=20 "):
        stone_db.probe("stone-ix", ",".join(["1"] * 21))


def test_verify(stone_db):
    assert stone_db.verify("stone-ix").positions == stone_db.game("stone-ix").positions
