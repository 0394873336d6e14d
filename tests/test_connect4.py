"""Connect-Four: every stored value against an independent oracle, text forms, limits."""

from __future__ import annotations

import random

import pytest

from gamedb import make_game
from gamedb.errors import InputError, PositionError

from oracles.connect4 import Connect4Oracle


def _check_against_oracle(db, name: str, width: int, height: int, connect: int) -> int:
    """Every stored position's text replays legally to a reachable board whose values match."""
    oracle = Connect4Oracle(width, height, connect)
    value = oracle.solver()
    reachable = oracle.reachable()
    seen = set()
    for row in db.positions(name):
        board = oracle.replay(row["text"])
        assert board in reachable, row["text"]
        assert board not in seen, f"{row['text']}: a second row for the same board"
        seen.add(board)
        result, remoteness, best = value(board)
        expected = {
            "player": 0 if oracle.mover(board) == "X" else 1,
            "result": result,
            "remoteness": remoteness,
            "degree": len(oracle.children(board)),
            "best_move": None if best is None else str(best),
        }
        assert {k: row[k] for k in expected} == expected, row["text"]
    assert seen == reachable
    return len(seen)


@pytest.fixture(scope="module")
def solved_4x4(tmp_path_factory):
    from gamedb import Database

    db = Database(tmp_path_factory.mktemp("c4") / "c4.sqlite", create=True)
    report = db.solve(make_game("connect4"), strategy="sql")  # the set-based SQL engine
    yield db, report
    db.close()


def test_4x4_counts_and_start(solved_4x4):
    db, report = solved_4x4
    assert report.name == "connect4-4x4"
    assert report.positions == 161_029
    answer = db.probe("connect4-4x4")
    assert (answer.position, answer.player, answer.result, answer.remoteness) == ("-", "X", "tie", 16)
    assert [(m.move, m.result, m.remoteness) for m in answer.moves] == [(str(c), "tie", 15) for c in range(1, 5)]
    assert answer.best_move == "1"


def test_4x4_every_position_matches_oracle(solved_4x4):
    db, _ = solved_4x4
    assert _check_against_oracle(db, "connect4-4x4", 4, 4, 4) == 161_029


@pytest.mark.parametrize("engine", ["sql", "memory"])
@pytest.mark.parametrize(
    "width,height,connect",
    [(1, 1, 1), (2, 1, 2), (2, 2, 2), (3, 3, 3), (4, 3, 3), (3, 4, 3), (5, 2, 3), (2, 5, 2), (4, 3, 4)],
)
def test_small_boards_match_oracle(fresh_db, width, height, connect, engine):
    db = fresh_db()
    game = make_game("connect4", width=width, height=height, connect=connect)
    report = db.solve(game, strategy=engine)
    assert _check_against_oracle(db, report.name, width, height, connect) == report.positions
    assert db.verify(report.name).positions == report.positions


@pytest.mark.parametrize("width,height,connect", [(3, 3, 3), (3, 4, 3), (4, 2, 2)])
def test_text_is_the_smallest_legal_sequence(width, height, connect):
    game = make_game("connect4", width=width, height=height, connect=connect)
    oracle = Connect4Oracle(width, height, connect)
    for board, seq in oracle.first_sequences().items():
        state = game.parse("".join(map(str, seq)))
        expected = "".join(map(str, seq)) or "-"
        assert game.format(state) == expected
        assert oracle.replay(expected) == board


def test_transpositions_are_one_position():
    game = make_game("connect4")
    a, b = game.parse("2413"), game.parse("1324")
    assert a == b and game.encode(a) == game.encode(b)
    assert game.format(a) == "1324"
    assert game.parse("-") == game.parse("") == game.parse("  ") == game.start()
    assert game.format(game.start()) == "-"
    assert game.parse("1 3, 2,4") == a


def test_describe_draws_rows_top_to_bottom():
    game = make_game("connect4")
    assert game.describe(game.parse("12213")) == "\n".join(
        [". . . .", ". . . .", "O X . .", "X O X .", "1 2 3 4"]
    )


def test_win_ends_the_game():
    game = make_game("connect4")
    state = game.parse("1213141")  # X fills column 1
    assert game.primitive(state) == "lose"
    assert game.moves(state) == []
    assert game.player_name(game.to_move(state)) == "O"
    assert game.format(state) == "1213141"
    # The smallest order of these stones, 113344244, would complete the bottom
    # row with its 7th move; the stored text is the smallest *legal* order.
    state = game.parse("114434432")
    assert game.format(state) == "114434432"
    assert game.format(game.parse("443443112")) == "114434432"
    with pytest.raises(PositionError, match="move 8 .*X made a line of 4 at move 7"):
        game.parse("113344244")


