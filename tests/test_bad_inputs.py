"""Every bad input gets a clear one-line answer and leaves the files alone (issue 6).

One table, ``CASES``, lists bad inputs across every command (``solve`` for
every family and ``--game module:Class``, ``query``, ``stats``, ``verify``,
``export``, ``play``, ``copy``, ``compact``, ``list``, ``db upgrade``) and
every kind of mistake: malformed JSON, wrong types, out-of-range values,
unknown names, impossible positions, bad option values, files that are not
gamedb databases, a missing database, a too-old SQLite. Each case names the
exit code it must give (2 malformed input, 1 operational error) and a phrase
the message must contain.

Each case runs through the real command line (``gamedb.cli.app`` under
Click's runner; ``test_real_entry_point`` runs a few through
``python -m gamedb``) and must:

- exit with the expected code;
- print exactly one non-empty line on stderr, starting with ``Error:`` and
  containing the phrase;
- print no traceback, and raise nothing but ``SystemExit``;
- leave every file untouched: the database of small solved games (compared
  by content, a dump of every table), the other files given to the command,
  and no new file beside them (the missing database stays missing).

Cases that fail because of a product bug outside the game families are
marked ``xfail(strict=True)`` with the symptom, so fixing the bug flips them.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app

#: LeetCode 913 example 1 (a draw): six nodes, small
CAT_MOUSE_GRAPH = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
GRID = '["M.C","..F"]'
#: a number with more digits than Python's int() converts by default (4300): parsers must not call int() on it blindly
HUGE = "9" * 5000
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "graphs"

#: the games solved into the shared database: (arguments of `gamedb solve`)
SOLVED = [
    ["tictactoe"],
    ["cat-mouse", "--graph", json.dumps(CAT_MOUSE_GRAPH), "--name", "cm"],
    ["nim", "--max", "10"],
    ["graph", "--file", str(EXAMPLES / "coin-split.json"), "--name", "coins"],
    ["connect4", "--width", "3", "--height", "3", "--connect", "3", "--name", "c4"],
    ["stone-ix", "--max", "2"],
    ["flip", "--max", "10"],
    ["subtraction", "--set", "1,2", "--max", "10", "--name", "sub"],
    ["octal", "--code", "0.77", "--max", "10", "--name", "kayles"],
    ["grundy", "--max", "10"],
    ["cat-mouse-grid", "--grid", GRID, "--name", "grid"],
]


@dataclass(frozen=True)
class Case:
    args: tuple[str, ...]
    code: int
    message: str
    #: run with this SQLite version reported by the sqlite3 module
    sqlite_version: str | None = None


def case(id, args, code, message, *, xfail=None, sqlite_version=None):
    """One row of the table. ``args`` may use {db} {text} {foreign} {missing} {dir} {badjson} {newer} {older}.

    ``--db {db}`` is put in front unless the case gives its own ``--db``.
    """
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    return pytest.param(Case(tuple(args), code, message, sqlite_version), id=id, marks=marks)


G = lambda text: ["solve", "graph", "--file", text]  # noqa: E731  (an inline game file)
CM = lambda graph: ["solve", "cat-mouse", "--graph", graph]  # noqa: E731

CASES = [
    # --- solve cat-mouse: malformed JSON, wrong types, bad graphs ------------------------
    case("cat-mouse-bad-json-inline", CM("[[1,2],"), 2, "bad JSON"),
    case("cat-mouse-bad-json-file", CM("{badjson}"), 2, "bad JSON"),
    case("cat-mouse-no-such-file", CM("{dir}/nofile.json"), 2, "no such file"),
    case("cat-mouse-graph-is-a-directory", CM("{dir}"), 2, "is a directory"),
    case("cat-mouse-graph-empty-text", CM("   "), 2, "--graph is empty"),
    case("cat-mouse-graph-not-a-list", CM('{"a": 1}'), 2, "must be a JSON list"),
    case("cat-mouse-too-few-nodes", CM("[[1],[0]]"), 2, "at least 3 nodes"),
    case("cat-mouse-node-out-of-range", CM("[[1,2],[0,7],[0,1]]"), 2, "out of range"),
    case("cat-mouse-negative-node", CM("[[1,2],[0,2],[0,-1]]"), 2, "out of range"),
    case("cat-mouse-one-way-edge", CM("[[1,2],[0,2],[0]]"), 2, "one way only"),
    case("cat-mouse-node-is-a-string", CM('[[1,2],[0,"2"],[0,1]]'), 2, "is not a node number"),
    case("cat-mouse-node-is-a-float", CM("[[1,2],[0,2],[0,1.5]]"), 2, "is not a node number"),
    case("cat-mouse-node-is-a-boolean", CM("[[1,2],[0,2],[0,true]]"), 2, "is not a node number"),
    case("cat-mouse-self-loop", CM("[[1,2],[0,2],[0,1,2]]"), 2, "self-loop"),
    case("cat-mouse-edge-twice", CM("[[1,2],[0,2],[0,1,1]]"), 2, "listed twice"),
    case("cat-mouse-node-without-moves", CM("[[1,2],[0,2],[]]"), 2, "has no moves"),
    case("cat-mouse-row-not-a-list", CM("[[1,2],[0,2],5]"), 2, "must be a list"),
    case(
        "cat-mouse-graph-huge-number",
        CM(f"[[1,2],[0,2],[0,{HUGE}]]"),
        2,
        "--graph",
    ),
    case("cat-mouse-missing-graph", ["solve", "cat-mouse"], 2, "Missing option '--graph'"),
    case("cat-mouse-name-taken-by-other-game", CM("[[1,3],[0],[3],[0,2]]") + ["--name", "tictactoe"], 1, "already stored"),
    # --- solve cat-mouse-grid ---------------------------------------------------------------
    case("grid-not-rectangular", ["solve", "cat-mouse-grid", "--grid", '["M.C",".."]'], 2, "rectangular"),
    case("grid-no-food", ["solve", "cat-mouse-grid", "--grid", '["M.C","..."]'], 2, "no 'F'"),
    case("grid-two-mice", ["solve", "cat-mouse-grid", "--grid", '["MMC","..F"]'], 2, "needs exactly one"),
    case("grid-bad-cell", ["solve", "cat-mouse-grid", "--grid", '["MXC","..F"]'], 2, "'X' is not a cell"),
    case("grid-bare-rows", ["solve", "cat-mouse-grid", "--grid", "M.C..F"], 2, "JSON list"),
    case("grid-no-rows", ["solve", "cat-mouse-grid", "--grid", "[]"], 2, "no rows"),
    case("grid-row-not-a-string", ["solve", "cat-mouse-grid", "--grid", "[1,2]"], 2, "must be a string"),
    case("grid-too-large", ["solve", "cat-mouse-grid", "--grid", json.dumps(["M.C" + "." * 97, "..F" + "." * 97] + ["." * 100] * 3)], 2, "at most 400 cells"),
    case("grid-cat-jump-zero", ["solve", "cat-mouse-grid", "--grid", GRID, "--cat-jump", "0"], 2, "--cat-jump must be at least 1"),
    case("grid-mouse-jump-abc", ["solve", "cat-mouse-grid", "--grid", GRID, "--mouse-jump", "abc"], 2, "--mouse-jump"),
    case("grid-turn-limit-zero", ["solve", "cat-mouse-grid", "--grid", GRID, "--turn-limit", "0"], 2, "--turn-limit must be at least 1"),
    # --- solve tictactoe / connect4 ------------------------------------------------------------
    case("tictactoe-unknown-option", ["solve", "tictactoe", "--size", "4"], 2, "No such option: --size"),
    case("tictactoe-bad-engine", ["solve", "tictactoe", "--engine", "bogus", "--force"], 2, "--engine must be one of"),
    case("tictactoe-bad-memory-limit", ["solve", "tictactoe", "--memory-limit", "lots", "--force"], 2, "--memory-limit"),
    case("tictactoe-negative-memory-limit", ["solve", "tictactoe", "--memory-limit", "-5G", "--force"], 2, "--memory-limit"),
    case("connect4-width-abc", ["solve", "connect4", "--width", "abc"], 2, "--width"),
    case("connect4-width-zero", ["solve", "connect4", "--width", "0"], 2, "--width must be at least 1"),
    case("connect4-connect-too-long", ["solve", "connect4", "--width", "3", "--height", "3", "--connect", "5"], 2, "cannot fit"),
    case("connect4-board-too-large", ["solve", "connect4", "--width", "8", "--height", "8"], 2, "too large"),
    case("connect4-huge-width", ["solve", "connect4", "--width", "9" * 23], 2, "too large"),
    # --- solve graph: malformed game files -------------------------------------------------------
    case("graph-bad-json-file", G("{badjson}"), 2, "bad JSON"),
    case("graph-text-file", G("{text}"), 2, "bad JSON"),
    case("graph-binary-file", G("{db}"), 2, "cannot read"),
    case("graph-not-an-object", G("[1,2,3]"), 2, "must be a JSON object"),
    case("graph-missing-file", ["solve", "graph"], 2, "Missing option '--file'"),
    case("graph-unknown-move-target", G('{"start":"a","positions":{"a":{"player":"first","moves":["zz"]}}}'), 2, 'unknown position "zz"'),
    case("graph-unknown-player", G('{"start":"a","positions":{"a":{"player":"nobody","value":"win"}}}'), 2, "is not a player"),
    case("graph-draw-as-end-value", G('{"start":"a","positions":{"a":{"player":"first","value":"draw"}}}'), 2, "not an end value"),
    case("graph-unknown-start", G('{"start":"b","positions":{"a":{"player":"first","value":"win"}}}'), 2, '$.start: unknown position "b"'),
    case("graph-start-not-a-string", G('{"start":5,"positions":{"a":{"player":"first","value":"win"}}}'), 2, "must be a string"),
    case("graph-no-positions", G('{"start":"a","positions":{}}'), 2, "at least one position"),
    case("graph-no-moves-no-value", G('{"start":"a","positions":{"a":{"player":"first"}}}'), 2, "no moves and no value"),
    case("graph-value-and-moves", G('{"start":"a","positions":{"a":{"player":"first","value":"win","moves":["a"]}}}'), 2, "cannot have moves"),
    case("graph-duplicate-label", G('{"start":"a","positions":{"a":{"player":"first","moves":["a","a"]}}}'), 2, "already used"),
    case("graph-same-player-names", G('{"start":"a","players":["x","x"],"positions":{"a":{"player":"x","value":"win"}}}'), 2, "different names"),
    case("graph-unknown-key", G('{"start":"a","positions":{"a":{"player":"first","value":"win"}},"extra":1}'), 2, "unknown key"),
    case("graph-move-is-a-number", G('{"start":"a","positions":{"a":{"player":"first","moves":[5]}}}'), 2, "a move must be"),
    case("graph-move-without-to", G('{"start":"a","positions":{"a":{"player":"first","moves":[{"label":"x"}]}}}'), 2, 'missing "to"'),
    case("graph-label-is-a-list", G('{"start":"a","positions":{"a":{"player":"first","moves":[{"to":"a","label":[]}]}}}'), 2, "must be a string"),
    case(
        "graph-file-huge-number",
        G(f'{{"start": {HUGE}, "positions": {{}}}}'),
        2,
        "--file",
    ),
    # --- solve heap families: bad option values --------------------------------------------------------
    case("flip-max-negative", ["solve", "flip", "--max", "-1"], 2, "--max must be at least 1"),
    case("flip-max-abc", ["solve", "flip", "--max", "abc"], 2, "--max"),
    case("flip-max-too-large", ["solve", "flip", "--max", "100000"], 2, "--max must be at most 10000"),
    case("octal-digit-8", ["solve", "octal", "--code", "0.8"], 2, "not an octal digit"),
    case("octal-not-a-code", ["solve", "octal", "--code", "abc"], 2, "not an octal code"),
    case("octal-two-points", ["solve", "octal", "--code", "0.7.7"], 2, "not an octal code"),
    case("octal-bad-first-digit", ["solve", "octal", "--code", "2.07"], 2, "only be 0 or 4"),
    case("octal-non-ascii-digit", ["solve", "octal", "--code", "0.\u0661"], 2, "not an octal digit"),
    case("octal-max-zero", ["solve", "octal", "--code", "0.77", "--max", "0"], 2, "--max must be at least 1"),
    case("octal-missing-code", ["solve", "octal"], 2, "Missing option '--code'"),
    case("grundy-max-negative", ["solve", "grundy", "--max", "-1"], 2, "--max must be at least 1"),
    case("grundy-max-too-large", ["solve", "grundy", "--max", "2000000"], 2, "at most 1000000"),
    case("nim-max-negative", ["solve", "nim", "--max", "-1"], 2, "--max must be at least 1"),
    case("nim-max-not-a-number", ["solve", "nim", "--max", "x"], 2, "--max"),
    case("nim-max-huge", ["solve", "nim", "--max", "9" * 23], 2, "at most 1000000"),
    case("subtraction-empty-entry", ["solve", "subtraction", "--set", "1,,2"], 2, "empty"),
    case("subtraction-trailing-comma", ["solve", "subtraction", "--set", "1,2,"], 2, "empty"),
    case("subtraction-negative", ["solve", "subtraction", "--set", "1,-2"], 2, "not a positive whole number"),
    case("subtraction-zero", ["solve", "subtraction", "--set", "0"], 2, "not a positive whole number"),
    case("subtraction-letters", ["solve", "subtraction", "--set", "a,b"], 2, "not a positive whole number"),
    case("subtraction-empty-set", ["solve", "subtraction", "--set", ""], 2, "--set is empty"),
    case("subtraction-too-large", ["solve", "subtraction", "--set", "99999999999"], 2, "larger than"),
    case("subtraction-huge-number", ["solve", "subtraction", "--set", HUGE], 2, "larger than 1000000"),
    case("stone-ix-max-negative", ["solve", "stone-ix", "--max", "-1"], 2, "--max must be at least 0"),
    case("stone-ix-max-too-large", ["solve", "stone-ix", "--max", "5000"], 2, "--max must be at most 1000"),
    # --- solve --game module:Class and unknown families ------------------------------------------------------
    case("unknown-family", ["solve", "chess"], 2, "No such command 'chess'"),
    case("game-module-missing", ["solve", "--game", "nosuchmodule:Foo"], 2, "cannot import 'nosuchmodule'"),
    case("game-class-missing", ["solve", "--game", "gamedb.games.tictactoe:Nope"], 2, "has no 'Nope'"),
    case("game-not-a-game-class", ["solve", "--game", "json:dumps"], 2, "not a gamedb.games.base.Game subclass"),
    case("game-without-colon", ["solve", "--game", "nocolon"], 2, "unknown game family 'nocolon'"),
    case("game-and-family-together", ["solve", "--game", "gamedb.games.tictactoe:TicTacToe", "tictactoe"], 2, "cannot be used together"),
    case("game-set-bad-int", ["solve", "--game", "gamedb.games.connect4:Connect4", "--set", "width=abc"], 2, "not a valid int"),
    case("game-set-unknown-option", ["solve", "--game", "gamedb.games.connect4:Connect4", "--set", "depth=3"], 2, "no option 'depth'"),
    case("game-set-without-value", ["solve", "--game", "gamedb.games.connect4:Connect4", "--set", "novalue"], 2, "KEY=VALUE"),
    case("game-set-empty-entry", ["solve", "--game", "gamedb.games.heaps.subtraction:Subtraction", "--set", "set=1,,2"], 2, "empty"),
    # --- query: unknown names and bad / impossible positions ------------------------------------------------------
    case("query-unknown-game", ["query", "nosuch"], 1, "no game named 'nosuch'"),
    case("query-extra-argument", ["query", "tictactoe", "X........", "extra"], 2, "unexpected extra argument"),
    case("tictactoe-two-more-x", ["query", "tictactoe", "XX......."], 2, "X moves first"),
    case("tictactoe-o-first", ["query", "tictactoe", "O........"], 2, "X moves first"),
    case("tictactoe-too-short", ["query", "tictactoe", "XXX"], 2, "expected nine characters"),
    case("tictactoe-empty-text", ["query", "tictactoe", ""], 2, "expected nine characters"),
    case("tictactoe-nul-character", ["query", "tictactoe", "XO.XO.X..\x00"], 2, "bad tic-tac-toe position"),
    case("tictactoe-fullwidth-letters", ["query", "tictactoe", "\uff38\uff2f......."], 2, "bad tic-tac-toe position"),
    case("tictactoe-both-have-lines", ["query", "tictactoe", "XXXOOOXXO"], 2, "both players"),
    case("tictactoe-mover-already-won", ["query", "tictactoe", "XXX.OO.O."], 2, "already has three in a row"),
    case("cat-mouse-cat-in-hole", ["query", "cm", "mouse=1,cat=0,turn=mouse"], 2, "never be in the hole"),
    case("cat-mouse-node-not-in-graph", ["query", "cm", "mouse=9,cat=2,turn=mouse"], 2, "not in the graph"),
    case("cat-mouse-huge-node", ["query", "cm", f"mouse={'9' * 23},cat=2,turn=mouse"], 2, "not in the graph"),
    case(
        "cat-mouse-5000-digit-node",
        ["query", "cm", f"mouse={HUGE},cat=2,turn=mouse"],
        2,
        "not in the graph",
    ),
    case("cat-mouse-unknown-turn", ["query", "cm", "mouse=1,cat=2,turn=dog"], 2, "bad cat-mouse position"),
    case("cat-mouse-missing-turn", ["query", "cm", "mouse=1,cat=2"], 2, "bad cat-mouse position"),
    case("cat-mouse-unreachable", ["query", "cm", "mouse=4,cat=3,turn=cat"], 1, "not reachable"),
    case(
        "cat-mouse-non-ascii-digit",
        ["query", "cm", "mouse=\u0661,cat=2,turn=mouse"],
        2,
        "bad cat-mouse position",
    ),
    case("connect4-column-out-of-range", ["query", "c4", "4"], 2, "there is no column 4"),
    case("connect4-column-zero", ["query", "c4", "0"], 2, "there is no column 0"),
    case("connect4-column-full", ["query", "c4", "1111"], 2, "column 1 is full"),
    case("connect4-move-after-win", ["query", "c4", "1212121"], 2, "the game is over"),
    case("connect4-not-a-column", ["query", "c4", "a"], 2, "is not a column number"),
    case("connect4-non-ascii-digit", ["query", "c4", "\u0661"], 2, "is not a column number"),
    case("connect4-huge-column", ["query", "c4", "1," + "9" * 23], 2, "there is no column"),
    case("connect4-5000-digit-column", ["query", "c4", "1," + HUGE], 2, "there is no column"),
    case("connect4-negative-column-as-option", ["query", "c4", "-1"], 2, "No such option: -1"),
    case("nim-heap-above-max", ["query", "nim", "11"], 1, "larger than --max 10"),
    case("nim-huge-heap", ["query", "nim", "9" * 23], 1, "larger than --max 10"),
    case("nim-5000-digit-heap", ["query", "nim", HUGE], 2, "is too large"),
    case("nim-empty-text", ["query", "nim", ""], 2, "empty heap position"),
    case("nim-only-commas", ["query", "nim", ", ,"], 2, "empty heap position"),
    case("nim-not-a-heap", ["query", "nim", "3 x"], 2, "'x' is not a heap size"),
    case("nim-fraction", ["query", "nim", "3.5"], 2, "is not a heap size"),
    case("nim-non-ascii-digit", ["query", "nim", "\u0663"], 2, "is not a heap size"),
    case("grundy-heap-above-max", ["query", "grundy", "11"], 1, "does not apply to Grundy's game"),
    case("kayles-not-a-heap", ["query", "kayles", "x"], 2, "is not a heap size"),
    case("flip-bad-character", ["query", "flip", "++x"], 2, "'x' is not + or -"),
    case("flip-empty", ["query", "flip", ""], 2, "empty flip position"),
    case("flip-run-above-max", ["query", "flip", "+" * 15], 1, "larger than --max 10"),
    case("stone-ix-empty-text", ["query", "stone-ix", ""], 2, "no stones"),
    case("stone-ix-empty-list", ["query", "stone-ix", "[]"], 2, "no stones"),
    case("stone-ix-lone-comma", ["query", "stone-ix", ","], 2, "no stones"),
    case("stone-ix-sum-out-of-range", ["query", "stone-ix", "c0=1,c1=1,c2=1,sum=3,turn=alice"], 2, "sum is the removed sum mod 3"),
    case("stone-ix-bob-first", ["query", "stone-ix", "c0=1,c1=1,c2=1,sum=0,turn=bob"], 2, "Alice moves"),
    case("stone-ix-over-with-sum", ["query", "stone-ix", "c0=1,c1=1,c2=1,sum=1,turn=alice,over"], 2, "',over'"),
    case("stone-ix-negative-stone", ["query", "stone-ix", "1,-2,3"], 2, "not negative"),
    case("stone-ix-empty-entry", ["query", "stone-ix", "1,,2"], 2, "bad stone-ix position"),
    case("stone-ix-words", ["query", "stone-ix", "abc"], 2, "bad stone-ix position"),
    case("stone-ix-non-ascii-digits", ["query", "stone-ix", "\u0661,\u0662"], 2, "bad stone-ix position"),
    case("stone-ix-beyond-max", ["query", "stone-ix", "c0=9,c1=1,c2=1,sum=1,turn=bob"], 1, "solved with --max 2"),
    case("stone-ix-5000-digit-count", ["query", "stone-ix", f"c0={HUGE},c1=1,c2=1,sum=1,turn=bob"], 1, "solved with --max 2"),
    case("stone-ix-5000-digit-sum", ["query", "stone-ix", f"c0=1,c1=1,c2=1,sum={HUGE},turn=bob"], 2, "sum is the removed sum mod 3"),
    case("graph-unknown-position", ["query", "coins", "nowhere"], 2, "unknown position 'nowhere'"),
    case("graph-empty-position", ["query", "coins", ""], 2, "unknown position ''"),
    case("grid-cell-off-grid", ["query", "grid", "mouse=r5c0,cat=r0c2,turn=mouse"], 2, "off the 2x3 grid"),
    case("grid-missing-turn", ["query", "grid", "mouse=r0c0,cat=r0c2"], 2, "turn= missing"),
    case("grid-unknown-turn", ["query", "grid", "mouse=r0c0,cat=r0c2,turn=dog"], 2, "turn must be mouse or cat"),
    case("grid-not-a-cell", ["query", "grid", "mouse=zz,cat=r0c2,turn=cat"], 2, "is not a cell"),
    case("grid-field-twice", ["query", "grid", "mouse=r0c0,mouse=r0c1,cat=r0c2,turn=cat"], 2, "given twice"),
    case("grid-non-ascii-digit", ["query", "grid", "mouse=r\u0661c0,cat=r0c2,turn=mouse"], 2, "is not a cell"),
    case("grid-5000-digit-row", ["query", "grid", f"mouse=r{HUGE}c0,cat=r0c2,turn=mouse"], 2, "off the 2x3 grid"),
    # --- stats / verify / export / play / compact / copy / list / db upgrade ------------------------------------------
    case("stats-unknown-game", ["stats", "nosuch"], 1, "no game named 'nosuch'"),
    case("stats-missing-name", ["stats"], 2, "Missing argument 'name'"),
    case("verify-unknown-game", ["verify", "nosuch"], 1, "no game named 'nosuch'"),
    case("export-unknown-game", ["export", "nosuch"], 1, "no game named 'nosuch'"),
    case("export-bad-format", ["export", "tictactoe", "--format", "xml"], 2, "unknown export format 'xml'"),
    case("export-into-missing-folder", ["export", "tictactoe", "--output", "{dir}/nodir/out.csv"], 1, "No such file or directory"),
    case("export-into-a-folder", ["export", "tictactoe", "--output", "{dir}"], 1, "Is a directory"),
    case("play-unknown-game", ["play", "nosuch"], 1, "no game named 'nosuch'"),
    case("play-unknown-player", ["play", "tictactoe", "--as", "Z"], 2, "--as must be one of X, O"),
    case("play-from-impossible-board", ["play", "tictactoe", "--from", "XXXXXXXXX"], 2, "X moves first"),
    case("play-from-unreachable-position", ["play", "cm", "--from", "mouse=4,cat=3,turn=cat"], 1, "not reachable"),
    case("play-from-empty-stones", ["play", "stone-ix", "--from", ""], 2, "no stones"),
    case("compact-unknown-game", ["compact", "nosuch"], 1, "no game named 'nosuch'"),
    case("copy-missing-destination", ["copy", "{db}"], 2, "Missing argument 'dst'"),
    case(
        "copy-unknown-game",
        ["copy", "{db}", "{dir}/copy.sqlite", "nosuch"],
        1,
        "no game named 'nosuch'",
    ),
    case("copy-into-text-file", ["copy", "{db}", "{text}"], 1, "file is not a database"),
    case("copy-into-foreign-sqlite", ["copy", "{db}", "{foreign}"], 1, "not a gamedb database"),
    case("copy-into-directory", ["copy", "{db}", "{dir}"], 1, "is a directory"),
    case("copy-into-unknown-url", ["copy", "{db}", "bogus://x"], 1, "no driver for 'bogus'"),
    case("copy-from-text-file", ["copy", "{text}", "{dir}/copy.sqlite"], 1, "file is not a database"),
    case("copy-from-missing-database", ["copy", "{missing}", "{dir}/copy.sqlite"], 1, "no database at"),
    case("list-extra-argument", ["list", "--json", "extra"], 2, "unexpected extra argument"),
    case("unknown-command", ["frobnicate"], 2, "No such command 'frobnicate'"),
    case("db-unknown-subcommand", ["db", "downgrade"], 2, "No such command 'downgrade'"),
    # --- files that are not gamedb databases, a missing one, other schema revisions, old SQLite ----------------------
    case("list-text-file", ["--db", "{text}", "list"], 1, "file is not a database"),
    case("list-foreign-sqlite", ["--db", "{foreign}", "list"], 1, "not a gamedb database"),
    case("list-missing-database", ["--db", "{missing}", "list"], 1, "no database at"),
    case("list-directory", ["--db", "{dir}", "list"], 1, "is a directory"),
    case("list-unknown-url", ["--db", "bogus://x", "list"], 1, "no driver for 'bogus'"),
    case("query-text-file", ["--db", "{text}", "query", "tictactoe"], 1, "file is not a database"),
    case("query-foreign-sqlite", ["--db", "{foreign}", "query", "tictactoe"], 1, "not a gamedb database"),
    case("query-missing-database", ["--db", "{missing}", "query", "tictactoe"], 1, "no database at"),
    case("stats-text-file", ["--db", "{text}", "stats", "tictactoe"], 1, "file is not a database"),
    case("verify-foreign-sqlite", ["--db", "{foreign}", "verify", "tictactoe"], 1, "not a gamedb database"),
    case("export-missing-database", ["--db", "{missing}", "export", "tictactoe"], 1, "no database at"),
    case("play-missing-database", ["--db", "{missing}", "play", "tictactoe"], 1, "no database at"),
    case("compact-text-file", ["--db", "{text}", "compact", "tictactoe"], 1, "file is not a database"),
    case("solve-into-text-file", ["--db", "{text}", "solve", "tictactoe", "-q"], 1, "file is not a database"),
    case("solve-into-foreign-sqlite", ["--db", "{foreign}", "solve", "tictactoe", "-q"], 1, "not a gamedb database"),
    case("upgrade-text-file", ["--db", "{text}", "db", "upgrade"], 1, "file is not a database"),
    case("upgrade-foreign-sqlite", ["--db", "{foreign}", "db", "upgrade"], 1, "not a gamedb database"),
    case("upgrade-missing-database", ["--db", "{missing}", "db", "upgrade"], 1, "no database at"),
    case("upgrade-newer-revision", ["--db", "{newer}", "db", "upgrade"], 1, "newer than this gamedb knows"),
    case("list-newer-revision", ["--db", "{newer}", "list"], 1, "newer than this gamedb knows"),
    case("query-older-revision", ["--db", "{older}", "query", "tictactoe"], 1, "gamedb db upgrade"),
    case("query-too-old-sqlite", ["query", "tictactoe"], 1, "needs SQLite 3.33", sqlite_version="3.31.1"),
    case("solve-too-old-sqlite", ["solve", "nim", "--max", "5", "--name", "n5"], 1, "needs SQLite 3.33", sqlite_version="3.31.1"),
]


# --- fixtures ---------------------------------------------------------------------------------------


def _invoke(args, input: str | None = ""):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A folder holding the files the cases use, made once: the solved games and the bad files."""
    folder = tmp_path_factory.mktemp("bad-inputs-pristine")
    db = folder / "games.sqlite"
    for args in SOLVED:
        result = _invoke(["--db", db, "solve", *args, "-q"])
        assert result.exit_code == 0, (args, result.stderr)
    (db.parent / "games.sqlite.lock").unlink(missing_ok=True)  # the solver's lock file: not part of the database
    (folder / "notes.txt").write_text("these are not the games you are looking for\n")
    with sqlite3.connect(folder / "foreign.sqlite") as con:
        con.execute("CREATE TABLE t (x)")
        con.execute("INSERT INTO t VALUES (1)")
    con.close()
    (folder / "bad.json").write_text("[[1, 2],\n")
    for name, revision in (("newer.sqlite", "9999_from_the_future"), ("older.sqlite", "0001")):
        from gamedb import Database

        Database(folder / name, create=True).close()
        with sqlite3.connect(folder / name) as con:
            con.execute("UPDATE alembic_version SET version_num = ?", (revision,))
        con.close()
    return folder


