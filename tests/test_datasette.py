"""A solved file opened with datasette (from PyPI) shows readable rows: text values and views with the game's name."""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from gamedb import Database, make_game

from conftest import SEED_GRAPH_1


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _datasette():
    exe = Path(sys.executable).with_name("datasette")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("datasette")
    return [found] if found else None


@pytest.mark.slow
def test_datasette_serves_a_position_row(tmp_path):
    command = _datasette()
    if command is None:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail("CI is set but datasette is not installed: .ci/run installs '.[test]', which brings it")
        pytest.skip("datasette is not installed (pip install '.[test]' brings it)")
    path = tmp_path / "games.sqlite"
    db = Database(path, create=True)
    db.solve(make_game("cat-mouse", graph=SEED_GRAPH_1))
    db.solve(make_game("tictactoe"))
    db.close()
    port = _free_port()
    server = subprocess.Popen(
        [*command, "serve", str(path), "--host", "127.0.0.1", "--port", str(port), "--immutable", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}/games"
        query = urllib.parse.urlencode({"game": "cat-mouse", "position": "mouse=1,cat=2,turn=mouse", "_shape": "array"})
        rows = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{base}/positions.json?{query}", timeout=5) as response:
                    rows = json.load(response)
                break
            except OSError:
                if server.poll() is not None:
                    pytest.fail(server.stderr.read().decode())
                time.sleep(0.2)
        assert rows is not None, "datasette did not answer"
        assert len(rows) == 1
        row = rows[0]
        assert (row["game"], row["position"], row["player"], row["result"], row["best_move"]) == (
            "cat-mouse", "mouse=1,cat=2,turn=mouse", "mouse", "draw", "3",
        )
        query = urllib.parse.urlencode({"game": "tictactoe", "position": "XO.XO....", "_shape": "array"})
        with urllib.request.urlopen(f"{base}/positions.json?{query}", timeout=5) as response:
            row = json.load(response)[0]
        assert (row["player"], row["result"], row["winner"], row["remoteness"]) == ("X", "win", "X", 1)
        with urllib.request.urlopen(f"{base}/game.json?_shape=array", timeout=5) as response:
            names = sorted(g["name"] for g in json.load(response))
        assert names == ["cat-mouse", "tictactoe"]
    finally:
        server.terminate()
        server.wait(timeout=10)
