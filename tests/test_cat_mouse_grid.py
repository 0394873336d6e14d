"""Cat and mouse on a grid (LeetCode 1728): gamedb against independent oracles.

The oracles (tests/oracles/cat_mouse_grid.py) import nothing from gamedb:
``leetcode_topdown`` is LeetCode's definition with a turn counter (the
limited game, true/false), ``horizon_values`` is value iteration over the
horizon (the unlimited game's value and remoteness for every position).
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from gamedb import make_game
from gamedb.errors import GraphError, InputError, PositionError
from gamedb.games.two_tokens.cat_mouse_grid import MAX_CELLS, leetcode_answer, mouse_wins_within

from oracles.cat_mouse_grid import horizon_values, leetcode_topdown, random_grid, reachable_states, ring_grid

TURN = ("mouse", "cat")

LEETCODE_EXAMPLES = [
    # (grid, cat_jump, mouse_jump, LeetCode's answer)
    (["####F", "#C...", "M...."], 1, 2, True),
    (["M.C...F"], 1, 4, True),
    (["M.C...F"], 1, 3, False),
    # examples 4 and 5 of the original problem statement
    (["C...#", "...#F", "....#", "M...."], 2, 5, False),
    ([".M...", "..#..", "#..#.", "C#.#.", "...#F"], 3, 1, True),
]

# Grids whose answer is worked out by hand (the reasoning is in the comment);
# (grid, cat_jump, mouse_jump, start result for the mouse, remoteness, answer at 1000 turns)
CONSTRUCTED = [
    # The mouse jumps over the cat straight onto the food.
    (["MCF"], 1, 2, "win", 1, True),
    # With jump 1 the mouse can only stay (then the cat steps onto the food)
    # or step onto the cat: lost, in 2 plies at the slowest.
    (["MCF"], 1, 1, "lose", 2, False),
    # The cat is walled off in the bottom row; the mouse walks 8 cells, one per
    # turn: its 8th move is ply 15 (mouse on plies 1, 3, ..., 15).
    (["M.......F", "#########", "C........"], 1, 1, "win", 15, True),
    # Same walk with jump 3: 3 mouse moves, ply 5.
    (["M.......F", "#########", "C........"], 1, 3, "win", 5, True),
    # Nobody can move anywhere: a draw without a limit, a cat win with one.
    (["M#F#C"], 1, 1, "draw", None, False),
    # The food is walled in; the mouse and the cat (both jump 1) go round an
    # 8-cell ring about the wall at r1c1. The mouse, to move at distance 2,
    # steps away and keeps at least 2 cells between them for ever: a draw.
    (["...#F", ".#.##", "M.C.."], 1, 1, "draw", None, False),
    # A race in separate corridors: the mouse needs 3 jumps of 2 (plies 1, 3, 5);
    # the cat needs right1, up1, up1 (plies 2, 4, 6) and cannot cut the mouse off.
    (["M....F", "#####.", "####C."], 1, 2, "win", 5, True),
    # With cat jump 2 the cat needs right1, up2: on the food at ply 4.
    (["M....F", "#####.", "####C."], 2, 2, "lose", 4, False),
]


def _text(state) -> str:
    (mr, mc), (cr, cc), turn = state
    return f"mouse=r{mr}c{mc},cat=r{cr}c{cc},turn={TURN[turn]}"


def _solve_and_compare(db, grid, cat_jump, mouse_jump, name="g", **extra):
    """Solve with gamedb and check every stored position against the horizon oracle."""
    db.solve(make_game("cat-mouse-grid", grid=grid, cat_jump=cat_jump, mouse_jump=mouse_jump, **extra), name)
    expected = horizon_values(grid, cat_jump, mouse_jump)
    stored = {row["text"]: (row["result"], row["remoteness"]) for row in db.positions(name)}
    assert len(stored) == len(expected), grid
    for state, value in expected.items():
        assert stored[_text(state)] == value, (grid, cat_jump, mouse_jump, state)
    return db.probe(name), expected


@pytest.mark.parametrize("grid,cat_jump,mouse_jump,answer", LEETCODE_EXAMPLES)
def test_leetcode_examples(fresh_db, grid, cat_jump, mouse_jump, answer):
    start, _ = _solve_and_compare(fresh_db(), grid, cat_jump, mouse_jump)
    assert leetcode_answer(start) is answer
    assert leetcode_topdown(grid, cat_jump, mouse_jump, 1000) is answer


@pytest.mark.parametrize("grid,cat_jump,mouse_jump,result,remoteness,answer", CONSTRUCTED)
def test_constructed_grids(fresh_db, grid, cat_jump, mouse_jump, result, remoteness, answer):
    start, _ = _solve_and_compare(fresh_db(), grid, cat_jump, mouse_jump)
    assert (start.player, start.result, start.remoteness) == ("mouse", result, remoteness)
    assert leetcode_answer(start) is answer
    assert leetcode_topdown(grid, cat_jump, mouse_jump, 1000) is answer


def test_turn_limit_decides(fresh_db):
    """The mouse wins in 15 turns: a limit of 15 lets it, 14 does not."""
    grid = ["M.......F", "#########", "C........"]
    db = fresh_db()
    for limit, answer in ((14, False), (15, True), (1000, True)):
        name = f"limit{limit}"
        db.solve(make_game("cat-mouse-grid", grid=grid, turn_limit=limit), name)
        start = db.probe(name)
        game = db.game(name).rules()
        assert game.verdict(start.result, start.remoteness, start.player) == {
            "turn_limit": limit,
            "mouse_wins_within_limit": answer,
            "winner_within_limit": "mouse" if answer else "cat",
            "decided_by": None if answer else "turn limit",  # a mouse win in 15: the limit 14 gives it to the cat
        }
        assert (start.result, start.winner) == ("win", "mouse")  # the unlimited game's, whatever the limit
        assert leetcode_answer(start, limit) is answer
        assert leetcode_topdown(grid, 1, 1, limit) is answer


def test_every_limit_matches_topdown(fresh_db):
    """For limits 1..25 the stored remoteness gives LeetCode's answer exactly."""
    db = fresh_db()
    cases = LEETCODE_EXAMPLES + [case[:3] + (None,) for case in CONSTRUCTED]
    for i, (grid, cat_jump, mouse_jump, _) in enumerate(cases):
        db.solve(make_game("cat-mouse-grid", grid=grid, cat_jump=cat_jump, mouse_jump=mouse_jump), f"g{i}")
        start = db.probe(f"g{i}")
        answers = [leetcode_answer(start, limit) for limit in range(1, 26)]
        for limit, answer in enumerate(answers, 1):
            assert answer is leetcode_topdown(grid, cat_jump, mouse_jump, limit), (grid, limit)
        assert answers == sorted(answers)  # false up to the remoteness, true from there on


