"""The positions view names the players of an impartial game as query does: next and previous.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 00:45:00

A position of an impartial game (Nim, octal games, flip, plugins declaring
``impartial``) does not say whose turn it is: ``query``, the Python API and
``export`` call the player to move ``next`` and a winner ``next`` (an
N-position) or ``previous`` (a P-position). The view said the stored player
names, ``first`` and ``second``, for the same rows. Only the view changes:
a file at 0004 asks for ``gamedb db upgrade``, which brings its view up to date.
"""
from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

POSITIONS = """
CREATE VIEW positions AS
SELECT g.name AS game,
       p.text AS position,
       CASE WHEN g.impartial THEN 'next' ELSE pl.name END AS player,
       p.result AS result,
       CASE p.result WHEN 'win' THEN CASE WHEN g.impartial THEN 'next' ELSE pl.name END
                     WHEN 'lose' THEN CASE WHEN g.impartial THEN 'previous' ELSE op.name END END AS winner,
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

OLD_POSITIONS = """
CREATE VIEW positions AS
SELECT g.name AS game,
       p.text AS position,
       pl.name AS player,
       p.result AS result,
       CASE p.result WHEN 'win' THEN pl.name WHEN 'lose' THEN op.name END AS winner,
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


def upgrade() -> None:
    op.execute("DROP VIEW IF EXISTS positions")
    op.execute(POSITIONS)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS positions")
    op.execute(OLD_POSITIONS)
