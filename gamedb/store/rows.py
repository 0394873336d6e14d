"""The ``position`` row: one type, one column list, and the one reader of stored positions."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import GameNotFound
from ..values import result_word_sql
from .damage import UnknownLabel, checked_position, checked_positions, stored_as_written
from .record import GameRecord, record_from_mapping, record_or_damaged

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    import sqlalchemy as sa

    from ..games.base import Game

    #: a source of short reads: each call opens one (:meth:`gamedb.api.Database.read`)
    Reads = Callable[[], AbstractContextManager["Reader"]]


class PositionRow(NamedTuple):
    """One stored position; the fields are :data:`POSITION_COLUMNS`, in that order."""

    code: int
    #: None for a game stored without texts (:data:`TEXT_LEFT_OUT_FROM`): :func:`text_of` formats it
    text: str | None
    player: int
    result: str | None
    remoteness: int | None
    degree: int
    best_move: str | None
    grundy: int | None


#: the columns of a stored position, in the table's order (``game_id``, the key every reader gives, left out)
POSITION_COLUMNS: tuple[str, ...] = PositionRow._fields

#: ``PositionRow._make`` without its length check, half the time: rows read with :func:`position_select` have every column
_position_row = functools.partial(tuple.__new__, PositionRow)


class StoredMove(NamedTuple):
    """A move as stored in the ``move`` table, with the child's row."""

    ord: int
    label: str
    child: PositionRow


#: a game of this many positions or more is written without position texts (answers, ``export`` and ``serve`` format them
#: from the code by the rules: :func:`text_of`) and, solved by tiers into a new SQLite file, without the position table's
#: secondary indexes (:class:`~gamedb.store.sql_sink.SqlSink`)
TEXT_LEFT_OUT_FROM = 1_000_000


def stores_texts(positions: int) -> bool:
    """Whether a game of ``positions`` positions is written with its position texts."""
    return positions < TEXT_LEFT_OUT_FROM


def as_written(columns: dict[str, Any], texts_stored: bool) -> dict[str, Any]:
    """A batch of position columns as a writer hands it to its sink: ``text`` left out of a game stored without texts."""
    return columns if texts_stored else {name: values for name, values in columns.items() if name != "text"}


#: codes asked for in one ``IN (...)`` list (SQLite >= 3.32 binds 32766 parameters, PostgreSQL 65535)
CHUNK = 10000


def result_of(row: PositionRow) -> str:
    """The result of a row read checked (the default): a solved game's rows all have one of ``RESULTS``."""
    assert row.result is not None, "a row read with checked=False"
    return row.result


def columns_except(*left_out: str) -> tuple[str, ...]:
    """:data:`POSITION_COLUMNS` without ``left_out`` (columns a writer leaves NULL), in the table's order."""
    unknown = set(left_out) - set(POSITION_COLUMNS)
    if unknown:
        raise ValueError(f"not columns of position: {sorted(unknown)}")
    return tuple(name for name in POSITION_COLUMNS if name not in left_out)


#: the revisions whose ``position.best_move`` holds the label itself (from 0008: the id of a ``move_label`` row)
LABELS_IN_ROWS = ("0006", "0007")


def selected(name: str, table: str = "") -> str:
    """A position column as every reader selects it: the result as its word, from a code or an older file's word (the
    best move as stored: :meth:`Reader.select` names it)."""
    column = f"{table}.{name}" if table else name
    return f"{result_word_sql(column, older_words=True)} AS {name}" if name == "result" else column


def position_select(where: str, columns: Sequence[str] = POSITION_COLUMNS) -> str:
    """``SELECT <columns> FROM position WHERE <where>``: the one query every reader of position rows is built on."""
    return f"SELECT {', '.join(map(selected, columns))} FROM position WHERE {where}"


def text_of(row: PositionRow, game: Game) -> str:
    """The row's position text: as stored, or formatted from its code by the rules (a game stored without texts)."""
    return row.text if row.text is not None else game.format(game.decode(row.code))


_MOVES = (
    "SELECT m.ord, m.label, "
    + ", ".join(selected(name, "c") for name in POSITION_COLUMNS)
    + " FROM move m JOIN position c ON c.game_id = m.game_id AND c.code = m.child"
    " WHERE m.game_id = ? AND m.parent = ? ORDER BY m.ord"
)


