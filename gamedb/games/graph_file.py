"""Any finite two-player game given as data: a JSON file of positions and moves (``--file``, path or inline).

The format is ``docs/graph-game.schema.json``, checked here by hand, the first problem reported with its JSON path.
Endless play is a draw. Codes: the index among the names sorted by code point. The stored parameters are the game
in canonical form (again a valid game file), so a stored game needs no file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from ..errors import GraphError, InputError, PositionError, param
from ..values import LOSE, TIE, WIN
from .base import Examples, Game, Param
from .json_option import load_json_option

TERMINAL_VALUES = (WIN, LOSE, TIE)
DEFAULT_PLAYERS = ("first", "second")
_TOP_KEYS = ("$schema", "description", "players", "start", "positions")
_POSITION_KEYS = ("player", "moves", "value")
_MOVE_KEYS = ("to", "label")

#: raises GraphFileError(path, problem)
_Fail = Callable[[str, str], NoReturn]


#: four positions with a cycle, a tie and a loss (the family's example)
EXAMPLE_FILE = (
    '{"start": "a", "positions": {"a": {"player": "first", "moves": ["b", "c"]}, "b": {"player": "second", "moves": ["a", "d"]}, '
    '"c": {"player": "second", "value": "tie"}, "d": {"player": "first", "value": "lose"}}}'
)


class GraphFileError(GraphError):
    """A malformed game file; ``path`` is the JSON path of the first problem."""

    def __init__(self, path: str, problem: str, source: str | None = None):
        self.path, self.problem, self.source = path, problem, source
        prefix = f"{source}: " if source else ""
        super().__init__(f"{prefix}{path}: {problem}")


class GraphGame(Game):
    family = "graph"
    summary = "Any finite game given as a JSON file of positions, moves and end values (--file)"
    position_syntax = "the position's name as written in the file (e.g. 3L)"
    examples = Examples(
        options={"file": EXAMPLE_FILE},
        positions=["b"],
        bad_positions=[("nowhere", "unknown position 'nowhere'")],
        command_line="--file examples/graphs/tug-of-war.json",
    )
    params = (
        Param("file", str, "Game file (see docs/graph-game.schema.json), as a path or inline JSON: "
              '{"players": [...], "start": NAME, "positions": {NAME: {"player": ..., "moves": [...]} or {"player": ..., "value": "win|lose|tie"}}}.',
              required=True),
    )

    def __init__(self, file: Any = None):
        if file is None:
            raise InputError(f"{param('file')} is required: a game file (path or inline JSON), see docs/graph-game.schema.json")
        if isinstance(file, os.PathLike):
            file = os.fspath(file)
        source = file.strip() if isinstance(file, str) and file.strip()[:1] not in ("[", "{") else None
        self._stem = Path(source).stem if source else None
        self.data = validate_game(load_json_option(file, "file"), source)
        self.players = tuple(self.data["players"])
        self.names: list[str] = sorted(self.data["positions"])
        self._index = {name: i for i, name in enumerate(self.names)}
        player_index = {name: i for i, name in enumerate(self.players)}
        entries = [self.data["positions"][name] for name in self.names]
        self._player: list[int] = [player_index[entry["player"]] for entry in entries]
        self._value: list[str | None] = [entry.get("value") for entry in entries]
        self._moves = [[(m["label"], self._index[m["to"]]) for m in entry.get("moves", [])] for entry in entries]
        self._start = self._index[self.data["start"]]

    @classmethod
    def from_parameters(cls, parameters: dict[str, Any]) -> GraphGame:
        return cls(parameters)

    def parameters(self) -> dict[str, Any]:
        return self.data

    def default_name(self) -> str:
        return f"graph-{self._stem}" if self._stem else "graph"

    def start(self) -> int:
        return self._start

    def to_move(self, state: int) -> int:
        return self._player[state]

    def primitive(self, state: int) -> str | None:
        return self._value[state]

    def moves(self, state: int) -> list[tuple[str, int]]:
        return list(self._moves[state])

    def encode(self, state: int) -> int:
        return state

    def decode(self, code: int) -> int:
        return code

    def format(self, state: int) -> str:
        return self.names[state]

    def parse(self, text: str) -> int:
        name = text.strip()
        index = self._index.get(name)
        if index is None:
            some = ", ".join(json.dumps(n, ensure_ascii=False) for n in self.names[:5])
            more = ", ..." if len(self.names) > 5 else ""
            raise PositionError(f"unknown position {text!r} in this graph game (positions: {some}{more})")
        return index


def validate_game(data: Any, source: str | None = None) -> dict[str, Any]:
    """Check a game given as data; return its canonical form or raise :class:`GraphFileError`."""

    def fail(path: str, problem: str) -> NoReturn:
        raise GraphFileError(path, problem, source)

    if not isinstance(data, dict):
        fail("$", f"a game file must be a JSON object, got {_kind(data)}")
    _check_keys(data, "$", _TOP_KEYS, fail)
    for key in ("$schema", "description"):
        if key in data and not isinstance(data[key], str):
            fail(f"${_member(key)}", f"must be a string, got {_kind(data[key])}")
    players = data.get("players", list(DEFAULT_PLAYERS))
    if not isinstance(players, list) or len(players) != 2:
        fail("$.players", f"must be a list of the two player names, got {_show(players)}")
    for i, name in enumerate(players):
        _check_name(name, f"$.players[{i}]", "player name", fail)
    if players[0] == players[1]:
        fail("$.players[1]", f"the two players need different names, both are {_quote(players[0])}")
    if "start" not in data:
        fail("$", 'missing "start" (the name of the start position)')
    _check_name(data["start"], "$.start", "position name", fail)
    if "positions" not in data:
        fail("$", 'missing "positions" (an object with one entry per position)')
    positions = data["positions"]
    if not isinstance(positions, dict):
        fail("$.positions", f"must be an object with one entry per position, got {_kind(positions)}")
    if not positions:
        fail("$.positions", "must hold at least one position")
    canonical: dict[str, dict[str, Any]] = {}
    for name, entry in positions.items():
        path = f"$.positions[{_quote(name)}]"
        _check_name(name, path, "position name", fail)
        if not isinstance(entry, dict):
            fail(path, f"must be an object with \"player\" and \"moves\" or \"value\", got {_kind(entry)}")
        _check_keys(entry, path, _POSITION_KEYS, fail)
        if "player" not in entry:
            fail(path, 'missing "player" (the name of the player to move)')
        player = entry["player"]
        if player not in players or not isinstance(player, str):
            fail(f"{path}.player", f"{_show(player)} is not a player (players: {_quote(players[0])}, {_quote(players[1])})")
        moves = entry.get("moves", [])
        if not isinstance(moves, list):
            fail(f"{path}.moves", f"must be a list of moves, got {_kind(moves)}")
        out: dict[str, Any] = {"player": player}
        if "value" in entry:
            value = entry["value"]
            if value not in TERMINAL_VALUES or not isinstance(value, str):
                hint = " (a draw is not an end value: it comes from play that never ends)" if value == "draw" else ""
                fail(f"{path}.value", f"{_show(value)} is not an end value (win, lose or tie, for the player to move){hint}")
            if moves:
                fail(f"{path}.moves", "a position with a value is over and cannot have moves")
            out["value"] = value
        elif not moves:
            fail(path, 'has no moves and no value: give "value" (win, lose or tie for the player to move) where the game is over')
        if moves:
            out["moves"] = _check_moves(moves, f"{path}.moves", positions, fail)
        canonical[name] = out
    if data["start"] not in positions:
        fail("$.start", f"unknown position {_quote(data['start'])}")
    return {"players": list(players), "start": data["start"], "positions": {name: canonical[name] for name in sorted(canonical)}}


def _check_moves(moves: list[Any], path: str, positions: dict[str, Any], fail: _Fail) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for i, move in enumerate(moves):
        where = f"{path}[{i}]"
        if isinstance(move, str):
            target, label, label_path = move, move, where
            _check_name(target, where, "position name", fail)
        elif isinstance(move, dict):
            _check_keys(move, where, _MOVE_KEYS, fail)
            if "to" not in move:
                fail(where, 'missing "to" (the name of the position the move leads to)')
            target = move["to"]
            _check_name(target, f"{where}.to", "position name", fail)
            if "label" in move:
                label, label_path = move["label"], f"{where}.label"
                _check_name(label, label_path, "move label", fail)
            else:
                label, label_path = target, where
        else:
            fail(where, f"a move must be a position name or an object with \"to\" and optional \"label\", got {_kind(move)}")
        if target not in positions:
            fail(f"{where}.to" if isinstance(move, dict) else where, f"unknown position {_quote(target)}")
        if label in seen:
            fail(label_path, f"label {_quote(label)} is already used by {path}[{seen[label]}] (labels must differ within a position)")
        seen[label] = i
        result.append({"label": label, "to": target})
    return result


def _check_keys(obj: dict[str, Any], path: str, allowed: tuple[str, ...], fail: _Fail) -> None:
    for key in obj:
        if key not in allowed:
            fail(f"{path}{_member(key)}", f"unknown key (expected one of: {', '.join(allowed)})")


def _check_name(name: Any, path: str, what: str, fail: _Fail) -> None:
    if not isinstance(name, str):
        fail(path, f"a {what} must be a string, got {_kind(name)}")
    if not name:
        fail(path, f"a {what} must not be empty")
    if name != name.strip():
        fail(path, f"a {what} must not start or end with white space: {_quote(name)}")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        fail(path, f"a {what} must not contain control characters: {_quote(name)}")


def _member(key: str) -> str:
    """A key as a JSON path step: ``.name`` for identifiers, ``["odd key"]`` otherwise."""
    return f".{key}" if key.isidentifier() else f"[{_quote(key)}]"


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {_quote(value) if len(value) <= 30 else _quote(value[:27] + '...')}"
    if isinstance(value, list):
        return "a list"
    return "an object"
