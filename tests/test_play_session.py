"""`gamedb play` as a user types it: undo, new games, a chosen start, commands, short move lists, the end of a game.

Each test feeds stdin lines to the CLI and reads what it printed; the
computer's moves and the values shown are checked against ``query`` of the
same file (the stored values, themselves checked against oracles elsewhere).
"""

from __future__ import annotations

import json
import re

import pytest

from gamedb.cli.play import COMMANDS, MOVES_SHOWN


def positions_shown(stdout: str) -> list[str]:
    return re.findall(r"^position   (.+)$", stdout, flags=re.M)


def turns_shown(stdout: str) -> list[str]:
    return re.findall(r"^to move    (\w+):", stdout, flags=re.M)


def computer_moves(stdout: str) -> list[str]:
    return re.findall(r"^\w+ plays (\S+)$", stdout, flags=re.M)


def stored(cli, name: str, position: str) -> dict:
    return json.loads(cli("query", name, "--json", "--", position).stdout)


@pytest.fixture
def tictactoe(cli):
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    return cli


@pytest.fixture
def nim(cli):
    assert cli("solve", "nim", "--max", "20", "-q").exit_code == 0
    return cli


# --- tic-tac-toe -------------------------------------------------------------------


def test_undo_takes_back_the_move_and_the_reply(tictactoe):
    run = tictactoe("play", "tictactoe", input="5\nundo\nundo\nquit\n")
    assert run.exit_code == 0, run.stderr
    reply = stored(tictactoe, "tictactoe", "....X....")["best_move"]
    assert computer_moves(run.stdout) == [reply]
    after_reply = positions_shown(run.stdout)[2]
    assert positions_shown(run.stdout) == [".........", "....X....", after_reply, "........."]
    assert turns_shown(run.stdout) == ["X", "O", "X", "X"]
    # the second undo: nothing of the human's left to take back
    assert "Nothing to undo: you have not moved yet." in run.stdout


def test_undo_as_second_player_keeps_the_computers_first_move(tictactoe):
    run = tictactoe("play", "tictactoe", "--as", "O", input="undo\n1\nundo\nquit\n")
    assert run.exit_code == 0, run.stderr
    first = stored(tictactoe, "tictactoe", ".........")["best_move"]
    opened = positions_shown(run.stdout)[1]
    assert computer_moves(run.stdout)[0] == first and opened.count("X") == 1
    assert "Nothing to undo: you have not moved yet." in run.stdout  # before O's first move
    # after O's move and X's reply, undo goes back to O to move on the opened board, not to the empty one
    assert positions_shown(run.stdout)[-1] == opened and turns_shown(run.stdout)[-1] == "O"


def test_new_game_from_the_start_and_from_a_typed_position(tictactoe):
    run = tictactoe("play", "tictactoe", input="1\nnew\nnew XX.OO....\n3\n")
    assert run.exit_code == 0, run.stderr
    shown = positions_shown(run.stdout)
    assert shown[0] == "........." and shown[3] == "........."  # the move, the reply, then a new game
    assert shown[4] == "XX.OO...." and shown[5] == "XXXOO...."
    assert "Game over. You win!" in run.stdout


def test_new_with_a_bad_position_keeps_the_game(tictactoe):
    run = tictactoe("play", "tictactoe", input="new XXXXXXXXXX\nhint\n")
    assert run.exit_code == 0, run.stderr
    assert "(the game in progress goes on)" in run.stdout
    assert "hint: 1 (tie in 9 for X)" in run.stdout
    assert positions_shown(run.stdout) == ["........."]


def test_position_option_chooses_the_start(tictactoe):
    run = tictactoe("play", "tictactoe", "--position", "XX.OO....", input="3\n")
    assert run.exit_code == 0, run.stderr
    assert positions_shown(run.stdout) == ["XX.OO....", "XXXOO...."]
    assert "Game over. You win!" in run.stdout
    bad = tictactoe("play", "tictactoe", "--position", "banana")
    assert bad.exit_code != 0 and bad.stderr.startswith("Error: ") and "Traceback" not in bad.stderr


def game_over_line(stdout: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith("Game over."))


def test_the_end_offers_undo_only_after_a_move_of_yours(nim):
    # a game that starts over offers neither undo nor new (the same ended position) but new POSITION
    ended = nim("play", "nim", "--position", "0", input="undo\n")
    assert ended.exit_code == 0, ended.stderr
    assert game_over_line(ended.stdout).endswith("Type new POSITION for a game from another position, or quit.")
    assert "Nothing to undo: you have not moved yet." in ended.stdout
    # the computer ends it before your first move: a new game, no undo
    lost = nim("play", "nim", "--position", "5", "--as", "second", input="")
    assert computer_moves(lost.stdout) == ["1:0"]
    assert game_over_line(lost.stdout).endswith("Type new for another game, or quit.")
    won = nim("play", "nim", "--position", "1", input="1:0\nundo\n")
    assert game_over_line(won.stdout).endswith("Type new for another game, undo to take back your move, or quit.")
    assert positions_shown(won.stdout) == ["1", "0", "1"]


