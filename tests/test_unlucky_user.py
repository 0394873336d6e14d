"""What an unlucky (or mischievous) user runs into, through the CLI: one line and the right exit code, no surprise.

Huge sizes, endless files, an in-memory database, a kill while a solve
finishes the file or while a copy runs, names with terminal escape
sequences in a shared file, and a 100 KB argument echoed back.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from killed_cli import KILLED_CLI

from conftest import SEED_GRAPH_1


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "GAMEDB_DB"}


def _killed_at(pattern: str, n: int, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", KILLED_CLI, pattern, str(n), *args], capture_output=True, text=True, env=_env(), timeout=300)


def _gamedb(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamedb", *args], capture_output=True, text=True, env=_env(), timeout=300, stdin=subprocess.DEVNULL)


def _one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert "Traceback" not in stderr
    return lines[0]


@pytest.mark.parametrize("size", ["9" * 400 + "T", "2000000T", "1e9"])
def test_a_huge_memory_limit_is_a_bad_option(cli, db_path, size):
    run = cli("solve", "nim", "--max", "3", "--memory-limit", size, "-q")
    assert run.exit_code == 2
    line = _one_error_line(run.stderr)
    assert "--memory-limit must be" in line and len(line) < 300
    assert not db_path.exists()


def test_a_graph_file_that_never_ends_is_read_only_so_far(cli, db_path):
    run = cli("solve", "cat-mouse", "--graph", "/dev/zero", "-q")
    assert run.exit_code == 2
    assert "is larger than 64 MiB" in _one_error_line(run.stderr)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "sqlite:///"])
def test_an_in_memory_database_is_refused_before_any_work(cli, url):
    run = cli("solve", "tictactoe", "-q", db=url)
    assert run.exit_code == 2 and run.stdout == ""
    assert "is a SQLite database in memory" in _one_error_line(run.stderr)


def _journal_is_wal(path: Path) -> bool:
    return path.read_bytes()[18:20] == b"\x02\x02"


def _has_statistics(path: Path) -> bool:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
        found = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone() is not None
    con.close()
    return found


def test_a_solve_killed_while_it_finishes_the_file_is_finished_by_the_next(tmp_path):
    db = tmp_path / "games.sqlite"
    killed = _killed_at("ANALYZE", 1, "--db", str(db), "solve", "tictactoe", "-q")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert _journal_is_wal(db) and not _has_statistics(db)  # solved, but the file not finished
    again = _gamedb("--db", str(db), "solve", "tictactoe", "-q")
    assert again.returncode == 0 and "already solved" in again.stdout, again.stdout + again.stderr
    assert not _journal_is_wal(db) and _has_statistics(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite"]  # one self-contained file again
    assert "tie in 9" in _gamedb("--db", str(db), "query", "tictactoe").stdout


def test_a_killed_copy_resumes_with_the_same_command(tmp_path):
    src, dst = tmp_path / "src.sqlite", tmp_path / "dst.sqlite"
    assert _gamedb("--db", str(src), "solve", "tictactoe", "--strategy", "sql", "-q").returncode == 0  # with move rows
    assert _gamedb("--db", str(src), "solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q").returncode == 0
    # the games are copied in name order, each in one transaction: killed as the second one begins
    killed = _killed_at("INSERT INTO game", 2, "copy", str(src), str(dst), "-q")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    with sqlite3.connect(dst) as con:
        assert [r[0] for r in con.execute("SELECT name FROM game")] == ["cat-mouse"]
    con.close()
    again = _gamedb("copy", str(src), str(dst), "-q")
    assert again.returncode == 0, again.stderr
    assert "Already in the destination, as copied before: cat-mouse." in again.stderr
    assert again.stdout.strip() == "Copied 1 game (tictactoe): 5,478 positions, 16,167 moves."
    for name, position in (("tictactoe", "X...O...."), ("cat-mouse", "mouse=3,cat=2,turn=cat")):
        args = ["query", name, position, "--json"]
        assert _gamedb("--db", str(dst), *args).stdout == _gamedb("--db", str(src), *args).stdout
    assert not _journal_is_wal(dst) and _has_statistics(dst)


@pytest.mark.parametrize("pattern, n, status", [("INSERT INTO position", 2, "enumerating"), ("UPDATE", 3, "solving")])
def test_stats_of_a_killed_solve_say_what_is_stored_so_far(tmp_path, pattern, n, status):
    """It said "positions 0" of a game with rows stored, and "None 4,520" for the positions not decided yet."""
    db = tmp_path / "games.sqlite"
    killed = _killed_at(pattern, n, "--db", str(db), "solve", "tictactoe", "--strategy", "sql", "-q")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    run = _gamedb("--db", str(db), "stats", "tictactoe")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    lines = dict(line.split(None, 1) if not line.startswith("  ") else line.strip().rsplit(None, 1) for line in run.stdout.splitlines())
    assert f"(tictactoe, {status})" in lines["game"] and "None" not in run.stdout
    stored = sum(int(lines[word].replace(",", "")) for word in ("win", "lose", "tie", "draw", "not decided yet"))
    assert stored > 0 and lines["positions"].startswith(f"{stored:,} (")
    if status == "enumerating":  # not counted yet: the rows stored so far, and how to go on
        assert "so far; unfinished: run the same `gamedb solve` command again" in lines["positions"]
        assert lines["moves"] == "not counted yet"
    # --json counted them under "null" (the Python API's None key, as json.dumps writes it); now under "undecided"
    run = _gamedb("--db", str(db), "stats", "tictactoe", "--json")
    results = json.loads(run.stdout)["results"]
    assert run.returncode == 0 and list(results) == ["win", "lose", "tie", "draw", "undecided"], results
    assert results["undecided"] == int(lines["not decided yet"].replace(",", "")) and sum(results.values()) == stored


ESCAPES = "\x1b]0;owned\x07\x1b[2J\u202e"


def test_names_from_a_file_are_shown_escaped(cli, db_path):
    """A shared file whose game name, start position, position text and best move hold terminal escapes
    (set the title, clear the screen, reverse the text): they reach the terminal as visible escapes,
    in text and in JSON, and JSON still parses to the stored text."""
    assert cli("solve", "tictactoe", "--no-symmetry", "-q").exit_code == 0  # every position stored, its best move read
    name = "ttt" + ESCAPES
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE game SET name = ?, start_position = ?", (name, "start" + ESCAPES))
        con.execute("UPDATE move_label SET name = ? WHERE id = (SELECT best_move FROM position WHERE text = '.........')", ("5" + ESCAPES,))
        con.execute("UPDATE position SET text = ? WHERE text = '.........'", ("board" + ESCAPES,))
    con.close()
    runs = {
        "list": cli("list"),
        "list --json": cli("list", "--json"),
        "query": cli("query", name),
        "query --json": cli("query", name, "--json"),
        "stats": cli("stats", name),
        "stats --json": cli("stats", name, "--json"),
        "export": cli("export", name, "-f", "jsonl"),
        "play": cli("play", name, input="hint\nquit\n"),
        "verify": cli("verify", name, "-q"),  # the tampered text is found, and named escaped
        "missing": cli("query", "ttt" + ESCAPES[:5]),
        "query -": cli("query", name, "-", input=".........\n"),
        "query - table": cli("query", name, "-", "--format", "table", input=".........\n"),
        "query csv": cli("query", name, "--format", "csv"),
    }
    # the console script (a process) prints the same, escaped
    for what, args, stdin in (
        ("script query", [name], ""),
        ("script query --json", [name, "--json"], ""),
        ("script query -", [name, "-"], ".........\n"),
        ("script query - csv", [name, "-", "--format", "csv"], ".........\n"),
    ):
        run = subprocess.run([sys.executable, "-m", "gamedb", "--db", str(db_path), "query", *args], input=stdin,
                             capture_output=True, text=True, env=_env(), timeout=300)
        assert run.returncode == 0, (what, run.stderr)
        runs[what] = run
        full = runs.get(what.replace("script ", ""))
        if full is not None:
            assert (run.stdout, run.stderr) == (full.stdout, full.stderr), what
    for what, run in runs.items():
        for text in (run.stdout, run.stderr):
            assert not any(c in text for c in "\x1b\x07\u202e"), (what, text[:500])
        assert "Traceback" not in run.stderr
    assert runs["verify"].exit_code == 1 and runs["missing"].exit_code == 1
    assert "ttt\\x1b]0;owned\\x07\\x1b[2J\\u202e" in runs["list"].stdout  # escaped, still readable
    assert "board\\x1b]0;owned" in runs["query"].stdout and "5\\x1b]0;owned" in runs["query"].stdout
    assert "\\u001b]0;owned\\u0007" in runs["list --json"].stdout  # JSON escapes: the same data once parsed
    assert json.loads(runs["list --json"].stdout)[0]["name"] == name
    assert json.loads(runs["query --json"].stdout)["position"] == "board" + ESCAPES
    assert json.loads(runs["script query -"].stdout)["position"] == "board" + ESCAPES
    assert "board\\x1b]0;owned" in runs["query - table"].stdout and "board\\x1b]0;owned" in runs["script query - csv"].stdout
    assert "board" + ESCAPES in {json.loads(line)["position"] for line in runs["export"].stdout.splitlines()}


@pytest.mark.parametrize(
    "args",
    [
        ["query", "tictactoe", "X" * 100_000],
        ["query", "x" * 100_000],
        ["solve", "cat-mouse", "--graph", "[" * 100_000],
        ["solve", "nim", "--max", "9" * 100_000],
    ],
    ids=["position", "game-name", "graph", "number"],
)
def test_an_error_does_not_echo_a_long_input(cli, args):
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    run = cli(*args)
    assert run.exit_code in (1, 2)
    line = _one_error_line(run.stderr)
    assert len(line) < 600, len(line)
