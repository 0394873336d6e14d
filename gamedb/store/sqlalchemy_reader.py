"""The reader of :mod:`.readers` over a SQLAlchemy connection (SQLite or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from .readers import BETWEEN, BY_CODE, BY_TEXT, GAME_ROW, MOVES, PLAYERS, PositionRow, StoredMove, moves_from_rows, unique_chunks

_GAME_ROW = sa.text(GAME_ROW)
_BY_CODE = sa.text(BY_CODE.format(codes=":codes")).bindparams(sa.bindparam("codes", expanding=True))
_BY_TEXT = sa.text(BY_TEXT)
_BETWEEN = sa.text(BETWEEN)
_PLAYERS = sa.text(PLAYERS)
_MOVES = sa.text(MOVES)
#: codes per expanded ``IN`` list: SQLAlchemy binds them as parameters (SQLite >= 3.32 takes 32766, PostgreSQL 65535)
_CHUNK = 10000


class SqlAlchemyReader:
    """Answers the lookups of a query on one open connection."""

    def __init__(self, conn: sa.Connection):
        self.conn = conn

    def game_row(self, name: str):
        row = self.conn.execute(_GAME_ROW, {"n": name}).first()
        return None if row is None else dict(row._mapping)

    def positions(self, game_id: int, codes: Iterable[int]) -> dict[int, PositionRow]:
        found: dict[int, PositionRow] = {}
        for chunk in unique_chunks(codes, _CHUNK):
            for row in self.conn.execute(_BY_CODE, {"g": game_id, "codes": chunk}):
                found[row[0]] = PositionRow(*row)
        return found

    def position_by_text(self, game_id: int, text: str) -> PositionRow | None:
        row = self.conn.execute(_BY_TEXT, {"g": game_id, "t": text}).first()
        return None if row is None else PositionRow(*row)

    def positions_between(self, game_id: int, lo: int, hi: int) -> list[PositionRow]:
        return [PositionRow(*row) for row in self.conn.execute(_BETWEEN, {"g": game_id, "lo": lo, "hi": hi})]

    def stored_moves(self, game_id: int, code: int) -> list[StoredMove]:
        return moves_from_rows(self.conn.execute(_MOVES, {"g": game_id, "p": code}))

    def player_names(self, game_id: int) -> list[str]:
        return [name for (name,) in self.conn.execute(_PLAYERS, {"g": game_id})]
