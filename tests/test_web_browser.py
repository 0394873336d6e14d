"""`gamedb serve` in a real browser: Debian's Chromium, headless, driven by Playwright.

One server (the CLI, as a user starts it) and one browser for the module. Without
Chromium or Playwright these tests skip; in CI (CI=true) they fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest
from web_games import Server

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def chromium_path() -> str:
    path = os.environ.get("GAMEDB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright.sync_api  # noqa: F401
        import starlette  # noqa: F401
    except ImportError as exc:
        path, why = None, f"{exc.name} is not installed (pip install '.[test]')"
    else:
        why = "Chromium is not installed (apt-get install chromium; .ci/run installs it)"
    if not path:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"CI is set but {why}: the browser tests must run in CI")
        pytest.skip(f"browser tests: {why}")
    return path


@pytest.fixture(scope="module")
def server(web_db):
    running = Server(web_db[0])
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server):
    """A new page (its own history) that records console errors, page errors and any request to another address."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    opened = context.new_page()
    opened.problems = []
    opened.on("console", lambda message: message.type == "error" and opened.problems.append(message.text))
    opened.on("pageerror", lambda error: opened.problems.append(str(error)))
    opened.on("request", lambda request: request.url.startswith(server.url) or opened.problems.append(f"request to {request.url}"))
    opened.set_default_timeout(15_000)
    yield opened
    context.close()


def open_url(page, url):
    page.goto(url)
    settle(page)


def settle(page):
    page.wait_for_selector('body[data-busy="0"]', state="attached")


def api(server, path):
    return json.load(urllib.request.urlopen(server.url + path))


def test_list_then_tictactoe(page, server, web_db):
    open_url(page, server.url)
    links = page.locator("#games a[data-game]")
    assert sorted(links.all_inner_texts()) == sorted(web_db[1])
    assert page.locator("#games svg.bars").count() == len(web_db[1])  # a bar chart per game
    page.click('#games a[data-game="tictactoe"]')
    settle(page)
    assert page.url == server.url + "?game=tictactoe&position=........."
    assert page.inner_text("#status") == "X to move: tie in 9."
    assert page.locator("#board [data-move]").count() == 9  # every empty cell is a move
    assert page.locator("#moves [data-move]").count() == 9
    assert page.locator("#history-chart svg").get_attribute("data-points") == "1"
    assert page.problems == []


def test_the_lists_start_is_where_the_game_opens(page, server):
    # nim's row showed its stored start, heap 5 (win in 1), while a click opened heaps 3 4 5 (another value)
    open_url(page, server.url)
    games = {game["name"]: game for game in api(server, "api/games")}
    for name in ("nim", "grundy", "tictactoe"):
        cell = page.locator(f'#games tr:has(a[data-game="{name}"]) td').nth(4)
        game = games[name]
        value = api(server, f"api/games/{name}/positions?position={urllib.request.quote(game['play_start'])}")
        said = value["result"] if value["remoteness"] is None else f"{value['result']} in {value['remoteness']}"
        assert cell.locator(".swatch").get_attribute("class") == f"swatch v-{value['result']}", name
        assert cell.inner_text().split(maxsplit=1)[1] == f"{said} {value['position']}", name
        assert cell.locator("code").inner_text() == game["play_start"] == value["position"], name
        heap = name != "tictactoe"
        assert (cell.get_attribute("title") or "").startswith("where the game opens") == heap, name
        if heap:
            assert game["start"] in cell.get_attribute("title") and game["play_start"] == "3 4 5"
    page.click('#games a[data-game="nim"]')
    settle(page)
    assert page.inner_text("#position-text") == games["nim"]["play_start"]
    assert page.problems == []


