"""Every stored row of a game, in a backend-neutral form, to compare databases."""

from __future__ import annotations

import sqlalchemy as sa

from gamedb.store.schema import game, metadata, move_label, position

#: game columns that differ between two solves of the same game (ids, clocks, the strategy that wrote the rows:
#: tests/test_strategies.py checks that one)
RUN_COLUMNS = ("id", "created_at", "solved_at", "enumerate_seconds", "solve_seconds", "strategy")


def game_row(db, name: str, *, ignore: tuple[str, ...] = ("id",)) -> dict:
    with db.engine.connect() as conn:
        row = dict(conn.execute(sa.select(game).where(game.c.name == name)).one()._mapping)
    return {k: v for k, v in row.items() if k not in ignore}


def game_rows(db, name: str) -> dict:
    """The game's rows in every per-game table but the solver's working ones, without its id.

    Ordered by primary key: positions by code, moves by (parent, ord), ... A position's best move is its label: writers
    number a game's labels each their own way (``move_label``, left out: the SQL solver numbers every move's label in
    name order, a solver on arrays those it hands over as first met; tests/test_move_labels.py checks them).
    """
    with db.engine.connect() as conn:
        gid = conn.execute(sa.select(game.c.id).where(game.c.name == name)).scalar_one()
        found = {}
        labels = {i: label for i, label in conn.execute(sa.select(move_label.c.id, move_label.c.name).where(move_label.c.game_id == gid))}
        for table in metadata.sorted_tables:
            if "game_id" not in table.c or table.name in ("solve_queue", "solve_counter", "move_label"):
                continue
            query = sa.select(table).where(table.c.game_id == gid).order_by(*table.primary_key.columns)
            found[table.name] = [tuple(labels.get(v, ("no label", v)) if k == "best_move" and v is not None else v
                                       for k, v in r._mapping.items() if k != "game_id") for r in conn.execute(query)]
        return found


def label_ids(db, name: str) -> tuple[list, list]:
    """A game's ``move_label`` rows (id, name) and its positions' best moves as stored (code, label id), each by its key."""
    with db.engine.connect() as conn:
        gid = conn.execute(sa.select(game.c.id).where(game.c.name == name)).scalar_one()
        labels = conn.execute(sa.select(move_label.c.id, move_label.c.name).where(move_label.c.game_id == gid).order_by(move_label.c.id)).all()
        best = conn.execute(sa.select(position.c.code, position.c.best_move).where(position.c.game_id == gid).order_by(position.c.code)).all()
    return [tuple(r) for r in labels], [tuple(r) for r in best]


def assert_same_game(a, b, name: str, *, ignore: tuple[str, ...] = ("id",)) -> None:
    """Two databases hold the same game ``name``, row for row."""
    assert game_row(a, name, ignore=ignore) == game_row(b, name, ignore=ignore), name
    rows_a, rows_b = game_rows(a, name), game_rows(b, name)
    for key in rows_a:
        assert len(rows_a[key]) == len(rows_b[key]), (name, key)
        for x, y in zip(rows_a[key], rows_b[key], strict=True):
            assert x == y, (name, key, x, y)