def test_verdict_at_every_position(fresh_db):
    """From any position, either side to move, the limit counts turns from there."""
    db = fresh_db()
    for i, (grid, cat_jump, mouse_jump) in enumerate([(["####F", "#C...", "M...."], 1, 2), (["...#F", ".#.##", "M.C.."], 1, 2)]):
        game = make_game("cat-mouse-grid", grid=grid, cat_jump=cat_jump, mouse_jump=mouse_jump, turn_limit=9)
        db.solve(game, f"g{i}")
        for row in db.positions(f"g{i}"):
            state = game.parse(row["text"])
            oracle_state = (divmod(state.mouse, game.cols), divmod(state.cat, game.cols), state.turn)
            for limit in (1, 2, 3, 4, 5):
                assert mouse_wins_within(row["result"], row["remoteness"], row["player"], limit) is leetcode_topdown(
                    grid, cat_jump, mouse_jump, limit, start=oracle_state
                ), (grid, row["text"], limit)
            verdict = game.verdict(row["result"], row["remoteness"], row["player"])
            assert verdict["mouse_wins_within_limit"] is leetcode_topdown(grid, cat_jump, mouse_jump, 9, start=oracle_state)


def _random_cases(rng: random.Random, count: int):
    """Random small grids, two in three with random walls, one in three a ring."""
    for i in range(count):
        if i % 3:
            cols = rng.randint(2, 5)
            rows = rng.randint(1 if cols >= 3 else 2, 4)
            grid = random_grid(rng, rows, cols, rng.choice([0.0, 0.2, 0.35, 0.5]))
            yield grid, rng.randint(1, 3), rng.randint(1, 3)
        else:
            walled_in = rng.random() < 0.5
            rows, cols = (5, 5) if walled_in else (rng.randint(3, 4), rng.randint(3, 5))
            yield ring_grid(rng, rows, cols, walled_in), rng.randint(1, 2), rng.randint(1, 2)


