"""The array rules of Connect-Four and tic-tac-toe agree with the families' per-position rules.

Every position of small boards (found by the per-position rules, breadth
first) and random positions of larger boards: same player, primitive value,
moves (children in the same order, same labels), tier and text.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamedb.games import make_game
from gamedb.games.vector import RESULT_CODES, UNDECIDED


def reachable(game, limit: int | None = None) -> list[int]:
    """Codes of every position reachable from the start (per-position rules), breadth first."""
    seen = {game.encode(game.start())}
    order = list(seen)
    i = 0
    while i < len(order) and (limit is None or len(order) < limit):
        for _label, child in game.moves(game.decode(order[i])):
            code = game.encode(child)
            if code not in seen:
                seen.add(code)
                order.append(code)
        i += 1
    return order


def random_positions(game, count: int, seed: int) -> list[int]:
    """Codes reached by random play from the start (every stage of the game)."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        state = game.start()
        for _ in range(rng.randrange(60)):
            moves = game.moves(state)
            if not moves:
                break
            state = rng.choice(moves)[1]
        found.append(game.encode(state))
    return found


def check_conformance(game, codes: list[int]) -> None:
    rules = game.array_rules()
    array = np.array(codes, dtype=np.int64)
    exp = rules.expand(array)
    tiers = rules.tiers(array)
    offsets = np.concatenate(([0], np.cumsum(exp.degree)))
    children = exp.children
    parents = np.repeat(array, exp.degree)
    labels = rules.labels(parents, children)
    texts = rules.texts(array) if not rules.path_texts else None
    for i, code in enumerate(codes):
        state = game.decode(code)
        prim = game.primitive(state)
        want_moves = [(label, game.encode(child)) for label, child in game.moves(state)]
        a, b = offsets[i], offsets[i + 1]
        got_moves = list(zip(labels[a:b], children[a:b].tolist(), strict=True))
        assert exp.player[i] == game.to_move(state), code
        assert exp.primitive[i] == (RESULT_CODES[prim] if prim else UNDECIDED), code
        assert got_moves == want_moves, code
        assert tiers[i] == game.tier(state), code
        assert all(game.tier(game.decode(child)) >= tiers[i] for _, child in want_moves)
        if texts is not None:
            assert texts[i] == game.format(state), code


@pytest.mark.parametrize(
    "options", [dict(width=3, height=3, connect=3), dict(width=4, height=3), dict(width=3, height=4, connect=3), dict(width=2, height=2, connect=2)]
)
def test_connect4_every_position_of_small_boards(options):
    game = make_game("connect4", **options)
    check_conformance(game, reachable(game))


@pytest.mark.parametrize("options", [dict(width=5, height=5), dict(width=7, height=6), dict(width=10, height=4, connect=3), dict(width=4, height=4)])
def test_connect4_random_positions(options):
    game = make_game("connect4", **options)
    check_conformance(game, random_positions(game, 400, seed=len(str(options))))


def test_connect4_path_texts_format_the_smallest_sequence():
    game = make_game("connect4", width=10, height=3, connect=3)
    rules = game.array_rules()
    paths = np.array([[9, 0, 1], [0, 9, 9]], dtype=np.uint8)
    assert rules.format_paths(paths) == ["10,1,2", "1,10,10"]
    small = make_game("connect4", width=4, height=4).array_rules()
    assert small.format_paths(np.array([[1, 0, 3]], dtype=np.uint8)) == ["214"]
    assert small.format_paths(np.zeros((2, 0), dtype=np.uint8)) == ["-", "-"]


def test_tictactoe_every_position():
    game = make_game("tictactoe")
    codes = reachable(game)
    assert len(codes) == 5478  # the published count of legal tic-tac-toe positions reachable in play
    check_conformance(game, codes)


@pytest.mark.parametrize("options", [dict(width=4, height=5), dict(width=7, height=6), dict(width=10, height=4)])
def test_connect4_texts_of_the_empty_board_alone(options):
    """The writer asks the texts of a tier at a time: the start's tier is the empty board alone, whose move sequence
    has no move (`gamedb solve connect4 --width 4 --height 5` stopped there with an IndexError)."""
    game = make_game("connect4", **options)
    rules = game.array_rules()
    start = game.encode(game.start())
    children = [game.encode(child) for _, child in game.moves(game.start())]
    assert rules.texts(np.array([start])) == [game.format(game.start())] == ["-"]
    assert rules.texts(np.array([start, start, *children])) == ["-", "-", *(game.format(game.decode(c)) for c in children)]
    assert rules.texts(np.array([], dtype=np.int64)) == []
