"""What `gamedb query` writes, checked against known-good JSON for every family.

`tests/data/query_answers.json` holds, for each built-in family solved small
(:data:`OPTIONS`): the positions fed to `gamedb query
NAME -` (a sample of the stored ones, sums of heaps, one line that does not
parse), the JSON Lines it wrote, and the `--json` object of the start. It was
written by gamedb before the answer's encoders became one (`Answer.to_dict`,
encoded compactly by `Answer.json_line`), so the output is held to bytes that
no code here produced. Made-up answers with every kind of text a file may
hold are held the same way, and the terminal-safe escaping of those lines.

Write the file again only when the answer's format changes on purpose:
`python tests/test_answer_golden.py` (it says what changed in its diff).
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gamedb import Database, make_game
from gamedb.answers import Answer, MoveValue
from gamedb.games import BUILTIN

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "query_answers.json"
#: the games the known-good answers are of (each family's small options when they were written)
OPTIONS: dict[str, dict[str, Any]] = {
    "cat-mouse": {"graph": [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]},
    "tictactoe": {},
    "connect4": {"width": 4, "height": 4},
    "graph": {"file": str(ROOT / "examples" / "graphs" / "tug-of-war.json")},
    "cat-mouse-grid": {"grid": ["####F", "#C...", "M...."], "cat_jump": 1, "mouse_jump": 2},
    "flip": {"max": 12},
    "octal": {"code": "0.137", "max": 30},
    "grundy": {"max": 20},
    "nim": {"max": 7},
    "subtraction": {"set": "1,2,5", "max": 20},
    "stone-ix": {"max": 3},
}
#: positions of each family fed to `query NAME -`, beside the sample of stored ones
EXTRA = {
    "nim": ["3 5", "1 2 3", "4 4 2"], "subtraction": ["3 5", "1 2 3", "4 4 2"], "grundy": ["3 5", "1 2 3", "4 4 2"],
    "octal": ["3 5", "1 2 3"], "flip": ["++-+++", "+++-+++-++"],
}
#: text a shared file may hold in a name, a position or a move label
HOSTILE = ['"', "\\", 'a"b\\c', "\n\r\t\b\f", "\x00\x01\x1f\x7f", "\u2028\u2029", "\u200f\u202e", "é ü ß", "𝄞 😀", "\ud800", "{}[],:", "null", ""]


def _positions(path: Path, family: str) -> list[str]:
    with sqlite3.connect(path) as conn:
        texts = [t for (t,) in conn.execute("SELECT position FROM positions WHERE game = ? ORDER BY code", (family,))]
    return random.Random(7).sample(texts, min(40, len(texts))) + EXTRA.get(family, []) + ["not a position"]


def _process(path: Path, *args: str, input: str) -> tuple[int, str]:
    """`gamedb --db PATH ARGS...` as a process of the console script."""
    run = subprocess.run([sys.executable, "-m", "gamedb", "--db", str(path), *args],
                         input=input.encode("utf-8", "surrogateescape"), capture_output=True, timeout=60)
    return run.returncode, run.stdout.decode("utf-8", "surrogateescape")


def _query(path: Path, *args: str, input: str | None = None) -> tuple[int, str]:
    """`gamedb --db PATH ARGS...` through the full command line (Typer), in this process."""
    from typer.testing import CliRunner

    from gamedb.cli.app import app

    result = CliRunner().invoke(app, ["--db", str(path), *args], input=input)
    return result.exit_code, result.stdout


def _made_up() -> list[Answer]:
    """Answers with hostile text in every text field, partisan and impartial, with and without the uncommon parts."""
    answers = []
    for text in HOSTILE:
        for impartial in (False, True):
            moves = [
                MoveValue(text, text + "1", "win", 3, None, 0),
                MoveValue("2", text, "lose", None, 5, None),
                MoveValue(text * 3, "x", "draw", None, None, 0),
                MoveValue("4", "y", "tie", 0, 0, 2),
            ]
            answers.append(Answer(game=text, position=text, player=text, result="win", winner=None if impartial else text, remoteness=None,
                                  degree=4, best_move=text, grundy=2 if impartial else None, moves=moves, impartial=impartial))
    plain = Answer(game="g", position="p", player="X", result="lose", winner="O", remoteness=2, degree=9, best_move="5",
                   moves=[MoveValue("5", "q", "win", 1, None, 0)])
    answers.append(plain)
    answers.append(Answer(**{**plain.__dict__, "verdict": {"within_limit": True, "note": "a\nb"}}))
    answers.append(Answer(**{**plain.__dict__, "moves_complete": False}))
    answers.append(Answer(**{**plain.__dict__, "rules_missing": "the rules are not here"}))
    return answers


def write_golden(folder: Path) -> dict[str, Any]:
    """The known-good outputs, as the gamedb on the path writes them."""
    path = folder / "games.sqlite"
    with Database(path, create=True) as db:
        for family in OPTIONS:
            db.solve(make_game(family, **OPTIONS[family]), family)
    families = {}
    for family in OPTIONS:
        positions = _positions(path, family)
        code, lines = _process(path, "query", family, "-", input="\n".join(positions) + "\n")
        assert (code, lines) == _query(path, "query", family, "-", input="\n".join(positions) + "\n")
        families[family] = {"positions": positions, "exit_code": code, "jsonl": lines.splitlines(), "start_json": _query(path, "query", family, "--json")[1]}
    return {"families": families, "made_up": [answer.json_line() for answer in _made_up()]}


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("golden") / "games.sqlite"
    with Database(path, create=True) as db:
        for family in OPTIONS:
            db.solve(make_game(family, **OPTIONS[family]), family)
    return path


def test_the_known_good_answers_are_of_built_in_families(golden):
    assert sorted(golden["families"]) == sorted(OPTIONS) and set(OPTIONS) <= set(BUILTIN)


@pytest.mark.parametrize("family", list(OPTIONS))
def test_query_lines_are_the_known_good_ones(solved, golden, family):
    known = golden["families"][family]
    feed = "\n".join(known["positions"]) + "\n"
    for code, lines in (_process(solved, "query", family, "-", input=feed), _query(solved, "query", family, "-", input=feed)):
        assert (code, lines.splitlines()) == (known["exit_code"], known["jsonl"])
    assert len(known["jsonl"]) == len(known["positions"])
    assert _query(solved, "query", family, "--json")[1] == known["start_json"]


@pytest.mark.parametrize("family", list(OPTIONS))
def test_the_api_objects_are_the_known_good_ones(solved, golden, family):
    """`Answer.to_dict` (the Python API) and `to_json` are the objects `query` wrote, key order included."""
    known = golden["families"][family]
    expected = [json.loads(line) for line in known["jsonl"]]
    with Database(solved, readonly=True) as db:
        answers = list(db.probe_many(family, known["positions"], errors="return", boards=False))
    for answer, data in zip(answers, expected, strict=True):
        if isinstance(answer, Answer):
            assert list(answer.to_dict().items()) == list(data.items()), answer.position
            assert answer.to_json() == json.dumps(data, indent=2, ensure_ascii=False)
        else:
            assert "error" in data


def test_any_text_is_encoded_as_it_was(golden):
    assert [answer.json_line() for answer in _made_up()] == golden["made_up"]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        GOLDEN.write_text(json.dumps(write_golden(Path(tmp)), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")


def _escaped_one_by_one(text: str) -> str:
    """The definition of `json_escaped`: each character that is not printable (but a newline) as JSON's \\u escape."""
    out = []
    for c in text:
        if c.isprintable() or c == "\n":
            out.append(c)
        else:
            units = c.encode("utf-16-be", "surrogatepass")
            out.extend(f"\\u{int.from_bytes(units[i:i + 2], 'big'):04x}" for i in range(0, len(units), 2))
    return "".join(out)


def test_terminal_safe_json_escapes_what_a_terminal_would_not_show():
    """`gamedb query NAME -` writes each batch through json_escaped, which tests ASCII text with one translate."""
    from gamedb.safe_text import json_escaped

    every_ascii = "".join(map(chr, range(128)))
    rng = random.Random(3)
    alphabet = [*every_ascii, "\x85", "\xa0", "é", "\u2028", "\u200f", "\ud800", "😀", "\U000e0001"]
    texts = [every_ascii, "{}\n" * 3, "plain ascii\n", "", *HOSTILE]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(500)]
    texts += ["".join(rng.choice(" -~XO.\n\x7f") for _ in range(20)) for _ in range(200)]
    for text in texts:
        assert json_escaped(text) == _escaped_one_by_one(text), repr(text)
