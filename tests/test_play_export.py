"""`gamedb play` with scripted input, and `gamedb export`."""

import csv
import io
import json
import re

import pytest

from conftest import SEED_GRAPH_1


@pytest.fixture
def solved(cli):
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    return cli


def _positions_played(stdout):
    return re.findall(r"^position   (\S+)$", stdout, flags=re.M)


def test_play_tictactoe_to_the_end_perfect_player_wins(solved):
    # the human (O) blunders; X must convert its won positions, never letting go of them
    run = solved("play", "tictactoe", "--as", "O", input="2\n3\n7\n8\n9\n")
    assert run.exit_code == 0, run.stderr
    assert "Game over. X wins." in run.stdout
    boards = _positions_played(run.stdout)
    assert boards[0] == "........." and len(boards) >= 5
    # verify against the stored values: once X is winning, every later X position stays winning

    results = []
    for board in boards:
        data = json.loads(solved("query", "tictactoe", board, "--json").stdout)
        results.append((data["player"], data["result"]))
    first_win = next(i for i, (player, result) in enumerate(results) if player == "X" and result == "win")
    assert all(result == "win" for player, result in results[first_win:] if player == "X")


def test_play_as_x_with_hint_undo_and_bad_input(solved):
    run = solved("play", "tictactoe", input="hint\n5\nundo\n10\nfoo\n5\nquit\n")
    assert run.exit_code == 0
    assert "hint: 1 (tie in 9 for X)" in run.stdout
    assert "'10' is not a legal move here" in run.stdout
    assert "'foo' is not a legal move here" in run.stdout
    # undo went back to the empty board with X to move
    assert run.stdout.count("position   .........") >= 2


def test_play_unknown_player(solved):
    run = solved("play", "tictactoe", "--as", "Z")
    assert run.exit_code == 2 and "--as must be one of X, O" in run.stderr


def test_play_ends_on_end_of_input(solved):
    run = solved("play", "tictactoe", input="")
    assert run.exit_code == 0


def test_export_csv_and_jsonl(solved, tmp_path):
    run = solved("export", "tictactoe", "--format", "csv")
    assert run.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert len(rows) == 765  # the stored positions: one per class of 8 symmetries
    start = next(r for r in rows if r["position"] == ".........")
    assert (start["result"], start["remoteness"], start["best_move"], start["player"]) == ("tie", "9", "1", "X")
    out = tmp_path / "t.jsonl"
    run = solved("export", "tictactoe", "-f", "jsonl", "-o", str(out))
    assert run.exit_code == 0 and "Wrote 765 positions" in run.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 765
    won = [json.loads(line) for line in lines if json.loads(line)["result"] == "win"]
    assert len(won) == 390 and all(w["winner"] == w["player"] for w in won)


def test_export_format_follows_the_output_name(solved, tmp_path):
    """`export NAME -o rows.jsonl` wrote CSV into rows.jsonl; without --format the file's name chooses now."""
    for name, first in (("t.jsonl", "{"), ("t.NDJSON", "{"), ("t.csv", "position,"), ("t.txt", "position,")):
        run = solved("export", "tictactoe", "-o", str(tmp_path / name))
        assert run.exit_code == 0 and "Wrote 765 positions" in run.stdout, run.stderr
        assert (tmp_path / name).read_text().startswith(first), name
    run = solved("export", "tictactoe", "-o", str(tmp_path / "forced.jsonl"), "--format", "csv")  # --format, when given, decides
    assert run.exit_code == 0 and (tmp_path / "forced.jsonl").read_text().startswith("position,")
    assert solved("export", "tictactoe").stdout.startswith("position,")  # stdout: CSV, as before


def test_export_bad_format_and_unknown_game(solved):
    bad = solved("export", "tictactoe", "-f", "xml")
    assert bad.exit_code == 2 and "unknown export format" in bad.stderr and bad.stdout == ""
    missing = solved("export", "nosuch")
    assert missing.exit_code == 1 and "no game named" in missing.stderr


def test_export_draws(cli):
    cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q")
    rows = [json.loads(line) for line in cli("export", "cat-mouse", "-f", "jsonl").stdout.splitlines()]
    start = next(r for r in rows if r["position"] == "mouse=1,cat=2,turn=mouse")
    assert start["result"] == "draw" and start["remoteness"] is None and start["winner"] is None