def test_unknown_command_and_help(tictactoe):
    run = tictactoe("play", "tictactoe", input="foo\nhelp\nHINT\n")
    assert run.exit_code == 0, run.stderr
    assert "'foo' is not a legal move here (legal: 1, 2, 3, 4, 5, 6, 7, 8, 9; help lists the commands)" in run.stdout
    for names, _, text in COMMANDS:
        assert re.search(rf"^  {re.escape(names[0])}\b.*{re.escape(text)}$", run.stdout, flags=re.M), names
    assert "hint: 1 (tie in 9 for X)" in run.stdout
    assert positions_shown(run.stdout) == ["........."]  # commands do not show the position again


def test_help_text_lists_every_command(cli):
    run = cli("play", "--help")
    assert run.exit_code == 0
    for names, _, _ in COMMANDS:
        assert names[0] in run.stdout
    assert "--position" in run.stdout


def test_whole_game_of_best_moves_ends_in_the_promised_tie(tictactoe):
    # the human plays the stored best move at each turn; the computer answers with its own
    position, typed = ".........", []
    while True:
        answer = stored(tictactoe, "tictactoe", position)
        if not answer["moves"]:
            break
        move = answer["best_move"]
        if answer["player"] == "X":
            typed.append(move)
        position = next(m["position"] for m in answer["moves"] if m["move"] == move)
    run = tictactoe("play", "tictactoe", input="\n".join(typed) + "\nundo\n")
    assert run.exit_code == 0, run.stderr
    assert "Game over. A tie." in run.stdout
    assert positions_shown(run.stdout)[-2] == position
    # undo after the end: back to X's last turn
    assert turns_shown(run.stdout)[-1] == "X" and positions_shown(run.stdout)[-1].count(".") == 1


# --- nim ---------------------------------------------------------------------------


def test_nim_starts_on_a_small_sum_with_a_short_move_list(nim):
    run = nim("play", "nim", input="moves\n")
    assert run.exit_code == 0, run.stderr
    assert positions_shown(run.stdout)[0] == "3 4 5"
    first_turn = run.stdout.split("first to move>")[0]
    listed = re.findall(r"^  (\d+:\d+)  ", first_turn, flags=re.M)
    assert len(listed) == MOVES_SHOWN
    assert f"... and {12 - MOVES_SHOWN} more (12 moves in all): type moves to list them all" in first_turn
    # `moves` lists all 12, best first: the same order as query
    everything = re.findall(r"^  (\d+:\d+)  ", run.stdout.split("first to move>")[1], flags=re.M)
    assert everything == [m["move"] for m in stored(nim, "nim", "3 4 5")["moves"]]
    assert listed == everything[:MOVES_SHOWN]


def test_nim_start_is_clipped_to_max(cli):
    assert cli("solve", "nim", "--max", "2", "-q").exit_code == 0
    run = cli("play", "nim", input="")
    assert positions_shown(run.stdout) == ["2 2 2"]


def test_an_empty_position_starts_from_the_start(nim):
    # as `gamedb query NAME ""`: an empty or blank --position is the play start, where it was nim's parse error
    for typed in ("", "   "):
        run = nim("play", "nim", "--position", typed, input="")
        assert run.exit_code == 0, run.stderr
        assert positions_shown(run.stdout) == ["3 4 5"]
    assert positions_shown(nim("play", "nim", "--from", "", input="").stdout) == ["3 4 5"]
    help_text = " ".join(nim("play", "--help").stdout.split())
    assert "default, or empty: the game's start" in help_text, help_text


def test_flip_starts_on_three_small_runs(cli):
    assert cli("solve", "flip", "--max", "10", "-q").exit_code == 0
    run = cli("play", "flip", input="")
    assert positions_shown(run.stdout) == ["+++-++++-+++++"]


def test_nim_chosen_start_undo_new_and_end(nim):
    # 1 2: the human (first) wins by 2:1; undo; then a new game from 2 2, a loss for the player to move
    run = nim("play", "nim", "--position", "1 2", input="2:1\nundo\nnew 2 2\n9:9\n1:0\n")
    assert run.exit_code == 0, run.stderr
    shown = positions_shown(run.stdout)
    reply = stored(nim, "nim", "1 1")["best_move"]
    assert shown[:4] == ["1 2", "1 1", "1" if reply in ("1:0", "2:0") else shown[2], "1 2"]
    assert turns_shown(run.stdout)[:4] == ["first", "second", "first", "first"]
    assert shown[4] == "2 2"
    assert "'9:9' is not a legal move here (legal:" in run.stdout
    # 2 2 -> 2 (human) -> computer takes the last heap: the computer wins
    assert shown[5:] == ["2", "0"]
    assert computer_moves(run.stdout)[-1] == stored(nim, "nim", "2")["best_move"] == "1:0"
    assert "Game over. second wins." in run.stdout


def test_nim_winning_line_to_the_end(nim):
    run = nim("play", "nim", "--position", "1 2", input="2:1\n1:0\n")
    assert run.exit_code == 0, run.stderr
    assert positions_shown(run.stdout)[-1] == "0"
    assert "Game over. You win!" in run.stdout


def test_nim_long_move_list_error_names_the_count(nim):
    run = nim("play", "nim", "--position", "20 20", input="1:25\n")
    assert "'1:25' is not a legal move here (40 legal moves: type moves to list them; help lists the commands)" in run.stdout
