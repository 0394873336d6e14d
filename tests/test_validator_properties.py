"""Property tests (hypothesis) for every validator of a game description (issue 6).

The validators of cat-mouse graphs, game files, grids, octal codes and
subtraction sets either accept a value or refuse it with the project's
:class:`~gamedb.errors.InputError` subclass for it -- never another
exception. Valid descriptions are rebuilt into games (random graphs, grids
and game files) and played from random playouts, with
``parse(format(state))`` the same position. The position parsers are
checked in ``test_parser_properties.py``; shared inputs are in
``property_inputs.py``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gamedb.errors import GraphError, InputError
from gamedb.games.graph_file import GraphFileError, GraphGame, validate_game
from gamedb.games.heaps.octal import Octal, parse_code
from gamedb.games.heaps.subtraction import Subtraction, parse_set
from gamedb.games.two_tokens.cat_mouse import CatMouse, validate_graph
from gamedb.games.two_tokens.cat_mouse_grid import CatMouseGrid, validate_grid

from property_inputs import (
    JSONISH,
    NUMBERS,
    PLAYOUTS,
    SETTINGS,
    assert_round_trip,
    playout,
    refuses_or_returns,
)

# --- validators of game descriptions ---------------------------------------------------------------


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
    for char, cell in zip("MCF", where, strict=True):
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