def test_random_grids_match_oracles(fresh_db):
    rng = random.Random(1728)
    seen = {"win": 0, "lose": 0, "draw": 0}
    draws = 0
    for grid, cat_jump, mouse_jump in _random_cases(rng, 45):
        db = fresh_db()
        start, expected = _solve_and_compare(db, grid, cat_jump, mouse_jump)
        seen[start.result] += 1
        draws += sum(result == "draw" for result, _ in expected.values())
        limits = {1, 2, 3, 1000} | ({start.remoteness - 1, start.remoteness} if start.remoteness else set())
        for limit in sorted(x for x in limits if x >= 1):
            assert leetcode_answer(start, limit) is leetcode_topdown(grid, cat_jump, mouse_jump, limit), (grid, limit)
        db.close()
    # the sample exercises mouse wins, cat wins and draws
    assert seen["win"] >= 10 and seen["lose"] >= 10 and seen["draw"] >= 2 and draws >= 100, (seen, draws)


def test_mouse_wins_within_from_either_side():
    # mouse to move: its win; cat to move: the cat's loss
    assert mouse_wins_within("win", 5, "mouse", 5) and not mouse_wins_within("win", 5, "mouse", 4)
    assert mouse_wins_within("lose", 4, "cat", 4) and not mouse_wins_within("lose", 4, 1, 3)
    assert not mouse_wins_within("win", 1, "cat", 1000)
    assert not mouse_wins_within("lose", 2, 0, 1000)
    assert not mouse_wins_within("draw", None, "mouse", 10**9)


# --- rules, moves, position text -----------------------------------------------------

def test_moves_labels_and_jumps():
    game = make_game("cat-mouse-grid", grid='["M.C..F"]', cat_jump=2, mouse_jump=4)
    start = game.start()
    labels = {label: game.format(child) for label, child in game.moves(start)}
    # the mouse may jump over the cat, or land on it (and lose)
    assert list(labels) == ["right1", "right2", "right3", "right4", "stay"]
    assert labels["right3"] == "mouse=r0c3,cat=r0c2,turn=cat"
    assert game.primitive(game.parse("mouse=r0c2,cat=r0c2,turn=cat")) == "win"
    assert game.primitive(game.parse("mouse=r0c0,cat=r0c5,turn=mouse")) == "lose"
    assert game.primitive(game.parse("mouse=r0c5,cat=r0c2,turn=cat")) == "lose"
    # walls stop a jump; nothing jumps off the grid
    game = make_game("cat-mouse-grid", grid=["M.#..", ".....", "C...F"], cat_jump=3, mouse_jump=3)
    mouse_moves = [label for label, _ in game.moves(game.start())]
    assert mouse_moves == ["down1", "down2", "right1", "stay"]
    cat = game.parse("mouse=r0c0,cat=r2c0,turn=cat")
    assert [label for label, _ in game.moves(cat)] == ["up1", "up2", "right1", "right2", "right3", "stay"]
    assert game.parse_move(cat, " UP ") == "up1" and game.parse_move(cat, "left1") is None


def test_codes_and_text_round_trip():
    grid, cat_jump, mouse_jump = [".M...", "..#..", "#..#.", "C#.#.", "...#F"], 3, 1
    game = make_game("cat-mouse-grid", grid=grid, cat_jump=cat_jump, mouse_jump=mouse_jump)
    states = reachable_states(grid, cat_jump, mouse_jump)
    codes = set()
    for state in states:
        parsed = game.parse(_text(state))
        assert game.format(parsed) == _text(state)
        assert game.decode(game.encode(parsed)) == parsed
        codes.add(game.encode(parsed))
    assert len(codes) == len(states)


