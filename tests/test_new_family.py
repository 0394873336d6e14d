"""A new family is its module and one registry line: every generic suite then runs on it.

The toy family below (take one or two stones; who cannot move loses) is
registered exactly as a new built-in is, by one line in
``gamedb.games.BUILTIN`` (``name -> "module:Class"``), and declares its
examples on its class (``Game.examples``). No test table is edited: the
conformance checks (playouts, rebuild, vector rules and move lists, array
rules, stored values of every engine its rules open, tiers included), the
console script's ``gamedb query`` (byte for byte against the command line in
the test runner) and the bad-input suite run on it through
their own check functions. A toy whose array rules disagree with its rules is
caught by the same checks, so the suites really run on what is registered.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from gamedb.errors import PositionError
from gamedb.games import BUILTIN
from gamedb.games.base import Capabilities, Examples, Game, Param
from gamedb.games.tier_rules import TierArrayRules
from gamedb.games.vector import LOSE, UNDECIDED, WIN, Expansion, ranks_within

from registry import builtin, registered, solve_examples
from test_bad_inputs import check_family_bad_inputs
from test_conformance import check_array_rules, check_family, check_playouts, check_values
from test_query_process import check_script_and_runner

_TEXT = re.compile(r"^(\d+)([ab])$")


class TakeOneOrTwo(Game):
    """``stones`` in a pile; a move takes one or two; the player who cannot move loses. Text: ``5a`` (5 left, a to move)."""

    family = "toy-take"
    summary = "Toy: take one or two stones, who cannot move loses"
    position_syntax = "stones left and the player to move (e.g. 5a)"
    params = (Param("stones", int, "Stones at the start.", required=True),)
    players = ("a", "b")
    capabilities = Capabilities(tiers=True, array_rules=True)
    examples = Examples(
        options={"stones": 7}, positions=["4b", "0a"], bad_positions=[("5c", "bad toy position"), ("9a", "more than")], command_line="--stones 7"
    )

    def __init__(self, stones: int):
        self.stones = int(stones)

    def parameters(self) -> dict:
        return {"stones": self.stones}

    def start(self):
        return (self.stones, 0)

    def moves(self, state):
        left, turn = state
        return [(str(k), (left - k, 1 - turn)) for k in (1, 2) if k <= left]

    def primitive(self, state):
        return "lose" if state[0] == 0 else None

    def to_move(self, state) -> int:
        return state[1]

    def encode(self, state) -> int:
        return state[0] * 2 + state[1]

    def decode(self, code: int):
        return divmod(code, 2)

    def format(self, state) -> str:
        return f"{state[0]}{self.players[state[1]]}"

    def parse(self, text: str):
        match = _TEXT.match(text.strip())
        if not match:
            raise PositionError(f"bad toy position {text!r}: expected {self.position_syntax}")
        if int(match.group(1)) > self.stones:
            raise PositionError(f"bad toy position {text!r}: more than the {self.stones} stones of the game")
        return (int(match.group(1)), self.players.index(match.group(2)))

    def tier(self, state) -> int:
        return self.stones - state[0]

    def array_rules(self):
        return TakeOneOrTwoArrays(self)


class TakeOneOrTwoArrays(TierArrayRules):
    """The toy's rules on arrays of codes (``stones * 2 + turn``)."""

    def __init__(self, game: TakeOneOrTwo):
        self.game = game
        self.code_limit = (game.stones + 1) * 2

    def expand(self, codes):
        codes = np.asarray(codes, dtype=np.int64)
        left, turn = codes >> 1, codes & 1
        degree = np.minimum(left, 2)
        parent = np.repeat(np.arange(len(codes)), degree)
        children = (left[parent] - ranks_within(degree) - 1) * 2 + (1 - turn[parent])
        primitive = np.where(left == 0, LOSE, UNDECIDED).astype(np.int8)
        return Expansion(player=turn.astype(np.int8), primitive=primitive, degree=degree, children=children)

    def labels(self, parents, children):
        return [str(p - c) for p, c in zip((parents >> 1).tolist(), (children >> 1).tolist(), strict=True)]

    def texts(self, codes):
        return [self.game.format(self.game.decode(code)) for code in codes.tolist()]

    def tiers(self, codes):
        return self.game.stones - (codes >> 1)


class WrongArrays(TakeOneOrTwoArrays):
    """Array rules that disagree with the rules: the player left without stones is said to win."""

    def expand(self, codes):
        found = super().expand(codes)
        found.primitive[np.asarray(codes) >> 1 == 0] = WIN
        return found


class BrokenToy(TakeOneOrTwo):
    family = "toy-broken"

    def array_rules(self):
        return WrongArrays(self)


def register(monkeypatch, name: str, spec: str) -> None:
    """What a new built-in family does: one line in ``BUILTIN`` (the command line builds ``solve NAME`` from the
    registry when it is called)."""
    monkeypatch.setitem(BUILTIN, name, spec)


def test_a_registered_toy_family_runs_through_every_generic_suite(monkeypatch, tmp_path):
    register(monkeypatch, "toy-take", f"{__name__}:TakeOneOrTwo")
    assert "toy-take" in registered() and "toy-take" in builtin()  # what the suites iterate
    check_family("toy-take", tmp_path)  # conformance: playouts, rebuild, array rules, values of the memory and tier engines
    db = solve_examples(tmp_path / "games.sqlite", ["toy-take"])
    check_script_and_runner(db, "toy-take")  # the console script, byte for byte
    check_family_bad_inputs("toy-take", tmp_path)  # its bad positions and an unknown solve option
    check_help_example("toy-take", tmp_path / "cli.sqlite")  # `gamedb solve toy-take --help` shows an example that runs


def check_help_example(fam: str, db) -> None:
    import shlex

    from typer.testing import CliRunner

    from gamedb.cli.app import app

    shown = CliRunner().invoke(app, ["solve", fam, "--help"]).stdout
    example = re.search(r"Example:\s+gamedb (.+)", shown).group(1)
    run = CliRunner().invoke(app, ["--db", str(db), *shlex.split(example), "-q"])
    assert run.exit_code == 0, (example, run.stderr)


def test_the_suites_catch_array_rules_that_disagree_with_the_rules(monkeypatch, tmp_path):
    register(monkeypatch, "toy-broken", f"{__name__}:BrokenToy")
    check_playouts("toy-broken")  # its per-position rules are the toy's own
    with pytest.raises(AssertionError):
        check_array_rules("toy-broken")  # children and end of game, position by position
    with pytest.raises(AssertionError, match="the tiers engine"):
        check_values("toy-broken", tmp_path)  # what the tier solver stores from them
