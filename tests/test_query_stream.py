"""``gamedb query NAME -`` answers a batch at once (the rules on arrays where the family has them: moves, symmetry, texts)
and writes byte for byte what ``gamedb query NAME POSITION --format jsonl`` writes for each position alone; a bad line
gets the one-position command's error in its place, an empty line is skipped."""

from __future__ import annotations

import json
import random

import pytest
from test_packed_positions import _raw

from gamedb import Database, make_game
from gamedb.solvers.graph_answer import ARRAY_BATCH
from gamedb.store import rows

#: (name, family, options, symmetry): a symmetric family with texts stored, one stored without texts, families on
#: vector rules (cat-mouse with a component the start never reaches, cat-mouse-grid with its verdict), nim (heaps), a
#: loopy game stored one row per mirror class (Dōbutsu shōgi with giraffes only, 6,977 classes)
GAMES = [
    ("tictactoe", "tictactoe", {}, True),
    ("connect4-4x3", "connect4", {"width": 4, "height": 3}, True),
    ("connect4-4x3-all", "connect4", {"width": 4, "height": 3}, False),
    ("cat-mouse", "cat-mouse", {"graph": [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3], [7], [6]]}, False),
    ("cat-mouse-grid", "cat-mouse-grid", {"grid": ["####F", "#C...", "M...."]}, False),
    ("nim", "nim", {"max": 9}, False),
    ("dobutsu-G", "dobutsu", {"pieces": "G"}, True),
]
#: per game: lines a user may type that no answer has (malformed, unreachable or beyond the solved range)
BAD = {
    "tictactoe": ["XXXOOO...", "X", "XX.OO....."],
    "connect4-4x3": ["5", "1111", "12a"],
    "connect4-4x3-all": ["0", "11111"],
    "cat-mouse": ["mouse=6,cat=7,turn=mouse", "mouse=1,cat=0,turn=mouse", "mouse=1"],
    "cat-mouse-grid": ["mouse=r9c9,cat=r1c1,turn=mouse", "cat"],
    "nim": ["20", "x"],
    "dobutsu-G": ["gle/.c./.C./ELG - first", "gl./.../.../.LG - sente", ".l./.../.../.L. G first", "x"],
}


@pytest.fixture(scope="module", params=["sqlite", "duckdb"])
def solved(request, tmp_path_factory):
    if request.param == "duckdb":
        pytest.importorskip("duckdb")
    path = tmp_path_factory.mktemp("stream") / f"games.{request.param}"
    with pytest.MonkeyPatch.context() as patch, Database(path, create=True) as db:
        patch.setattr(rows, "TEXT_LEFT_OUT_FROM", 200)  # connect4-4x3 (and the larger others) stored without texts
        for name, family, options, symmetry in GAMES:
            db.solve(make_game(family, **options), name, symmetry=symmetry)
    return path


def _sample(db: Database, name: str, family: str, options: dict, count: int = 45) -> list[str]:
    """Stored positions and positions one move on (not canonical ones too), formatted by the rules, in a random order."""
    game = make_game(family, **options)
    texts = sorted({game.format(game.decode(row["code"])) for row in db.positions(name)})
    rng = random.Random(name)
    some = rng.sample(texts, min(count, len(texts)))
    some += [move.position for answer in db.probe_many(name, some[:30]) for move in answer.moves]
    rng.shuffle(some)
    return some[: 2 * count]


