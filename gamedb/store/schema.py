"""The SQL schema, as SQLAlchemy Core tables."""

from __future__ import annotations

import sqlalchemy as sa

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)

game = sa.Table(
    "game",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.Text, nullable=False, unique=True),
    sa.Column("family", sa.Text, nullable=False),
    sa.Column("parameters", sa.JSON, nullable=False),
    sa.Column("rules_version", sa.Integer, nullable=False),
    sa.Column("impartial", sa.Boolean, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("start_code", sa.BigInteger, nullable=False),
    sa.Column("start_position", sa.Text, nullable=False),
    sa.Column("positions", sa.BigInteger),
    sa.Column("moves", sa.BigInteger),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("solved_at", sa.Text),
    sa.Column("enumerate_seconds", sa.Float),
    sa.Column("solve_seconds", sa.Float),
    sa.Column("gamedb_version", sa.Text, nullable=False),
    sa.Column("info", sa.JSON),
    sa.Column("progress", sa.JSON),
    # the solving strategy that stored it (gamedb.solvers.choice.STRATEGIES), read to verify and answer (revision 0006)
    sa.Column("strategy", sa.Text),
)

player = sa.Table(
    "player",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.SmallInteger, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
)

position = sa.Table(
    "position",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("code", sa.BigInteger, primary_key=True, autoincrement=False),
    # NULL for a game of rows.TEXT_LEFT_OUT_FROM positions or more: its text follows from the code by the rules (revision 0007)
    sa.Column("text", sa.Text),
    sa.Column("player", sa.SmallInteger, nullable=False),
    # gamedb.values.RESULT_CODES (1 win, 2 lose, 3 tie, 4 draw; NULL: undecided); the views say the words (revision 0007)
    sa.Column("result", sa.SmallInteger),
    sa.Column("remoteness", sa.Integer),
    sa.Column("degree", sa.Integer, nullable=False),
    # the id of one of the game's move_label rows (NULL: none) (revision 0008; the word before: 0.05 s of DuckDB's CPU per
    # 10^6 rows, hashed into its dictionary; the views and readers say the label)
    sa.Column("best_move", sa.Integer),
    sa.Column("grundy", sa.Integer),
    sa.Index("ix_position_text", "game_id", "text", unique=True),
    # the SQL solver's frontier (remoteness = :k); draws and undecided positions are left out (revision 0004,
    # which makes it partial on PostgreSQL too: naming postgresql_where here would import that dialect in
    # every process and slow a query's start-up; see docs/performance.md)
    sa.Index("ix_position_remoteness", "game_id", "remoteness", sqlite_where=sa.text("remoteness IS NOT NULL")),
    sqlite_with_rowid=False,
)

# The labels of a game's best moves, each stored once: ``position.best_move`` holds an ``id`` (revision 0008). A writer
# numbers them as it first meets them (gamedb.store.move_labels), so the same solve gives the same ids.
move_label = sa.Table(
    "move_label",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Index("ix_move_label_name", "game_id", "name", unique=True),
    sqlite_with_rowid=False,
)

move = sa.Table(
    "move",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("parent", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("ord", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("child", sa.BigInteger, nullable=False),
    sa.Column("label", sa.Text, nullable=False),
    sa.Index("ix_move_child", "game_id", "child"),
    sqlite_with_rowid=False,
)

# Moves of heap games, declaratively (no move rows): from one heap remove ``take`` tokens and leave ``parts`` heaps --
# 0: only when the heap had exactly ``take``; 1: the rest as one heap; 2: the rest split into two non-empty heaps (of
# different sizes when ``unequal``); ``idx`` orders the rules. The ``heap_moves`` view lists the moves they give.
heap_rule = sa.Table(
    "heap_rule",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("parts", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("take", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("idx", sa.Integer, nullable=False),
    sa.Column("unequal", sa.SmallInteger, nullable=False),
    sqlite_with_rowid=False,
)

# Moves of two-token games (cat and mouse), coded ``(token0 * nodes + token1) * 2 + turn``: the player to move moves its
# own token from ``node`` to ``target``. These few rows stand for every move row (the ``moves`` view generates them).
token_board = sa.Table(
    "token_board",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, autoincrement=False),
    sa.Column("nodes", sa.Integer, nullable=False),
)

token_move = sa.Table(
    "token_move",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("node", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("ord", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("target", sa.Integer, nullable=False),
    sa.Column("label", sa.Text, nullable=False),
    sa.Index("ix_token_move_target", "game_id", "player", "target"),
    sqlite_with_rowid=False,
)

# --- working tables of an unfinished solve (emptied when a solve ends) ----

#: names of the working tables below (a solved game has no rows in them)
WORKING_TABLES = ("solve_queue", "solve_counter")

solve_queue = sa.Table(
    "solve_queue",
    metadata,
    sa.Column("game_id", sa.Integer, primary_key=True),
    sa.Column("code", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("depth", sa.Integer, nullable=False),
    sa.Index("ix_solve_queue_depth", "game_id", "depth"),
    sqlite_with_rowid=False,
)

solve_counter = sa.Table(
    "solve_counter",
    metadata,
    sa.Column("game_id", sa.Integer, primary_key=True),
    sa.Column("code", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("pending", sa.Integer, nullable=False),
    sqlite_with_rowid=False,
)