@pytest.fixture
def workdir(pristine, tmp_path) -> Path:
    """A fresh copy of the pristine folder for one case."""
    folder = tmp_path / "work"
    shutil.copytree(pristine, folder)
    return folder


def _placeholders(folder: Path) -> dict[str, str]:
    return {
        "{db}": str(folder / "games.sqlite"),
        "{text}": str(folder / "notes.txt"),
        "{foreign}": str(folder / "foreign.sqlite"),
        "{missing}": str(folder / "missing.sqlite"),
        "{dir}": str(folder),
        "{badjson}": str(folder / "bad.json"),
        "{newer}": str(folder / "newer.sqlite"),
        "{older}": str(folder / "older.sqlite"),
    }


def _command_line(c: Case, folder: Path) -> list[str]:
    subs = _placeholders(folder)
    args = []
    for arg in c.args:
        for key, value in subs.items():
            arg = arg.replace(key, value)
        args.append(arg)
    return args if args[:1] == ["--db"] else ["--db", subs["{db}"], *args]


def _is_sqlite(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def content_digest(path: Path) -> str:
    """A SQLite file by content (a dump of every table and the schema), anything else by bytes."""
    if _is_sqlite(path):
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            digest = hashlib.sha256()
            for line in con.iterdump():
                digest.update(line.encode() + b"\n")
            return "sqlite:" + digest.hexdigest()
        finally:
            con.close()
    return "bytes:" + hashlib.sha256(path.read_bytes()).hexdigest()


def _files(folder: Path) -> list[str]:
    """Every file under ``folder`` (the solver's ``.lock`` files aside: they hold no data)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and not p.name.endswith(".lock"))


def assert_untouched(pristine: Path, folder: Path) -> None:
    """``folder`` (a copy of ``pristine`` a command ran in) holds the same files with the same contents.

    Identical bytes mean identical contents; only a file whose bytes changed
    is compared by content (a SQLite file may be rewritten without a change
    of data, which is fine).
    """
    assert _files(folder) == _files(pristine), "the command created or removed files"
    for name in _files(pristine):
        if (folder / name).read_bytes() != (pristine / name).read_bytes():
            assert content_digest(folder / name) == content_digest(pristine / name), f"the command changed {name}"


def check_one_line_error(exit_code: int, stdout: str, stderr: str, c: Case) -> None:
    assert "Traceback" not in stdout + stderr
    assert exit_code == c.code, f"exit {exit_code}, expected {c.code}; stderr: {stderr!r} stdout: {stdout[-300:]!r}"
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    assert lines[0].startswith("Error: "), lines[0]
    assert c.message in lines[0], f"{c.message!r} not in {lines[0]!r}"


# --- the tests ------------------------------------------------------------------------------------------


def test_the_table_is_large_and_covers_every_command():
    cases = [p.values[0] for p in CASES]
    assert len(cases) >= 45
    assert len({p.id for p in CASES}) == len(CASES), "case ids must be unique"
    words = {a for c in cases for a in c.args}
    for command in ("solve", "query", "stats", "verify", "export", "play", "copy", "compact", "list", "upgrade", "--game"):
        assert command in words, f"no case for {command}"
    from gamedb.games import BUILTIN

    solved = {c.args[1] for c in cases if c.args[:1] == ("solve",) and len(c.args) > 1}
    assert set(BUILTIN) <= solved, f"no solve case for {set(BUILTIN) - solved}"
    assert {1, 2} == {c.code for c in cases}


@pytest.mark.parametrize("c", CASES)
def test_bad_input(c: Case, pristine: Path, workdir: Path, monkeypatch):
    if c.sqlite_version is not None:
        monkeypatch.setattr(sqlite3, "sqlite_version", c.sqlite_version)
    result = _invoke(_command_line(c, workdir))
    monkeypatch.undo()
    unexpected = result.exception if not isinstance(result.exception, (SystemExit, type(None))) else None
    assert unexpected is None, f"raised {type(unexpected).__name__}: {unexpected}"
    check_one_line_error(result.exit_code, result.stdout, result.stderr, c)
    assert_untouched(pristine, workdir)


REAL_ENTRY_POINT = ["tictactoe-two-more-x", "subtraction-empty-entry", "list-foreign-sqlite", "grid-bare-rows"]


@pytest.mark.parametrize("case_id", REAL_ENTRY_POINT)
def test_real_entry_point(case_id: str, pristine: Path, workdir: Path):
    """A few cases through `python -m gamedb`, as a user runs it (no test runner in between)."""
    (c,) = [p.values[0] for p in CASES if p.id == case_id]
    run = subprocess.run(
        [sys.executable, "-m", "gamedb", *_command_line(c, workdir)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=workdir,
        timeout=120,
    )
    check_one_line_error(run.returncode, run.stdout, run.stderr, c)
    assert_untouched(pristine, workdir)
