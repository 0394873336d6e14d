"""The graph game of the resume tests (SQLite and PostgreSQL), and its uninterrupted solve."""

from __future__ import annotations

import json
import random
from pathlib import Path

from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

BATCH = 20  # positions per enumeration page: the game takes some fifteen pages


def resume_game(seed: int = 6, n: int = 400, chain: int = 14, ties: int = 5) -> dict:
    """A graph game with wins, losses, ties and draws and many levels of each (some 290 positions)."""
    rng = random.Random(seed)
    names = [f"r{i:03d}" for i in range(n)]
    players = ("first", "second")
    pos = {}
    for name in names:
        if rng.random() < 0.12:
            pos[name] = {"player": rng.choice(players), "value": rng.choice(["win", "lose", "lose", "lose", "tie"])}
        else:
            pos[name] = {"player": rng.choice(players), "moves": sorted(rng.sample(names, rng.randint(1, 3)))}
    # long chains: win/lose remoteness up to `chain`, tie remoteness up to `ties`
    pos["w00"] = {"player": "first", "value": "lose"}
    for i in range(1, chain + 1):
        pos[f"w{i:02d}"] = {"player": players[i % 2], "moves": [f"w{i - 1:02d}"]}
    pos["t00"] = {"player": "first", "value": "tie"}
    for i in range(1, ties + 1):
        pos[f"t{i:02d}"] = {"player": players[i % 2], "moves": [f"t{i - 1:02d}"]}
    # a cycle left only into wins for the opponent: draws
    pos["d0"] = {"player": "first", "moves": ["d1"]}
    pos["d1"] = {"player": "second", "moves": ["d0", "d2", "w01"]}
    pos["d2"] = {"player": "first", "moves": ["d0", "w03"]}
    pos["start"] = {"player": "first", "moves": [*names[:8], f"w{chain:02d}", f"t{ties:02d}", "d0"]}
    for name in rng.sample(names, 20):
        if "moves" in pos[name]:
            pos[name]["moves"] = sorted(set(pos[name]["moves"]) | {rng.choice([f"w{chain:02d}", f"t{ties:02d}"])})
    return {"start": "start", "positions": pos}


def write_game_file(folder: Path) -> Path:
    """The game of :func:`resume_game` as a graph file in ``folder``."""
    path = folder / "game.json"
    path.write_text(json.dumps(resume_game()))
    return path


def solve_reference(folder: Path, game_file: Path) -> Path:
    """An uninterrupted SQL-engine solve of ``game_file`` (name ``g``, pages of :data:`BATCH`) into a SQLite file in ``folder``."""
    path = folder / "reference.sqlite"
    engine = open_engine(path, create=True)
    solve(engine, make_game("graph", file=str(game_file)), "g", batch=BATCH, strategy="sql")
    engine.dispose()
    return path
