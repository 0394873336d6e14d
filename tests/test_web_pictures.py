"""The page's pictures measured in a real browser (`gamedb serve`, Chromium headless): every heap move
marked, no text outside its shape or over another, no page wider than the window for long positions,
stone colours apart from the value colours, a clear page for an unknown game."""

from __future__ import annotations

import urllib.request

import pytest
import test_web_browser as shared
from web_games import Server

# the browser and its pages as test_web_browser starts them
browser, page = shared.browser, shared.page
api, open_url, settle = shared.api, shared.open_url, shared.settle


WIDTH = 1100  # the test window's width (test_web_browser.page)


@pytest.fixture(scope="module")
def server(web_db_more):
    running = Server(web_db_more[0])
    yield running
    running.stop()


def board_moves(page):
    return sorted(page.locator("#board [data-move]").evaluate_all("els => els.map(e => e.dataset.move)"))


def api_moves(server, game, position):
    answer = api(server, f"api/games/{urllib.request.quote(game)}/positions?position={urllib.request.quote(position)}")
    return sorted(m["move"] for m in answer["moves"])


BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def boxes(page, selector):
    return page.locator(selector).evaluate_all(f"els => els.map({BOX})")


def overlap(a, b, slack=0.5):
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def inside(inner, outer, slack=0.5):
    return inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack


HEAP_POSITIONS = [
    ("octal-0.77", "7"),  # Kayles: 7 moves, 5 of them split the row (2 were marked before)
    ("octal-0.77", "3 7"),
    ("nim", "3 5 4"),
    ("grundy", "7"),  # Grundy's game: every move splits
    ("subtraction-1,2,5", "12"),
    ("nim-big", "60"),  # longer than a row of tokens
    ("nim-big", "60 45 3 60 60 60 60 60 60 60 60 60"),  # twelve heaps: "heap 12: 60"
]


@pytest.mark.parametrize("game, position", HEAP_POSITIONS)
def test_every_heap_move_is_marked_and_no_label_spills(page, server, game, position):
    open_url(page, f"{server.url}?game={game}&position={urllib.request.quote(position)}")
    assert board_moves(page) == api_moves(server, game, position)
    # each move's text inside its own shape; no heap label over a token or a move
    for move in page.locator("#board [data-move]").all():
        text, = move.locator("text").evaluate_all(f"els => els.map({BOX})")
        shape, = move.locator(".target").evaluate_all(f"els => els.map({BOX})")
        assert inside(text, shape), (move.get_attribute("data-move"), text, shape)
    labels = boxes(page, "#board .heap-label")
    assert len(labels) == len(position.split())
    drawn = boxes(page, "#board [data-move], #board .heap-token")
    assert not [(a, b) for a in labels for b in drawn if overlap(a, b)]
    moves = boxes(page, "#board [data-move]")
    assert not [(a, b) for i, a in enumerate(moves) for b in moves[i + 1:] if overlap(a, b)]
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.problems == []


def test_stone_ix_labels_are_whole_and_apart(page, server):
    open_url(page, server.url + "?game=stone-ix")
    picture = boxes(page, "#board svg")[0]
    labels = boxes(page, "#board svg text")
    assert len(labels) >= 4 and all(inside(label, picture) for label in labels), (labels, picture)
    piles = boxes(page, "#board .pile-label")
    assert len(piles) == 3 and not [(a, b) for i, a in enumerate(piles) for b in piles[i + 1:] if overlap(a, b)]
    assert page.problems == []


def test_chart_point_labels_stay_clear_of_the_caption(page, server):
    # X wins on the seventh move, far enough right to be under the caption: its label W0 is at the top
    open_url(page, server.url + "?game=tictactoe")
    for cell in "1259476":
        page.click(f'#board [data-move="{cell}"]')
        settle(page)
    assert page.inner_text("#status") == "O to move: lose in 0 (X wins). Game over."
    assert page.locator("#history-chart .point-label").all_text_contents()[-1] == "W0"
    caption, = boxes(page, "#history-chart .caption")
    points = boxes(page, "#history-chart .point-label")
    assert len(points) == 8 and not [p for p in points if overlap(p, caption)], (caption, points)
    assert not [p for p in points if not inside(p, boxes(page, "#history-chart svg")[0])]
    assert page.problems == []


def test_long_positions_keep_the_page_within_the_window(page, server):
    start = "+" * 300
    open_url(page, server.url)  # the list showed the 300-cell flip start (it made the page 3,211 px wide)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    row = page.locator("#games tr:has(a[data-game='flip-big'])")
    # now where the game opens, as gamedb play (runs 3 4 5), the stored start in the cell's tooltip
    assert start in row.locator("td").nth(4).get_attribute("title") and len(row.locator("code").inner_text()) <= 40
    long_start = server.url + "?game=flip-big&position=" + "%2B" * 300  # (a + in a query is a space)
    open_url(page, long_start)  # the game's page: the position, its moves, the list
    assert page.inner_text("#position-text") == start
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    page.set_viewport_size({"width": 800, "height": 900})
    for url in (server.url, long_start, server.url + "?game=nim-big&position=60+60+60"):
        open_url(page, url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 800, url
    assert page.problems == []


def rgb(text):
    return tuple(int(part) for part in text[text.index("(") + 1:text.index(")")].split(",")[:3])


def distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def test_connect4_stones_are_far_from_the_value_colours(page, server):
    open_url(page, server.url + "?game=connect4-4x4&position=12")
    fill = "els => els.map(e => getComputedStyle(e).fill)"
    x_stone, o_stone = (rgb(page.locator(f"#board .{kind}").first.evaluate("e => getComputedStyle(e).fill")) for kind in ("x-stone", "o-stone"))
    hole = rgb(page.locator("#board .empty-slot").first.evaluate("e => getComputedStyle(e).fill"))
    # the value colours as the page paints them: win, lose, tie and draw swatches of the legend
    values = {v: rgb(page.locator(f"#legend .v-{v}").evaluate("e => getComputedStyle(e).backgroundColor")) for v in ("win", "lose", "tie", "draw")}
    assert rgb(page.locator("#board .move.v-tie .target").evaluate_all(fill)[0]) == values["tie"]
    for stone in (x_stone, o_stone):
        assert min(distance(stone, value) for value in values.values()) > 120, (stone, values)
        assert distance(stone, hole) > 100
    assert distance(x_stone, o_stone) > 200
    assert page.problems == []


def test_an_unknown_game_says_so_with_a_way_back(page, server, cli, web_db_more):
    page.goto(server.url + "?game=nope")
    settle(page)
    assert page.inner_text("#error") == cli("query", "nope", db=web_db_more[0]).stderr.strip()
    assert page.locator("#game-body").is_hidden()  # no empty board, toolbar or chart
    back = page.locator("#not-found a")
    assert back.is_visible() and back.get_attribute("href") == "/"
    back.click()
    settle(page)
    assert page.url == server.url and page.locator("#games a[data-game]").count() == len(web_db_more[1])
    page.click('#games a[data-game="tictactoe"]')  # and a game opens normally after it
    settle(page)
    assert page.locator("#game-body").is_visible() and page.locator("#not-found").is_hidden()
    assert page.locator("#board [data-move]").count() == 9