@pytest.mark.parametrize(
    "text",
    [
        "mouse=r2c0,cat=r1c1,turn=mouse",
        "mouse=(2,0),cat=(1,1),turn=mouse",
        "  MOUSE = 2,0 ; CAT = 1,1 ; TURN = Mouse ",
        "turn=mouse cat=1:1 mouse=[2, 0]",
        "mouse=r2 c0, cat=r1,c1, turn=mouse",
    ],
)
def test_parse_accepts_variants(text):
    game = make_game("cat-mouse-grid", grid=["####F", "#C...", "M...."])
    assert game.format(game.parse(text)) == "mouse=r2c0,cat=r1c1,turn=mouse"


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "expected mouse=rRcC"),
        ("hello", "expected mouse=rRcC"),
        ("x mouse=r2c0,cat=r1c1,turn=mouse", "expected mouse=rRcC"),
        ("mouse=r2c0,cat=r1c1", "turn= missing"),
        ("mouse=r2c0,mouse=r2c1,cat=r1c1,turn=cat", "mouse= is given twice"),
        ("mouse=r2c0,cat=r1c1,turn=dog", "turn must be mouse or cat"),
        ("mouse=20,cat=r1c1,turn=cat", "mouse='20' is not a cell"),
        ("mouse=r3c0,cat=r1c1,turn=cat", "mouse cell r3c0 is off the 3x5 grid"),
        ("mouse=r2c0,cat=r0c0,turn=cat", "cat cell r0c0 is a wall"),
    ],
)
def test_bad_positions(text, message):
    game = make_game("cat-mouse-grid", grid=["####F", "#C...", "M...."])
    with pytest.raises(PositionError, match="bad cat-mouse-grid position") as info:
        game.parse(text)
    assert message in str(info.value)


def test_describe_board():
    game = make_game("cat-mouse-grid", grid=["####F", "#C...", "M...."])
    assert game.describe(game.start()) == "####F\n#C...\nM...."
    assert game.describe(game.parse("mouse=r1c3,cat=r1c3,turn=cat")) == "####F\n#..*.\n....."


# --- bad input ------------------------------------------------------------------------

BAD_GRIDS = [
    ('{"grid": 1}', "grid must be a JSON list of row strings, got dict"),
    ("[]", "grid has no rows"),
    ('["M.C", 5]', "grid row 1 must be a string"),
    ('["M.C", ""]', "grid row 1 is empty"),
    ('["M.C", "F."]', "grid row 1 has 2 cells but row 0 has 3"),
    ('["M.C", ".xF"]', "grid row 1 column 1: 'x' is not a cell"),
    ('["M.C", "..."]', "grid has no 'F' (food)"),
    ('["M.C", "C.F"]', "grid has 2 'C' (cat) cells, at row 0 column 2, row 1 column 0"),
    ('["..C", "..F"]', "grid has no 'M' (mouse)"),
    ('["M.C", "..F"', "grid=: bad JSON in inline value"),
    (json.dumps(["MCF" + "." * (MAX_CELLS - 3), "." * MAX_CELLS]), f"at most {MAX_CELLS} cells"),
]


@pytest.mark.parametrize("grid,message", BAD_GRIDS)
def test_bad_grids(grid, message):
    with pytest.raises(GraphError) as info:
        make_game("cat-mouse-grid", grid=grid)
    assert message in str(info.value)


def test_bare_rows_get_a_hint():
    with pytest.raises(GraphError, match=r"""'M.C,..F' is not a file; give the rows as a JSON list, e.g. grid='\["M.C","..F"\]'"""):
        make_game("cat-mouse-grid", grid="M.C,..F")


def test_grid_file_holding_one_string(tmp_path):
    path = tmp_path / "grid.json"
    path.write_text('"M.C.F"')
    with pytest.raises(GraphError, match="got the single string 'M.C.F'"):
        make_game("cat-mouse-grid", grid=str(path))