def test_winning_move_undo_redo_and_back(page, server):
    # a shared link: X to move, and 3 wins at once
    open_url(page, server.url + "?game=tictactoe&position=XX.OO....")
    answer = api(server, "api/games/tictactoe/positions?position=XX.OO....")
    assert page.inner_text("#status").startswith(f"X to move: win in {answer['remoteness']}")
    winning = page.locator("#board .move.v-win")
    assert winning.count() >= 1 and page.get_attribute("#board .move.best", "data-move") == answer["best_move"] == "3"
    # colour is not the only cue: the letter and the remoteness are written on each move
    assert page.inner_text('#moves tr:has([data-move="3"])').split("\t")[1:3] == ["W1 win in 1", "\u2605 best"]
    page.click('#board [data-move="3"]')
    settle(page)
    assert page.inner_text("#position-text") == "XXXOO...."
    assert page.inner_text("#status") == "O to move: lose in 0 (X wins). Game over."
    assert page.locator("#board text.mark").all_text_contents().count("X") == 3
    assert page.locator("#board [data-move]").count() == 0
    assert page.locator("#history-chart svg").get_attribute("data-points") == "2"
    assert page.url.endswith("position=XXXOO....")

    page.click("#undo")
    settle(page)
    assert page.inner_text("#position-text") == "XX.OO...."
    assert page.locator("#history-chart .later").count() == 1  # the undone position, greyed, redo brings it back
    assert page.is_enabled("#redo") and not page.is_enabled("#undo")
    page.click("#redo")
    settle(page)
    assert page.inner_text("#position-text") == "XXXOO...."

    page.go_back()  # the browser's back button undoes too
    settle(page)
    assert page.inner_text("#position-text") == "XX.OO...."
    page.go_forward()
    settle(page)
    assert page.inner_text("#position-text") == "XXXOO...."
    assert page.problems == []


def test_every_family_renders_without_errors(page, server, web_db):
    for name in web_db[1]:
        open_url(page, f"{server.url}?game={name}")
        info = api(server, f"api/games/{urllib.request.quote(name)}")
        # the page opens where `gamedb play` starts (a heap game's stored start is one heap of --max); without rules, the stored start
        start = "" if info["play_start"] is None else f"?position={urllib.request.quote(info['play_start'])}"
        answer = api(server, f"api/games/{urllib.request.quote(name)}/positions{start}")
        assert page.inner_text("#position-text") == answer["position"], name
        assert page.locator("#moves [data-move]").count() == len(answer["moves"]), name
        drawn = page.locator("#board svg").count() == 1
        assert drawn == (name not in ("graph-tug-of-war", "takeaway")), name  # the graph and plugin games as text
        if not drawn:
            assert page.inner_text("#board pre") == answer["position"]
        if info["family"] in ("tictactoe", "connect4", "cat-mouse", "cat-mouse-grid", "flip", "stone-ix", "nim", "subtraction", "dobutsu"):
            on_board = sorted(page.locator("#board [data-move]").evaluate_all("els => els.map(e => e.dataset.move)"))
            assert on_board and set(on_board) <= {m["move"] for m in answer["moves"]}, name
        if answer["moves"]:  # play the best move from the board or the list; the page follows
            best = answer["best_move"]
            page.click(f'#moves [data-move="{best}"]')
            settle(page)
            child = next(m["position"] for m in answer["moves"] if m["move"] == best)
            assert page.inner_text("#position-text") == child, name
    assert page.problems == []


def test_heap_tokens_and_graph_nodes_play_their_moves(page, server):
    # nim 3 5 4: the second token of heap 2 leaves one token there (move 2:1)
    open_url(page, server.url + "?game=nim&position=3+5+4")
    assert page.inner_text("#position-text") == "3 5 4"
    page.click('#board [data-move="2:1"]')
    settle(page)
    assert page.inner_text("#position-text") == "3 1 4"
    # cat-mouse: the mouse moves to the node clicked, and the cat is to move
    open_url(page, server.url + "?game=cat-mouse")
    targets = page.locator("#board [data-move]").evaluate_all("els => els.map(e => e.dataset.move)")
    page.click(f'#board [data-move="{targets[0]}"]')
    settle(page)
    assert page.inner_text("#position-text") == f"mouse={targets[0]},cat=2,turn=cat"
    assert page.problems == []


