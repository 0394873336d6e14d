"""Property tests (hypothesis) for every family's position parser (issue 6).

(a) *Refuse clearly or answer.* Arbitrary text either parses or raises the
    project's :class:`~gamedb.errors.InputError` subclass for that input --
    never another exception, which the command line would show as a
    traceback. (stone-ix may also answer
    :class:`~gamedb.errors.PositionNotFound`: a position with more stones
    than the game was solved for, exit 1.)
(b) *Round trip.* For positions reached by random playouts from the start
    (through the :class:`~gamedb.games.base.Game` protocol: ``starts``,
    ``moves``, ``primitive``), ``parse(format(state))`` is the same position:
    the same code and the same text.

Arbitrary text mixes unrestricted unicode with each family's own alphabet
and near-miss templates (``mouse=..,cat=..,turn=..`` with odd numbers), so
the interesting corners are reached with modest example counts. The
validators of game descriptions are checked the same way in
``test_validator_properties.py``; the shared inputs are in ``property_inputs.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedb.errors import InputError, PositionNotFound
from gamedb.games.heaps.flip import Flip
from gamedb.games.heaps.octal import parse_code
from gamedb.games.heaps.subtraction import parse_set

from property_inputs import (
    ALL_GAMES,
    CAT_MOUSE,
    CONNECT4,
    GRAPH_GAMES,
    GRIDS,
    HEAP_GAMES,
    NUMBERS,
    PLAYOUTS,
    SETTINGS,
    STONE_IX,
    TICTACTOE,
    assert_round_trip,
    playout,
    refuses_or_returns,
    texts,
)

# --- (b) round trips for every family, from random playouts ---------------------------------------------


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: repr(g)[:60])
@SETTINGS
@given(plan=PLAYOUTS)
def test_format_parse_round_trip(game, plan):
    for state in playout(game, plan):
        assert_round_trip(game, state)


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: repr(g)[:60])
@settings(max_examples=50, deadline=None, database=None)
@given(plan=PLAYOUTS, typed=st.text(max_size=12))
def test_parse_move_answers_a_legal_label_or_none(game, plan, typed):
    """What a user types at `play` maps to a legal move label or to None, never to an exception."""
    state = playout(game, plan)[-1]
    labels = [label for label, _ in game.moves(state)] if game.primitive(state) is None else []
    for text in (typed, *labels, *(label.upper() for label in labels)):
        label = refuses_or_returns(game.parse_move, state, text)
        assert label is None or label in labels


# --- (a) arbitrary text: parse or refuse, per family ------------------------------------------------------

CAT_MOUSE_TEXT = texts(
    "mousecatrn0123456789",
    st.builds("mouse={},cat={},turn={}".format, NUMBERS, NUMBERS, st.sampled_from(["mouse", "cat", "MOUSE", "dog", ""])),
)


@SETTINGS
@given(text=CAT_MOUSE_TEXT)
def test_cat_mouse_parse(text):
    state = refuses_or_returns(CAT_MOUSE.parse, text)
    if state is not None:
        assert 0 <= state.mouse < CAT_MOUSE.n and 0 < state.cat < CAT_MOUSE.n
        assert_round_trip(CAT_MOUSE, state)


TICTACTOE_TEXT = texts("XOxo._-", st.text(alphabet="XO.", min_size=9, max_size=9), st.text(alphabet="XO.xo-_ ", min_size=8, max_size=11))


def _reachable(game) -> set[int]:
    seen, todo = {game.encode(game.start())}, [game.start()]
    while todo:
        state = todo.pop()
        for _, child in game.moves(state):
            code = game.encode(child)
            if code not in seen:
                seen.add(code)
                todo.append(child)
    return seen


TICTACTOE_REACHABLE = _reachable(TICTACTOE)


@SETTINGS
@given(text=TICTACTOE_TEXT)
def test_tictactoe_parse_accepts_exactly_the_reachable_boards(text):
    """A board that parses can be reached by play; an impossible one is refused as malformed input."""
    board = refuses_or_returns(TICTACTOE.parse, text)
    if board is not None:
        assert TICTACTOE.encode(board) in TICTACTOE_REACHABLE, text
        assert_round_trip(TICTACTOE, board)


def test_tictactoe_every_reachable_board_parses():
    assert len(TICTACTOE_REACHABLE) == 5478
    for code in TICTACTOE_REACHABLE:
        assert_round_trip(TICTACTOE, TICTACTOE.decode(code))


CONNECT4_TEXT = texts(
    "0123456789",
    st.lists(NUMBERS, max_size=12).map(",".join),
    st.text(alphabet="12345678", max_size=30),
)


@pytest.mark.parametrize("game", CONNECT4, ids=lambda g: g.default_name())
@SETTINGS
@given(text=CONNECT4_TEXT)
def test_connect4_parse(game, text):
    state = refuses_or_returns(game.parse, text)
    if state is not None:
        assert_round_trip(game, state)


@pytest.mark.parametrize("game", CONNECT4[:4], ids=lambda g: g.default_name())
@SETTINGS
@given(plan=PLAYOUTS)
def test_connect4_any_move_order_reaches_the_board(game, plan):
    """The labels played, written as a position, parse to the board they built (in any order they were played)."""
    _, choices = plan
    state, labels = game.start(), []
    for choice in choices:
        moves = game.moves(state)
        if not moves:
            break
        label, state = moves[choice % len(moves)]
        labels.append(label)
    assert game.encode(game.parse(",".join(labels) or "-")) == game.encode(state)


GRAPH_FILE_TEXT = texts("pile=XO,turn0123456789", st.sampled_from([n for g in GRAPH_GAMES for n in g.names]).map(" {} ".format))


@pytest.mark.parametrize("game", GRAPH_GAMES, ids=lambda g: g.default_name())
@SETTINGS
@given(text=GRAPH_FILE_TEXT)
def test_graph_file_parse(game, text):
    index = refuses_or_returns(game.parse, text)
    if index is not None:
        assert game.format(index) == text.strip()


GRID_TEXT = texts(
    "mousecatrn()[]:0123456789",
    st.builds(
        "{}=r{}c{},{}=({}, {});turn={}".format,
        st.sampled_from(["mouse", "cat", "Mouse", "dog"]),
        NUMBERS,
        NUMBERS,
        st.sampled_from(["cat", "mouse", "CAT"]),
        NUMBERS,
        NUMBERS,
        st.sampled_from(["mouse", "cat", "", "both"]),
    ),
)


@pytest.mark.parametrize("game", GRIDS, ids=lambda g: "x".join(map(str, (g.rows, g.cols))))
@SETTINGS
@given(text=GRID_TEXT)
def test_cat_mouse_grid_parse(game, text):
    state = refuses_or_returns(game.parse, text)
    if state is not None:
        assert_round_trip(game, state)


HEAP_TEXT = texts("0123456789", st.lists(NUMBERS, max_size=6).map(" ".join), st.lists(NUMBERS, max_size=6).map(",".join))
FLIP_TEXT = texts("+-", st.text(alphabet="+-", max_size=40), st.text(alphabet="+- \t", max_size=40))


@pytest.mark.parametrize("game", HEAP_GAMES, ids=lambda g: g.default_name())
@SETTINGS
@given(data=st.data())
def test_heap_and_flip_parse(game, data):
    text = data.draw(FLIP_TEXT if isinstance(game, Flip) else HEAP_TEXT)
    state = refuses_or_returns(game.parse, text)
    if state is not None:
        assert_round_trip(game, state)
        assert all(n > 0 for n in game.heaps(state))


STONE_TEXT = texts(
    "c0123=sumturnalicebobover[]",
    st.builds(
        "c0={},c1={},c2={},sum={},turn={}{}".format,
        NUMBERS,
        NUMBERS,
        NUMBERS,
        NUMBERS,
        st.sampled_from(["alice", "bob", "Bob", "carol"]),
        st.sampled_from(["", ",over", ", over", ",done"]),
    ),
    st.lists(NUMBERS, max_size=8).map(",".join),
)


@SETTINGS
@given(text=STONE_TEXT)
def test_stone_ix_parse(text):
    state = refuses_or_returns(STONE_IX.parse, text, allowed=(InputError, PositionNotFound))
    if state is not None:
        assert all(0 <= c <= STONE_IX.max_count for c in state.counts)
        assert_round_trip(STONE_IX, state)


@SETTINGS
@given(stones=st.lists(st.integers(0, 10**40), min_size=1, max_size=12), brackets=st.booleans(), sep=st.sampled_from([",", ", ", " "]))
def test_stone_ix_stones_list(stones, brackets, sep):
    """A stones list is the start with those stones: counts by residue mod 3, Alice to move."""
    text = sep.join(map(str, stones))
    text = f"[{text}]" if brackets else text
    counts = tuple(sum(1 for v in stones if v % 3 == r) for r in range(3))
    if max(counts) > STONE_IX.max_count:
        with pytest.raises(PositionNotFound, match="solved with max=3 "):
            STONE_IX.parse(text)
        return
    state = STONE_IX.parse(text)
    assert (state.counts, state.removed, state.turn, state.over) == (counts, 0, 0, False)
    assert_round_trip(STONE_IX, state)


# --- numbers longer than int() converts (4300 digits) -----------------------------------------------------

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "parse, text, allowed",
    [
        pytest.param(
            CAT_MOUSE.parse,
            f"mouse={HUGE},cat=2,turn=mouse",
            InputError,
            id="cat-mouse",
        ),
        pytest.param(CONNECT4[0].parse, f"1,{HUGE}", InputError, id="connect4"),
        pytest.param(GRIDS[0].parse, f"mouse=r{HUGE}c0,cat=r0c2,turn=mouse", InputError, id="cat-mouse-grid"),
        pytest.param(HEAP_GAMES[0].parse, HUGE, InputError, id="nim"),
        pytest.param(HEAP_GAMES[0].parse, f"3 {HUGE} 4", InputError, id="nim-sum"),
        pytest.param(STONE_IX.parse, f"c0={HUGE},c1=0,c2=0,sum=1,turn=bob", (InputError, PositionNotFound), id="stone-ix-count"),
        pytest.param(STONE_IX.parse, f"c0=1,c1=0,c2=0,sum={HUGE},turn=bob", InputError, id="stone-ix-sum"),
        pytest.param(parse_set, f"1,{HUGE}", InputError, id="subtraction-set"),
        pytest.param(parse_code, f"0.{HUGE}", InputError, id="octal-code"),
    ],
)
def test_huge_numbers(parse, text, allowed):
    assert refuses_or_returns(parse, text, allowed=allowed) is None


def test_stone_ix_huge_stone_values_are_read_by_residue():
    """Stone values only matter mod 3, so a stone of 5000 digits is fine (its residue is its digit sum's)."""
    assert STONE_IX.parse(f"{HUGE},1").counts == (1, 1, 0)
    assert STONE_IX.parse("1" * 5000).counts == (0, 0, 1)  # 5000 ones: 5000 = 2 (mod 3)