def test_the_stream_writes_what_each_position_alone_writes(cli, solved):
    without = "SELECT COUNT(*) FROM position p JOIN game g ON g.id = p.game_id WHERE g.name = 'connect4-4x3' AND p.text IS NOT NULL"
    assert _raw(solved, without) == [(0,)]  # its texts come from the rules
    with Database(solved, readonly=True) as db:
        samples = {name: _sample(db, name, family, options) for name, family, options, _ in GAMES}
    for name, texts in samples.items():
        assert len(texts) >= ARRAY_BATCH or name == "nim", name  # a batch large enough for the rules on arrays
        lines = texts[:20] + ["", *BAD[name], "   "] + texts[20:]
        stream = cli("query", name, "-", db=solved, input="".join(line + "\n" for line in lines))
        expected, failed = [], 0
        for text in texts[:20] + BAD[name] + texts[20:]:
            alone = cli("query", name, text, "--format", "jsonl", db=solved)
            if alone.exit_code == 0:
                expected.append(alone.stdout)
            else:  # the one-position error, in its place
                failed += 1
                message = alone.stderr.strip().removeprefix("Error: ")
                expected.append(json.dumps({"position": text, "error": message}, ensure_ascii=False, separators=(",", ":")) + "\n")
        assert failed == len(BAD[name]), name
        assert stream.stdout.splitlines(True) == expected, name
        assert (stream.exit_code, stream.stderr.strip()) == (1, f"Error: {failed} of {len(expected)} positions could not be answered"), name


def test_a_stream_of_good_lines_succeeds_and_the_json_formats_hold_the_same_answers(cli, solved):
    with Database(solved, readonly=True) as db:
        texts = _sample(db, "tictactoe", "tictactoe", {}, 200)
    stream = "".join(text + "\n" for text in texts)
    lines = cli("query", "tictactoe", "-", db=solved, input=stream)
    listed = cli("query", "tictactoe", "-", "--format", "json", db=solved, input=stream)
    assert lines.exit_code == listed.exit_code == 0 and lines.stderr == ""
    assert [json.loads(line) for line in lines.stdout.splitlines()] == json.loads(listed.stdout)
    assert [answer["position"] for answer in json.loads(listed.stdout)] == texts


@pytest.mark.parametrize("width,height,connect,count", [(4, 3, 4, 1500), (5, 4, 4, 1500), (3, 3, 3, 1500), (11, 2, 3, 1500), (7, 6, 4, 4000)])
def test_connect4_reads_and_formats_a_batch_as_parse_and_format_do_one_at_a_time(width, height, connect, count):
    """Connect4Arrays.codes_of gives parse's code or -1 (then parse reads it, or says why); texts gives format's text
    (the smallest sequence) for boards reached by random play and their children (boards with a line: from their
    parents' sequences), searched together."""
    import numpy as np

    from gamedb.errors import PositionError

    game = make_game("connect4", width=width, height=height, connect=connect)
    rules = game.array_rules()
    rng = random.Random(width * height)
    states = []
    for _ in range(count):  # 7x6: enough boards with a line whose parents' searches run long
        state = game.start()
        for _ in range(rng.randrange(width * height + 1)):
            moves = game.moves(state)
            if not moves:
                break
            state = rng.choice(moves)[1]
        states.append(state)
    sep = "," if width > 9 else ""
    typed = ["-", "", "0", "1 2", "12a", "٣", "1" * (height + 1)]
    typed += [sep.join(str(rng.randrange(0, width + 2)) for _ in range(rng.randrange(1, width * height + 2))) for _ in range(1500)]
    typed += [game.format(state) for state in states]
    read = rules.codes_of(typed).tolist()
    for text, code in zip(typed, read, strict=True):
        try:
            expected = game.encode(game.parse(text))
        except PositionError:
            expected = -1
        assert code in (-1, expected), text
    if width <= 9:  # most texts read at once
        assert sum(code >= 0 for code in read) > len(states)
    else:  # moves with commas: all but the start left to parse
        assert {code for text, code in zip(typed, read, strict=True) if text != "-"} == {-1}
    codes = np.array([game.encode(state) for state in states], dtype=np.int64)
    codes = np.concatenate([codes, rules.expand(codes).children])
    alone = make_game("connect4", width=width, height=height, connect=connect)
    assert rules.texts(codes) == [alone.format(alone.decode(code)) for code in codes.tolist()]