@pytest.mark.parametrize(
    "text,message",
    [
        ("11111", "move 5 (column 1): column 1 is full"),
        ("12131412", "move 8 (column 2): the game is over, X made a line of 4 at move 7"),
        ("1a", "move 2: 'a' is not a column number (1-4)"),
        ("15", "move 2: there is no column 5 (columns are 1-4)"),
        ("0", "move 1: there is no column 0 (columns are 1-4)"),
    ],
)
def test_bad_sequences_name_the_move(text, message):
    with pytest.raises(PositionError) as err:
        make_game("connect4").parse(text)
    assert str(err.value) == f"bad connect4 position {text!r}: {message}"


def test_full_board_ends_the_game():
    game = make_game("connect4", width=2, height=1, connect=2)
    assert game.primitive(game.parse("12")) == "tie"
    with pytest.raises(PositionError, match=r"move 3 \(column 1\): the game is over, the board is full"):
        game.parse("121")


def test_wide_boards_separate_moves_with_commas():
    game = make_game("connect4", width=12, height=1, connect=3)
    state = game.parse("12,3,10")
    assert game.format(state) == "10,3,12"
    assert game.parse("10 3 12") == state
    assert [label for label, _ in game.moves(state)][-3:] == ["8", "9", "11"]
    with pytest.raises(PositionError, match="there is no column 1012"):
        game.parse("1012")


@pytest.mark.parametrize(
    "options,message",
    [
        ({"width": 9, "height": 7}, "a 9x7 board is too large"),
        ({"width": 7, "height": 9}, "a 7x9 board is too large"),
        ({"width": 0}, "width= must be at least 1"),
        ({"height": "x"}, "height= must be a whole number"),
        ({"connect": 5}, "connect=5 cannot fit on a 4x4 board"),
    ],
)
def test_refused_options(options, message):
    with pytest.raises(InputError, match=message):
        make_game("connect4", **options)


def test_largest_boards_fit_in_63_bits():
    for width, height in [(7, 8), (9, 6), (21, 2), (31, 1), (1, 62)]:
        game = make_game("connect4", width=width, height=height, connect=min(4, max(width, height)))
        full = (game._full, game._full)  # every cell X: not reachable, but the largest code
        assert game.encode(full) == 2 ** (width * (height + 1)) - 1 < 2**63
        assert game.decode(game.encode(full)) == full


def test_defaults_and_parameters():
    game = make_game("connect4")
    assert game.parameters() == {"width": 4, "height": 4, "connect": 4}
    assert game.default_name() == "connect4-4x4"
    assert make_game("connect4", width=5, connect=3).default_name() == "connect4-5x4-k3"
    assert type(game).from_parameters(game.parameters()).parameters() == game.parameters()
    assert game.players == ("X", "O")


def test_random_playouts_on_a_full_size_board():
    """7x6 cannot be solved here, but its codecs must round-trip along any game."""
    game = make_game("connect4", width=7, height=6)
    oracle = Connect4Oracle(7, 6, 4)
    rng = random.Random(4)
    for _ in range(200):
        state, board = game.start(), oracle.empty()
        while True:
            code = game.encode(state)
            assert 0 <= code < 2**63
            assert game.decode(code) == state
            text = game.format(state)
            assert game.parse(text) == state
            assert oracle.replay(text) == board
            moves = game.moves(state)
            kids = oracle.children(board)
            assert [label for label, _ in moves] == [str(col) for col, _ in kids]
            assert (game.primitive(state) is None) == bool(kids)
            if not moves:
                break
            i = rng.randrange(len(moves))
            state, board = moves[i][1], kids[i][1]


def test_random_sequences_parse_as_the_oracle_replays():
    """Any digits: parsed exactly when the oracle can replay them (full columns, moves after a line), to its board."""
    game, oracle = make_game("connect4", width=4, height=3, connect=3), Connect4Oracle(4, 3, 3)
    rng = random.Random(7)
    refused = 0
    for _ in range(3000):
        text = "".join(rng.choice("12345") for _ in range(rng.randrange(1, 13)))
        try:
            board = oracle.replay(text)
        except ValueError:
            refused += 1
            with pytest.raises(PositionError):
                game.parse(text)
            continue
        assert oracle.replay(game.format(game.parse(text))) == board
    assert 300 < refused < 2900  # both kinds of text were tried
