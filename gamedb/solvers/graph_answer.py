"""Answering from the graph solvers' tables: a position's stored row and its children's."""

from __future__ import annotations

from ..answers import Answer, MoveValue
from ..errors import PositionNotFound
from ..games.base import Game
from ..store.catalog import GameRecord
from ..store.rows import read_position, read_positions
from ..values import move_sort_key


def probe(conn, record: GameRecord, game: Game, position: str | None = None) -> Answer:
    """The stored value of one position and of every move from it."""
    state = game.start() if position is None else game.parse(position)
    code = game.encode(state)
    row = read_position(conn, record, code)
    text = game.format(state)
    if row is None:
        raise PositionNotFound(f"position {text!r} is not reachable from the start of game {record.name!r}")
    moves = game.moves(state) if game.primitive(state) is None else []
    child_codes = [game.encode(child) for _, child in moves]
    values = read_positions(conn, record, child_codes)
    listed = []
    for order, ((label, _), child) in enumerate(zip(moves, child_codes)):
        stored = values[child]
        listed.append((move_sort_key(stored.result, stored.remoteness, order), MoveValue(label, stored.text, stored.result, stored.remoteness, stored.grundy)))
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
