"""Reading a stored game as a whole: counts by result, and every position streamed in pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .solvers.choice import summary
from .store.damage import counted_positions
from .store.record import GameRecord
from .store.rows import Reader, stream_positions, text_of
from .values import RESULT_WORDS, RESULTS

if TYPE_CHECKING:
    from .games.base import Game
    from .store.rows import Reads


def stats(reader: Reader, record: GameRecord) -> dict[str, Any]:
    """Counts by result, by player, the start position's value and timings; ``positions`` (and the counts) are the stored
    positions, ``reachable`` every position reachable (more when one position per class of ``symmetries`` is stored)."""
    g = (record.id,)
    by_result = dict.fromkeys(RESULTS, 0)
    for result, count in reader.fetch("SELECT result, COUNT(*) FROM position WHERE game_id = ? GROUP BY result", g):
        by_result[RESULT_WORDS.get(result, result)] = count
    if record.solved:
        counted_positions(record.name, record.positions, sum(by_result.values()))
    ((primitive,),) = reader.fetch("SELECT COUNT(*) FROM position WHERE game_id = ? AND degree = 0", g)
    ((max_rem,),) = reader.fetch("SELECT MAX(remoteness) FROM position WHERE game_id = ?", g)
    start = reader.position(record, record.start_code, checked=False)
    data: dict[str, Any] = {
        "game": record.name,
        "family": record.family,
        "parameters": record.parameters,
        "status": record.status,
        "positions": record.positions,
        "reachable": record.reachable,
        "symmetries": record.symmetry,
        "moves": record.moves,
        "primitive": primitive,
        "results": by_result,
        "max_remoteness": max_rem,
        "start": {"position": record.start_position, "result": start.result if start else None, "remoteness": start.remoteness if start else None},
        "enumerate_seconds": record.enumerate_seconds,
        "solve_seconds": record.solve_seconds,
        "solved_at": record.solved_at,
        "gamedb_version": record.gamedb_version,
    }
    if record.impartial and start is not None:
        data["start"]["grundy"] = start.grundy
    data.update(summary(reader, record))  # what the strategy that stored the game adds
    return data


def stats_json(data: dict[str, Any]) -> dict[str, Any]:
    """:func:`stats` as ``gamedb stats --json`` prints it: the positions an unfinished solve has not decided yet (key None
    in ``results``) counted under ``"undecided"`` (json.dumps wrote the None key as ``"null"``)."""
    return {**data, "results": {"undecided" if result is None else result: count for result, count in data["results"].items()}}


def positions(reads: Reads, record: GameRecord, game: Game | None = None, *, batch: int = 10000) -> Iterator[dict[str, Any]]:
    """Every stored position with its values, streamed in pages ordered by code, each row checked; ``game``: a text not
    stored (a large game) formatted from the code by its rules."""
    for row in stream_positions(reads, record, batch=batch):
        found = row._asdict()
        if row.text is None and game is not None:
            found["text"] = text_of(row, game)
        yield found
