"""The table of bad inputs that ``test_bad_inputs.py`` runs (issue 6).

``CASES``: bad inputs across every command and every kind of mistake, each
with the exit code it must give (2 malformed input, 1 operational error) and
a phrase the one-line message must contain; ``SOLVED``: the games solved
into the database the cases run against.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

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
    """One row of the table. ``args`` may use {db} {text} {foreign} {missing} {dir} {badjson} {newer} {older}
    {duckassqlite} {sqliteasduck} {emptyjson} {emptyduck}.

    ``--db {db}`` is put in front unless the case gives its own ``--db``.
    """
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    return pytest.param(Case(tuple(args), code, message, sqlite_version), id=id, marks=marks)


#: a server URL whose port is no number, with a password that must never be shown
PG_NOTAPORT = "postgresql+psycopg://u:secret@localhost:notaport/db"
G = lambda text: ["solve", "graph", "--file", text]  # noqa: E731  (an inline game file)
CM = lambda graph: ["solve", "cat-mouse", "--graph", graph]  # noqa: E731

CASES = [
    # --- solve cat-mouse: malformed JSON, wrong types, bad graphs ------------------------
    case("cat-mouse-bad-json-inline", CM("[[1,2],"), 2, "bad JSON"),
    case("cat-mouse-bad-json-file", CM("{badjson}"), 2, "bad JSON"),
    case("cat-mouse-no-such-file", CM("{dir}/nofile.json"), 2, "no such file"),
    case("cat-mouse-graph-is-a-directory", CM("{dir}"), 2, "is a directory"),
    case("cat-mouse-graph-empty-text", CM("   "), 2, "--graph is empty"),
    case("cat-mouse-graph-empty-file", CM("{emptyjson}"), 2, "' is empty (it should hold the JSON)"),
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
    case("solve-option-without-its-value", ["solve", "nim", "--max"], 2, "Option '--max' requires an argument. (see 'gamedb solve --help')"),
    case("query-option-without-its-value", ["query", "nim", "-p"], 2, "Option '-p' requires an argument. (see 'gamedb query --help')"),
    case("solve-empty-name", ["solve", "nim", "--max", "3", "--name", ""], 2, "must not be empty or blank"),
    case("solve-blank-name-before-family", ["solve", "--name", "  ", "tictactoe"], 2, "must not be empty or blank"),
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
    case(
        "tictactoe-bad-engine", ["solve", "tictactoe", "--strategy", "bogus", "--force"], 2,
        "'bogus' is not one of 'auto', 'tiers', 'retrograde', 'memory', 'sql'",
    ),
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
    # (an empty or blank position is no mistake: the start, as without one: test_cli.test_an_empty_position_answers_the_start)
    case("query-extra-argument", ["query", "tictactoe", "X........", "extra"], 2, "unexpected extra argument"),
    case("tictactoe-two-more-x", ["query", "tictactoe", "XX......."], 2, "X moves first"),
    case("tictactoe-o-first", ["query", "tictactoe", "O........"], 2, "X moves first"),
    case("tictactoe-too-short", ["query", "tictactoe", "XXX"], 2, "expected nine characters"),
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
    # a position that starts with -, typed as the argument: Click took it for options ('No such option: -+'), and the
    # line did not say that such a position goes after -- (the README and query --help do)
    case("flip-position-starting-with-dash", ["query", "flip", "-++-"], 2,
         "No such option: -++-; a position that starts with - goes after -- or in --position: gamedb query flip -- -++-"),
    case("nim-negative-heap-as-option", ["query", "nim", "-3", "--json"], 2, "gamedb query nim -- -3"),
    case("nim-heap-above-max", ["query", "nim", "11"], 1, "larger than --max 10"),
    case("nim-huge-heap", ["query", "nim", "9" * 23], 1, "larger than --max 10"),
    case("nim-5000-digit-heap", ["query", "nim", HUGE], 2, "is too large"),
    case("nim-only-commas", ["query", "nim", ", ,"], 2, "empty heap position"),
    case("nim-not-a-heap", ["query", "nim", "3 x"], 2, "'x' is not a heap size"),
    case("nim-fraction", ["query", "nim", "3.5"], 2, "is not a heap size"),
    case("nim-non-ascii-digit", ["query", "nim", "\u0663"], 2, "is not a heap size"),
    case("grundy-heap-above-max", ["query", "grundy", "11"], 1, "does not apply to Grundy's game"),
    case("kayles-not-a-heap", ["query", "kayles", "x"], 2, "is not a heap size"),
    case("flip-bad-character", ["query", "flip", "++x"], 2, "'x' is not + or -"),
    case("flip-run-above-max", ["query", "flip", "+" * 15], 1, "larger than --max 10"),
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
    case("grid-cell-off-grid", ["query", "grid", "mouse=r5c0,cat=r0c2,turn=mouse"], 2, "off the 2x3 grid"),
    case("grid-missing-turn", ["query", "grid", "mouse=r0c0,cat=r0c2"], 2, "turn= missing"),
    case("grid-unknown-turn", ["query", "grid", "mouse=r0c0,cat=r0c2,turn=dog"], 2, "turn must be mouse or cat"),
    case("grid-not-a-cell", ["query", "grid", "mouse=zz,cat=r0c2,turn=cat"], 2, "is not a cell"),
    case("grid-field-twice", ["query", "grid", "mouse=r0c0,mouse=r0c1,cat=r0c2,turn=cat"], 2, "given twice"),
    case("grid-non-ascii-digit", ["query", "grid", "mouse=r\u0661c0,cat=r0c2,turn=mouse"], 2, "is not a cell"),
    case("grid-5000-digit-row", ["query", "grid", f"mouse=r{HUGE}c0,cat=r0c2,turn=mouse"], 2, "off the 2x3 grid"),
    # --- stats / verify / export / play / compact / copy / list / db upgrade ------------------------------------------
    case("stats-unknown-game", ["stats", "nosuch"], 1, "no game named 'nosuch'"),
    case("stats-missing-name", ["stats"], 2, "Missing argument 'NAME'"),
    case("verify-unknown-game", ["verify", "nosuch"], 1, "no game named 'nosuch'"),
    case("export-unknown-game", ["export", "nosuch"], 1, "no game named 'nosuch'"),
    case("export-bad-format", ["export", "tictactoe", "--format", "xml"], 2, "unknown export format 'xml'"),
    case("export-into-missing-folder", ["export", "tictactoe", "--output", "{dir}/nodir/out.csv"], 1, "nodir/out.csv: there is no folder"),
    case("export-into-a-folder", ["export", "tictactoe", "--output", "{dir}"], 1, "it is a directory (give a file name in it)"),
    case("export-into-empty-name", ["export", "tictactoe", "--output", ""], 2, "--output is empty: give a file name"),
    case("play-unknown-game", ["play", "nosuch"], 1, "no game named 'nosuch'"),
    case("play-unknown-player", ["play", "tictactoe", "--as", "Z"], 2, "--as must be one of X, O"),
    case("play-from-impossible-board", ["play", "tictactoe", "--from", "XXXXXXXXX"], 2, "X moves first"),
    case("play-from-unreachable-position", ["play", "cm", "--from", "mouse=4,cat=3,turn=cat"], 1, "not reachable"),
    case("play-from-no-stones", ["play", "stone-ix", "--from", "[]"], 2, "no stones"),  # (an empty --from is the start)
    case("compact-unknown-game", ["compact", "nosuch"], 1, "no game named 'nosuch'"),
    case("copy-missing-destination", ["copy", "{db}"], 2, "Missing argument 'DST'"),
    case(
        "copy-unknown-game",
        ["copy", "{db}", "{dir}/copy.sqlite", "nosuch"],
        1,
        "no game named 'nosuch'",
    ),
    case("copy-into-text-file", ["copy", "{db}", "{text}"], 1, "file is not a database"),
    case("copy-into-foreign-sqlite", ["copy", "{db}", "{foreign}"], 1, "not a gamedb database"),
    case("copy-into-directory", ["copy", "{db}", "{dir}"], 1, "is a directory"),
    case("copy-into-unknown-url", ["copy", "{db}", "bogus://x"], 2, "'bogus://' is no kind of database gamedb knows"),
    case("copy-from-text-file", ["copy", "{text}", "{dir}/copy.sqlite"], 1, "notes.txt as a gamedb database: file is not a database"),
    case("copy-from-missing-database", ["copy", "{missing}", "{dir}/copy.sqlite"], 1, "SRC, the database to copy from, must exist"),  # (copy takes no --db)
    case("list-extra-argument", ["list", "--json", "extra"], 2, "unexpected extra argument"),
    case("unknown-command", ["frobnicate"], 2, "No such command 'frobnicate'"),
    case("db-unknown-subcommand", ["db", "downgrade"], 2, "No such command 'downgrade'"),
    # --- files that are not gamedb databases, a missing one, other schema revisions, old SQLite ----------------------
    case("list-text-file", ["--db", "{text}", "list"], 1, "notes.txt as a gamedb database: file is not a database"),
    case("list-foreign-sqlite", ["--db", "{foreign}", "list"], 1, "not a gamedb database"),
    case("list-missing-database", ["--db", "{missing}", "list"], 1, "no database at"),
    case("list-directory", ["--db", "{dir}", "list"], 1, "is a directory"),
    case("list-unknown-url", ["--db", "bogus://x", "list"], 2, "'bogus://' is no kind of database gamedb knows"),
    # --- server URLs: a port that is no number, a backend gamedb does not store games in, a typo, another driver --------
    case("query-port-not-a-number", ["--db", PG_NOTAPORT, "query", "x"], 2,
         "the port 'notaport' in postgresql+psycopg://u:***@localhost:notaport/db is not a number"),
    case("list-port-not-a-number", ["--db", PG_NOTAPORT, "list"], 2, "is not a number"),
    case("upgrade-port-not-a-number", ["--db", PG_NOTAPORT, "db", "upgrade"], 2, "is not a number"),
    case("copy-into-port-not-a-number", ["copy", "{db}", PG_NOTAPORT], 2, "is not a number"),
    case("list-port-out-of-range", ["--db", "postgresql://u@localhost:99999/db", "list"], 2,
         "the port 99999 in postgresql://u@localhost:99999/db is not between 1 and 65535"),
    case("list-port-zero", ["--db", "postgresql://u@localhost:0/db", "list"], 2, "is not between 1 and 65535"),
    case("list-mysql", ["--db", "mysql://u@h/db", "list"], 2, "mysql://u@h/db: gamedb does not store games in MySQL"),
    case("list-mysql-says-the-forms", ["--db", "mysql://u@h/db", "list"], 2, "SQLite or DuckDB files or a PostgreSQL server: give a file path"),
    case("solve-into-mysql", ["--db", "mysql+pymysql://u:secret@h/db", "solve", "nim", "--max", "3"], 2,
         "mysql+pymysql://u:***@h/db: gamedb does not store games in MySQL"),
    case("upgrade-mysql", ["--db", "mysql://u@h/db", "db", "upgrade"], 2, "gamedb does not store games in MySQL"),
    case("copy-into-mysql", ["copy", "{db}", "mysql://u@h/db"], 2, "gamedb does not store games in MySQL"),
    # `games` opens no database, yet refuses one it could never open, as every other command does (it exited 0)
    case("games-mysql", ["--db", "mysql://u@h/db", "games"], 2, "mysql://u@h/db: gamedb does not store games in MySQL"),
    case("games-port-not-a-number", ["--db", PG_NOTAPORT, "games", "--json"], 2, "is not a number"),
    case("list-oracle", ["--db", "oracle://u@h/db", "list"], 2, "gamedb does not store games in Oracle"),
    case("list-mssql", ["--db", "mssql+pyodbc://u@h/db", "list"], 2, "gamedb does not store games in Microsoft SQL Server"),
    case("list-postgres-typo", ["--db", "postgress://u@h/db", "list"], 2, "'postgress://' is no kind of database gamedb knows (did you mean postgresql://?)"),
    case("list-sqlite-typo", ["--db", "sqlite3:///{dir}/games.sqlite", "list"], 2, "(did you mean sqlite://?)"),
    case("list-file-url", ["--db", "file:///{dir}/games.sqlite", "list"], 2, "give the file's path itself, or sqlite:///PATH"),
    case("list-psycopg2", ["--db", "postgresql+psycopg2://u:secret@h/db", "list"], 2,
         "postgresql+psycopg2://u:***@h/db: gamedb reaches PostgreSQL through psycopg (version 3), not psycopg2: begin the URL with postgresql://"),
    case("list-sqlite-other-driver", ["--db", "sqlite+aiosqlite:///{dir}/games.sqlite", "list"], 2, "gamedb opens SQLite files with Python's sqlite3"),
    # a new file in a folder that is not there (SQLite said "unable to open database file"), an empty --db
    case("solve-into-missing-folder", ["--db", "{missing}/x.sqlite", "solve", "tictactoe", "-q"], 1, "there is no folder"),
    case("solve-into-missing-folder-duckdb", ["--db", "{missing}/x.duckdb", "solve", "tictactoe", "-q"], 1, "there is no folder"),
    case("list-empty-db", ["--db", "", "list"], 2, "the database is given as an empty path"),
    case("solve-empty-db", ["--db", "", "solve", "tictactoe", "-q"], 2, "the database is given as an empty path"),
    case("games-empty-db", ["--db", "", "games"], 2, "the database is given as an empty path"),
    # a DuckDB file named .sqlite, a SQLite file named .duckdb: the path's ending chooses the backend, and the message says so
    case("list-duckdb-named-sqlite", ["--db", "{duckassqlite}", "list"], 1, "is a DuckDB file, but only a path ending in .duckdb"),
    case("query-duckdb-named-sqlite", ["--db", "{duckassqlite}", "query", "tictactoe"], 1, "rename it to duck.duckdb"),
    case("solve-into-duckdb-named-sqlite", ["--db", "{duckassqlite}", "solve", "tictactoe", "-q"], 1, "rename it to duck.duckdb"),
    case("list-sqlite-named-duckdb", ["--db", "{sqliteasduck}", "list"], 1, "is a SQLite file, but a path ending in .duckdb"),
    case("query-sqlite-named-duckdb", ["--db", "{sqliteasduck}", "query", "tictactoe"], 1, "rename it to lite.sqlite"),
    case("list-empty-duckdb-file", ["--db", "{emptyduck}", "list"], 1, "is an empty file, not a DuckDB database yet"),
    case("query-empty-duckdb-file", ["--db", "{emptyduck}", "query", "tictactoe"], 1, "no game has been solved in it"),
    case("solve-into-sqlite-named-duckdb", ["--db", "{sqliteasduck}", "solve", "tictactoe", "-q"], 1, "rename it to lite.sqlite"),
    case("query-text-file", ["--db", "{text}", "query", "tictactoe"], 1, "notes.txt as a gamedb database: file is not a database"),
    case("query-foreign-sqlite", ["--db", "{foreign}", "query", "tictactoe"], 1, "not a gamedb database"),
    case("query-missing-database", ["--db", "{missing}", "query", "tictactoe"], 1, "no database at"),
    case("stats-text-file", ["--db", "{text}", "stats", "tictactoe"], 1, "notes.txt as a gamedb database: file is not a database"),
    case("verify-foreign-sqlite", ["--db", "{foreign}", "verify", "tictactoe"], 1, "not a gamedb database"),
    case("export-missing-database", ["--db", "{missing}", "export", "tictactoe"], 1, "no database at"),
    case("play-missing-database", ["--db", "{missing}", "play", "tictactoe"], 1, "no database at"),
    case("compact-text-file", ["--db", "{text}", "compact", "tictactoe"], 1, "file is not a database"),
    case("solve-into-text-file", ["--db", "{text}", "solve", "tictactoe", "-q"], 1, "file is not a database"),
    case("solve-into-foreign-sqlite", ["--db", "{foreign}", "solve", "tictactoe", "-q"], 1, "not a gamedb database"),
    case("upgrade-text-file", ["--db", "{text}", "db", "upgrade"], 1, "file is not a database"),
    case("upgrade-foreign-sqlite", ["--db", "{foreign}", "db", "upgrade"], 1, "not a gamedb database"),
    case("upgrade-missing-database", ["--db", "{missing}", "db", "upgrade"], 1, "no database at"),
    case("upgrade-missing-database-says-what-to-do", ["--db", "{missing}", "db", "upgrade"], 1, "(solve a game first, or pass --db)"),
    case("upgrade-newer-revision", ["--db", "{newer}", "db", "upgrade"], 1, "newer than this gamedb knows"),
    case("list-newer-revision", ["--db", "{newer}", "list"], 1, "newer than this gamedb knows"),
    case("query-older-revision", ["--db", "{older}", "query", "tictactoe"], 1, "db upgrade`"),
    case("query-too-old-sqlite", ["query", "tictactoe"], 1, "needs SQLite 3.33", sqlite_version="3.31.1"),
    case("solve-too-old-sqlite", ["solve", "nim", "--max", "5", "--name", "n5"], 1, "needs SQLite 3.33", sqlite_version="3.31.1"),
]
