"""Playing against perfect play in the browser (`gamedb serve`, Chromium headless), as a user does it.

The user's side is chosen in the page; the test plays the user's moves (always a best move, read
from the API as the oracle) by clicking the board; the computer's every answer is checked against
the stored values: a best move, and when it loses, the longest loss. The game ends in the value
the start promised.
"""

from __future__ import annotations

import urllib.request

import pytest
import test_web_browser as shared
from playwright.sync_api import expect
from web_games import Server

# the browser and its pages as test_web_browser starts them
browser, page = shared.browser, shared.page
api, open_url, settle = shared.api, shared.open_url, shared.settle


FOR_MOVER = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}


@pytest.fixture(scope="module")
def server(web_db_more):
    running = Server(web_db_more[0])
    yield running
    running.stop()


def answer_at(server, game, position):
    return api(server, f"api/games/{game}/positions?position={urllib.request.quote(position)}")


def played(page):
    return page.locator("#played button").all_inner_texts()


def check_computer_move(before, after):
    """The computer moved from ``before`` to ``after``: a best move; when it loses, the longest loss."""
    move = next(m for m in before["moves"] if m["position"] == after["position"])
    assert FOR_MOVER[move["result"]] == before["result"], (before["position"], move)
    if before["result"] in ("win", "lose"):  # the quickest win, the longest loss: the position's own remoteness
        assert move["remoteness"] + 1 == before["remoteness"], (before["position"], move)
    if before["result"] == "lose":
        assert move["remoteness"] == max(m["remoteness"] for m in before["moves"])
    return move["move"]


def play_out(page, server, game, side):
    """Play side ``side`` (a player's name) with best moves until the game ends; the moves in order."""
    page.select_option("#side", label=side)
    settle(page)
    moves = played(page)  # the computer's opening, when it has the first move
    previous = None
    for _ in range(100):
        position = page.inner_text("#position-text")
        answer = answer_at(server, game, position)
        if previous is not None and previous["player"] != side:  # the computer just moved
            moves.append(check_computer_move(previous, answer))
        if not answer["moves"]:
            return answer, moves
        if answer["player"] != side:  # the computer's first move is made when the side is chosen
            previous = answer
            continue
        assert page.inner_text("#play-status") == "Your move."
        best = answer["best_move"]
        moves.append(best)
        page.click(f'#board [data-move="{best}"]')
        settle(page)  # the page is busy until the computer has answered
        previous = answer_at(server, game, next(m["position"] for m in answer["moves"] if m["move"] == best))
        if not previous["moves"]:  # the user's move ended the game
            assert page.inner_text("#position-text") == previous["position"]
            return previous, moves
        assert previous["player"] != side
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game, side", [("tictactoe", "X"), ("tictactoe", "O"), ("connect4-4x4", "X"), ("connect4-4x4", "O")])
def test_a_whole_game_against_the_computer_ends_as_the_start_promised(page, server, game, side):
    open_url(page, f"{server.url}?game={game}")
    start = next(g for g in api(server, "api/games") if g["name"] == game)["start_value"]
    info = api(server, f"api/games/{game}")
    end, moves = play_out(page, server, game, side)
    # the start's value is for the first player; the user's result is the same or its mirror
    mine = start["result"] if side == info["players"][0] else FOR_MOVER[start["result"]]
    assert mine == "tie"  # both games are ties with best play on both sides
    outcome = end["result"] if end["player"] == side else FOR_MOVER[end["result"]]
    assert outcome == mine
    assert page.get_attribute("#play-status", "data-outcome") == mine
    assert page.inner_text("#play-status") == "Game over: a tie."
    assert played(page) == moves  # every move, in the order played
    assert len(moves) == start["remoteness"]  # a tie in 9 (tic-tac-toe), in 16 (4x4): the board is full
    assert page.problems == []


def test_the_computer_loses_as_slowly_as_it_can(page, server):
    # X to move wins in 5; the computer plays O and is lost after every move X makes
    open_url(page, server.url + "?game=tictactoe&position=X.O......")
    end, moves = play_out(page, server, "tictactoe", "X")
    assert end["result"] == "lose" and end["player"] == "O"
    assert page.get_attribute("#play-status", "data-outcome") == "win"
    assert page.inner_text("#play-status") == "Game over: you win."
    assert len(moves) == 5 and played(page) == moves
    assert page.locator("#board .win-line").count() == 1
    assert page.problems == []


def test_undo_goes_back_to_the_users_turn_and_the_computer_waits(page, server):
    open_url(page, server.url + "?game=tictactoe")
    page.select_option("#side", label="O")  # the computer plays X and opens at once
    settle(page)
    assert len(played(page)) == 1 and page.inner_text("#play-status") == "Your move."
    opening = page.inner_text("#position-text")
    reply = next(m["move"] for m in answer_at(server, "tictactoe", opening)["moves"])
    page.click(f'#board [data-move="{reply}"]')
    settle(page)
    assert len(played(page)) == 3
    page.click("#undo")  # back past the computer's answer, to the user's move
    settle(page)
    assert page.inner_text("#position-text") == opening
    assert page.inner_text("#play-status") == "Your move."
    page.wait_for_timeout(800)  # longer than the computer's pause: it does not move again
    assert page.inner_text("#position-text") == opening
    assert not page.is_enabled("#undo")  # the computer's opening is not the user's to undo
    # the computer's moves cannot be clicked for it: at its turn (after Start) the board waits
    page.select_option("#side", label="both sides (explore)")
    settle(page)
    page.click("#restart")
    settle(page)
    assert len(played(page)) == 0 and page.locator("#play-status").is_hidden()
    assert page.problems == []


