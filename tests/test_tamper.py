"""`verify` catches any single changed value in a solved table: each column tampered in turn.

Every game is solved once into a template file; every tamper is made on a
fresh copy of it with plain sqlite3 (what a hand edit does), and
`gamedb verify NAME` must then exit 1 with one `Error:` line naming exactly
the tampered position -- never a neighbour, never a traceback. The positions
are chosen deterministically: for each result the game has (win, lose, tie,
draw), the first in code order with at least two moves (heap games: also the
first whose remoteness is NULL), and the first primitive one.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gamedb import Database, make_game
from gamedb.errors import VerifyError
from gamedb.values import RESULT_CODES, RESULT_WORDS

from conftest import SEED_GRAPH_1
from flip_string import FlipString

#: name -> (family, parameters); cat-mouse is LeetCode 913 example 1, with draws
GAMES = {
    "tictactoe": ("tictactoe", {}),
    "cm": ("cat-mouse", {"graph": json.dumps(SEED_GRAPH_1)}),
    "flip": ("flip", {"max": 12}),
    "nim": ("nim", {"max": 8}),
}
HEAPS = {"flip", "nim"}
IMPARTIAL = {"flip", "nim"}

COLUMNS = "code, text, result, remoteness, degree, best_move, grundy"


@dataclass
class Solved:
    name: str
    path: Path
    heap: bool
    impartial: bool
    #: the positions to tamper with (dicts of their stored columns)
    targets: list[dict]
    #: text -> the legal move labels of that position
    labels: dict[str, list[str]] = field(default_factory=dict)


def _rows(path: Path) -> list[dict]:
    with sqlite3.connect(path) as con:
        con.row_factory = sqlite3.Row
        rows = [dict(r) for r in con.execute(f"SELECT {COLUMNS} FROM position ORDER BY code")]
    return [dict(r, result=RESULT_WORDS[r["result"]]) for r in rows]  # the stored codes as words (revision 0007)


def _choose(rows: list[dict], heap: bool) -> list[dict]:
    chosen: dict[int, dict] = {}
    for result in ("win", "lose", "tie", "draw"):
        of_result = [r for r in rows if r["result"] == result]
        wide = [r for r in of_result if r["degree"] >= 2] or of_result
        if wide:
            chosen.setdefault(wide[0]["code"], wide[0])
        if heap:  # heap games store NULL remoteness for some wins and losses
            unknown = [r for r in wide if r["remoteness"] is None]
            if unknown:
                chosen.setdefault(unknown[0]["code"], unknown[0])
    primitive = [r for r in rows if r["degree"] == 0]
    if primitive:
        chosen.setdefault(primitive[0]["code"], primitive[0])
    return sorted(chosen.values(), key=lambda r: r["code"])


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> dict[str, Solved]:
    out = {}
    for name, (family, params) in GAMES.items():
        path = tmp_path_factory.mktemp("tamper") / f"{name}.sqlite"
        with Database(path, create=True) as db:
            db.solve(make_game(family, **params), name, strategy="sql")
        rows = _rows(path)
        entry = Solved(name, path, name in HEAPS, name in IMPARTIAL, _choose(rows, name in HEAPS))
        with Database(path, readonly=True) as db:
            for row in entry.targets:
                entry.labels[row["text"]] = [m.move for m in db.probe(name, row["text"]).moves]
        out[name] = entry
    return out


# --- the tampers: each maps a stored row to {column: new value}, or None when it does not apply


def _flip_result(row, s: Solved):
    new = {"win": "lose", "lose": "win", "tie": "draw", "draw": "win"}[row["result"]]
    if s.heap:  # heap rows are wins and losses; NULL remoteness is fine there
        return {"result": new}
    rem = row["remoteness"] if row["remoteness"] is not None else 1
    return {"result": new, "remoteness": None if new == "draw" else rem}


def _tie_result(row, s: Solved):
    if s.heap:  # not a result a heap game has
        return {"result": "tie"}
    new = "win" if row["result"] == "tie" else "tie"
    return {"result": new, "remoteness": row["remoteness"] if row["remoteness"] is not None else 2}


def _other_label(row, s: Solved):
    others = [label for label in s.labels[row["text"]] if label != row["best_move"]]
    return {"best_move": others[-1]} if others else None


def _int_or(value, change, instead):
    return value + change if isinstance(value, int) else instead


TAMPERS = {
    "result-flip": _flip_result,
    "result-tie": _tie_result,
    "result-null": lambda row, s: {"result": None},
    "result-garbage": lambda row, s: {"result": "WIN"},
    "result-code": lambda row, s: {"result": 7},  # out of the code table
    "remoteness+1": lambda row, s: {"remoteness": _int_or(row["remoteness"], 1, 1)},
    "remoteness-1": lambda row, s: {"remoteness": _int_or(row["remoteness"], -1, 0)},
    "remoteness-null": lambda row, s: {"remoteness": None if row["remoteness"] is not None else 2},
    "remoteness-text": lambda row, s: {"remoteness": "three"},
    "remoteness-real": lambda row, s: {"remoteness": _int_or(row["remoteness"], 0.5, 1.5)},
    "degree+1": lambda row, s: {"degree": row["degree"] + 1},
    "degree-1": lambda row, s: {"degree": row["degree"] - 1},
    "best-other": _other_label,
    "best-garbage": lambda row, s: {"best_move": "nowhere"},
    "best-null": lambda row, s: {"best_move": None} if row["best_move"] is not None else None,
    "grundy-change": lambda row, s: {"grundy": _int_or(row["grundy"], 1, 0)} if s.impartial else {"grundy": 0},
    "grundy-null": lambda row, s: {"grundy": None} if s.impartial else {"grundy": 7},
}


def _tamper(template: Path, copy: Path, code: int, changes: dict) -> None:
    shutil.copy(template, copy)
    changes = {k: RESULT_CODES.get(v, v) if k == "result" else v for k, v in changes.items()}  # words stored as codes
    sets = ", ".join(f"{column} = ?" for column in changes)
    with sqlite3.connect(copy) as con:
        before = con.execute(f"SELECT {', '.join(changes)} FROM position WHERE code = ?", (code,)).fetchone()
        assert con.execute(f"UPDATE position SET {sets} WHERE code = ?", (*changes.values(), code)).rowcount == 1
        after = con.execute(f"SELECT {', '.join(changes)} FROM position WHERE code = ?", (code,)).fetchone()
    con.close()
    assert before != after, f"the tamper {changes} changed nothing"


def test_untampered_copies_verify(solved, cli, tmp_path):
    for name, s in solved.items():
        copy = tmp_path / f"{name}.sqlite"
        shutil.copy(s.path, copy)
        run = cli("verify", name, "-q", db=copy)
        assert run.exit_code == 0, (name, run.stderr)
        assert "agree with the rules" in run.stdout
        assert len(s.targets) >= 2, (name, s.targets)


CASES = [(name, tamper) for name in GAMES for tamper in TAMPERS]


@pytest.mark.parametrize("name,tamper", CASES, ids=[f"{n}-{t}" for n, t in CASES])
def test_each_tamper_is_named(solved, cli, tmp_path, name, tamper):
    s = solved[name]
    done = 0
    for row in s.targets:
        changes = TAMPERS[tamper](row, s)
        if changes is None:
            continue
        copy = tmp_path / f"{name}-{row['code']}.sqlite"
        _tamper(s.path, copy, row["code"], changes)
        run = cli("verify", name, "-q", db=copy)
        what = f"{name}: {changes} on {row['text']!r} ({row['result']} in {row['remoteness']})"
        assert run.exit_code == 1, f"{what} not caught: {run.stdout}"
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error:"), (what, run.stderr)
        assert f"position {row['text']!r}:" in lines[0], (what, lines[0])
        assert "Traceback" not in run.stderr + run.stdout
        done += 1
    assert done >= 1, f"{tamper} applied to no position of {name}"


# --- an impartial game that is not a heap game: grundy values come from the move table


def test_tampers_in_a_move_table_impartial_game(tmp_path):
    from gamedb.solvers.checks import verify

    template = tmp_path / "strings.sqlite"
    game = FlipString()
    with Database(template, create=True) as db:
        db.solve(game, "strings", strategy="sql")
        verify(db.engine, db.game("strings"), game)
    s = Solved("strings", template, False, True, _choose(_rows(template), False))
    with Database(template, readonly=True, game_classes=["flip_string:FlipString"]) as db:  # the file names the test's class
        for row in s.targets:
            s.labels[row["text"]] = [m.move for m in db.probe("strings", row["text"]).moves]
    cases = 0
    for row in s.targets:
        for tamper, make in TAMPERS.items():
            changes = make(row, s)
            if changes is None:
                continue
            copy = tmp_path / f"copy{cases}.sqlite"
            _tamper(template, copy, row["code"], changes)
            with Database(copy, readonly=True) as db, pytest.raises(VerifyError) as caught:
                verify(db.engine, db.game("strings"), game)
            assert f"position {row['text']!r}:" in str(caught.value), (tamper, changes, row, str(caught.value))
            cases += 1
    assert cases >= 30


def test_verify_catches_a_changed_move_list(tmp_path):
    """Cat and mouse keeps its moves as move lists (token_move); a changed target is named."""
    from gamedb import Database, make_game
    from gamedb.errors import VerifyError

    db = Database(tmp_path / "lists.sqlite", create=True)
    db.solve(make_game("cat-mouse", graph=[[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]), "cm")
    db.verify("cm")
    with db.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE token_move SET target = 4 WHERE player = 0 AND node = 1 AND ord = 0")
    with pytest.raises(VerifyError, match="move 0 of mouse at node 1"):
        db.verify("cm")


def test_verify_catches_changed_or_missing_players(tmp_path):
    from gamedb import Database, make_game
    from gamedb.errors import VerifyError

    db = Database(tmp_path / "players.sqlite", create=True)
    db.solve(make_game("tictactoe"))
    db.verify("tictactoe")
    with db.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE player SET name = 'Y' WHERE idx = 0")
    with pytest.raises(VerifyError, match="stored players"):
        db.verify("tictactoe")
    with db.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM player")
    with pytest.raises(VerifyError, match="stored players"):
        db.verify("tictactoe")
