"""Heap games: the heap_rule table and the heap_moves view.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 12:00:00

Heap games (octal games, Nim, subtraction games, Grundy's game, the flip
game) store one position per heap size and describe their moves by rules
instead of move rows: from a heap remove ``take`` tokens and leave ``parts``
heaps (0: only when the heap had exactly ``take`` tokens; 1: the rest as one
heap; 2: the rest split into two non-empty heaps, of different sizes when
``unequal``). The engine generates the options of a heap from these rules
with joins over the stored heaps; the ``heap_moves`` view does the same for
SQL users: every option of every stored heap with its Sprague-Grundy value
(``part1``/``part2``: the heaps left, NULL for none).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HEAP_MOVES = """
CREATE VIEW heap_moves AS
SELECT g.name AS game, p.code AS heap, p.text AS position, r.take AS take,
       CAST(NULL AS INTEGER) AS part1, CAST(NULL AS INTEGER) AS part2, 0 AS grundy
FROM heap_rule r
JOIN game g ON g.id = r.game_id
JOIN position p ON p.game_id = r.game_id AND p.code = r.take
WHERE r.parts = 0
UNION ALL
SELECT g.name, p.code, p.text, r.take, c.code, CAST(NULL AS INTEGER), c.grundy
FROM heap_rule r
JOIN game g ON g.id = r.game_id
JOIN position p ON p.game_id = r.game_id AND p.code > r.take
JOIN position c ON c.game_id = r.game_id AND c.code = p.code - r.take
WHERE r.parts = 1 AND r.take > 0
UNION ALL
SELECT g.name, p.code, p.text, r.take, a.code, b.code, (a.grundy | b.grundy) - (a.grundy & b.grundy)
FROM heap_rule r
JOIN game g ON g.id = r.game_id
JOIN position p ON p.game_id = r.game_id
JOIN position a ON a.game_id = r.game_id AND a.code >= 1 AND a.code <= (p.code - r.take - r.unequal) / 2
JOIN position b ON b.game_id = r.game_id AND b.code = p.code - r.take - a.code
WHERE r.parts = 2
"""


def upgrade() -> None:
    op.create_table(
        "heap_rule",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("parts", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("take", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("unequal", sa.SmallInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_heap_rule_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "parts", "take", name=op.f("pk_heap_rule")),
        sqlite_with_rowid=False,
    )
    op.execute(HEAP_MOVES)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS heap_moves")
    op.drop_table("heap_rule")
