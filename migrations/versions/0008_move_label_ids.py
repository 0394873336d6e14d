"""Best moves as ids of a game's move labels, each label stored once.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 20:00:00

``position.best_move`` holds the ``id`` of one of the game's ``move_label``
rows (``game_id, id, name``) instead of the label itself: a columnar store
hashed every row's text into its dictionary (cat and mouse's 2·10^6 rows:
0.05 s of DuckDB's CPU per column of text), and a row store kept the text in
every row. The ``positions`` view says the label as before. The upgrade numbers
each game's stored labels in their sorted order and rebuilds the position table
(SQLite and DuckDB) or replaces its column (PostgreSQL).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gamedb.values import RESULT_CODES, result_word_sql

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the label of a row's best move (revision 0008), in the views
_LABEL = "(SELECT l.name FROM move_label l WHERE l.game_id = p.game_id AND l.id = p.best_move)"


def _positions(best_move: str) -> str:
    win, lose = RESULT_CODES["win"], RESULT_CODES["lose"]
    return f"""
CREATE VIEW positions AS
SELECT g.name AS game,
       p.text AS position,
       CASE WHEN g.impartial THEN 'next' ELSE pl.name END AS player,
       {result_word_sql("p.result")} AS result,
       CASE p.result WHEN {win} THEN CASE WHEN g.impartial THEN 'next' ELSE pl.name END
                     WHEN {lose} THEN CASE WHEN g.impartial THEN 'previous' ELSE op.name END END AS winner,
       p.remoteness AS remoteness,
       p.degree AS degree,
       {best_move} AS best_move,
       p.grundy AS grundy,
       p.code AS code
FROM position p
JOIN game g ON g.id = p.game_id
JOIN player pl ON pl.game_id = p.game_id AND pl.idx = p.player
JOIN player op ON op.game_id = p.game_id AND op.idx = 1 - p.player
"""


POSITIONS = _positions(_LABEL)
OLD_POSITIONS = _positions("p.best_move")

_NUMBERED = ("INSERT INTO move_label (game_id, id, name) "
             "SELECT game_id, row_number() OVER (PARTITION BY game_id ORDER BY best_move) - 1, best_move "
             "FROM (SELECT DISTINCT game_id, best_move FROM position WHERE best_move IS NOT NULL) AS d")
#: a row's label id, in the upgrade (``o``: the row as it was)
_TO_ID = "(SELECT l.id FROM move_label l WHERE l.game_id = o.game_id AND l.name = o.best_move)"
_TO_NAME = "(SELECT l.name FROM move_label l WHERE l.game_id = o.game_id AND l.id = o.best_move)"
_DECIDED = sa.text("remoteness IS NOT NULL")


def _position_table(best_move: sa.types.TypeEngine) -> None:
    op.create_table(
        "position",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("player", sa.SmallInteger(), nullable=False),
        sa.Column("result", sa.SmallInteger(), nullable=True),
        sa.Column("remoteness", sa.Integer(), nullable=True),
        sa.Column("degree", sa.Integer(), nullable=False),
        sa.Column("best_move", best_move, nullable=True),
        sa.Column("grundy", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_position_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "code", name=op.f("pk_position")),
        sqlite_with_rowid=False,
    )


def _indexes() -> list[str]:
    """The position table's secondary indexes the database has (a large tier solve left them out; DuckDB has them after `db index`)."""
    conn = op.get_bind()
    if conn.dialect.name == "duckdb":
        return sorted(conn.exec_driver_sql("SELECT index_name FROM duckdb_indexes() WHERE table_name = 'position'").scalars())
    return sorted(str(ix["name"]) for ix in sa.inspect(conn).get_indexes("position"))


def _rebuild(best_move: sa.types.TypeEngine, convert: str) -> None:
    """SQLite and DuckDB: the position table made anew with the best move's other type, its rows and indexes copied over."""
    conn = op.get_bind()
    indexes = _indexes()
    for name in indexes:
        op.drop_index(name, table_name="position")
    if conn.dialect.name == "sqlite":  # the views still name `position`: the new table takes the name back
        op.execute("PRAGMA legacy_alter_table = ON")
    op.execute("ALTER TABLE position RENAME TO position_0007")
    _position_table(best_move)
    op.execute("INSERT INTO position (game_id, code, text, player, result, remoteness, degree, best_move, grundy) "
               f"SELECT game_id, code, text, player, result, remoteness, degree, {convert}, grundy FROM position_0007 AS o ORDER BY game_id, code")
    op.execute("DROP TABLE position_0007")
    if conn.dialect.name == "sqlite":
        op.execute("PRAGMA legacy_alter_table = OFF")
    if "ix_position_remoteness" in indexes:
        op.create_index("ix_position_remoteness", "position", ["game_id", "remoteness"], sqlite_where=_DECIDED)
    if "ix_position_text" in indexes:
        op.create_index("ix_position_text", "position", ["game_id", "text"], unique=True)


def _replace_column(kind: str, convert: str) -> None:
    """PostgreSQL: ``best_move`` replaced by a column of type ``kind`` holding ``convert`` (a subquery: not allowed in USING)."""
    op.execute(f"ALTER TABLE position ADD COLUMN best_move_new {kind}")
    op.execute(f"UPDATE position AS o SET best_move_new = {convert} WHERE o.best_move IS NOT NULL")
    op.execute("ALTER TABLE position DROP COLUMN best_move")
    op.execute("ALTER TABLE position RENAME COLUMN best_move_new TO best_move")


def upgrade() -> None:
    op.execute("DROP VIEW IF EXISTS positions")
    op.create_table(
        "move_label",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_move_label_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "id", name=op.f("pk_move_label")),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_move_label_name", "move_label", ["game_id", "name"], unique=True)
    op.execute(_NUMBERED)
    if op.get_bind().dialect.name == "postgresql":
        _replace_column("INTEGER", _TO_ID)
    else:
        _rebuild(sa.Integer(), _TO_ID)
    op.execute(POSITIONS)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS positions")
    if op.get_bind().dialect.name == "postgresql":
        _replace_column("TEXT", _TO_NAME)
    else:
        _rebuild(sa.Text(), _TO_NAME)
    op.drop_index("ix_move_label_name", table_name="move_label")
    op.drop_table("move_label")
    op.execute(OLD_POSITIONS)