@pytest.mark.parametrize(
    "options,message",
    [
        ({"cat_jump": 0}, "cat_jump= must be at least 1"),
        ({"mouse_jump": "far"}, "mouse_jump= must be a whole number"),
        ({"turn_limit": 0}, "turn_limit= must be at least 1"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(InputError, match=message):
        make_game("cat-mouse-grid", grid=["M.C.F"], **options)


# --- through the CLI ------------------------------------------------------------------

def test_cli_solve_from_file_and_query(cli, tmp_path):
    path = tmp_path / "grid.json"
    path.write_text(json.dumps(["####F", "#C...", "M...."]))
    run = cli("solve", "cat-mouse-grid", "--grid", str(path), "--cat-jump", "1", "--mouse-jump", "2", "-q")
    assert run.exit_code == 0, run.stderr
    assert "win in 5" in run.stdout
    data = json.loads(cli("query", "cat-mouse-grid", "--json").stdout)
    assert (data["position"], data["winner"], data["remoteness"], data["best_move"]) == (
        "mouse=r2c0,cat=r1c1,turn=mouse", "mouse", 5, "right2")
    assert [m["move"] for m in data["moves"]] == ["right2", "stay", "right1"]
    run = cli("query", "cat-mouse-grid", "mouse=(2,2),cat=(1,1),turn=cat")
    assert run.exit_code == 0 and "#C..." in run.stdout
    assert cli("verify", "cat-mouse-grid").exit_code == 0


def test_cli_errors(cli, db_path):
    run = cli("solve", "cat-mouse-grid", "--grid", '["M.C", "C.F"]', "-q")
    assert run.exit_code == 2 and "2 'C' (cat) cells" in run.stderr
    assert run.stderr.count("\n") == 1 and not db_path.exists()
    run = cli("solve", "cat-mouse-grid", "--grid", "no/such/grid.json", "-q")
    assert run.exit_code == 2 and "no such file" in run.stderr
    assert cli("solve", "cat-mouse-grid", "--grid", '["MCF"]', "-q").exit_code == 0
    run = cli("query", "cat-mouse-grid", "mouse=r0c9,cat=r0c1,turn=cat")
    assert run.exit_code == 2 and "off the 1x3 grid" in run.stderr
    run = cli("query", "cat-mouse-grid", "mouse=r0c2,cat=r0c2,turn=mouse")
    assert run.exit_code == 1 and "not reachable" in run.stderr


def test_winner_and_the_turn_limit_say_one_thing(cli):
    """``result``, ``remoteness`` and ``winner`` are the unlimited game's (None for a draw), as in the positions view and
    export; LeetCode 1728's reading under the limit is ``winner_within_limit``, and ``decided_by`` says when the limit
    gives the cat what it does not win without it (a draw, or a mouse win that takes longer)."""
    corridor = '["M.......F","#########","C........"]'  # the cat cannot reach the food's row in time: the mouse runs
    assert cli("solve", "cat-mouse-grid", "--grid", corridor, "--name", "far", "--turn-limit", "14", "-q").exit_code == 0
    data = json.loads(cli("query", "far", "--json").stdout)
    assert (data["player"], data["result"], data["winner"], data["remoteness"]) == ("mouse", "win", "mouse", 15)
    assert (data["mouse_wins_within_limit"], data["winner_within_limit"], data["decided_by"]) == (False, "cat", "turn limit")
    plain = cli("query", "far").stdout.splitlines()
    assert "value      win in 15 (mouse wins with no turn limit)" in plain
    assert "turn limit 14: the cat wins, decided by the turn limit (the mouse cannot reach the food within 14 turns)" in plain
    assert cli("solve", "cat-mouse-grid", "--grid", corridor, "--name", "near", "--turn-limit", "15", "-q").exit_code == 0
    data = json.loads(cli("query", "near", "--json").stdout)  # eating on the last allowed turn wins
    assert (data["winner"], data["winner_within_limit"], data["decided_by"]) == ("mouse", "mouse", None)
    assert "turn limit 15: the mouse wins" in cli("query", "near").stdout.splitlines()
    draw = '["...#F",".#.##","M.C.."]'
    assert cli("solve", "cat-mouse-grid", "--grid", draw, "--name", "stuck", "-q").exit_code == 0
    data = json.loads(cli("query", "stuck", "--json").stdout)
    assert (data["result"], data["winner"], data["winner_within_limit"], data["decided_by"]) == ("draw", None, "cat", "turn limit")
    # a cat win is the cat's with or without the limit
    cat_to_move = json.loads(cli("query", "far", "mouse=r0c7,cat=r2c0,turn=cat", "--json").stdout)
    assert (cat_to_move["result"], cat_to_move["winner"], cat_to_move["decided_by"]) == ("lose", "mouse", None)
    # export and the positions view: the unlimited game's winner, as query's `winner`
    exported = {row["position"]: row for row in map(json.loads, cli("export", "stuck", "--format", "jsonl").stdout.splitlines())}
    assert exported["mouse=r2c0,cat=r2c2,turn=mouse"]["winner"] is None
    con = sqlite3.connect(cli.db_path)
    assert con.execute("SELECT result, winner FROM positions WHERE game = 'far' AND position = 'mouse=r0c0,cat=r2c0,turn=mouse'").fetchone() == ("win", "mouse")
    con.close()
