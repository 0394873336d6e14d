"""A running `gamedb serve` (a child process, as a user starts it) on a file with crafted games.

tests/test_crafted_files.py puts every crafted file through the API in-process
(Starlette's test client); here one real server meets several crafted games of
one file at once, over HTTP: each damaged game is a JSON 4xx naming it (or,
for a family it will not import, an answer from the stored rows), the code the
file names never runs, the file is not changed, and the server keeps answering
the healthy game and the others after every refusal.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest
from test_crafted_files import CRAFTS, EVIL, solve_games
from web_games import Server, get_json

pytest.importorskip("starlette")

#: one craft per game of the file (test_crafted_files.GAMES): what each checks is in test_crafted_files.CRAFTS
CHOSEN = {"family-names-code": "ttt", "info-not-json": "kayles", "degree-negative": "cm"}
HEALTHY = "nim"



@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    return solve_games(tmp_path_factory.mktemp("untouched"))


def test_a_running_server_on_crafted_games(solved, tmp_path):
    folder = tmp_path / "share"
    folder.mkdir()
    (folder / "evilmod.py").write_text(EVIL)
    db = folder / "crafted.sqlite"
    shutil.copy(solved, db)
    crafts = [p.values[0] for p in CRAFTS if p.values[0].id in CHOSEN]
    assert sorted(c.game for c in crafts) == sorted(CHOSEN.values())
    with sqlite3.connect(db) as con:
        for c in crafts:
            for sql in c.sql:
                assert con.execute(sql).rowcount >= 1, sql
    con.close()
    pristine = hashlib.sha256(db.read_bytes()).digest()
    untouched = Server(solved)
    try:
        expected = get_json(untouched.url + f"api/games/{HEALTHY}/positions")
    finally:
        untouched.stop()
    server = Server(db, env={"PYTHONPATH": str(folder)}, cwd=folder)
    try:
        status, games = get_json(server.url + "api/games")
        assert status == 200 and {g["name"] for g in games} >= {*CHOSEN.values(), HEALTHY}, games
        for c in crafts:
            paths = [f"api/games/{c.game}", f"api/games/{c.game}/positions"]
            if c.game == "ttt":
                paths.append("api/games/ttt/positions?position=" + urllib.parse.quote("X........"))
            for path in paths:
                status, body = get_json(server.url + path)
                assert status in (200, 400, 404, 409), (c.id, path, status, body)
                if status != 200:
                    assert set(body) == {"error"} and re.search(rf"\b{c.game}\b", body["error"]), (c.id, path, body)
                    assert "\n" not in body["error"], (c.id, body)
                elif "/positions" in path:
                    assert "query" not in c.refused_by, (c.id, path, "answered a game the command line refuses")
                    assert body.get("rules_missing"), (c.id, body)  # answered from the rows, saying what needs the rules
            # still up after each refusal, and the healthy game answers as on the untouched file
            assert get_json(server.url + f"api/games/{HEALTHY}/positions") == expected, c.id
    finally:
        server.stop()
    assert "Traceback" not in server.errors, server.errors
    assert not (folder / "TRACE").exists(), "gamedb serve ran the code the file names"
    assert hashlib.sha256(db.read_bytes()).digest() == pristine, "gamedb serve changed the file"
