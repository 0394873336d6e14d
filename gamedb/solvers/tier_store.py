"""Where the tier solver keeps its tiers between passes, and how it writes a solved tier.

**Work folder.** The forward pass leaves, per tier, the sorted codes of its
positions (and, for families with :attr:`path_texts
<gamedb.games.tier_rules.TierArrayRules.path_texts>`, their move
sequences) in ``.npy`` files; the backward pass adds each solved tier's
values. Only the tier being solved and the tiers its moves reach are read
back (memory-mapped), so memory follows the largest tiers, not the game.
The folder sits beside a SQLite file (``FILE.tiers-ID``) or in the
temporary folder for a server, survives a killed solve (the resumed solve
picks it up) and is deleted when the game is solved.

**Writing.** A solved tier's position rows go in code order through
:func:`~gamedb.store.bulk.copy_rows` (``executemany`` in large batches on
SQLite, ``COPY`` on PostgreSQL), in one transaction with the progress
marker that says the tier is done.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import sqlalchemy as sa

from ..games.vector import RESULT_NAMES
from ..store.bulk import copy_rows
from ..store.database import sqlite_file
from ..store.schema import position

#: rows per executemany / COPY batch
WRITE_CHUNK = 200_000


class TierFolder:
    """The per-tier arrays of one solve (see the module's docstring)."""

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def for_game(cls, engine: sa.Engine, game_id: int, key: str) -> "TierFolder":
        """The folder of game ``game_id`` in this database; ``key`` tells games apart (rules and parameters)."""
        file = sqlite_file(engine)
        tag = hashlib.sha1(f"{engine.url.render_as_string(hide_password=True)}|{game_id}|{key}".encode()).hexdigest()[:12]
        if file is not None:
            return cls(file.parent / f"{file.name}.tiers-{game_id}-{tag}")
        return cls(Path(tempfile.gettempdir()) / f"gamedb-tiers-{tag}")

    # --- the manifest: which tiers exist, written last by the forward pass ---------------
    def manifest(self) -> dict | None:
        try:
            return json.loads((self.path / "manifest.json").read_text())
        except (OSError, ValueError):
            return None

    def write_manifest(self, data: dict) -> None:
        tmp = self.path / "manifest.json.tmp"
        tmp.write_text(json.dumps(data))
        tmp.replace(self.path / "manifest.json")

    def reset(self) -> None:
        self.remove()
        self.path.mkdir(parents=True)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    # --- arrays -------------------------------------------------------------------
    def save(self, kind: str, tier: int, array: np.ndarray) -> None:
        """Save atomically (a killed solve never leaves half a file under the final name)."""
        final = self.path / f"{kind}-{tier}.npy"
        tmp = self.path / f"{kind}-{tier}.tmp.npy"
        np.save(tmp, array)
        tmp.replace(final)

    def load(self, kind: str, tier: int, *, mmap: bool = True) -> np.ndarray:
        return np.load(self.path / f"{kind}-{tier}.npy", mmap_mode="r" if mmap else None)

    def has(self, kind: str, tier: int) -> bool:
        return (self.path / f"{kind}-{tier}.npy").exists()


def write_rows(conn, game_id: int, codes: np.ndarray, texts, player: np.ndarray, result: np.ndarray, remoteness: np.ndarray, degree: np.ndarray, best_labels: list) -> None:
    """Insert one batch of position rows (sorted by code) inside the caller's transaction."""
    names = np.array(RESULT_NAMES, dtype=object)
    rem = remoteness.astype(object)
    rem[remoteness < 0] = None
    rows = zip(codes.tolist(), texts, player.tolist(), names[result].tolist(), rem.tolist(), degree.tolist(), best_labels)
    copy_rows(conn, position, ("code", "text", "player", "result", "remoteness", "degree", "best_move"), rows, game_id=game_id)


def read_values(engine: sa.Engine, game_id: int, tiers: dict[int, np.ndarray]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """(result, remoteness) of the stored positions of each tier in ``tiers`` (tier -> its sorted codes), from the database.

    For a resumed solve whose work folder was lost: one pass over the game's rows in code order.
    """
    codes_of = {RESULT_NAMES[i]: i for i in range(1, len(RESULT_NAMES))}
    out = {t: (np.zeros(len(c), dtype=np.int8), np.full(len(c), -1, dtype=np.int32)) for t, c in tiers.items()}
    query = sa.text("SELECT code, result, remoteness FROM position WHERE game_id = :g")
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True).execute(query, {"g": game_id})
        while batch := result.fetchmany(WRITE_CHUNK):
            code = np.array([r[0] for r in batch], dtype=np.int64)
            res = np.array([codes_of[r[1]] for r in batch], dtype=np.int8)
            rem = np.array([-1 if r[2] is None else r[2] for r in batch], dtype=np.int32)
            for t, tier_codes in tiers.items():
                at = np.searchsorted(tier_codes, code).clip(0, max(len(tier_codes) - 1, 0))
                hit = tier_codes[at] == code if len(tier_codes) else np.zeros(len(code), dtype=bool)
                out[t][0][at[hit]] = res[hit]
                out[t][1][at[hit]] = rem[hit]
    return out
