"""Two-token games: the token_board and token_move tables; the moves view generates their moves.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 03:30:00

Cat and mouse stores its moves as the players' move lists on the board (a
few thousand rows) instead of one row per move of every position (8 million
on a 1,000-node graph): a position's code is ``(token0 * nodes + token1) * 2
+ turn`` and the player to move moves its own token from ``node`` to
``target``. The ``moves`` view now lists the stored ``move`` rows and, for
these games, the moves generated from ``token_move`` by one join, with the
same columns as before.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# the mover's own token: token0 = code / 2 / nodes, token1 = code / 2 mod nodes (mod written out: portable)
_MOVES_FROM_ROWS = """
SELECT g.name AS game,
       pp.text AS position,
       m.ord AS ord,
       m.label AS move,
       pc.text AS child,
       pc.result AS child_result,
       pc.remoteness AS child_remoteness
FROM move m
JOIN game g ON g.id = m.game_id
JOIN position pp ON pp.game_id = m.game_id AND pp.code = m.parent
JOIN position pc ON pc.game_id = m.game_id AND pc.code = m.child
"""

_MOVES_FROM_TOKENS = """
SELECT g.name, pp.text, t.ord, t.label, pc.text, pc.result, pc.remoteness
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

MOVES = "CREATE VIEW moves AS" + _MOVES_FROM_ROWS + "UNION ALL" + _MOVES_FROM_TOKENS
OLD_MOVES = "CREATE VIEW moves AS" + _MOVES_FROM_ROWS


def upgrade() -> None:
    op.create_table(
        "token_board",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("nodes", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_token_board_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_token_board")),
    )
    op.create_table(
        "token_move",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("node", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("ord", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_token_move_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "player", "node", "ord", name=op.f("pk_token_move")),
        sqlite_with_rowid=False,
    )
    with op.batch_alter_table("token_move", schema=None) as batch_op:
        batch_op.create_index("ix_token_move_target", ["game_id", "player", "target"], unique=False)
    op.execute("DROP VIEW IF EXISTS moves")
    op.execute(MOVES)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS moves")
    op.execute(OLD_MOVES)
    with op.batch_alter_table("token_move", schema=None) as batch_op:
        batch_op.drop_index("ix_token_move_target")
    op.drop_table("token_move")
    op.drop_table("token_board")
