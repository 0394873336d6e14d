"""Games given as graph files: values against a brute-force oracle, the file format, errors."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from gamedb import make_game
from gamedb.errors import GraphError, PositionError, PositionNotFound
from gamedb.games.graph_file import GraphFileError, validate_game

from oracles import cat_mouse
from oracles import graph_game as oracle

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples" / "graphs").glob("*.json"))
SCHEMA = ROOT / "docs" / "graph-game.schema.json"


def _check_against_oracle(db, name: str, data: dict) -> dict:
    expected = oracle.solve(data)
    stored = {row["text"]: {k: row[k] for k in ("player", "result", "remoteness", "degree", "best_move")} for row in db.positions(name)}
    assert stored == expected
    return stored


def test_examples_exist():
    assert {p.name for p in EXAMPLES} >= {"tug-of-war.json", "coin-split.json"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_match_oracle(fresh_db, path):
    db = fresh_db()
    game = make_game("graph", file=str(path))
    report = db.solve(game)
    assert report.name == f"graph-{path.stem}"
    data = json.loads(path.read_text())
    _check_against_oracle(db, report.name, data)
    assert db.verify(report.name).positions == report.positions


def test_tug_of_war_is_a_draw_with_forced_wins_near_the_goals(fresh_db):
    db = fresh_db()
    db.solve(make_game("graph", file=str(ROOT / "examples/graphs/tug-of-war.json")), "tug")
    start = db.probe("tug")
    assert (start.position, start.player, start.result, start.remoteness, start.winner) == ("3L", "Left", "draw", None, None)
    assert [(m.move, m.position, m.result) for m in start.moves] == [("left", "2R", "draw"), ("right", "4R", "draw"), ("wait", "3R", "draw")]
    one = db.probe("tug", "1L")
    assert (one.result, one.remoteness, one.best_move, one.winner) == ("win", 1, "left", "Left")
    assert db.probe("tug", " 0R ").result == "lose"  # names are trimmed like any position text


def test_coin_split_is_a_tie(fresh_db):
    db = fresh_db()
    db.solve(make_game("graph", file=str(ROOT / "examples/graphs/coin-split.json")), "coins")
    start = db.probe("coins")
    assert (start.player, start.result, start.remoteness, start.best_move) == ("X", "tie", 2, "take2")
    stats = db.stats("coins")
    assert stats["results"] == {"win": 2, "lose": 1, "tie": 7, "draw": 0}


def _random_game(rng: random.Random, index: int) -> dict:
    """A random game: cycles, self-loops, several moves to one position, unreachable parts."""
    n = rng.randint(1, 25)
    names = [f"p{i}" for i in range(n)]
    rng.shuffle(names)
    players = ["Ann", "Bob"] if index % 2 else None
    who = players or ["first", "second"]
    positions = {}
    for name in names:
        entry = {"player": rng.choice(who)}
        if rng.random() < 0.3:
            entry["value"] = rng.choice(["win", "lose", "tie"])
        else:
            moves = []
            for j in range(rng.randint(1, 4)):
                target = rng.choice(names)
                form = rng.random()
                if form < 0.3 and target not in [m if isinstance(m, str) else m.get("label", m["to"]) for m in moves]:
                    moves.append(target)  # shorthand
                elif form < 0.5 and target not in [m if isinstance(m, str) else m.get("label", m["to"]) for m in moves]:
                    moves.append({"to": target})
                else:
                    moves.append({"to": target, "label": f"m{j}"})
            entry["moves"] = moves
        positions[name] = entry
    data = {"start": rng.choice(names), "positions": positions}
    if players:
        data["players"] = players
    return data


def test_random_games_match_oracle(fresh_db):
    rng = random.Random(913)
    db = fresh_db()
    results = set()
    for i in range(40):
        data = _random_game(rng, i)
        game = make_game("graph", file=json.dumps(data))
        db.solve(game, f"g{i}")
        stored = _check_against_oracle(db, f"g{i}", data)
        assert set(stored) == oracle.reachable(data)
        results |= {v["result"] for v in stored.values()}
    assert results == {"win", "lose", "tie", "draw"}


def test_cat_mouse_as_a_graph_file_agrees_with_cat_mouse(fresh_db):
    """LeetCode 913 example 1 written out as a graph file: same values as the cat-mouse oracle."""
    graph = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
    name = lambda s: f"m{s[0]}c{s[1]}{'M' if s[2] == cat_mouse.MOUSE else 'C'}"  # noqa: E731
    positions = {}
    for state in cat_mouse.reachable_states(graph):
        entry = {"player": "mouse" if state[2] == cat_mouse.MOUSE else "cat"}
        end = cat_mouse.primitive(state)
        if end is not None:
            entry["value"] = end
        else:
            entry["moves"] = [name(child) for child in cat_mouse.children(graph, state)]
        positions[name(state)] = entry
    data = {"players": ["mouse", "cat"], "start": "m1c2M", "positions": positions}
    db = fresh_db()
    db.solve(make_game("graph", file=data), "lc913")
    truth = cat_mouse.solve_queue(graph)
    for row in db.positions("lc913"):
        state = next(s for s in truth if name(s) == row["text"])
        assert (row["result"], row["remoteness"]) == truth[state], row["text"]
    assert db.probe("lc913").result == "draw"  # LeetCode's answer 0


def test_rebuilt_from_the_database_without_the_file(fresh_db, tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"start": "a", "positions": {"b": {"player": "second", "value": "lose"}, "a": {"player": "first", "moves": ["b"]}}}))
    db = fresh_db()
    report = db.solve(make_game("graph", file=str(path)))
    assert report.name == "graph-mine"
    path.unlink()
    record = db.game("graph-mine")
    assert record.parameters == {
        "players": ["first", "second"],
        "start": "a",
        "positions": {
            "a": {"player": "first", "moves": [{"label": "b", "to": "b"}]},
            "b": {"player": "second", "value": "lose"},
        },
    }
    assert db.probe("graph-mine").best_move == "b"
    assert db.verify("graph-mine").positions == 2
    # the canonical form is itself a valid file, and canonical again
    assert validate_game(record.parameters) == record.parameters


def test_codes_follow_sorted_names():
    game = make_game(
        "graph",
        file={
            "start": "b",
            "positions": {
                "c": {"player": "first", "value": "tie"},
                "b": {"player": "second", "moves": ["c", {"to": "b", "label": "pass"}]},
                "a": {"player": "first", "value": "win"},
            },
        },
    )
    assert [game.format(game.decode(i)) for i in range(3)] == ["a", "b", "c"]
    assert game.encode(game.start()) == 1
    assert game.moves(game.start()) == [("c", 2), ("pass", 1)]
    assert game.players == ("first", "second")
    assert game.default_name() == "graph"


def test_unknown_and_unreachable_positions(fresh_db):
    data = {"start": "a", "positions": {"a": {"player": "first", "value": "win"}, "b": {"player": "first", "value": "lose"}}}
    game = make_game("graph", file=data)
    with pytest.raises(PositionError, match=r"unknown position 'zz' in this graph game \(positions: \"a\", \"b\"\)"):
        game.parse("zz")
    db = fresh_db()
    db.solve(game, "g")
    with pytest.raises(PositionNotFound):
        db.probe("g", "b")


# --- malformed files -------------------------------------------------------------------

GOOD = {
    "players": ["Left", "Right"],
    "start": "a",
    "positions": {
        "a": {"player": "Left", "moves": ["b", {"to": "c", "label": "go"}, {"to": "a"}]},
        "b": {"player": "Right", "value": "lose"},
        "c": {"player": "Right", "moves": [{"to": "a"}]},
    },
}


def _with(change):
    data = copy.deepcopy(GOOD)
    change(data)
    return data


def _set(path, value):
    def change(data):
        *keys, last = path
        target = data
        for key in keys:
            target = target[key]
        target[last] = value

    return change


def _delete(path):
    def change(data):
        *keys, last = path
        target = data
        for key in keys:
            target = target[key]
        del target[last]

    return change


# (data, JSON path, problem, whether a JSON Schema validator also sees it)
MALFORMED = [
    ([], "$", "a game file must be a JSON object, got a list", True),
    (_with(_set(["positions", "a", "moves", 2, "to"], "zz")), '$.positions["a"].moves[2].to', 'unknown position "zz"', False),
    (_with(_set(["positions", "a", "moves", 0], "zz")), '$.positions["a"].moves[0]', 'unknown position "zz"', False),
    (_with(_set(["colour"], "red")), "$.colour", "unknown key (expected one of: $schema, description, players, start, positions)", True),
    (_with(_set(["x y"], 1)), '$["x y"]', "unknown key (expected one of: $schema, description, players, start, positions)", True),
    (_with(_set(["description"], 3)), "$.description", "must be a string, got the number 3", True),
    (_with(_set(["players"], ["Left"])), "$.players", 'must be a list of the two player names, got ["Left"]', True),
    (_with(_set(["players"], "Left")), "$.players", 'must be a list of the two player names, got "Left"', True),
    (_with(_set(["players", 1], "Left")), "$.players[1]", 'the two players need different names, both are "Left"', True),
    (_with(_set(["players", 0], 7)), "$.players[0]", "a player name must be a string, got the number 7", True),
    (_with(_set(["players", 0], " Left")), "$.players[0]", 'a player name must not start or end with white space: " Left"', True),
    (_with(_delete(["start"])), "$", 'missing "start" (the name of the start position)', True),
    (_with(_set(["start"], "")), "$.start", "a position name must not be empty", True),
    (_with(_set(["start"], "zz")), "$.start", 'unknown position "zz"', False),
    (_with(_delete(["positions"])), "$", 'missing "positions" (an object with one entry per position)', True),
    (_with(_set(["positions"], [])), "$.positions", "must be an object with one entry per position, got a list", True),
    (_with(_set(["positions"], {})), "$.positions", "must hold at least one position", True),
    (
        _with(_set(["positions", "a\tb"], {"player": "Left", "value": "win"})),
        '$.positions["a\\tb"]',
        'a position name must not contain control characters: "a\\tb"',
        True,
    ),
    (_with(_set(["positions", "a"], 5)), '$.positions["a"]', 'must be an object with "player" and "moves" or "value", got the number 5', True),
    (_with(_set(["positions", "a", "turn"], "Left")), '$.positions["a"].turn', "unknown key (expected one of: player, moves, value)", True),
    (_with(_delete(["positions", "b", "player"])), '$.positions["b"]', 'missing "player" (the name of the player to move)', True),
    (_with(_set(["positions", "b", "player"], "Mallory")), '$.positions["b"].player', '"Mallory" is not a player (players: "Left", "Right")', False),
    (_with(_set(["positions", "b", "player"], 1)), '$.positions["b"].player', '1 is not a player (players: "Left", "Right")', True),
    (
        _with(_set(["positions", "b", "value"], "draw")),
        '$.positions["b"].value',
        '"draw" is not an end value (win, lose or tie, for the player to move) (a draw is not an end value: it comes from play that never ends)',
        True,
    ),
    (_with(_set(["positions", "b", "value"], "WIN")), '$.positions["b"].value', '"WIN" is not an end value (win, lose or tie, for the player to move)', True),
    (_with(_set(["positions", "b", "moves"], ["a"])), '$.positions["b"].moves', "a position with a value is over and cannot have moves", True),
    (
        _with(_set(["positions", "c", "moves"], [])),
        '$.positions["c"]',
        'has no moves and no value: give "value" (win, lose or tie for the player to move) where the game is over',
        True,
    ),
    (
        _with(_delete(["positions", "c", "moves"])),
        '$.positions["c"]',
        'has no moves and no value: give "value" (win, lose or tie for the player to move) where the game is over',
        True,
    ),
    (_with(_set(["positions", "c", "moves"], "a")), '$.positions["c"].moves', 'must be a list of moves, got the string "a"', True),
    (
        _with(_set(["positions", "a", "moves", 1], 3)),
        '$.positions["a"].moves[1]',
        'a move must be a position name or an object with "to" and optional "label", got the number 3',
        True,
    ),
    (
        _with(_set(["positions", "a", "moves", 1], {"label": "go"})),
        '$.positions["a"].moves[1]',
        'missing "to" (the name of the position the move leads to)',
        True,
    ),
    (_with(_set(["positions", "a", "moves", 1], {"to": "c", "via": 1})), '$.positions["a"].moves[1].via', "unknown key (expected one of: to, label)", True),
    (_with(_set(["positions", "a", "moves", 1, "label"], "")), '$.positions["a"].moves[1].label', "a move label must not be empty", True),
    (
        _with(_set(["positions", "a", "moves", 1, "label"], "b")),
        '$.positions["a"].moves[1].label',
        'label "b" is already used by $.positions["a"].moves[0] (labels must differ within a position)',
        False,
    ),
    (
        _with(_set(["positions", "a", "moves", 2], "b")),
        '$.positions["a"].moves[2]',
        'label "b" is already used by $.positions["a"].moves[0] (labels must differ within a position)',
        False,
    ),
]


@pytest.mark.parametrize("data,path,problem,_schema", MALFORMED, ids=[f"{i}:{case[1]}" for i, case in enumerate(MALFORMED)])
def test_malformed_games_name_the_json_path(data, path, problem, _schema):
    with pytest.raises(GraphFileError) as err:
        make_game("graph", file=json.dumps(data))  # inline JSON, as on the command line
    assert (err.value.path, err.value.problem) == (path, problem)
    assert str(err.value) == f"{path}: {problem}"
    assert isinstance(err.value, GraphError) and err.value.exit_code == 2


def test_good_base_case_is_valid():
    game = make_game("graph", file=GOOD)
    assert game.moves(game.start()) == [("b", 1), ("go", 2), ("a", 0)]


def test_errors_from_a_file_name_the_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(_set(["positions", "a", "moves", 2, "to"], "zz"))))
    with pytest.raises(GraphError) as err:
        make_game("graph", file=str(path))
    assert str(err.value) == f'{path}: $.positions["a"].moves[2].to: unknown position "zz"'


def test_unreadable_input(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"start": "a",\n "positions": }')
    with pytest.raises(GraphError, match=r"bad JSON in .*broken.json: Expecting value at line 2 column 15"):
        make_game("graph", file=str(path))
    with pytest.raises(GraphError, match="no such file"):
        make_game("graph", file=str(tmp_path / "missing.json"))


def test_a_key_given_twice_is_refused(tmp_path):
    """A position copied and not renamed: JSON kept the last silently, and the game solved without the first."""
    path = tmp_path / "twice.json"
    path.write_text('{"players": ["a", "b"], "start": "s", "positions": {"s": {"player": "a", "moves": ["t"]},\n'
                    '"t": {"player": "b", "value": "lose"}, "t": {"player": "b", "value": "win"}}}')
    with pytest.raises(GraphError) as err:
        make_game("graph", file=str(path))
    assert str(err.value) == (f'file=: bad JSON in {path}: the key "t" is given twice in one object '
                              "(JSON keeps only the last: rename or remove one)")


# --- the JSON Schema agrees with the hand-written checks ---------------------------------


@pytest.fixture(scope="module")
def schema_validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_examples_and_canonical_forms_follow_the_schema(schema_validator):
    for path in EXAMPLES:
        data = json.loads(path.read_text())
        assert not list(schema_validator.iter_errors(data)), path
        assert not list(schema_validator.iter_errors(validate_game(data))), path
    assert not list(schema_validator.iter_errors(GOOD))


@pytest.mark.parametrize("data,path,problem,schema_sees_it", MALFORMED, ids=[f"{i}:{case[1]}" for i, case in enumerate(MALFORMED)])
def test_schema_rejects_what_it_can_express(schema_validator, data, path, problem, schema_sees_it):
    assert schema_validator.is_valid(data) != schema_sees_it


def test_file_may_be_a_path_object():
    game = make_game("graph", file=ROOT / "examples/graphs/coin-split.json")
    assert game.default_name() == "graph-coin-split"
    assert game.format(game.start()) == "pile=4,X=0,O=0,turn=X"


def test_cli_solves_queries_verifies_and_exports_a_graph_file(cli, tmp_path):
    """Issue 4, item 3, through the command line as a user types it."""
    path = ROOT / "examples" / "graphs" / "coin-split.json"
    data = json.loads(path.read_text())
    expected = oracle.solve(data)  # the independent oracle
    solved = cli("solve", "graph", "--file", str(path), "--name", "coins", "--quiet")
    assert solved.exit_code == 0, solved.stderr
    start = json.loads(cli("query", "coins", "--json").stdout)
    assert (start["position"], start["result"], start["remoteness"]) == (
        data["start"],
        expected[data["start"]]["result"],
        expected[data["start"]]["remoteness"],
    )
    assert [m["move"] for m in start["moves"]] != []
    assert cli("verify", "coins").exit_code == 0
    exported = cli("export", "coins", "--format", "jsonl")
    assert exported.exit_code == 0, exported.stderr
    rows = [json.loads(line) for line in exported.stdout.splitlines()]
    assert {row["position"] for row in rows} == set(expected)
    for row in rows:
        want = expected[row["position"]]
        assert (row["result"], row["remoteness"], row["best_move"]) == (want["result"], want["remoteness"], want["best_move"]), row
    csv_out = cli("export", "coins", "--format", "csv").stdout.splitlines()
    assert len(csv_out) == len(rows) + 1  # a header, then one line per position
