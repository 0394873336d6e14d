"""Answering from the graph solvers' tables: a position's stored row and its children's."""

from __future__ import annotations

from typing import Iterable

import sqlalchemy as sa

from ..answers import Answer, MoveValue
from ..errors import PositionNotFound
from ..games.base import Game
from ..store.catalog import GameRecord
from ..store.damage import checked_position, missing_child
from ..values import move_sort_key


ROW = sa.text(
    "SELECT code, text, player, result, remoteness, degree, best_move, grundy "
    "FROM position WHERE game_id = :g AND code = :c"
)
_CHILDREN = sa.text(
    "SELECT code, text, result, remoteness, grundy FROM position WHERE game_id = :g AND code IN :codes"
).bindparams(sa.bindparam("codes", expanding=True))

CHUNK = 10000


def fetch_rows(conn, record: GameRecord, codes) -> dict[int, tuple]:
    """code -> (text, result, remoteness, grundy) for the given codes, in chunks, each row checked
    (:func:`~gamedb.store.damage.checked_position`)."""
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
    state = game.start() if position is None else game.parse(position)
    code = game.encode(state)
    row = conn.execute(ROW, {"g": record.id, "c": code}).first()
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
