"""One conformance test for every game family: built-in and the example plugin.

Random playouts from the start check, at every position reached: the
encode/decode and format/parse round trips, unique move labels, primitive
positions have no moves and non-primitive ones do (``gamedb query`` relies on
it: it asks for the moves without asking first whether the game is over),
``move_codes`` gives the children's codes, every child is a legal
position of its own (it round-trips too), codes fit in a signed 64-bit
column, and the player to move is 0 or 1.
"""

import random
import sys
from pathlib import Path

import pytest

from gamedb.errors import PositionError
from gamedb.games import BUILTIN, family, family_names
from gamedb.games.heaps import HeapGame
from gamedb.games.two_tokens import code_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "plugin"))

#: small options for each family; a new family must add an entry here
SMALL = {
    "cat-mouse": {"graph": [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]},
    "tictactoe": {},
    "connect4": {"width": 4, "height": 4},
    "graph": {"file": str(Path(__file__).resolve().parents[1] / "examples" / "graphs" / "tug-of-war.json")},
    "cat-mouse-grid": {"grid": ["####F", "#C...", "M...."], "cat_jump": 1, "mouse_jump": 2},
    "flip": {"max": 12},
    "octal": {"code": "0.137", "max": 30},
    "grundy": {"max": 20},
    "nim": {"max": 7},
    "subtraction": {"set": "1,2,5", "max": 20},
    "stone-ix": {"max": 3},
    "gamedb_takeaway:TakeAway": {"matches": 12, "max_take": 3},
    "takeaway": {"matches": 12, "max_take": 3},  # the same plugin, when installed
}

FAMILIES = list(BUILTIN) + ["gamedb_takeaway:TakeAway"]


def test_every_family_has_conformance_options():
    missing = [name for name in family_names() if name not in SMALL]
    assert not missing, f"add small options for {missing} to SMALL"


def _has_code(game, state) -> bool:
    """Heap games store (and encode) single components only; a sum of them is answered by XOR."""
    return not isinstance(game, HeapGame) or game.is_component(state)


def _check_position(game, state):
    if not _has_code(game, state):
        text = game.format(state)
        assert game.format(game.parse(text)) == text
        with pytest.raises(PositionError):
            game.encode(state)
        assert game.to_move(state) in (0, 1)
        moves = game.moves(state)
        assert (game.primitive(state) is None) == bool(moves)
        labels = [label for label, _ in moves]
        assert len(labels) == len(set(labels)), f"duplicate move labels at {text!r}"
        return moves
    code = game.encode(state)
    assert isinstance(code, int) and 0 <= code < 2**63
    assert game.decode(code) == state or game.encode(game.decode(code)) == code
    text = game.format(state)
    assert isinstance(text, str)
    again = game.parse(text)
    assert game.encode(again) == code, (text, "format/parse round trip")
    assert game.format(again) == text
    assert game.to_move(state) in (0, 1)
    prim = game.primitive(state)
    moves = game.moves(state)
    if prim is not None:
        assert prim in ("win", "lose", "tie")
        assert moves == [], f"primitive position {text!r} has moves"
    else:
        assert moves, f"position {text!r} is not over but has no moves"
    labels = [label for label, _ in moves]
    assert len(labels) == len(set(labels)), f"duplicate move labels at {text!r}"
    assert all(isinstance(label, str) and label for label in labels)
    # moves come in a fixed order
    assert [label for label, _ in game.moves(state)] == labels
    # expand (what the engine uses) agrees with the protocol; heap games are
    # solved from their rules instead (their children are sums, without codes)
    if not isinstance(game, HeapGame):
        assert game.move_codes(state) == [(label, game.encode(child)) for label, child in moves]  # a family's own shortcut too
        player, etext, eprim, emoves = game.expand(code)
        assert (player, etext, eprim) == (game.to_move(state), text, prim)
        assert emoves == [(label, game.encode(child)) for label, child in moves]
    return moves


@pytest.mark.parametrize("name", FAMILIES)
def test_random_playouts(name):
    game = family(name).from_options(**SMALL[name])
    rng = random.Random(2024)
    assert game.players and len(game.players) == 2
    for _ in range(60):
        state = game.start()
        for _ply in range(200):
            moves = _check_position(game, state)
            if not moves:
                break
            for _label, child in moves:  # every child is a well-formed position too
                game.format(child)
                if _has_code(game, child):
                    assert game.encode(game.parse(game.format(child))) == game.encode(child)
                else:
                    assert game.format(game.parse(game.format(child))) == game.format(child)
            state = rng.choice(moves)[1]


def _token_children(tokens, code):
    """The moves a two-token game's stored move lists give for ``code`` (what the moves view and the SQL engine use)."""
    n = tokens.nodes
    turn, rest = code % 2, code // 2
    first, second = divmod(rest, n)
    node = first if turn == 0 else second
    rows = sorted((o, t, label) for p, a, o, t, label in tokens.rows if p == turn and a == node)
    return [(label, code_of(t, second, 1, n) if turn == 0 else code_of(first, t, 0, n)) for _o, t, label in rows]


def _has_fast_path(name):
    game = family(name).from_options(**SMALL[name])
    return game.capabilities.vector_rules or game.capabilities.token_moves


@pytest.mark.parametrize("name", [name for name in FAMILIES if _has_fast_path(name)])
def test_fast_paths_agree_with_the_rules_along_playouts(name):
    """Children seen two other ways must be the rules' own: a family's numpy path, and a two-token game's move lists."""
    import numpy as np

    from gamedb.games.vector import RESULT_NAMES

    game = family(name).from_options(**SMALL[name])
    from gamedb.solvers.choice import move_lists, vector_rules

    vector, tokens = vector_rules(game), move_lists(game)
    rng = random.Random(7)
    for _ in range(40):
        state = game.start()
        for _ply in range(200):
            code = game.encode(state)
            moves = game.moves(state)
            expected = [(label, game.encode(child)) for label, child in moves]
            if tokens is not None and moves:
                assert _token_children(tokens, code) == expected, game.format(state)
            if vector is not None:
                exp = vector.expand(np.array([code], dtype=np.int64))
                assert (int(exp.player[0]), RESULT_NAMES[int(exp.primitive[0])]) == (game.to_move(state), game.primitive(state))
                assert exp.children.tolist() == [c for _, c in expected] and int(exp.degree[0]) == len(expected)
                assert vector.texts(np.array([code])) == [game.format(state)]
                if moves:
                    parents = np.full(len(expected), code, dtype=np.int64)
                    assert vector.labels(parents, exp.children) == [label for label, _ in expected]
            if not moves:
                break
            state = rng.choice(moves)[1]


@pytest.mark.parametrize("name", FAMILIES)
def test_rebuilds_from_stored_parameters(name):
    import json

    cls = family(name)
    game = cls.from_options(**SMALL[name])
    stored = json.loads(json.dumps(game.parameters()))  # what the game table keeps
    again = cls.from_parameters(stored)
    assert again.parameters() == game.parameters()
    assert again.format(again.start()) == game.format(game.start())
