"""Retake docs/serve-tictactoe.png, the README's picture of `gamedb serve`.

    python docs/screenshot.py        # needs '.[test]' (Playwright) and Debian's Chromium (apt-get install chromium)

Solves tic-tac-toe into a temporary database, serves it, plays a short line in
headless Chromium and saves a screenshot of the page.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
LINE = ["5", "2", None]  # moves played before the picture: X centre, O an edge (a losing reply), X's best move


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        db = Path(work) / "ttt.sqlite"
        gamedb = [sys.executable, "-m", "gamedb", "--db", str(db)]
        subprocess.run([*gamedb, "solve", "tictactoe", "--quiet"], check=True, capture_output=True)
        server = subprocess.Popen([*gamedb, "serve", "--port", "0"], stderr=subprocess.PIPE, text=True)
        try:
            url = re.search(r"at (http://\S+/) ", server.stderr.readline()).group(1)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
                page = browser.new_page(viewport={"width": 1000, "height": 760})
                page.goto(url + "?game=tictactoe")
                page.wait_for_selector('body[data-busy="0"]', state="attached")
                for move in LINE:
                    page.click("#board .move.best" if move is None else f'#board [data-move="{move}"]')
                    page.wait_for_selector('body[data-busy="0"]', state="attached")
                page.screenshot(path=str(HERE / "serve-tictactoe.png"), full_page=True)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print(HERE / "serve-tictactoe.png")


if __name__ == "__main__":
    main()
