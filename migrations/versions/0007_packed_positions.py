"""Packed position rows: the result as a small integer code, the text left out of large games.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 06:30:00

``position.result`` holds the code of ``gamedb.values.RESULT_CODES`` (1 win,
2 lose, 3 tie, 4 draw; NULL while undecided) instead of the word, and
``position.text`` may be NULL: a game of a million positions or more
(``gamedb.store.schema.TEXT_LEFT_OUT_FROM``) is written without texts, which
follow from the code by the family's rules (``query`` and ``export`` format
them). The ``positions`` and ``moves`` views say the words as before. The
upgrade rebuilds the position table (SQLite and DuckDB) or alters its columns
(PostgreSQL) and leaves the texts of a large game out as a new solve does;
a stored word that is none of the four becomes the code -1, which every
reader reports as damage, as it reported the word. ``gamedb db upgrade``
then VACUUMs a SQLite file (the old table's pages are free).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gamedb.values import RESULT_CODES, result_word_sql

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WORD = result_word_sql("p.result")
_CHILD_WORD = result_word_sql("pc.result")


def _positions(result: str, win: str, lose: str) -> str:
    return f"""
CREATE VIEW positions AS
SELECT g.name AS game,
       p.text AS position,
       CASE WHEN g.impartial THEN 'next' ELSE pl.name END AS player,
       {result} AS result,
       CASE p.result WHEN {win} THEN CASE WHEN g.impartial THEN 'next' ELSE pl.name END
                     WHEN {lose} THEN CASE WHEN g.impartial THEN 'previous' ELSE op.name END END AS winner,
       p.remoteness AS remoteness,
       p.degree AS degree,
       p.best_move AS best_move,
       p.grundy AS grundy,
       p.code AS code
FROM position p
JOIN game g ON g.id = p.game_id
JOIN player pl ON pl.game_id = p.game_id AND pl.idx = p.player
JOIN player op ON op.game_id = p.game_id AND op.idx = 1 - p.player
"""


def _moves(child_result: str) -> str:
    return f"""
CREATE VIEW moves AS
SELECT g.name AS game,
       pp.text AS position,
       m.ord AS ord,
       m.label AS move,
       pc.text AS child,
       {child_result} AS child_result,
       pc.remoteness AS child_remoteness
FROM move m
JOIN game g ON g.id = m.game_id
JOIN position pp ON pp.game_id = m.game_id AND pp.code = m.parent
JOIN position pc ON pc.game_id = m.game_id AND pc.code = m.child
UNION ALL
SELECT g.name, pp.text, t.ord, t.label, pc.text, {child_result}, pc.remoteness
FROM position pp
JOIN game g ON g.id = pp.game_id
JOIN token_board b ON b.game_id = pp.game_id
JOIN token_move t ON t.game_id = pp.game_id AND t.player = pp.player
     AND t.node = CASE pp.player WHEN 0 THEN pp.code / 2 / b.nodes ELSE pp.code / 2 - pp.code / 2 / b.nodes * b.nodes END
JOIN position pc ON pc.game_id = pp.game_id
     AND pc.code = CASE pp.player WHEN 0 THEN (t.target * b.nodes + pp.code / 2 - pp.code / 2 / b.nodes * b.nodes) * 2 + 1
                                  ELSE (pp.code / 2 / b.nodes * b.nodes + t.target) * 2 END
