"""Reading stored positions: the few lookups a query needs, over plain ``sqlite3``.

:mod:`gamedb.query` answers positions through a *reader* with the methods of
:class:`SqliteReader`; :class:`gamedb.store.sqlalchemy_reader.SqlAlchemyReader` is the
same over a SQLAlchemy connection (any backend). The SQL text is shared; only
how parameters and ``IN`` lists are passed differs.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import NamedTuple, Protocol


class PositionRow(NamedTuple):
    """One row of the ``position`` table."""

    code: int
    text: str
    player: int
    result: str | None
    remoteness: int | None
    degree: int
    best_move: str | None
    grundy: int | None


class StoredMove(NamedTuple):
    """A move as stored in the ``move`` table, with the child's row."""

    ord: int
    label: str
    child: PositionRow


_COLUMNS = "code, text, player, result, remoteness, degree, best_move, grundy"
GAME_ROW = "SELECT * FROM game WHERE name = :n"
BY_CODE = f"SELECT {_COLUMNS} FROM position WHERE game_id = :g AND code IN {{codes}}"
BY_TEXT = f"SELECT {_COLUMNS} FROM position WHERE game_id = :g AND text = :t"
BETWEEN = f"SELECT {_COLUMNS} FROM position WHERE game_id = :g AND code BETWEEN :lo AND :hi"
PLAYERS = "SELECT name FROM player WHERE game_id = :g ORDER BY idx"
MOVES = (
    "SELECT m.ord, m.label, "
    + ", ".join(f"c.{col.strip()}" for col in _COLUMNS.split(","))
    + " FROM move m JOIN position c ON c.game_id = m.game_id AND c.code = m.child"
    " WHERE m.game_id = :g AND m.parent = :p ORDER BY m.ord"
)

#: codes per ``IN (...)`` list (under SQLite's oldest limit on bound parameters, 999)
CHUNK = 900


class Reader(Protocol):
    def game_row(self, name: str) -> dict | None: ...

    def positions(self, game_id: int, codes: Iterable[int]) -> dict[int, PositionRow]: ...

    def position_by_text(self, game_id: int, text: str) -> PositionRow | None: ...

    def positions_between(self, game_id: int, lo: int, hi: int) -> list[PositionRow]: ...

    def stored_moves(self, game_id: int, code: int) -> list[StoredMove]: ...

    def player_names(self, game_id: int) -> list[str]: ...


def unique_chunks(codes: Iterable[int], size: int = CHUNK) -> list[list[int]]:
    """The distinct codes, in chunks of ``size``."""
    distinct = list(dict.fromkeys(codes))
    return [distinct[i : i + size] for i in range(0, len(distinct), size)]


def moves_from_rows(rows) -> list[StoredMove]:
    return [StoredMove(row[0], row[1], PositionRow(*row[2:])) for row in rows]


class SqliteReader:
    """A reader over a ``sqlite3`` connection (the light read path opens it read-only)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def game_row(self, name: str) -> dict | None:
        cur = self.conn.execute(GAME_ROW, {"n": name})
        row = cur.fetchone()
        return None if row is None else dict(zip([d[0] for d in cur.description], row, strict=False))

    def positions(self, game_id: int, codes: Iterable[int]) -> dict[int, PositionRow]:
        found: dict[int, PositionRow] = {}
        for chunk in unique_chunks(codes):
            sql = BY_CODE.replace(":g", "?").format(codes="(" + ",".join("?" * len(chunk)) + ")")
            for row in self.conn.execute(sql, [game_id, *chunk]):
                found[row[0]] = PositionRow(*row)
        return found

    def position_by_text(self, game_id: int, text: str) -> PositionRow | None:
        row = self.conn.execute(BY_TEXT, {"g": game_id, "t": text}).fetchone()
        return None if row is None else PositionRow(*row)

    def positions_between(self, game_id: int, lo: int, hi: int) -> list[PositionRow]:
        return [PositionRow(*row) for row in self.conn.execute(BETWEEN, {"g": game_id, "lo": lo, "hi": hi})]

    def stored_moves(self, game_id: int, code: int) -> list[StoredMove]:
        return moves_from_rows(self.conn.execute(MOVES, {"g": game_id, "p": code}))

    def player_names(self, game_id: int) -> list[str]:
        return [name for (name,) in self.conn.execute(PLAYERS, {"g": game_id})]
