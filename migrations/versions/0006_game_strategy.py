"""The game row records which solving strategy stored it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 01:40:00

``game.strategy`` names the row of ``gamedb.solvers.choice.STRATEGIES``
that stored the game; verify and query read it instead of guessing the
strategy from the family's capabilities. Older rows get what that guess
said: ``heaps`` for a heap game (its rules are in ``heap_rule``, written
with the game row), ``tiers`` for a solve the tier solver began (its
``progress`` says so), else ``graph-sql`` (both graph solvers write the
same tables, and the SQL one answered for both).
"""
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _strategy(heap_rules: bool, progress: object) -> str:
    if heap_rules:
        return "heaps"
    if isinstance(progress, str):
        try:
            progress = json.loads(progress)
        except ValueError:
            progress = None
    if isinstance(progress, dict) and progress.get("engine") == "tiers":
        return "tiers"
    return "graph-sql"


def upgrade() -> None:
    op.add_column("game", sa.Column("strategy", sa.Text))
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT g.id, g.progress, EXISTS (SELECT 1 FROM heap_rule h WHERE h.game_id = g.id) FROM game g"
    )).all()
    update = sa.text("UPDATE game SET strategy = :s WHERE id = :g")
    for game_id, progress, heap_rules in rows:
        conn.execute(update, {"s": _strategy(bool(heap_rules), progress), "g": game_id})


def downgrade() -> None:
    op.drop_column("game", "strategy")  # in place: on SQLite, 3.35 or later