# Impartial games: whose turn it is comes from the plies played, not from the
# stored row (an impartial position is the same whoever faces it). Each case
# starts where one move ends the game: that move wins for whoever plays it.
IMPARTIAL_LAST_MOVE = [
    ("nim", ["--max", "5"], "1", "1:0"),
    ("subtraction", ["--set", "1,2", "--max", "5"], "2", "1:0"),
    ("octal", ["--code", "0.07", "--max", "5"], "2", "1:0"),
    ("grundy", ["--max", "5"], "3", "1:1+2"),
    ("flip", ["--max", "5"], "++", "0"),
]


@pytest.mark.parametrize("family,options,start,winning_move", IMPARTIAL_LAST_MOVE, ids=[c[0] for c in IMPARTIAL_LAST_MOVE])
def test_play_impartial_names_the_real_winner(cli, family, options, start, winning_move):
    assert cli("solve", family, *options, "--name", "g", "-q").exit_code == 0
    # the human moves first and takes the last move: the human wins
    run = cli("play", "g", "--from", start, input=f"{winning_move}\n")
    assert run.exit_code == 0, run.stderr
    assert "Game over. You win!" in run.stdout
    turns = re.findall(r"^to move    (\w+):", run.stdout, flags=re.M)
    assert turns == ["first", "second"]
    # the computer moves first and takes the last move: the computer (first) wins, not the human
    run = cli("play", "g", "--from", start, "--as", "second", input="")
    assert run.exit_code == 0, run.stderr
    assert f"first plays {winning_move}" in run.stdout
    assert "Game over. first wins." in run.stdout and "You win" not in run.stdout


def test_play_nim_as_typed_in_the_issue(cli):
    assert cli("solve", "nim", "--max", "5", "-q").exit_code == 0
    took_last = cli("play", "nim", "--from", "1", input="1:0\n")
    assert "Game over. You win!" in took_last.stdout and "second wins" not in took_last.stdout
    computer_took_last = cli("play", "nim", "--from", "3", "--as", "second", input="")
    assert "Game over. first wins." in computer_took_last.stdout and "You win" not in computer_took_last.stdout
    # a longer game: 3 -> 1 (human) -> 0 (computer): the computer wins with the human to move
    longer = cli("play", "nim", "--from", "3", input="1:1\n")
    assert re.findall(r"^to move    (\w+):", longer.stdout, flags=re.M) == ["first", "second", "first"]
    assert "Game over. second wins." in longer.stdout


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_export_never_writes_over_a_database(cli, tmp_path, suffix):
    """`-o games.sqlite` (the database read, or another) truncated it to a CSV: the database was gone."""
    db = tmp_path / f"games.{suffix}"
    assert cli("solve", "nim", "--max", "5", "-q", db=db).exit_code == 0
    before = db.read_bytes()
    for output in (db, db.with_name(f"copy.{suffix}")):
        if output != db:
            output.write_bytes(before)
        run = cli("export", "nim", "-o", str(output), db=db)
        assert run.exit_code == 2 and run.stderr.startswith("Error: --output ") and "is a database file" in run.stderr, run.stderr
        assert output.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([db.name, f"copy.{suffix}"])


def test_an_export_that_fails_leaves_the_older_file_and_no_half_file(tmp_path):
    from gamedb.cli.output_file import written_whole

    old = tmp_path / "nim.csv"
    old.write_text("the older export\n")
    with pytest.raises(KeyboardInterrupt), written_whole(old) as handle:
        handle.write("position,player\n")
        raise KeyboardInterrupt  # Ctrl-C half way
    assert old.read_text() == "the older export\n" and [p.name for p in tmp_path.iterdir()] == ["nim.csv"]
    with written_whole(old) as handle:
        handle.write("whole\n")
    assert old.read_text() == "whole\n" and [p.name for p in tmp_path.iterdir()] == ["nim.csv"]


def test_export_to_dash_is_stdout(solved, tmp_path, monkeypatch):
    """`-o -` wrote a file named "-" (and said "Wrote 765 positions of tictactoe to -.")."""
    monkeypatch.chdir(tmp_path)
    run = solved("export", "tictactoe", "-o", "-")
    assert run.exit_code == 0 and run.stdout == solved("export", "tictactoe").stdout
    assert run.stdout.startswith("position,player,") and not (tmp_path / "-").exists()
