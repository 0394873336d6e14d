"""The page's play against the computer at its edges (`gamedb serve`, Chromium headless): a loopy game that
comes back to a position ends as a draw by repetition, and a heap game opens where `gamedb play` does."""

from __future__ import annotations

from urllib.parse import quote

import pytest
import test_web_browser as shared
from web_games import Server

# the browser and its pages as test_web_browser starts them
browser, page = shared.browser, shared.page
api, open_url, settle = shared.api, shared.open_url, shared.settle


@pytest.fixture(scope="module")
def server(web_db):
    running = Server(web_db[0])
    yield running
    running.stop()


def played(page):
    return page.locator("#played button").all_inner_texts()


def click(page, move):
    page.click(f'#board [data-move="{move}"]')
    settle(page)


def test_a_repeated_position_ends_the_game_as_a_draw(page, server):
    # LeetCode 913's first graph, a draw: mouse 3, cat 5, mouse 4, cat 2, mouse 3 again
    open_url(page, server.url + "?game=cat-mouse")
    page.select_option("#side", label="mouse")
    settle(page)
    for move in ("3", "4"):
        click(page, move)
    assert played(page) == ["3", "5", "4", "2"]
    assert page.inner_text("#play-status") == "Your move."
    click(page, "3")
    assert page.inner_text("#position-text") == "mouse=3,cat=2,turn=cat"
    assert page.inner_text("#play-status") == "Game over: a draw by repetition (mouse=3,cat=2,turn=cat was reached after move 1 too)."
    assert page.get_attribute("#play-status", "data-outcome") == "draw"
    assert page.inner_text("#status").endswith("Game over.")
    page.wait_for_timeout(800)  # longer than the computer's pause: it does not answer a repeated position
    assert played(page) == ["3", "5", "4", "2", "3"]
    assert all(not button.is_enabled() for button in page.locator("#moves [data-move]").all())
    click(page, "5")  # the board's moves do nothing once the game is over
    assert played(page) == ["3", "5", "4", "2", "3"]
    page.click("#undo")  # undo goes back to the user's turn before the repeating move
    settle(page)
    assert page.inner_text("#position-text") == "mouse=4,cat=2,turn=mouse"
    assert page.inner_text("#play-status") == "Your move."
    click(page, "2")  # another move: onto the cat
    assert played(page) == ["3", "5", "4", "2", "2"]
    assert page.inner_text("#play-status") == "Game over: the computer wins."
    assert page.problems == []


def test_exploring_both_sides_walks_on_past_a_repetition(page, server):
    open_url(page, server.url + "?game=cat-mouse&position=mouse%3D3%2Ccat%3D2%2Cturn%3Dcat")
    for move in ("5", "4", "2", "3", "5"):
        click(page, move)
    assert played(page) == ["5", "4", "2", "3", "5"]
    assert page.locator("#play-status").is_hidden()
    assert page.problems == []


@pytest.mark.parametrize("game", ["nim", "subtraction-1,2,5", "octal-0.77", "grundy"])
def test_a_heap_game_opens_where_gamedb_play_starts(page, server, game, cli, web_db):
    # the stored start of a heap game is one heap of --max (the end of the solved range, 12 here, 1000 by
    # default); the page opens, as `gamedb play` does, at heaps 3 4 5, each at most --max
    started = cli("play", game, db=web_db[0], input="").stdout
    opening = started.split("position   ", 1)[1].splitlines()[0]
    info = api(server, f"api/games/{quote(game, safe='')}")
    assert info["play_start"] == opening == " ".join(str(min(n, info["parameters"]["max"])) for n in (3, 4, 5))
    open_url(page, f"{server.url}?game={quote(game, safe='')}")
    assert page.inner_text("#position-text") == opening
    assert page.url.endswith("&position=" + opening.replace(" ", "+"))
    page.fill("#position-input", "5 2")  # another position can still be typed
    page.press("#position-input", "Enter")
    settle(page)
    assert page.inner_text("#position-text") == "5 2"
    page.click("#restart")  # Start: back where the page opened
    settle(page)
    assert page.inner_text("#position-text") == opening
    assert page.problems == []


def test_the_api_names_where_play_starts(server):
    assert api(server, "api/games/tictactoe")["play_start"] == "........."
    assert api(server, "api/games/cat-mouse")["play_start"] == "mouse=1,cat=2,turn=mouse"
    # without a position the API still answers the stored start, as `gamedb query NAME` does
    assert api(server, "api/games/nim/positions")["position"] == "5"