WHERE pp.degree > 0
"""


POSITIONS = _positions(_WORD, str(RESULT_CODES["win"]), str(RESULT_CODES["lose"]))
MOVES = _moves(_CHILD_WORD)
OLD_POSITIONS = _positions("p.result", "'win'", "'lose'")
OLD_MOVES = _moves("pc.result")

_TO_CODE = "CASE WHEN result IS NULL THEN NULL " + " ".join(f"WHEN result = '{w}' THEN {c}" for w, c in RESULT_CODES.items()) + " ELSE -1 END"
_TO_WORD = "CASE result " + " ".join(f"WHEN {c} THEN '{w}'" for w, c in RESULT_CODES.items()) + " ELSE CAST(result AS TEXT) END"
_DECIDED = sa.text("remoteness IS NOT NULL")
#: the games whose texts the upgrade leaves out, as a new solve would: 10^6 positions or more (rows.TEXT_LEFT_OUT_FROM
#: then) of a family gamedb ships (a ``module:Class`` plugin keeps its texts: without it they could not be made again)
_TEXTLESS = "SELECT id FROM game WHERE positions >= 1000000 AND family NOT LIKE '%:%'"


def _position_table(name: str, *, packed: bool) -> None:
    op.create_table(
        name,
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("text", sa.Text(), nullable=packed),
        sa.Column("player", sa.SmallInteger(), nullable=False),
        sa.Column("result", sa.SmallInteger() if packed else sa.Text(), nullable=True),
        sa.Column("remoteness", sa.Integer(), nullable=True),
        sa.Column("degree", sa.Integer(), nullable=False),
        sa.Column("best_move", sa.Text(), nullable=True),
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


def _rebuild(*, packed: bool, convert: str, text: str) -> None:
    """SQLite and DuckDB: the position table made anew with the other column types, its rows and indexes copied over."""
    conn = op.get_bind()
    indexes = _indexes()
    for name in indexes:
        op.drop_index(name, table_name="position")
    if conn.dialect.name == "sqlite":  # the views still name `position`: the new table takes the name back
        op.execute("PRAGMA legacy_alter_table = ON")
    op.execute("ALTER TABLE position RENAME TO position_0006")
    _position_table("position", packed=packed)
    columns = "game_id, code, text, player, result, remoteness, degree, best_move, grundy"
    op.execute(f"INSERT INTO position ({columns}) SELECT game_id, code, {text}, player, {convert}, remoteness, degree, best_move, grundy "
               "FROM position_0006 ORDER BY game_id, code")
    op.execute("DROP TABLE position_0006")
    if conn.dialect.name == "sqlite":
        op.execute("PRAGMA legacy_alter_table = OFF")
    if "ix_position_remoteness" in indexes:
        op.create_index("ix_position_remoteness", "position", ["game_id", "remoteness"], sqlite_where=_DECIDED)
    if "ix_position_text" in indexes:
        op.create_index("ix_position_text", "position", ["game_id", "text"], unique=True)


def upgrade() -> None:
    op.execute("DROP VIEW IF EXISTS moves")
    op.execute("DROP VIEW IF EXISTS positions")
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE position ALTER COLUMN result TYPE SMALLINT USING {_TO_CODE}")
        op.execute("ALTER TABLE position ALTER COLUMN text DROP NOT NULL")
        op.execute(f"UPDATE position SET text = NULL WHERE game_id IN ({_TEXTLESS})")
    else:
        _rebuild(packed=True, convert=_TO_CODE, text=f"CASE WHEN game_id IN ({_TEXTLESS}) THEN NULL ELSE text END")
    op.execute(POSITIONS)
    op.execute(MOVES)


def downgrade() -> None:
    """Back to words; a game stored without texts gets them only from gamedb (`export`): its rows say `#CODE` meanwhile."""
    op.execute("DROP VIEW IF EXISTS moves")
    op.execute("DROP VIEW IF EXISTS positions")
    text = "COALESCE(text, '#' || CAST(code AS TEXT))"
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"UPDATE position SET text = {text} WHERE text IS NULL")
        op.execute(f"ALTER TABLE position ALTER COLUMN result TYPE TEXT USING {_TO_WORD}")
        op.execute("ALTER TABLE position ALTER COLUMN text SET NOT NULL")
    else:
        _rebuild(packed=False, convert=_TO_WORD, text=text)
    op.execute(OLD_POSITIONS)
    op.execute(OLD_MOVES)
