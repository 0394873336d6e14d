"""``gamedb verify``: the checks every stored game gets, then its solver's own verifier."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ..errors import VerifyError
from ..games.base import Game
from ..progress import Progress
from ..store.record import GameRecord
from ..store.schema import player
from . import choice


@dataclass
class VerifyReport:
    game: str
    positions: int


def verify(db: sa.Engine, record: GameRecord, game: Game, *, progress: Progress | None = None) -> VerifyReport:
    """Re-derive every stored value of ``record`` from the rules; raise :class:`VerifyError` naming a wrong position."""
    record.require_solved()
    with db.connect() as conn:
        _check_players(conn, record, game)
        checked = choice.stored_by(record, game).load().verify(conn, record, game, progress=progress)
    return VerifyReport(record.name, checked)


def _check_players(conn: sa.Connection, record: GameRecord, game: Game) -> None:
    """The player names (which the positions view joins) must be the rules' own."""
    stored = conn.execute(sa.select(player.c.idx, player.c.name).where(player.c.game_id == record.id).order_by(player.c.idx)).all()
    expected = list(enumerate(game.players))
    if [tuple(row) for row in stored] != expected:
        raise VerifyError(f"{record.name}: the stored players {[name for _, name in stored]} are not the rules' {list(game.players)}")

