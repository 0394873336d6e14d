"""The page's play against the computer at its edges (`gamedb serve`, Chromium headless): a loopy game that
comes back to a position ends as a draw by repetition."""

from __future__ import annotations

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

