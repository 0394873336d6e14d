"""`Answer.json_line()` is `Answer.to_dict()` encoded compactly, byte for byte.

`gamedb query NAME -` writes every answer with `json_line()`, which writes the
usual answer out directly instead of building and encoding the object; the
JSON object itself stays defined once, by `to_dict()`. Checked here for the
answers of every family (solved at the options each declares, ``Game.examples``)
and for made-up answers with every kind of text a file may hold.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from gamedb import Database
from gamedb.answers import Answer, MoveValue
from gamedb.errors import GamedbError
from gamedb.games import BUILTIN

sys.path.insert(0, str(Path(__file__).resolve().parent))
from registry import solve_examples  # noqa: E402  (the example game of every family)


def _compact(answer: Answer) -> str:
    return json.dumps(answer.to_dict(), ensure_ascii=False, separators=(",", ":"))


def _stored_texts(path: Path, name: str) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [t for (t,) in conn.execute("SELECT position FROM positions WHERE game = ? ORDER BY code", (name,))]


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    return solve_examples(tmp_path_factory.mktemp("json-line") / "games.sqlite", list(BUILTIN))


@pytest.mark.parametrize("family", list(BUILTIN))
def test_every_family_answer_is_its_object(solved, family):
    texts = _stored_texts(solved, family)
    sample = random.Random(7).sample(texts, min(300, len(texts)))
    if family in ("nim", "subtraction", "grundy"):
        sample += ["3 5", "1 2 3", "4 4 2"]  # sums of heaps: answered by the rules, some remoteness unknown
    elif family in ("octal", "flip"):
        sample += ["3 5", "1 2 3"] if family == "octal" else ["++-+++", "+++-+++-++"]
    answered = 0
    with Database(solved, readonly=True) as db:
        for answer in db.probe_many(family, [None, *sample], errors="return", boards=False):
            if isinstance(answer, GamedbError):
                continue
            assert answer.json_line() == _compact(answer), answer.position
            answered += 1
    assert answered >= min(len(texts), 300)


def test_answers_without_the_rules_are_their_object(solved, tmp_path):
    """A game whose family is unknown here is answered from its rows (``rules_missing``): encoded as the object."""
    copy = tmp_path / "no-rules.sqlite"
    copy.write_bytes(solved.read_bytes())
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE game SET family = 'no_such_module:Game' WHERE name = 'tictactoe'")
    with Database(copy, readonly=True) as db:
        answer = db.probe("tictactoe", ".........")
    assert answer.rules_missing is not None
    assert answer.json_line() == _compact(answer)


#: text a shared file may hold in a name, a position or a move label
HOSTILE = ['"', "\\", 'a"b\\c', "\n\r\t\b\f", "\x00\x01\x1f\x7f", "\u2028\u2029", "\u200f\u202e", "é ü ß", "𝄞 😀", "\ud800", "{}[],:", "null", ""]


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("impartial", [False, True])
def test_any_text_is_encoded_as_json_does(text, impartial):
    moves = [
        MoveValue(text, text + "1", "win", 3, None, 0),
        MoveValue("2", text, "lose", None, 5, None),
        MoveValue(text * 3, "x", "draw", None, None, 0),
        MoveValue("4", "y", "tie", 0, 0, 2),
    ]
    answer = Answer(game=text, position=text, player=text, result="win", winner=None if impartial else text, remoteness=None,
                    degree=4, best_move=text, grundy=2 if impartial else None, moves=moves, impartial=impartial)
    assert answer.json_line() == _compact(answer)
    answer.grundy = 7
    assert answer.json_line() == _compact(answer)
    answer.best_move, answer.remoteness, answer.moves = None, 12, []
    assert answer.json_line() == _compact(answer)


def test_the_uncommon_parts_are_encoded_from_the_object():
    answer = Answer(game="g", position="p", player="X", result="lose", winner="O", remoteness=2, degree=9, best_move="5",
                    moves=[MoveValue("5", "q", "win", 1, None, 0)])
    plain = answer.json_line()
    answer.verdict = {"within_limit": True, "note": "a\nb"}
    assert answer.json_line() == _compact(answer) != plain
    answer.verdict, answer.moves_complete = {}, False
    assert answer.json_line() == _compact(answer) != plain
    answer.moves_complete, answer.rules_missing = True, "the rules are not here"
    assert answer.json_line() == _compact(answer) != plain


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
