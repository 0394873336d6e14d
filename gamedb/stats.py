"""Reading a stored game as a whole: counts by result, and every position streamed in pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from .solvers.choice import summary
from .store.damage import counted_positions
from .store.record import GameRecord
from .store.rows import read_position, stream_positions
from .values import RESULTS


def stats(conn: sa.Connection, record: GameRecord) -> dict[str, Any]:
    """Counts by result, by player, the start position's value and timings."""
    g = {"g": record.id}
    by_result = dict.fromkeys(RESULTS, 0)
    for result, count in conn.execute(
        sa.text("SELECT result, COUNT(*) FROM position WHERE game_id = :g GROUP BY result"), g
    ):
        by_result[result] = count
    if record.solved:
        counted_positions(record.name, record.positions, sum(by_result.values()))
    primitive = conn.execute(
        sa.text("SELECT COUNT(*) FROM position WHERE game_id = :g AND degree = 0"), g
    ).scalar()
    max_rem = conn.execute(sa.text("SELECT MAX(remoteness) FROM position WHERE game_id = :g"), g).scalar()
    start = read_position(conn, record, record.start_code, checked=False)
    data: dict[str, Any] = {
        "game": record.name,
        "family": record.family,
        "parameters": record.parameters,
        "status": record.status,
        "positions": record.positions,
        "moves": record.moves,
        "primitive": primitive,
        "results": by_result,
        "max_remoteness": max_rem,
        "start": {
            "position": record.start_position,
            "result": start.result if start else None,
            "remoteness": start.remoteness if start else None,
        },
        "enumerate_seconds": record.enumerate_seconds,
        "solve_seconds": record.solve_seconds,
        "solved_at": record.solved_at,
        "gamedb_version": record.gamedb_version,
    }
    if record.impartial and start is not None:
        data["start"]["grundy"] = start.grundy
    data.update(summary(conn, record))  # what the strategy that stored the game adds
    return data


def positions(engine: sa.Engine, record: GameRecord, *, batch: int = 10000) -> Iterator[dict[str, Any]]:
    """Every stored position with its values, streamed in pages ordered by code, each row checked
    (:func:`~gamedb.store.damage.checked_position`: a damaged file is one line naming the game)."""
    for row in stream_positions(engine, record, batch=batch):
        yield row._asdict()
