"""The upkeep of a stored database -- verify, compact, its indexes, copies -- as methods of :class:`gamedb.api.Database`
(whose class takes them from :class:`Upkeep`: each module under 400 lines)."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlalchemy as sa

    from .games.base import Game
    from .progress import Progress
    from .solvers.checks import VerifyReport
    from .store.compact import CompactReport
    from .store.location import Location
    from .store.record import GameRecord
    from .store.transfer import CopyReport


class Upkeep:
    """Verify, compact, build the indexes left out, copy: on what :class:`~gamedb.api.Database` gives (below)."""

    _where: Location

    @property
    def engine(self) -> sa.Engine:
        raise NotImplementedError

    @property
    def _writer(self) -> sa.Engine:
        raise NotImplementedError

    def game(self, name: str) -> GameRecord:
        raise NotImplementedError

    def rules(self, name: str) -> tuple[GameRecord, Game]:
        raise NotImplementedError

    def _removed_if_left_without_a_game(self, *, once_done: bool = False) -> AbstractContextManager[None]:
        raise NotImplementedError

    def verify(self, name: str, *, progress: Progress | None = None) -> VerifyReport:
        """Re-derive every stored value from the rules and the children's values; raise :class:`~gamedb.errors.VerifyError`.

        >>> db.verify("tictactoe").positions
        765
        """
        from .solvers.checks import verify
        record, game = self.rules(name)
        return verify(self.engine, record, game, progress=progress)

    def compact(self, name: str) -> CompactReport:
        """Drop the solved game's move rows (queries and verify do not read them) and reclaim the space; a DuckDB file is
        written afresh, its position rows in the dense order (:mod:`gamedb.store.duckdb_rewrite`).

        >>> from gamedb import make_game
        >>> from gamedb import Database
        >>> mine = Database("moves.sqlite", create=True)
        >>> mine.solve(make_game("tictactoe"), strategy="memory").moves   # the memory strategy keeps move rows
        16167
        >>> mine.compact("tictactoe").moves_removed
        16167
        """
        from .store.compact import compact
        return compact(self._writer, self.game(name), self._where.path if self._where.is_duckdb else None)

    def missing_indexes(self) -> list[str]:
        """The names of the indexes a large tier solve left out (:meth:`build_indexes` builds them).

        >>> db.missing_indexes()     # a small game: none left out
        []
        """
        from .store.bulk import missing_indexes
        from .store.schema import metadata
        with self.engine.connect() as conn:
            return [str(index.name) for index in missing_indexes(conn, list(metadata.sorted_tables))]

    def build_indexes(self) -> list[str]:
        """Build the indexes a large tier solve left out; return their names.

        >>> db.build_indexes()
        []
        """
        from .store.bulk import create_missing_indexes
        from .store.locking import solve_settings
        from .store.schema import metadata
        writer = self._writer
        with solve_settings(writer), writer.begin() as conn:  # a solve's page cache: the sorts of 10^8 rows
            return create_missing_indexes(conn, list(metadata.sorted_tables))

    def copy_to(
        self, other: Upkeep, names: Iterable[str] | None = None, *, force: bool = False, progress: Progress | None = None
    ) -> CopyReport:
        """Copy solved games (all, or those named) into another database, e.g. SQLite -> PostgreSQL; a file ``other`` made
        (``create=True``) that the copy leaves without a game (refused, or nothing to copy) is removed.

        >>> from gamedb import Database
        >>> report = db.copy_to(Database("copy.sqlite", create=True), ["nim"])
        >>> report.games, report.positions
        (['nim'], 10)
        """
        from .store.transfer import copy_games
        with other._removed_if_left_without_a_game(once_done=True):
            return copy_games(self.engine, other._writer, names, force=force, progress=progress)

