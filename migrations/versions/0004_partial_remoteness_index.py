"""The remoteness index leaves out the positions without a remoteness (draws and undecided ones).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 05:10:00

The SQL engine reads each level's frontier through ``ix_position_remoteness``
(``remoteness = :k``), which never asks for NULL; on a typical cat-and-mouse
graph three positions in four are draws. A partial index skips them: the
2-million-position benchmark builds it in a quarter of the time and the file
is smaller. SQLite and PostgreSQL both use a partial index for
``remoteness = :k``, which implies ``remoteness IS NOT NULL``.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_DECIDED = sa.text("remoteness IS NOT NULL")


def upgrade() -> None:
    if op.get_bind().dialect.name == "duckdb":  # no partial indexes there: the whole one stays
        return
    with op.batch_alter_table("position", schema=None) as batch_op:
        batch_op.drop_index("ix_position_remoteness")
        batch_op.create_index("ix_position_remoteness", ["game_id", "remoteness"], unique=False, sqlite_where=_DECIDED, postgresql_where=_DECIDED)


def downgrade() -> None:
    if op.get_bind().dialect.name == "duckdb":
        return
    with op.batch_alter_table("position", schema=None) as batch_op:
        batch_op.drop_index("ix_position_remoteness")
        batch_op.create_index("ix_position_remoteness", ["game_id", "remoteness"], unique=False)
