"""Every stored row of a game, in a backend-neutral form, to compare databases."""

from __future__ import annotations

import sqlalchemy as sa

from gamedb.store.schema import game, metadata

#: game columns that differ between two solves of the same game (ids, clocks, the strategy that wrote the rows:
#: tests/test_strategies.py checks that one)
RUN_COLUMNS = ("id", "created_at", "solved_at", "enumerate_seconds", "solve_seconds", "strategy")


def game_row(db, name: str, *, ignore: tuple[str, ...] = ("id",)) -> dict:
    with db.engine.connect() as conn:
        row = dict(conn.execute(sa.select(game).where(game.c.name == name)).one()._mapping)
    return {k: v for k, v in row.items() if k not in ignore}


def game_rows(db, name: str) -> dict:
    """The game's rows in every per-game table but the solver's working ones, without its id.

    Ordered by primary key: positions by code, moves by (parent, ord), ...
    """
    with db.engine.connect() as conn:
        gid = conn.execute(sa.select(game.c.id).where(game.c.name == name)).scalar_one()
        found = {}
        for table in metadata.sorted_tables:
            if "game_id" not in table.c or table.name in ("solve_queue", "solve_counter"):
                continue
            query = sa.select(table).where(table.c.game_id == gid).order_by(*table.primary_key.columns)
            found[table.name] = [tuple(v for k, v in r._mapping.items() if k != "game_id") for r in conn.execute(query)]
        return found


def assert_same_game(a, b, name: str, *, ignore: tuple[str, ...] = ("id",)) -> None:
    """Two databases hold the same game ``name``, row for row."""
    assert game_row(a, name, ignore=ignore) == game_row(b, name, ignore=ignore), name
    rows_a, rows_b = game_rows(a, name), game_rows(b, name)
    for key in rows_a:
        assert len(rows_a[key]) == len(rows_b[key]), (name, key)
        for x, y in zip(rows_a[key], rows_b[key], strict=True):
            assert x == y, (name, key, x, y)
