"""Property tests (hypothesis) for every position parser and every validator (issue 6).

Two properties, for every family's position text and for the validators of
game descriptions (cat-mouse graphs, game files, grids, octal codes,
subtraction sets):

(a) *Refuse clearly or answer.* Arbitrary text, and arbitrary JSON-like
    values, either parse (validate) or raise the project's
    :class:`~gamedb.errors.InputError` subclass for that input -- never
    another exception, which the command line would show as a traceback.
    (stone-ix may also answer :class:`~gamedb.errors.PositionNotFound`: a
    position with more stones than the game was solved for, exit 1.)
(b) *Round trip.* For positions reached by random playouts from the start
    (through the :class:`~gamedb.games.base.Game` protocol: ``starts``,
    ``moves``, ``primitive``), ``parse(format(state))`` is the same position:
    the same code and the same text. Valid inputs accepted by a validator
    are also rebuilt into games (random graphs, grids and game files) and
    played the same way.

Arbitrary text mixes unrestricted unicode with each family's own alphabet
and near-miss templates (``mouse=..,cat=..,turn=..`` with odd numbers), so
the interesting corners are reached with modest example counts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gamedb.errors import GraphError, InputError, PositionNotFound
from gamedb.games.two_tokens.cat_mouse import CatMouse, validate_graph
from gamedb.games.two_tokens.cat_mouse_grid import CatMouseGrid, validate_grid
from gamedb.games.connect4 import Connect4
from gamedb.games.heaps.flip import Flip
from gamedb.games.graph_file import GraphFileError, GraphGame, validate_game
from gamedb.games.heaps.grundy_game import GrundyGame
from gamedb.games.heaps import HeapGame
from gamedb.games.heaps.nim import Nim
from gamedb.games.heaps.octal import Octal, parse_code
from gamedb.games.stone_ix import StoneIX
from gamedb.games.heaps.subtraction import Subtraction, parse_set
from gamedb.games.tictactoe import TicTacToe

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
        with pytest.raises(PositionNotFound, match="--max 3"):
            STONE_IX.parse(text)
        return
    state = STONE_IX.parse(text)
    assert (state.counts, state.removed, state.turn, state.over) == (counts, 0, 0, False)
    assert_round_trip(STONE_IX, state)


# --- (a) validators of game descriptions ---------------------------------------------------------------


@st.composite
def cat_mouse_graphs(draw):
    """A valid LeetCode 913 graph: a path 1-2-...-(n-1), the hole joined to some node, and random extra edges."""
    n = draw(st.integers(3, 7))
    edges = {(i, i + 1) for i in range(1, n - 1)} | {(0, draw(st.integers(1, n - 1)))}
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges |= draw(st.sets(st.sampled_from(pairs), max_size=8))
    graph = [[] for _ in range(n)]
    for a, b in sorted(edges):
        graph[a].append(b)
        graph[b].append(a)
    order = draw(st.randoms(use_true_random=False))
    for neighbours in graph:
        order.shuffle(neighbours)
    return graph


NEAR_GRAPHS = st.one_of(
    JSONISH,
    st.lists(st.lists(st.integers(-1, 7), max_size=4), max_size=8),
    cat_mouse_graphs().map(lambda g: g[:-1]),  # a node dropped: edges to it dangle
    st.tuples(cat_mouse_graphs(), st.integers(0, 6), JSONISH).map(lambda t: t[0][: t[1]] + [t[2]] + t[0][t[1] + 1 :]),
)


@SETTINGS
@given(value=NEAR_GRAPHS)
def test_validate_graph(value):
    graph = refuses_or_returns(validate_graph, value, allowed=(GraphError,))
    if graph is not None:
        assert validate_graph(graph) == graph
        CatMouse(graph)
    if isinstance(value, (list, dict)):  # the --graph option as typed (other JSON text would be read as a file name)
        refuses_or_returns(CatMouse, json.dumps(value))


@SETTINGS
@given(graph=cat_mouse_graphs(), plan=PLAYOUTS)
def test_cat_mouse_random_graphs_round_trip(graph, plan):
    game = CatMouse(graph)
    for state in playout(game, plan):
        assert_round_trip(game, state)


@st.composite
def grids(draw):
    """A valid grid with one M, C and F, walls and floor elsewhere, and random jump lengths."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    assume(rows * cols >= 3)
    cells = draw(st.lists(st.sampled_from("#.."), min_size=rows * cols, max_size=rows * cols))
    where = draw(st.permutations(range(rows * cols)))[:3]
    for char, cell in zip("MCF", where):
        cells[cell] = char
    return ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)], draw(st.integers(1, 3)), draw(st.integers(1, 3))


NEAR_GRIDS = st.one_of(
    JSONISH,
    st.lists(st.text(alphabet="#.CMFX", max_size=5), max_size=5),
    grids().map(lambda g: g[0] + ["M"]),
    grids().map(lambda g: [row[:-1] if i == 0 else row for i, row in enumerate(g[0])]),
    st.text(alphabet="#.CMF", max_size=12),
)


@SETTINGS
@given(value=NEAR_GRIDS)
def test_validate_grid(value):
    grid = refuses_or_returns(validate_grid, value, allowed=(GraphError,))
    if grid is not None:
        assert validate_grid(grid) == grid
        CatMouseGrid(grid)
    if isinstance(value, (list, dict)):
        refuses_or_returns(CatMouseGrid, json.dumps(value))