def test_values_hidden_for_practice(page, server):
    open_url(page, server.url + "?game=tictactoe&position=X.O......")
    assert page.locator("#board .move.v-win").count() > 0
    page.uncheck("#show-values")
    settle(page)
    board_classes = " ".join(page.locator("#board .move, #moves button").evaluate_all("els => els.map(e => e.getAttribute('class'))"))
    for value in ("v-win", "v-lose", "v-tie", "v-draw", "best"):
        assert value not in board_classes
    assert page.locator("#board .move text").all_text_contents() == [""] * 7  # no letters, no remoteness
    assert page.inner_text("#status") == "X to move."
    assert page.locator("#history").is_hidden() and page.locator("#legend").is_hidden()
    listed = page.locator("#moves button[data-move]").all_inner_texts()
    assert listed == sorted(listed, key=int)  # not best first: the order would tell
    assert "win" not in page.inner_text("#moves") and "lose" not in page.inner_text("#moves")
    # the computer still plays perfectly with the values hidden
    end, _ = play_out(page, server, "tictactoe", "X")
    assert end["result"] == "lose" and page.inner_text("#play-status") == "Game over: you win."
    page.check("#show-values")
    settle(page)
    assert page.locator("#history").is_visible() and page.inner_text("#status") == "O to move: lose in 0 (X wins). Game over."
    assert page.problems == []


def test_moves_played_in_order_last_move_and_winning_line_connect4(page, server):
    open_url(page, server.url + "?game=connect4-4x4")
    assert page.inner_text("#no-moves-played") == "none yet"
    for column in "1231":
        page.click(f'#board [data-move="{column}"]')
        settle(page)
    assert played(page) == ["1", "2", "3", "1"]  # as played, whatever the position's text
    assert page.get_attribute("#board .last-move", "data-cell") == "1,2"  # column 1, second row: the last stone
    page.click("#undo")
    settle(page)
    assert page.get_attribute("#board .last-move", "data-cell") == "3,1"
    assert page.locator("#played li.later").count() == 1  # the undone move, greyed, still there to redo
    page.click('#played button[data-ply="1"]')  # a move of the list takes the board back to it
    settle(page)
    assert page.get_attribute("#board .last-move", "data-cell") == "1,1"
    assert page.locator("#board .win-line").count() == 0
    # X fills column 1 while O answers in column 2: four in a column
    open_url(page, server.url + "?game=connect4-4x4")
    for column in "1212121":
        page.click(f'#board [data-move="{column}"]')
        settle(page)
    assert page.inner_text("#status").endswith("(X wins). Game over.")
    assert page.locator("#board .win-line").get_attribute("data-cells") == "1,1 1,2 1,3 1,4"
    assert page.get_attribute("#board .last-move", "data-cell") == "1,4"
    assert played(page) == list("1212121")
    assert page.problems == []


def test_winning_line_and_last_move_tictactoe(page, server):
    open_url(page, server.url + "?game=tictactoe&position=X.XOO....")
    page.click('#board [data-move="2"]')
    settle(page)
    assert page.locator("#board .win-line").get_attribute("data-cells") == "1,2,3"
    assert page.get_attribute("#board .last-move", "data-cell") == "2"
    # a diagonal
    open_url(page, server.url + "?game=tictactoe&position=XO.OX....")
    page.click('#board [data-move="9"]')
    settle(page)
    assert page.locator("#board .win-line").get_attribute("data-cells") == "1,5,9"
    open_url(page, server.url + "?game=tictactoe&position=XOXXOO...")  # no line yet
    assert page.locator("#board .win-line").count() == 0
    assert page.problems == []


def test_an_impartial_game_against_the_computer(page, server):
    # Nim 3 5 4 (nim-sum 2): the first player wins; turns go by ply, positions do not name the mover
    open_url(page, server.url + "?game=nim&position=3+5+4")
    page.select_option("#side", label="the first player")
    settle(page)
    for _ in range(30):
        answer = answer_at(server, "nim", page.inner_text("#position-text"))
        if not answer["moves"]:
            break
        assert page.inner_text("#play-status") == "Your move."
        best = answer["best_move"]
        page.click(f'#board [data-move="{best}"]')
        settle(page)
        after_mine = answer_at(server, "nim", next(m["position"] for m in answer["moves"] if m["move"] == best))
        if after_mine["moves"]:
            check_computer_move(after_mine, answer_at(server, "nim", page.inner_text("#position-text")))
    assert page.inner_text("#position-text") == "0"
    assert page.inner_text("#play-status") == "Game over: you win."
    assert len(played(page)) % 2 == 1  # the first player made the last move
    assert page.problems == []


def test_hiding_values_while_the_computer_thinks_does_not_stop_it(page, server):
    open_url(page, server.url + "?game=tictactoe")
    page.select_option("#side", label="O")  # the computer (X) answers after a short pause...
    page.uncheck("#show-values")  # ...during which the values are hidden
    settle(page)
    expect(page.locator("#played button")).to_have_count(1)  # (a selector: the page's CSP allows no string evaluated as code)
    assert page.inner_text("#play-status") == "Your move." and page.inner_text("#status") == "O to move."
    assert page.problems == []
