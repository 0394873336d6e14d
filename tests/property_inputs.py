"""Inputs for the property tests (hypothesis) of every parser and validator (issue 6).

The games under test, built once; strategies for arbitrary and near-miss
text and JSON-like values; and the two checks the property tests make:
:func:`refuses_or_returns` (refuse clearly or answer) and
:func:`assert_round_trip` (``parse(format(state))`` is the same position),
on positions from random playouts (:func:`playout`). The tests are in
``test_parser_properties.py`` and ``test_validator_properties.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from gamedb.errors import InputError
from gamedb.games.connect4 import Connect4
from gamedb.games.graph_file import GraphGame
from gamedb.games.heaps import HeapGame
from gamedb.games.heaps.flip import Flip
from gamedb.games.heaps.grundy_game import GrundyGame
from gamedb.games.heaps.nim import Nim
from gamedb.games.heaps.octal import Octal
from gamedb.games.heaps.subtraction import Subtraction
from gamedb.games.stone_ix import StoneIX
from gamedb.games.tictactoe import TicTacToe
from gamedb.games.two_tokens.cat_mouse import CatMouse
from gamedb.games.two_tokens.cat_mouse_grid import CatMouseGrid

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "graphs"
SEED_GRAPH = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]

SETTINGS = settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


# --- the games under test (built once) ------------------------------------------------------

CAT_MOUSE = CatMouse(SEED_GRAPH)
TICTACTOE = TicTacToe()
CONNECT4 = [Connect4(4, 4, 4), Connect4(3, 3, 3), Connect4(7, 6, 4), Connect4(10, 5, 4), Connect4(2, 1, 1)]
GRAPH_GAMES = [GraphGame(str(path)) for path in sorted(EXAMPLES.glob("*.json"))]
GRIDS = [
    CatMouseGrid(["M.C", "..F"]),
    CatMouseGrid(["####F", "#C...", "M...."], cat_jump=1, mouse_jump=2),
    CatMouseGrid(["M.C...F"], cat_jump=2, mouse_jump=5),
]
HEAP_GAMES = [
    Nim(10),
    Octal("0.77", 12),
    Octal("4.07", 12),
    Octal("0.137", 12),
    GrundyGame(12),
    Subtraction("1,2,5", 12),
    Flip(20),
]
STONE_IX = StoneIX(3)

ALL_GAMES = [CAT_MOUSE, TICTACTOE, *CONNECT4, *GRAPH_GAMES, *GRIDS, *HEAP_GAMES, STONE_IX]

# --- strategies ------------------------------------------------------------------------------------------

#: numbers as people (and typos) write them; none too long for int() (huge numbers: test_huge_numbers)
NUMBERS = st.one_of(
    st.integers(0, 30).map(str),
    st.integers(-5, -1).map(str),
    st.integers(0, 10**30).map(str),
    st.sampled_from(["", "00", "007", "-0", "+1", "1.5", "1e3", " 2 ", "\u0661", "\u0663", "\uff11", "x", "NaN"]),
)

#: JSON-like values: what json.loads can return, nested a little
JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)


def texts(alphabet: str, *templates) -> st.SearchStrategy[str]:
    """Arbitrary text, text over the family's own characters, JSON text, and the given near-miss templates."""
    return st.one_of(
        st.text(max_size=30),
        st.text(alphabet=alphabet + " ,;=-\t", max_size=30),
        JSONISH.map(json.dumps),
        *templates,
    )


def refuses_or_returns(fn, *args, allowed=(InputError,)):
    """``fn(*args)``, or None if it raised one of ``allowed``; any other exception fails the test."""
    try:
        return fn(*args)
    except allowed as exc:
        assert str(exc).strip(), "an error without a message"
        assert "\n" not in str(exc), f"a message on more than one line: {exc}"
        return None


#: choices for a random playout: a start, then a move index at every step
PLAYOUTS = st.tuples(st.integers(0, 10**6), st.lists(st.integers(0, 10**6), max_size=60))


def playout(game, plan) -> list:
    """The positions of one random game from a start, until it ends or the plan runs out."""
    start_choice, choices = plan
    starts = list(game.starts())
    state = starts[start_choice % len(starts)]
    seen = [state]
    for choice in choices:
        moves = game.moves(state) if game.primitive(state) is None else []
        if not moves:
            break
        state = moves[choice % len(moves)][1]
        seen.append(state)
    return seen


def assert_round_trip(game, state) -> None:
    text = game.format(state)
    again = game.parse(text)
    assert game.format(again) == text, (text, game.format(again))
    if isinstance(game, HeapGame) and not game.is_component(state):
        # a sum of components has no code; its text and components survive instead
        assert game.heaps(again) == game.heaps(state)
        return
    assert game.encode(again) == game.encode(state), text
    assert game.decode(game.encode(state)) == again or game.encode(game.decode(game.encode(state))) == game.encode(state)