def test_typed_and_linked_bad_positions_show_the_message(page, server, cli, web_db):
    expected = cli("query", "tictactoe", "XXXX", db=web_db[0]).stderr.strip()
    open_url(page, server.url + "?game=tictactoe&position=XXXX")
    assert page.inner_text("#error") == expected
    assert page.locator("#board [data-move]").count() == 0

    open_url(page, server.url + "?game=tictactoe")
    page.fill("#position-input", "XXXX")
    page.click('#position-form button[type="submit"]')
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == expected
    assert page.inner_text("#position-text") == "........."  # the position shown is kept
    page.fill("#position-input", "X...O....")
    page.press("#position-input", "Enter")
    page.wait_for_selector("#error", state="hidden")
    assert page.inner_text("#position-text") == "X...O...."

    open_url(page, server.url + "?game=nope")
    assert page.inner_text("#error") == cli("query", "nope", db=web_db[0]).stderr.strip()


def test_a_phone_wide_window_never_scrolls_sideways(page, server, web_db):
    # 320 px: the list's table scrolls in its own box, the value history and the position box shrink to fit
    page.set_viewport_size({"width": 320, "height": 640})
    widths = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    for url in [server.url, *(f"{server.url}?game={urllib.request.quote(name)}" for name in web_db[1])]:
        open_url(page, url)
        scrolled, visible = page.evaluate(widths)
        assert scrolled <= visible, url
    assert page.problems == []


def test_a_link_to_a_bad_position_offers_its_text_to_correct(page, server):
    open_url(page, server.url + "?game=tictactoe&position=XXXXXXXXX")
    assert page.is_visible("#error")
    # no empty board, move table, 'Position' line or value history around the message
    assert page.is_hidden("#play-area") and page.is_hidden("#history")
    assert page.input_value("#position-input") == "XXXXXXXXX"  # the link's text, to correct
    page.fill("#position-input", "XXOO.....")
    page.press("#position-input", "Enter")
    page.wait_for_selector("#error", state="hidden")
    settle(page)
    assert page.is_visible("#play-area") and page.is_visible("#history")
    assert page.inner_text("#position-text") == "XXOO....."
    assert all("status of 400" in problem for problem in page.problems)  # only the link's answer, refused


def focused(page):
    """Where the keyboard's focus is: [the region holding it (board, moves or toolbar) or its tag, its data-move or id]."""
    return page.evaluate(
        "(() => { const e = document.activeElement, region = e.closest('#board, #moves, .toolbar');"
        " return [region ? region.id || 'toolbar' : e.tagName, e.dataset.move || e.id]; })()"
    )


def test_keyboard_play_keeps_the_focus_where_the_user_was(page, server):
    open_url(page, server.url + "?game=tictactoe")
    page.focus('#board [data-move="5"]')
    page.keyboard.press("Enter")  # the board is drawn again: the focus stays on it, not back at the top
    settle(page)
    assert focused(page) == ["board", "1"]
    page.keyboard.press("Enter")
    settle(page)
    assert page.inner_text("#position-text") == "O...X...."
    page.focus('#moves [data-move="2"]')
    page.keyboard.press("Enter")
    settle(page)
    assert focused(page)[0] == "moves" and page.inner_text("#position-text") == "OX..X...."
    page.focus("#undo")
    for _ in range(3):
        page.keyboard.press("Enter")
        settle(page)
    assert page.inner_text("#position-text") == "........."
    assert focused(page) == ["toolbar", "redo"]  # undo disabled at the start: its neighbour has the focus
    page.keyboard.press("Enter")
    settle(page)
    assert page.inner_text("#position-text") == "....X...."
    open_url(page, server.url + "?game=tictactoe&position=XX.OO....")
    page.focus('#board [data-move="3"]')
    page.keyboard.press("Enter")  # X wins: no move left, the focus goes to the line that says so
    settle(page)
    assert focused(page) == ["P", "status"] and "Game over" in page.inner_text("#status")
    assert page.problems == []


