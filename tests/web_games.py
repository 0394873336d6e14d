"""A small database holding one solved game of every built-in family, the example
graph game and the example plugin game, for the `gamedb serve` tests."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from conftest import SEED_GRAPH_1

ROOT = Path(__file__).resolve().parents[1]
PLUGIN_DIR = ROOT / "examples" / "plugin"
GRID = ["####F", "#C...", "M...."]

# (family or module:Class, options): each small enough to solve in well under a second
GAMES = [
    ("tictactoe", {}),
    ("connect4", {"width": 4, "height": 3}),
    ("cat-mouse", {"graph": str(SEED_GRAPH_1).replace(" ", "")}),
    ("cat-mouse-grid", {"grid": str(GRID).replace("'", '"')}),
    ("flip", {"max": 12}),
    ("nim", {"max": 5}),
    ("subtraction", {"set": "1,2,5", "max": 12}),
    ("octal", {"code": "0.77", "max": 12}),
    ("grundy", {"max": 12}),
    ("stone-ix", {"max": 2}),
    ("dobutsu", {"pieces": ""}),
    ("graph", {"file": str(ROOT / "examples" / "graphs" / "tug-of-war.json")}),
    ("gamedb_takeaway:TakeAway", {"matches": 7}),
]


def solve_every_family(path: Path) -> list[str]:
    """Solve each of :data:`GAMES` into a new SQLite file; the stored names, in that order."""
    from gamedb import Database
    from gamedb.games import family

    sys.path.insert(0, str(PLUGIN_DIR))  # the plugin's module, as `gamedb solve --game` finds it
    try:
        names = []
        with Database(path, create=True) as db:
            for name, options in GAMES:
                names.append(db.solve(family(name).from_options(**options)).name)
        return names
    finally:
        sys.path.remove(str(PLUGIN_DIR))


def serve_env() -> dict[str, str]:
    """The environment of a `gamedb serve` process: the plugin's module importable, no GAMEDB_DB."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(PLUGIN_DIR), os.environ.get("PYTHONPATH")])))
    env.pop("GAMEDB_DB", None)
    return env


class Server:
    """`gamedb --db DB serve --port 0` in a child process, as a user starts it; ``url`` once it listens."""

    def __init__(self, db: Path, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gamedb", "--db", str(db), "serve", "--port", "0", *args],
            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**serve_env(), **(env or {})}, cwd=cwd,
        )
        self.announced = self.proc.stderr.readline()
        found = re.search(r"at (http://\S+/) ", self.announced)
        if not found:
            self.stop()
            raise AssertionError(f"gamedb serve did not start: {self.announced}{self.proc.stderr.read()}")
        self.url = found.group(1)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(2)  # Ctrl+C
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.errors = self.proc.stderr.read()  # what it printed after its first line
        self.proc.stderr.close()
        self.proc.stdout.close()
        return self.proc.returncode


def busy_port() -> socket.socket:
    """A socket listening on a free port of 127.0.0.1 (close it when done)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock


def get_json(url: str) -> tuple[int, Any]:
    """GET ``url`` from a running server: its status and its body read as JSON (an error's too, which must be JSON)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        assert error.headers.get_content_type() == "application/json", (url, error.code, error.read())
        return error.code, json.load(error)
