"""One conformance test for every game family: built-in, installed plugins and the example plugin.

Random playouts from the start check, at every position reached: the
encode/decode and format/parse round trips, unique move labels, primitive
positions have no moves and non-primitive ones do (``gamedb query`` relies on
it: it asks for the moves without asking first whether the game is over),
``move_codes`` gives the children's codes, every child is a legal
position of its own (it round-trips too), codes fit in a signed 64-bit
column, and the player to move is 0 or 1.
"""

import dataclasses
import random

import pytest

from gamedb import Database
from gamedb.errors import PositionError
from gamedb.games.heaps import HeapGame
from gamedb.games.two_tokens import code_of

from registry import example_game, registered

#: every registered family and the example plugin; each runs on the options it declares (``Game.examples``)
FAMILIES = registered()


def test_every_family_declares_examples_that_build():
    for name in FAMILIES:
        example_game(name)  # a family with required options must declare them in ``examples``


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
    check_playouts(name)


def check_playouts(name):
    game = example_game(name)
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


@pytest.mark.parametrize("name", FAMILIES)
def test_fast_paths_agree_with_the_rules_along_playouts(name):
    check_fast_paths(name)


def check_fast_paths(name):
    """Children seen two other ways must be the rules' own: a family's numpy path, and a two-token game's move lists."""
    import numpy as np

    from gamedb.games.vector import RESULT_NAMES

    game = example_game(name)
    if not (game.capabilities.vector_rules or game.capabilities.token_moves):
        return
    from gamedb.solvers.capabilities import move_lists, vector_rules

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
    check_rebuild(name)


def check_rebuild(name):
    import json

    game = example_game(name)
    cls = type(game)
    stored = json.loads(json.dumps(game.parameters()))  # what the game table keeps
    again = cls.from_parameters(stored)
    assert again.parameters() == game.parameters()
    assert again.format(again.start()) == game.format(game.start())


#: reachable positions the array rules are held to, at most (breadth first from the start), and random ones beyond
ARRAY_RULES_POSITIONS = 6000


@pytest.mark.parametrize("name", FAMILIES)
def test_array_rules_agree_with_the_rules(name):
    check_array_rules(name)


def check_array_rules(name):
    """A family's array rules (``array_rules()``: tier_rules.py, its ``*_arrays.py``) give the per-position rules'
    player, end of game, children in order, labels, tier and text, on every reachable position of the example
    (up to :data:`ARRAY_RULES_POSITIONS`) and on random playouts."""
    from gamedb.solvers.capabilities import array_rules

    from test_tier_arrays import check_conformance, random_positions, reachable

    game = example_game(name)
    if array_rules(game) is None:
        return
    check_conformance(game, reachable(game, ARRAY_RULES_POSITIONS) + random_positions(game, 100, seed=11))


@pytest.mark.parametrize("name", FAMILIES)
def test_fast_rules_and_tiers_store_the_plain_rules_values(name, tmp_path):
    check_values(name, tmp_path)


def check_values(name, folder):
    """Values: every engine a family's own fast rules or tiers open (the in-memory engine on its vector rules or
    move lists, the tier solver on its array rules or tiers) stores the positions the in-memory engine stores
    from the plain per-position rules alone, row for row."""
    from tables import game_rows

    game = example_game(name)
    caps = game.capabilities
    if caps.heap_rules or not (caps.array_rules or caps.vector_rules or caps.token_moves or caps.tiers):
        return
    plain = example_game(name)
    plain.capabilities = dataclasses.replace(caps, array_rules=False, vector_rules=False, token_moves=False)  # type: ignore[misc]
    engines = ["memory"] + (["tiers"] if caps.tiers else [])
    with Database(folder / "fast.sqlite", create=True) as fast, Database(folder / "plain.sqlite", create=True) as reference:
        reference.solve(plain, "plain", strategy="memory")
        want = game_rows(reference, "plain")["position"]
        for engine in engines:
            fast.solve(game, engine, strategy=engine, symmetry=False if engine == "tiers" and game.symmetries > 1 else None)
            assert game_rows(fast, engine)["position"] == want, f"{name}: the {engine} engine"
        if caps.tiers and game.symmetries > 1:  # one position per class: the canonical positions' rows, by either rules
            canonical = [row for row in want if game.canonical(row[0]) == row[0]]
            for rules, solved in ((game, fast), (plain, reference)):
                solved.solve(rules, "symmetry", strategy="tiers")
                assert game_rows(solved, "symmetry")["position"] == canonical, f"{name}: tiers with symmetry"


def check_family(name, folder):
    """Every check of this module on one family (tests/test_new_family.py runs them on a toy family)."""
    check_playouts(name)
    check_fast_paths(name)
    check_rebuild(name)
    check_array_rules(name)
    check_values(name, folder)