@SETTINGS
@given(spec=grids(), plan=PLAYOUTS, typed=st.text(alphabet="updownleftrightsay 0123456789", max_size=10))
def test_cat_mouse_grid_random_grids_round_trip(spec, plan, typed):
    grid, cat_jump, mouse_jump = spec
    game = CatMouseGrid(grid, cat_jump=cat_jump, mouse_jump=mouse_jump)
    positions = playout(game, plan)
    for state in positions:
        assert_round_trip(game, state)
    labels = [label for label, _ in game.moves(positions[-1])]
    assert refuses_or_returns(game.parse_move, positions[-1], typed) in (None, *labels)


NAMES = st.text(min_size=1, max_size=6).filter(lambda s: s == s.strip() and all(ord(c) >= 32 and ord(c) != 127 for c in s))


@st.composite
def game_files(draw):
    """A valid game file: names, players, and for every position an end value or moves to known positions."""
    names = draw(st.lists(NAMES, min_size=1, max_size=6, unique=True))
    players = draw(st.one_of(st.none(), st.lists(NAMES, min_size=2, max_size=2, unique=True)))
    who = players or ["first", "second"]
    positions = {}
    for name in names:
        player = draw(st.sampled_from(who))
        if draw(st.booleans()):
            positions[name] = {"player": player, "value": draw(st.sampled_from(["win", "lose", "tie"]))}
            continue
        targets = draw(st.lists(st.sampled_from(names), min_size=1, max_size=4))
        labelled = draw(st.booleans())
        positions[name] = {
            "player": player,
            "moves": [{"to": t, "label": f"m{i}"} for i, t in enumerate(targets)] if labelled else sorted(set(targets)),
        }
    data = {"start": draw(st.sampled_from(names)), "positions": positions}
    if players is not None:
        data["players"] = players
    return data


@st.composite
def broken_game_files(draw):
    """A valid game file with one thing changed to an arbitrary JSON value, or a key removed or added."""
    data = draw(game_files())
    name = draw(st.sampled_from(sorted(data["positions"])))
    entry = data["positions"][name]
    junk = draw(JSONISH)
    change = draw(st.sampled_from(["start", "players", "positions", "player", "value", "moves", "move", "drop", "extra"]))
    if change in ("start", "players", "positions"):
        data[change] = junk
    elif change in ("player", "value", "moves"):
        entry[change] = junk
    elif change == "move" and entry.get("moves"):
        entry["moves"][draw(st.integers(0, len(entry["moves"]) - 1))] = junk
    elif change == "drop":
        key = draw(st.sampled_from(["start", "positions", "players"]))
        data.pop(key, None)
    else:
        (entry if draw(st.booleans()) else data)[draw(st.text(max_size=6))] = junk
    return data


@SETTINGS
@given(value=st.one_of(JSONISH, broken_game_files()))
def test_validate_game(value):
    canonical = refuses_or_returns(validate_game, value, allowed=(GraphFileError,))
    if canonical is not None:
        assert validate_game(canonical) == canonical
        GraphGame(canonical)
    if isinstance(value, (list, dict)):
        refuses_or_returns(GraphGame, json.dumps(value))


@SETTINGS
@given(data=game_files(), plan=PLAYOUTS)
def test_graph_file_random_games_round_trip(data, plan):
    canonical = validate_game(data)
    assert validate_game(canonical) == canonical
    game = GraphGame(json.dumps(data))
    assert GraphGame.from_parameters(game.parameters()).names == game.names
    for state in playout(game, plan):
        assert_round_trip(game, state)
    for name in game.names:  # every position, reachable or not
        assert game.format(game.parse(name)) == name


OCTAL_TEXT = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="0123456789. ", max_size=12),
    st.builds("{}.{}".format, st.sampled_from(["", "0", "4", "00", "04", "2", "44", "\u0664"]), st.text(alphabet="012345678", max_size=8)),
)


@SETTINGS
@given(text=OCTAL_TEXT)
def test_octal_parse_code(text):
    parsed = refuses_or_returns(parse_code, text)
    if parsed is not None:
        code, digits = parsed
        assert parse_code(code) == parsed, "the normal form parses to itself"
        assert digits[0] in (0, 4) and all(0 <= d <= 7 for d in digits)
        assert code == f"{digits[0]}." + ("".join(map(str, digits[1:])) or "0")
        refuses_or_returns(Octal, code, 8)  # the rules it names build a game (or are refused as input)


SET_TEXT = st.one_of(
    st.text(max_size=15),
    st.text(alphabet="0123456789, -", max_size=15),
    st.lists(NUMBERS, max_size=5).map(",".join),
    st.lists(st.one_of(st.integers(-2, 20), st.text(max_size=3)), max_size=4),
)


@SETTINGS
@given(value=SET_TEXT)
def test_subtraction_parse_set(value):
    takes = refuses_or_returns(parse_set, value)
    if takes is not None:
        assert takes == sorted(set(takes)) and takes and all(t >= 1 for t in takes)
        assert parse_set(",".join(map(str, takes))) == takes
        assert parse_set(" ".join(map(str, takes))) == takes
        assert Subtraction(value, 5).takes == takes


@SETTINGS
@given(takes=st.lists(st.integers(1, 50), min_size=1, max_size=6), gap=st.integers(0, 6))
def test_subtraction_parse_set_refuses_an_empty_entry(takes, gap):
    """`1,,2` or a trailing comma is a number gone missing: refused, not read as `1,2`."""
    items = [str(t) for t in takes]
    items.insert(gap % (len(items) + 1), "")
    with pytest.raises(InputError, match="empty"):
        parse_set(",".join(items))


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