@pytest.mark.parametrize(("start", "link"), [("?game=tictactoe", "#home"), ("?game=nope", "#back-to-list"), ("", '#games a[data-game="tictactoe"]')])
def test_ctrl_click_on_the_pages_links_opens_a_new_tab(page, server, start, link):
    open_url(page, server.url + start)
    here = page.url
    with page.context.expect_page() as opened:
        page.click(link, modifiers=["Control"])
    new_tab = opened.value
    new_tab.wait_for_load_state()
    got, wanted = (urlsplit(url) for url in (new_tab.url, server.url + page.get_attribute(link, "href").lstrip("/")))
    # the same page (a game's adds its start position to the address once it has drawn it: read before or after)
    assert got.path == wanted.path and parse_qs(got.query).get("game") == parse_qs(wanted.query).get("game")
    assert page.url == here  # this page stays where it was


def test_a_game_answered_from_rows_without_moves_is_not_over(page, web_db):
    # the plugin not importable (as after pip uninstall): the file keeps no move rows for the takeaway game
    rows_only = Server(web_db[0], env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")})
    try:
        start = api(rows_only, "api/games/takeaway/positions")
        assert start["rules_missing"] and start["moves"] == [] and start["moves_complete"] is False and start["degree"] > 0
        open_url(page, rows_only.url + "?game=takeaway")
        status = page.inner_text("#status")
        assert "Game over" not in status and status.endswith(f"Best move: {start['best_move']}.")
        assert page.inner_text("#moves-note").startswith(f"{start['degree']} moves in all; none can be listed")
        page.select_option("#side", "0")
        settle(page)
        assert page.inner_text("#play-status") == "No move can be played from here: the file does not list them."
        # one match left: one move, counted in the singular (was "1 moves in all")
        assert api(rows_only, "api/games/takeaway/positions?position=matches%3D1%2Cturn%3Dbob")["degree"] == 1
        open_url(page, rows_only.url + "?game=takeaway&position=matches%3D1%2Cturn%3Dbob")
        assert page.inner_text("#moves-note").startswith("1 move in all; none can be listed")
        assert [problem for problem in page.problems if not problem.startswith(f"request to {rows_only.url}")] == []  # the page's server is this one
    finally:
        rows_only.stop()


@pytest.mark.parametrize("position", ["", "+"])  # ?position= and a blank one (a space): the start, as without it
def test_a_link_with_an_empty_position_opens_the_start(page, server, position):
    # was "Error: empty heap position ''" and no board
    open_url(page, f"{server.url}?game=nim&position={position}")
    start = api(server, "api/games/nim")["play_start"]
    assert page.is_hidden("#error") and page.inner_text("#position-text") == start == "3 4 5"
    assert parse_qs(urlsplit(page.url).query) == {"game": ["nim"], "position": [start]}  # the start's text in the address
    assert page.locator("#board [data-move]").count() > 0
    assert page.problems == []


def test_an_empty_position_box_goes_to_the_start(page, server):
    # Go with the box emptied did nothing at all (no message, no move)
    open_url(page, server.url + "?game=tictactoe&position=X...O....")
    page.fill("#position-input", "XXXX")
    page.press("#position-input", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    for typed in ("", "   "):
        page.fill("#position-input", typed)
        page.press("#position-input", "Enter")
        page.wait_for_selector("#error", state="hidden")
        settle(page)
        assert page.inner_text("#position-text") == "........." and page.url.endswith("position=.........")
        assert page.input_value("#position-input") == "........."
        page.click('#board [data-move="5"]')
        settle(page)
    assert all("status of 400" in problem for problem in page.problems)  # only XXXX, refused
