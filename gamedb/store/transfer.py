"""Copying solved games between databases of the same revision (SQLite, PostgreSQL, DuckDB), one transaction a game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from ..errors import GamedbError, GameExists, param
from ..progress import Progress
from . import catalog
from .duckdb_file import path_of
from .locking import finish_file, solve_lock
from .record import GameRecord
from .rows import POSITION_COLUMNS, reader_of
from .schema import WORKING_TABLES, metadata, move, position
from .schema import game as game_table
from .sql_sink import SqlSink
from .sqlite_file import file_of

#: positions read (and written) per batch; their moves come along
PAGE = 20000


@dataclass
class CopyReport:
    games: list[str] = field(default_factory=list)
    positions: int = 0
    moves: int = 0
    skipped: list[str] = field(default_factory=list)  # unfinished games, not copied
    already: list[str] = field(default_factory=list)  # in the destination as copied before (a resumed copy)
    damaged: list[str] = field(default_factory=list)  # what is wrong with each damaged game, not copied


def per_game_tables() -> list[sa.Table]:
    """The small tables that describe a game beside its positions and moves (players, heap rules, ...)."""
    big_or_working = {position.name, move.name, *WORKING_TABLES}
    return [t for t in metadata.sorted_tables if "game_id" in t.c and t.name not in big_or_working]


def same_database(a: sa.Engine, b: sa.Engine) -> bool:
    """True if two engines point at the same database (same SQLite or DuckDB file, or same server URL)."""
    if a.dialect.name != b.dialect.name:
        return False
    if a.dialect.name in ("sqlite", "duckdb"):  # a DuckDB engine's URL is "duckdb://" whatever its file
        fa, fb = (file_of(a), file_of(b)) if a.dialect.name == "sqlite" else (path_of(a), path_of(b))
        return fa is not None and fb is not None and fa.exists() and fb.exists() and fa.samefile(fb)
    return a.url.render_as_string(hide_password=False) == b.url.render_as_string(hide_password=False)


def copy_games(
    src: sa.Engine,
    dst: sa.Engine,
    names: Iterable[str] | None = None,
    *,
    force: bool = False,
    progress: Progress | None = None,
) -> CopyReport:
    """Copy solved games (all of them, or those named) from ``src`` into ``dst``."""
    if same_database(src, dst):
        raise GamedbError("the source and the destination are the same database")
    with src.connect() as conn:
        if names is None:
            records = reader_of(conn).all_games()
            report = CopyReport(
                skipped=[r.name for r in records if not r.solved and r.problem is None],
                damaged=[r.problem for r in records if r.problem is not None],
            )
            records = [r for r in records if r.solved]
        else:
            records = [reader_of(conn).get(name) for name in dict.fromkeys(names)]
            for record in records:
                record.require_solved()
            report = CopyReport()
    if not force:  # a copy killed half way: the games it finished are there, whole (one transaction each)
        done = _already_copied(src, dst, records)
        report.already = [r.name for r in records if r.name in done]
        records = [r for r in records if r.name not in done]
    with dst.connect() as conn:
        taken = [r.name for r in records if reader_of(conn).find(r.name) is not None]
    if taken and not force:
        raise GameExists(
            f"the destination already holds {', '.join(repr(n) for n in taken)}; "
            f"{param('force', True)} replaces them, or name the games to copy"
        )
    total = sum(r.positions or 0 for r in records)
    for record in records:
        with solve_lock(dst, record.name, "copy"):
            n_pos, n_mov = _copy_game(src, dst, record, progress=progress, done=report.positions, total=total)
        report.games.append(record.name)
        report.positions += n_pos
        report.moves += n_mov
    finish_file(dst)
    return report


def _already_copied(src: sa.Engine, dst: sa.Engine, records: list[GameRecord]) -> set[str]:
    """Names of the games the destination holds exactly as the source does (but the id): copied before."""
    found: set[str] = set()
    with src.connect() as sconn, dst.connect() as dconn:
        for record in records:
            theirs = dconn.execute(sa.select(game_table).where(game_table.c.name == record.name)).first()
            if theirs is None:
                continue
            ours = sconn.execute(sa.select(game_table).where(game_table.c.id == record.id)).one()
            if _without_id(ours) == _without_id(theirs):
                found.add(record.name)
    return found


def _without_id(row: sa.Row[Any]) -> dict[str, Any]:
    return {key: value for key, value in row._mapping.items() if key != "id"}


def _copy_game(src: sa.Engine, dst: sa.Engine, record: GameRecord, *, progress: Progress | None, done: int, total: int) -> tuple[int, int]:
    """Copy one game through the destination's sink in one transaction: its row (a new id), small tables, positions and moves."""
    n_pos = n_mov = 0
    move_cols = [c.name for c in move.columns if c.name != "game_id"]
    with src.connect() as sconn:
        row = dict(sconn.execute(sa.select(game_table).where(game_table.c.id == record.id)).one()._mapping)
        row.pop("id")

        def begin(dconn: sa.Connection) -> GameRecord:
            existing = reader_of(dconn).find(record.name)  # found again: only now is the name's lock held
            if existing is not None:
                catalog.delete(dconn, existing)
            dconn.execute(game_table.insert().values(**row))
            return reader_of(dconn).get(record.name)

        with SqlSink(dst, begin, resumed=False, ids_given=True) as sink:  # (move_label is copied with the small tables)
            new_id = sink.begin().id
            for table in per_game_tables():  # player, heap_rule, ...: a few rows each
                sink.rows(table.name, [dict(r._mapping, game_id=new_id) for r in sconn.execute(sa.select(table).where(table.c.game_id == record.id))])
            after = -1  # codes are non-negative
            while True:
                rows = sconn.execute(
                    sa.select(*(position.c[c] for c in POSITION_COLUMNS))
                    .where(position.c.game_id == record.id, position.c.code > after)
                    .order_by(position.c.code)
                    .limit(PAGE)
                ).all()
                if not rows:
                    break
                high = rows[-1].code
                moves = sconn.execute(
                    sa.select(*(move.c[c] for c in move_cols)).where(move.c.game_id == record.id, move.c.parent > after, move.c.parent <= high)
                ).all()
                sink.columns("position", dict(zip(POSITION_COLUMNS, zip(*rows, strict=True), strict=True)))
                if moves:
                    sink.columns("move", dict(zip(move_cols, zip(*moves, strict=True), strict=True)))
                n_pos += len(rows)
                n_mov += len(moves)
                after = high
                if progress:
                    progress("copy", done + n_pos, total or None)
            sink.finish()
    return n_pos, n_mov