class Reader:
    """The lookups of stored games over a DB-API connection: ``sqlite3`` (``?``) or psycopg (``%s``)."""

    def __init__(self, connection: Any, *, paramstyle: str = "qmark", game_rows: dict[str, dict[str, Any]] | None = None,
                 revision: str | None = None):
        self.connection = connection
        #: a file at an older revision the readers answer from, whose rows hold their best moves' labels (None: the newest)
        self.labels_in_rows = revision in LABELS_IN_ROWS
        #: game rows read before on a file no one can write while it is open (a DuckDB file read-only): name -> row
        self.game_rows = game_rows
        self.format = paramstyle in ("format", "pyformat")
        #: DuckDB: codes as one list (``= ANY(?)``, a semi join whose filter reaches the scan); an ``IN`` list read every
        #: column of each row group it touched (one answer: p50 4.3-6.5 ms, 3.2-4.5 with the list; issue 22)
        self.code_list = "duckdb" in type(connection).__module__

    def fetch(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of any read ``sql`` (``?`` placeholders) as the driver's tuples."""
        return self._execute(sql, params)[0]

    def _execute(self, sql: str, params: Sequence[object]) -> tuple[list[tuple[Any, ...]], list[str]]:
        """The rows ``sql`` (``?`` placeholders) finds, and its column names."""
        if self.format:
            sql = sql.replace("?", "%s")
        with closing(self.connection.cursor()) as cursor:
            cursor.execute(sql, tuple(params))
            return cursor.fetchall(), [d[0] for d in cursor.description or ()]

    def select(self, record: GameRecord, where: str, params: Sequence[object], *, checked: bool = True) -> list[PositionRow]:
        """The rows of ``record``'s game :func:`position_select` ``where`` (``?`` placeholders) finds, ``checked`` or not."""
        found, _ = self._execute(position_select(where), params)
        rows: list[PositionRow] = self._named(record, list(map(_position_row, found)))
        if checked:
            checked_positions(record.name, record.impartial, rows)
        return rows

    def _named(self, record: GameRecord, rows: list[PositionRow]) -> list[PositionRow]:
        """``rows`` with their best moves' label ids as the labels (one query for all of them); an id the game has no
        label for as an :class:`~.damage.UnknownLabel`, which the damage check names (an older file's labels as stored)."""
        ids: set[Any] = {row.best_move for row in rows if row.best_move is not None}  # (ids as stored, not labels yet)
        if self.labels_in_rows or not ids:
            return rows
        wanted = sorted(i for i in ids if type(i) is int)
        names: dict[Any, Any] = {}
        for where, params in self._among("id", wanted, "INTEGER"):
            found, _ = self._execute(f"SELECT id, name FROM move_label WHERE game_id = ? AND {where}", (record.id, *params))
            names.update(found)
        def label(stored: Any) -> Any:
            return names[stored] if type(stored) is int and stored in names else UnknownLabel(stored)

        return [row if row.best_move is None else row._replace(best_move=label(row.best_move)) for row in rows]

    def game_row(self, name: str) -> dict[str, Any] | None:
        """The ``game`` row named ``name`` as a mapping (JSON columns may still be text), or None."""
        if self.game_rows is not None and name in self.game_rows:
            return self.game_rows[name]
        rows, names = self._execute("SELECT * FROM game WHERE name = ?", (name,))
        row = dict(zip(names, rows[0], strict=True)) if rows else None
        if row is not None and self.game_rows is not None:
            self.game_rows[name] = row
        return row

    def find(self, name: str, *, damaged: bool = False) -> GameRecord | None:
        """The game of that name, or None; a damaged row raises, unless ``damaged`` (then a record with its ``problem``)."""
        row = self.game_row(name)
        if row is None:
            return None
        return record_or_damaged(row) if damaged else record_from_mapping(row)

    def get(self, name: str) -> GameRecord:
        """The game of that name; raises :class:`~gamedb.errors.GameNotFound` (naming the stored games)."""
        record = self.find(name)
        if record is None:
            raise self.not_found(name)
        return record

    def all_games(self) -> list[GameRecord]:
        """Every stored game by name; a damaged one as a record with its ``problem`` (status ``damaged``).

        Text that is not UTF-8 is read with its bad bytes kept (a listing never fails)."""
        import sqlite3

        conn = self.connection
        if not isinstance(conn, sqlite3.Connection):  # a PostgreSQL text column holds only valid text
            rows, names = self._execute("SELECT * FROM game ORDER BY name", ())
        else:
            saved = conn.text_factory
            conn.text_factory = _SURROGATE_ESCAPE
            try:
                rows, names = self._execute("SELECT * FROM game ORDER BY name", ())
            finally:
                conn.text_factory = saved
        return [record_or_damaged(dict(zip(names, row, strict=True))) for row in rows]

    def stored_name(self, name: str) -> str:
        """``name`` if a game has it; else the one stored game of the family ``name``; else :class:`~gamedb.errors.GameNotFound`."""
        if self.fetch("SELECT 1 FROM game WHERE name = ?", (name,)):
            return name
        found = self.names_of_family(name)
        if len(found) == 1:
            return found[0]
        raise self.not_found(name)

    def not_found(self, name: str) -> GameNotFound:
        """The error for a game ``name`` that is not stored, naming the stored games (those of family ``name`` first)."""
        of_family = self.names_of_family(name)
        if len(of_family) > 1:
            return GameNotFound(f"no game named {name!r} in this database; {len(of_family)} {name} games are stored: {', '.join(of_family)} (name one)")
        stored = [r.name for r in self.all_games()]
        hint = f" (stored: {', '.join(stored)})" if stored else " (the database holds no games yet)"
        return GameNotFound(f"no game named {name!r} in this database{hint}")

    def names_of_family(self, family: str) -> list[str]:
        """The names of the stored games of ``family`` (its name, or ``module:Class``), by name."""
        rows, _ = self._execute("SELECT name FROM game WHERE family = ? ORDER BY name", (family,))
        return [name for (name,) in rows]

    def position(self, record: GameRecord, code: int, *, checked: bool = True) -> PositionRow | None:
        """The stored row of one position, or None."""
        rows = self.select(record, "game_id = ? AND code = ?", (record.id, code), checked=checked)
        return rows[0] if rows else None

    def positions(self, record: GameRecord, codes: Iterable[int], *, checked: bool = True) -> dict[int, PositionRow]:
        """code -> stored row for those of ``codes`` that are stored, asked for in chunks."""
        wanted = sorted(set(codes))  # in order: SQLite looks them up a third faster
        found: dict[int, PositionRow] = {}
        for where, params in self._among("code", wanted, "BIGINT"):
            found.update({row.code: row for row in self.select(record, f"game_id = ? AND {where}", (record.id, *params), checked=checked)})
        return found

    def _among(self, column: str, values: list[int], sql_type: str) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """``column`` among ``values`` as (condition, its parameters), a chunk at a time: DuckDB one list (``= ANY``), the
        others ``IN`` lists of at most :data:`CHUNK`, padded to a round length."""
        if self.code_list:
            yield f"{column} = ANY(?::{sql_type}[])", (values,)
            return
        for i in range(0, len(values), CHUNK):
            chunk = _padded(values[i : i + CHUNK])
            yield f"{column} IN ({', '.join('?' * len(chunk))})", tuple(chunk)

    def position_by_text(self, record: GameRecord, text: str) -> PositionRow | None:
        rows = self.select(record, "game_id = ? AND text = ?", (record.id, text))
        return rows[0] if rows else None

    def positions_between(self, record: GameRecord, low: int, high: int | None = None, *, checked: bool = True) -> list[PositionRow]:
        """The stored rows with codes from ``low`` to ``high`` (None: every one from ``low``), ordered by code."""
        if high is None:
            return self.select(record, "game_id = ? AND code >= ? ORDER BY code", (record.id, low), checked=checked)
        return self.select(record, "game_id = ? AND code BETWEEN ? AND ? ORDER BY code", (record.id, low, high), checked=checked)

    def page(self, record: GameRecord, after: int, limit: int, *, checked: bool = True) -> list[PositionRow]:
        """At most ``limit`` stored rows with codes above ``after``, ordered by code."""
        return self.select(record, "game_id = ? AND code > ? ORDER BY code LIMIT ?", (record.id, after, limit), checked=checked)

    def stored_moves(self, record: GameRecord, code: int) -> list[StoredMove]:
        """The stored move rows of one position, with their children's rows (checked), in move order."""
        rows, _ = self._execute(_MOVES, (record.id, code))
        children = self._named(record, [PositionRow._make(row[2:]) for row in rows])
        moves = [StoredMove(row[0], row[1], child) for row, child in zip(rows, children, strict=True)]
        checked_positions(record.name, record.impartial, [move.child for move in moves])
        return moves

    def player_names(self, game_id: int) -> list[str]:
        """The stored names of a game's players (its ``player`` rows), by index."""
        rows, _ = self._execute("SELECT name FROM player WHERE game_id = ? ORDER BY idx", (game_id,))
        return [name for (name,) in rows]


#: SQLite text that is not UTF-8, read as a str whose bad bytes are lone surrogates (checked_game_row says so)
_SURROGATE_ESCAPE = functools.partial(bytes.decode, encoding="utf-8", errors="surrogateescape")


def _padded(codes: list[int]) -> list[int]:
    """``codes`` padded with its last to a round length, so batches reuse one statement text (the driver compiles it once)."""
    step = 1 << max(0, len(codes).bit_length() - 4)
    return codes + codes[-1:] * (-len(codes) % step)


def reader_of(conn: sa.Connection) -> Reader:
    """The reader over an open SQLAlchemy connection's driver connection (inside its transaction)."""
    driver = conn.connection.driver_connection
    assert driver is not None  # an open connection
    return Reader(driver, paramstyle="qmark" if conn.dialect.name == "duckdb" else conn.dialect.paramstyle)


def read_range(conn: sa.Connection, record: GameRecord, low: int = 0, high: int | None = None, *, checked: bool = True) -> list[PositionRow]:
    """The stored rows with codes from ``low`` to ``high`` (None: every one from ``low``), ordered by code."""
    return reader_of(conn).positions_between(record, low, high, checked=checked)


def stream_positions(reads: Reads, record: GameRecord, *, batch: int = 10000) -> Iterator[PositionRow]:
    """Every stored row of a game, ordered by code, read in pages of ``batch`` (one short read each)."""
    after = -1  # codes are non-negative
    while True:
        with reads() as reader:
            rows = reader.page(record, after, batch, checked=False)
        if not rows:
            return
        if stored_as_written(record.impartial, rows):
            yield from rows
        else:  # the rows before the damaged one first, then its error
            for row in rows:
                checked_position(record.name, record.impartial, row._asdict())
                yield row
        after = rows[-1].code
