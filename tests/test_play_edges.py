"""`gamedb play` at its edges, as a user types it: a loopy game that comes back to a position (a draw by
repetition, the rule of cat and mouse and of Dōbutsu), and what a user types that is not a move."""

from __future__ import annotations

import re

import pytest

GRAPH = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]"  # LeetCode 913's first example: a draw from the start


def positions_shown(stdout: str) -> list[str]:
    return re.findall(r"^position   (.+)$", stdout, flags=re.M)


def computer_moves(stdout: str) -> list[str]:
    return re.findall(r"^\w+ plays (\S+)$", stdout, flags=re.M)


@pytest.fixture
def cat_mouse(cli):
    assert cli("solve", "cat-mouse", "--graph", GRAPH, "-q").exit_code == 0
    return cli


def test_a_repeated_position_ends_the_game_as_a_draw_and_undo_goes_on(cat_mouse):
    # mouse 3, cat 5, mouse 4, cat 2, mouse 3: the position after the mouse's first move again
    run = cat_mouse("play", "cat-mouse", input="3\n4\n3\n5\nhint\nundo\nquit\n")
    assert run.exit_code == 0, run.stderr
    assert computer_moves(run.stdout) == ["5", "2"]  # the cat does not answer the repeated position
    assert positions_shown(run.stdout) == [
        "mouse=1,cat=2,turn=mouse", "mouse=3,cat=2,turn=cat", "mouse=3,cat=5,turn=mouse", "mouse=4,cat=5,turn=cat",
        "mouse=4,cat=2,turn=mouse", "mouse=3,cat=2,turn=cat", "mouse=4,cat=2,turn=mouse",
    ]
    assert (
        "Game over: mouse=3,cat=2,turn=cat was reached after move 1 too: a draw by repetition. "
        "Type new for another game, undo to take back your move, or quit."
    ) in run.stdout
    assert "game over> " in run.stdout
    assert "'5' is not a legal move here: the game is over (help lists the commands)" in run.stdout
    assert "No move: the game is over." in run.stdout


def test_the_computers_move_can_repeat_a_position(cat_mouse):
    # you play the cat: mouse 3, cat 5, mouse 4, cat 2, mouse 3 again (the computer's move repeats)
    run = cat_mouse("play", "cat-mouse", "--as", "cat", input="5\n2\nundo\n")
    assert run.exit_code == 0, run.stderr
    assert computer_moves(run.stdout) == ["3", "4", "3"]
    assert "Game over: mouse=3,cat=2,turn=cat was reached after move 1 too: a draw by repetition." in run.stdout
    assert positions_shown(run.stdout)[-1] == "mouse=4,cat=5,turn=cat"  # undo: back to your turn before it


def test_back_at_the_start(cat_mouse):
    run = cat_mouse("play", "cat-mouse", "--position", "mouse=3,cat=2,turn=cat", input="4\n3\nnew\n")
    assert run.exit_code == 0, run.stderr
    assert "Game over: mouse=3,cat=2,turn=cat was reached at the start too: a draw by repetition." in run.stdout
    # new: the same start again, and the cat answers it as before
    assert positions_shown(run.stdout)[-2:] == ["mouse=3,cat=2,turn=cat", "mouse=3,cat=5,turn=mouse"]
    assert computer_moves(run.stdout) == ["5", "2", "5"]


def test_a_move_typed_in_another_case_is_played(cli):
    # the commands are read in any case (HINT); a move label too, when no other move is spelled so
    assert cli("solve", "dobutsu", "--pieces", "", "-q").exit_code == 0
    run = cli("play", "dobutsu-lions", input="B4B3\n")
    assert run.exit_code == 0, run.stderr
    assert "not a legal move" not in run.stdout
    assert positions_shown(run.stdout)[:2] == [".l./.../.../.L. - first", ".l./.../.L./... - second"]


def test_an_illegal_move_still_lists_the_legal_ones(cat_mouse):
    run = cat_mouse("play", "cat-mouse", input="4\nX\n")
    assert run.stdout.count("is not a legal move here (legal: 3; help lists the commands)") == 2


def blocks(stdout: str) -> list[list[str]]:
    """The lines shown for each position: from its `position` line to the next prompt."""
    found = []
    for part in re.split(r"^position   ", stdout, flags=re.M)[1:]:
        found.append(part.split("> ")[0].splitlines())
    return found


def test_a_game_over_by_repetition_lists_no_moves(cat_mouse, cli):
    # the repeated position listed its moves with their values ('moves' too) as if they could be played
    run = cat_mouse("play", "cat-mouse", input="3\n4\n3\nmoves\n")
    assert run.exit_code == 0, run.stderr
    repeated, listed = blocks(run.stdout)[-2:]
    assert repeated == [
        "mouse=3,cat=2,turn=cat", "to move    cat: draw",
        "Game over: mouse=3,cat=2,turn=cat was reached after move 1 too: a draw by repetition. "
        "Type new for another game, undo to take back your move, or quit.",
        "game over",
    ]
    assert listed == ["mouse=3,cat=2,turn=cat", "to move    cat: draw", "game over"]
    # as a game that ends by its rules: the position, its value, the verdict
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    won = cli("play", "tictactoe", input="1\n4\n2\nmoves\n")
    ended = blocks(won.stdout)[-2]
    assert ended[0] == "XXOXO.O.." and ended[-3:] == [
        "to move    X: lose in 0 (O wins)", "Game over. O wins. Type new for another game, undo to take back your move, or quit.", "game over"]
