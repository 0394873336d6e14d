"""The command line as a user types it: options wherever help shows them, names that tell
games apart, positions that start with '-', one rule for the output streams, help text,
progress, query formats and many positions from stdin."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from conftest import SEED_GRAPH_1, SEED_GRAPH_2

# --- options before the family ----------------------------------------------------------

def test_options_before_the_family_work(cli):
    run = cli("solve", "--name", "foo2", "nim", "--max", "5")
    assert run.exit_code == 0 and "Solved foo2:" in run.stdout
    again = cli("solve", "--force", "--quiet", "--name", "foo2", "nim", "--max", "5")
    assert again.exit_code == 0 and "Solved foo2:" in again.stdout and again.stderr == ""
    listed = json.loads(cli("list", "--json").stdout)
    assert [g["name"] for g in listed] == ["foo2"]


def test_options_before_the_family_that_cannot_work_are_refused(cli):
    two = cli("solve", "--name", "a", "nim", "--name", "b")
    assert two.exit_code == 2 and "two names given" in two.stderr
    settings = cli("solve", "--set", "max=3", "nim")
    assert settings.exit_code == 2 and "--set goes with --game" in settings.stderr
    assert not cli.db_path.exists()  # refused before the database was created


# --- default names -------------------------------------------------------------------------

def test_default_names_tell_games_apart(cli):
    first = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q")
    second = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_2), "-q")
    assert first.exit_code == 0 and second.exit_code == 0, second.stderr
    name = re.search(r"Solved (\S+):", second.stdout).group(1)
    assert name.startswith("cat-mouse-") and "stored as " + name in second.stderr
    # each name answers its own graph (LeetCode 913: draw for example 1, mouse wins for example 2)
    assert json.loads(cli("query", "cat-mouse", "--json").stdout)["result"] == "draw"
    assert json.loads(cli("query", name, "--json").stdout)["winner"] == "mouse"
    # the same game again finds its own name
    again = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_2), "-q")
    assert again.exit_code == 0 and f"{name} is already solved" in again.stdout
    for family, options in (("nim", ["--max", "5"]), ("nim", ["--max", "7"]), ("flip", ["--max", "4"]), ("flip", ["--max", "6"])):
        assert cli("solve", family, *options, "-q").exit_code == 0
    names = [g["name"] for g in json.loads(cli("list", "--json").stdout)]
    assert len(names) == 6 and len(set(names)) == 6


# --- positions that start with '-' ------------------------------------------------------------

def test_a_position_that_starts_with_a_dash(cli):
    assert cli("solve", "flip", "--max", "6", "-q").exit_code == 0
    after_dashes = cli("query", "flip", "--", "-++-", "--json")
    assert after_dashes.exit_code == 2  # after --, --json is a position too: one position too many
    after_dashes = cli("query", "flip", "--json", "--", "-++-")
    option = cli("query", "flip", "--position", "-++-", "--json")
    short = cli("query", "flip", "-p", "-++-", "--json")
    assert after_dashes.exit_code == option.exit_code == short.exit_code == 0, option.stderr
    assert json.loads(after_dashes.stdout) == json.loads(option.stdout) == json.loads(short.stdout)
    assert json.loads(option.stdout)["position"] == "-++-" and json.loads(option.stdout)["grundy"] == 1
    bare = cli("query", "flip", "-++-")
    assert bare.exit_code == 2 and "--position" in cli("query", "--help").stdout
    twice = cli("query", "flip", "++", "--position", "-++-")
    assert twice.exit_code == 2 and "give the position once" in twice.stderr


def test_connect4_start_written_as_a_dash(cli):
    assert cli("solve", "connect4", "--width", "3", "--height", "3", "--connect", "3", "-q").exit_code == 0
    start = json.loads(cli("query", "connect4-3x3-k3", "--position", "-", "--json").stdout)
    assert start["position"] == "-"


# --- output streams: results on stdout, messages on stderr ------------------------------------

def test_results_go_to_stdout_and_messages_to_stderr(cli, tmp_path):
    commands = [
        ("solve", "tictactoe", "-q"),
        ("solve", "tictactoe", "-q"),  # already solved: still the command's result
        ("query", "tictactoe", "X...O...."),
        ("stats", "tictactoe"),
        ("list",),
        ("games",),
        ("verify", "tictactoe", "-q"),
        ("export", "tictactoe", "-o", str(tmp_path / "t.csv")),
        ("copy", "{db}", str(tmp_path / "copy.sqlite"), "-q"),
        ("compact", "tictactoe"),
    ]
    for args in commands:
        args = tuple(a.replace("{db}", str(cli.db_path)) for a in args)
        run = cli(*args)
        assert run.exit_code == 0, (args, run.stderr)
        assert run.stdout.strip() and run.stderr == "", (args, run.stdout, run.stderr)
    for args in (("query", "nosuch"), ("verify", "nosuch"), ("stats", "nosuch"), ("solve", "nim", "--max", "x")):
        run = cli(*args)
        assert run.exit_code != 0 and run.stdout == "" and run.stderr.startswith("Error: "), args


def test_json_reports_of_verify_copy_compact(cli, tmp_path):
    cli("solve", "nim", "--max", "9", "-q")
    assert json.loads(cli("verify", "nim", "-q", "--json").stdout) == {"game": "nim", "positions": 10, "ok": True}
    copied = json.loads(cli("copy", str(cli.db_path), str(tmp_path / "c.sqlite"), "-q", "--json").stdout)
    assert copied == {"games": ["nim"], "skipped": [], "already": [], "damaged": [], "positions": 10, "moves": 0}
    cli("solve", "tictactoe", "-q")
    compacted = json.loads(cli("compact", "tictactoe", "--json").stdout)
    assert set(compacted) == {"game", "moves_removed", "bytes_before", "bytes_after"} and compacted["game"] == "tictactoe"
    assert compacted["bytes_after"] <= compacted["bytes_before"]


# --- help ---------------------------------------------------------------------------------------

COMMANDS = [(), ("games",), ("solve",), ("solve", "nim"), ("solve", "cat-mouse"), ("list",), ("query",), ("stats",), ("verify",),
            ("play",), ("export",), ("copy",), ("compact",), ("db",), ("db", "upgrade")]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) or "gamedb" for c in COMMANDS])
def test_help_text_is_plain(cli, command):
    long = cli(*command, "--help")
    short = cli(*command, "-h")
    assert long.exit_code == short.exit_code == 0 and long.stdout == short.stdout
    assert not re.search(r"<[a-z]+(\[[a-z]+\])?>", long.stdout), long.stdout  # no <str>, <int>, <list[str]>
    assert not re.search(r"\{[A-Za-z_]+\}", long.stdout), long.stdout  # no {name}
    assert "Example" in long.stdout


def test_help_lists_choices(cli):
    assert "[auto|tiers|retrograde|memory|sql]" in cli("solve", "nim", "--help").stdout
    assert "[table|json|jsonl|csv]" in cli("query", "--help").stdout
    assert "[csv|jsonl]" in cli("export", "--help").stdout


def test_list_columns_align_for_long_names(cli):
    cli("solve", "nim", "--max", "3", "--name", "a-rather-long-name-for-a-game", "-q")
    cli("solve", "cat-mouse-grid", "--grid", json.dumps(["####F", "#C...", "M...."]), "--mouse-jump", "2", "-q")
    lines = cli("list").stdout.splitlines()
    starts = {line.index("solved") for line in lines[1:]}
    assert len(lines) == 3 and len(starts) == 1 and lines[0].index("STATUS") in starts


def test_stats_layout(cli):
    cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q")
    text = cli("stats", "cat-mouse").stdout
    labels = [line.split()[0] for line in text.splitlines()]
    assert labels[1:7] == ["positions", "win", "lose", "tie", "draw", "moves"]
    assert "None" not in text


# --- progress --------------------------------------------------------------------------------

class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_progress_on_a_non_terminal_is_a_plain_line_every_few_seconds():
    from gamedb.cli.render import ProgressBars

    clock, stream = _Clock(), io.StringIO()
    bars = ProgressBars(False, stream=stream, clock=clock)
    for second in range(0, 13):
        clock.now = float(second)
        bars("levels", second * 10, 120)
    bars("write", 5, None)
    assert stream.getvalue().splitlines() == ["levels: 50/120 (5 s)", "levels: 100/120 (10 s)"]
    quiet = io.StringIO()
    bars = ProgressBars(True, stream=quiet, clock=clock)
    clock.now = 100.0
    bars("levels", 1, 2)
    assert quiet.getvalue() == ""


def test_progress_on_a_non_terminal_gives_each_phase_that_moved_its_line():
    from gamedb.cli.render import ProgressBars

    clock, stream = _Clock(), io.StringIO()
    bars = ProgressBars(False, stream=stream, clock=clock)
    bars("slices solved by worker 0", 3, None)
    clock.now = 6.0
    bars("slices solved by worker 1", 4, None)
    clock.now = 8.0
    bars("slices solved by worker 1", 5, None)
    clock.now = 12.0
    bars("tiers solved (cluster)", 2, 9)
    assert stream.getvalue().splitlines() == [
        "slices solved by worker 0: 3 (6 s)", "slices solved by worker 1: 4 (6 s)",
        "slices solved by worker 1: 5 (12 s)", "tiers solved (cluster): 2/9 (12 s)",
    ]


def test_progress_on_a_terminal_waits_a_second():
    from gamedb.cli.render import ProgressBars

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    clock, stream = _Clock(), Terminal()
    with ProgressBars(False, stream=stream, clock=clock) as bars:
        clock.now = 0.5
        bars("levels", 1, 10)  # short work: nothing drawn
        assert bars.bar is None and stream.getvalue() == ""
        clock.now = 1.5
        bars("levels", 5, 10)
        assert bars.bar is not None
    assert "5/10" in stream.getvalue()


# --- query formats, many positions ------------------------------------------------------------

def test_query_formats(cli):
    cli("solve", "tictactoe", "-q")
    as_json = json.loads(cli("query", "tictactoe", "X...O....", "--format", "json").stdout)
    assert as_json == json.loads(cli("query", "tictactoe", "X...O....", "--json").stdout)
    line = cli("query", "tictactoe", "X...O....", "-f", "jsonl").stdout
    assert line.count("\n") == 1 and json.loads(line) == as_json
    rows = list(csv.DictReader(io.StringIO(cli("query", "tictactoe", "X...O....", "-f", "csv").stdout)))
    assert rows == [{"position": "X...O....", "player": "X", "result": "tie", "winner": "", "remoteness": "7", "degree": "7",
                     "best_move": as_json["best_move"], "grundy": "", "error": ""}]
    bad = cli("query", "tictactoe", "-f", "xml")
    assert bad.exit_code == 2 and "--format must be one of table, json, jsonl, csv" in bad.stderr
    clash = cli("query", "tictactoe", "--json", "-f", "csv")
    assert clash.exit_code == 2


def test_many_positions_from_stdin(cli):
    cli("solve", "tictactoe", "-q")
    texts = [".........", "X...O....", "XX.OO....", "  XO.......  ", ""]
    run = cli("query", "tictactoe", "-", input="\n".join(texts) + "\n")
    assert run.exit_code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [d["position"] for d in lines] == [".........", "X...O....", "XX.OO....", "XO......."]
    for d in lines:
        assert d == json.loads(cli("query", "tictactoe", d["position"], "--json").stdout)
    bad = cli("query", "tictactoe", "-", input="X...O....\nXXXX\n")
    assert bad.exit_code == 1 and bad.stderr.strip() == "Error: 1 of 2 positions could not be answered"
    assert json.loads(bad.stdout.splitlines()[1])["error"].startswith("bad tic-tac-toe position 'XXXX'")
    listed = json.loads(cli("query", "tictactoe", "-", "--json", input="X...O....\n").stdout)
    assert isinstance(listed, list) and listed[0]["position"] == "X...O...."
    table = cli("query", "tictactoe", "-", "-f", "table", input="X...O....\nXX.OO....\n").stdout.splitlines()
    assert table == ["X...O....  X to move: tie in 7, best move 2", "XX.OO....  X to move: win in 1 (X wins), best move 3"]


def test_stdin_in_a_process_and_in_the_runner_is_identical(cli, tmp_path):
    import os
    import subprocess
    import sys

    cli("solve", "nim", "--max", "9", "-q")
    data = "3 5 7\n1 2 3\n9\nx\n0\n"
    env = dict(os.environ)
    env.pop("GAMEDB_DB", None)
    for fmt in ("jsonl", "csv", "json", "table"):
        run = subprocess.run([sys.executable, "-m", "gamedb", "--db", str(cli.db_path), "query", "nim", "-", "-f", fmt],
                             input=data, capture_output=True, text=True, env=env, timeout=120)
        runner = cli("query", "nim", "-", "-f", fmt, input=data)
        assert (run.returncode, run.stdout, run.stderr) == (runner.exit_code, runner.stdout, runner.stderr), fmt
        assert run.returncode == 1


def test_every_help_example_runs_as_written(cli, monkeypatch):
    """The `Example:` of each family's solve help, and of the other commands, typed as shown."""
    import shlex
    from pathlib import Path

    from gamedb.games import BUILTIN

    monkeypatch.chdir(Path(__file__).resolve().parents[1])  # graph's example names a file of the repository
    for fam in BUILTIN:
        example = re.search(r"Example:\s+gamedb (.+)", cli("solve", fam, "--help").stdout).group(1)
        run = cli(*shlex.split(example), "-q")
        assert run.exit_code == 0, (example, run.stderr)
    # the plugin's (it named mypackage.games:TakeAway, no module anywhere), from the folder it says
    example = re.search(r"Example:\s+gamedb (.+?)\s+\(in examples/plugin/", " ".join(cli("solve", "--help").stdout.split())).group(1)
    monkeypatch.chdir(Path(__file__).resolve().parents[1] / "examples" / "plugin")
    run = cli(*shlex.split(example), "-q")
    assert run.exit_code == 0 and run.stdout.startswith("Solved takeaway: "), (example, run.stderr)
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    for command in ("games", "query", "stats", "verify", "export", "compact"):
        example = re.search(r"Examples?:\s+gamedb (.+)", cli(command, "--help").stdout).group(1)
        args = shlex.split(example.split(">")[0])
        run = cli(*args)
        assert run.exit_code == 0, (example, run.stderr)
