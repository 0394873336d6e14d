"""Answering questions about a solved game: probe a position, stats, list positions."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Iterator

import sqlalchemy as sa

from .store.catalog import GameRecord
from .errors import PositionNotFound
from .store.damage import checked_position, missing_child
from .games.base import Game
from .games.heaps import HeapGame
from .values import RESULTS, move_sort_key


@dataclass
class MoveValue:
    """One legal move and the value of the position it leads to (for the player to move there)."""

    move: str
    position: str
    result: str
    remoteness: int | None
    #: Sprague-Grundy value of the position moved to (impartial games)
    grundy: int | None = None


@dataclass
class Answer:
    game: str
    position: str
    player: str
    result: str
    winner: str | None
    remoteness: int | None
    degree: int
    best_move: str | None
    grundy: int | None = None
    moves: list[MoveValue] = field(default_factory=list)
    board: str | None = None
    #: False when ``moves`` holds only the best move because the position has
    #: too many moves to list (a sum of huge heaps); ``degree`` still counts them all
    moves_complete: bool = True

    def to_json(self, impartial: bool = False) -> dict:
        data = asdict(self)
        data.pop("board")
        if not impartial and data["grundy"] is None:
            data.pop("grundy")
        if not impartial:
            for move in data["moves"]:
                if move["grundy"] is None:
                    move.pop("grundy")
        if data["moves_complete"]:
            data.pop("moves_complete")
        return data


_ROW = sa.text(
    "SELECT code, text, player, result, remoteness, degree, best_move, grundy "
    "FROM position WHERE game_id = :g AND code = :c"
)
_CHILDREN = sa.text(
    "SELECT code, text, result, remoteness, grundy FROM position WHERE game_id = :g AND code IN :codes"
).bindparams(sa.bindparam("codes", expanding=True))

CHUNK = 10000


def fetch_rows(conn, record: GameRecord, codes) -> dict[int, tuple]:
    """code -> (text, result, remoteness, grundy) for the given codes, in chunks, each row checked."""
    codes = list(dict.fromkeys(codes))
    found = {}
    for i in range(0, len(codes), CHUNK):
        rows = conn.execute(_CHILDREN, {"g": record.id, "codes": codes[i : i + CHUNK]})
        for row in rows:
            checked_position(record.name, record.impartial, row._asdict())
            found[row.code] = (row.text, row.result, row.remoteness, row.grundy)
    return found


def probe(conn, record: GameRecord, game: Game, position: str | None = None) -> Answer:
    """The stored value of one position and of every move from it."""
    if isinstance(game, HeapGame):  # sums of heaps: XOR of the stored components
        from .solvers.heaps.sums import probe_sum

        return probe_sum(conn, record, game, position)
    state = game.start() if position is None else game.parse(position)
    code = game.encode(state)
    row = conn.execute(_ROW, {"g": record.id, "c": code}).first()
    text = game.format(state)
    if row is None:
        raise PositionNotFound(f"position {text!r} is not reachable from the start of game {record.name!r}")
    checked_position(record.name, record.impartial, row._asdict())
    moves = game.moves(state) if game.primitive(state) is None else []
    child_codes = [game.encode(child) for _, child in moves]
    values = fetch_rows(conn, record, child_codes)
    listed = []
    for order, ((label, _), child) in enumerate(zip(moves, child_codes)):
        if child not in values:
            raise missing_child(record.name, row.text, label)
        ctext, cresult, crem, cgrundy = values[child]
        listed.append((move_sort_key(cresult, crem, order), MoveValue(label, ctext, cresult, crem, cgrundy)))
    listed.sort(key=lambda pair: pair[0])
    return Answer(
        game=record.name,
        position=row.text,
        player=game.player_name(row.player),
        result=row.result,
        winner=game.winner(row.player, row.result, row.remoteness),
        remoteness=row.remoteness,
        degree=row.degree,
        best_move=row.best_move,
        grundy=row.grundy,
        moves=[mv for _, mv in listed],
        board=game.describe(state),
    )


def stats(conn, record: GameRecord) -> dict:
    """Counts by result, by player, the start position's value and timings."""
    g = {"g": record.id}
    by_result = dict.fromkeys(RESULTS, 0)
    for result, count in conn.execute(
        sa.text("SELECT result, COUNT(*) FROM position WHERE game_id = :g GROUP BY result"), g
    ):
        by_result[result] = count
    primitive = conn.execute(
        sa.text("SELECT COUNT(*) FROM position WHERE game_id = :g AND degree = 0"), g
    ).scalar()
    max_rem = conn.execute(sa.text("SELECT MAX(remoteness) FROM position WHERE game_id = :g"), g).scalar()
    start = conn.execute(_ROW, {"g": record.id, "c": record.start_code}).first()
    data = {
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
    if record.info and "periodicity" in record.info:  # heap games
        from .solvers.heaps.sums import periodicity_summary

        data["periodicity"] = record.info["periodicity"]
        data["extra"] = periodicity_summary(record)
    return data


def positions(engine: sa.Engine, record: GameRecord, *, batch: int = 10000) -> Iterator[dict]:
    """Every stored position with its values, streamed in pages ordered by code."""
    page = sa.text(
        "SELECT code, text, player, result, remoteness, degree, best_move, grundy FROM position "
        "WHERE game_id = :g AND code > :after ORDER BY code LIMIT :n"
    )
    after = -1
    while True:
        with engine.connect() as conn:
            rows = conn.execute(page, {"g": record.id, "after": after, "n": batch}).all()
        if not rows:
            return
        for row in rows:
            yield checked_position(record.name, record.impartial, dict(row._mapping))
        after = rows[-1].code
