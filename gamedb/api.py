"""The Python API: one object per database file or server.

>>> from gamedb import Database, make_game
>>> db = Database("ttt.sqlite", create=True)
>>> db.solve(make_game("tictactoe")).positions  # stored: one per class of its 8 symmetries
765
>>> db.probe("tictactoe").result
'tie'
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, Literal, overload

from .answer_output import batches
from .answers import Answer
from .errors import BeyondSolvedRange, DatabaseClosed, GamedbError, InputError, PositionNotFound
from .games.base import Game
from .query import answer_positions, name_holders
from .safe_text import shown
from .stats import positions, stats
from .store.location import DEFAULT_PATH, Location, locate
from .store.record import GameRecord, record_from_mapping
from .store.rows import Reader
from .upkeep import Upkeep

if TYPE_CHECKING:  # SQLAlchemy, solving, verifying and sharing are imported when used: a read starts faster
    from pathlib import Path

    import sqlalchemy as sa

    from .progress import Progress
    from .solvers.protocol import Cluster
    from .solvers.solve import SolveReport
    from .store.file_readers import Files


class Database(Upkeep):
    """A gamedb database: a SQLite path (default ``gamedb.sqlite``) or a SQLAlchemy URL.

    ``readonly``: a SQLite file read through ``sqlite3`` alone, a DuckDB file through ``duckdb`` (SQLAlchemy only to write, verify or reach a server);
    ``game_classes``: the ``module:Class`` rules the caller trusts a stored game to name; ``budget``: seconds one
    statement may run; ``follow_path`` (a long-lived reader of a file, as ``gamedb serve``): each read reads the
    file at the path then, so a file moved into its place is checked and read from then on. Threads may read at once;
    writing methods run one at a time per database. Once closed (:meth:`close`, or the end of its ``with`` block), every
    method raises :class:`~gamedb.errors.DatabaseClosed`."""

    def __init__(
        self, db: str | os.PathLike[str] | Location = DEFAULT_PATH, *, create: bool = False, readonly: bool = False,
        game_classes: Iterable[str] = (), budget: float | None = None, follow_path: bool = False,
    ) -> None:
        where = locate(db)
        self.location = where.text
        self.game_classes = set(game_classes)  # replaced, never changed in place: threads read it
        self._where, self._readonly, self._budget, self._create = where, readonly, budget, create
        self._closed = False
        self._engine: sa.Engine | None = None
        self._engine_lock = threading.Lock()
        #: the file this Database made, while no game is known to be in it (:meth:`_removed_if_left_without_a_game`)
        self._made: Path | None = None
        self._files: Files | None = None
        # a writer uses the engine alone: an idle sqlite3 connection beside it would hold the file in WAL mode
        if (where.is_file or where.is_duckdb) and readonly and not create and "mode=memory" not in where.url:
            from .store.file_readers import file_at_newest

            self._files = file_at_newest(where, budget=budget, follow_path=follow_path)
        if self._files is None:  # a server, a new file, or a file the full check must refuse (in its words)
            self._engine = self._open_engine()
        # building the rules (a large graph validated) costs more than a query: kept while the game row is unchanged
        self._rules: dict[str, tuple[tuple[Any, ...], GameRecord, Game | None, str | None]] = {}  # name -> (game row, record, rules, why none)
        self._building = threading.Lock()  # one thread builds rules; the others wait and take them from the cache

    @property
    def engine(self) -> sa.Engine:
        """The SQLAlchemy engine of the database (built on first use)."""
        self._require_open()
        if self._engine is None:
            with self._engine_lock:
                if self._engine is None:
                    self._engine = self._open_engine()
        return self._engine

    @property
    def _writer(self) -> sa.Engine:
        """The engine, for a method that writes: refused, as a :class:`~gamedb.errors.GamedbError`, by a Database opened with
        ``readonly=True``."""
        self._require_open()
        if self._readonly:
            raise GamedbError(f"{self._where.shown} is opened read-only (Database(..., readonly=True)): open it without readonly to write to it")
        return self.engine

    def _require_open(self) -> None:
        """Raise :class:`~gamedb.errors.DatabaseClosed` once :meth:`close` was called (the engine would open the file again)."""
        if self._closed:
            raise DatabaseClosed(f"the database {self._where.shown} is closed (Database.close(), or the end of its with block): "
                                 "open a new Database to use it again")

    def _open_engine(self) -> sa.Engine:
        """The engine of the database (``create``: its file made if missing, and remembered as made here)."""
        from .store.database import open_engine

        path = self._where.path
        made = path if self._create and path is not None and not os.path.lexists(path) else None
        engine = open_engine(self._where, create=self._create, readonly=self._readonly, budget=self._budget)
        self._made = made
        return engine

    @contextmanager
    def _removed_if_left_without_a_game(self, *, once_done: bool = False) -> Iterator[None]:
        """A write into this database: the file this Database made (``create=True``, not there before) removed when the
        write fails leaving it without a game -- refused, failed, interrupted -- or, ``once_done``, when it ends so (a copy
        of nothing), so no empty database is left behind; the next use makes it again. A game begun stays, to resume. A
        solve that ends holds its game: the file is kept without a read to ask."""
        try:
            yield
        except BaseException:
            self._remove_if_without_a_game()
            raise
        if once_done:
            self._remove_if_without_a_game()
        else:
            self._made = None

    def _remove_if_without_a_game(self) -> None:
        made = self._made
        if made is None:
            return
        try:
            empty = not self.games()
        except Exception:  # (the file cannot say: left as it is)
            return
        with self._engine_lock:
            self._made = None  # holding a game: kept for good; else removed (made again, and remembered, on next use)
            if empty:
                from .store.location import remove_file

                if self._engine is not None:
                    self._engine.dispose()
                    self._engine = None
                remove_file(made)

    @contextmanager
    def read(self, *, scan: bool = False) -> Iterator[Reader]:
        """A :class:`~gamedb.store.rows.Reader` on this thread's own connection; ``scan``: without the time budget."""
        self._require_open()
        if self._files is not None:
            with self._files.reading(scan=scan) as conn:
                yield Reader(conn, game_rows=self._files.game_rows, revision=self._files.revision)
            return
        from .store.database import dropped_if_lost, without_budget
        from .store.rows import reader_of
        with self.engine.connect() as sa_conn, dropped_if_lost(sa_conn), without_budget(sa_conn) if scan else nullcontext():
            yield reader_of(sa_conn)

    def close(self) -> None:
        """Close the database's connections; using it afterwards raises :class:`~gamedb.errors.DatabaseClosed`."""
        self._closed = True
        if self._files is not None:
            self._files.close()
        if self._engine is not None:
            self._engine.dispose()

    def __enter__(self) -> Database:
        self._require_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def games(self) -> list[GameRecord]:
        """Every game stored in the database (solved or not), by name.

        >>> [g.name for g in db.games()]
        ['nim', 'tictactoe']
        """
        with self.read() as reader:
            return reader.all_games()

    def game(self, name: str) -> GameRecord:
        """The stored game ``name`` (its ``game`` row); raises :class:`~gamedb.errors.GameNotFound`.

        >>> db.game("nim").status
        'solved'
        """
        with self.read() as reader:
            return reader.get(name)

    def stored_name(self, name: str) -> str:
        """The stored game ``name`` stands for: itself, or the only stored game of the family ``name``.

        >>> db.stored_name("tictactoe")
        'tictactoe'
        """
        with self.read() as reader:
            return reader.stored_name(name)

    def rules(self, name: str) -> tuple[GameRecord, Game]:
        """The stored game and its rules (kept between calls while the game row is unchanged).

        >>> record, game = db.rules("tictactoe")
        >>> record.positions, game.format(game.start())
        (765, '.........')
        """
        with self.read() as reader:
            record, game, _ = self._rules_on(reader, name)
        return record, game if game is not None else record.rules(self.game_classes)  # raises, saying why

    def _rules_on(self, reader: Reader, name: str) -> tuple[GameRecord, Game | None, str | None]:
        row = reader.game_row(name)
        if row is None:
            raise reader.not_found(name)
        key = (*row.values(), frozenset(self.game_classes))  # a class trusted later loads then
        cached = self._rules.get(name)
        if cached is None or cached[0] != key:
            with self._building:
                cached = self._rules.get(name)  # built by another thread meanwhile?
                if cached is None or cached[0] != key:
                    record = record_from_mapping(row)
                    cached = self._rules[name] = (key, record, *record.rules_or_reason(key[-1]))
        return cached[1], cached[2], cached[3]

    def solve(
        self, game: Game, name: str | None = None, *, force: bool = False, progress: Progress | None = None,
        strategy: str = "auto", memory_limit: int | str | None = None, engine: str | None = None, cluster: Cluster | None = None,
        symmetry: bool | None = None,
    ) -> SolveReport:
        """Solve ``game``; ``strategy`` is one of :data:`gamedb.solvers.choice.CHOICES` (``engine``: its deprecated name);
        ``cluster``: on a Dask cluster (:class:`gamedb.solvers.protocol.Cluster`, the ``cluster`` extra); ``symmetry`` False
        stores every position of a family that declares symmetries (None: where the strategy uses them).

        >>> from gamedb import make_game
        >>> Database("nim.sqlite", create=True).solve(make_game("nim", max=5)).positions
        6
        """
        from .sizes import parse_size
        from .solvers.solve import solve
        from .store import catalog
        if engine is not None:
            import warnings

            warnings.warn("Database.solve(engine=...) is deprecated; use strategy=...", DeprecationWarning, stacklevel=2)
            strategy = engine
        self._require_open()
        with self._removed_if_left_without_a_game():  # (an argument refused here too)
            if not isinstance(game, Game):  # (a family's name: AttributeError 'str' object has no attribute 'family', deep in the solve)
                raise InputError(f"solve takes a game's rules, a gamedb.games.Game such as make_game('nim', max=10); got "
                                 f"{type(game).__name__} {shown(repr(game), 40, quotes=False)}")
            limit = None if memory_limit is None else parse_size(memory_limit)
            key = catalog.family_key(game)
            if ":" in key:  # the caller handed us this class: its stored games may load it again
                self.game_classes = self.game_classes | {key}  # a new set: another thread may be reading the old one
            return solve(self._writer, game, name, force=force, progress=progress, strategy=strategy, memory_limit=limit, cluster=cluster,
                         symmetry=symmetry)

    def probe(self, name: str, position: str | None = None) -> Answer:
        """The stored value of ``position`` (text; None: the start) and of every move from it.

        Raises :class:`~gamedb.errors.PositionError` (a ``ValueError``) for text that does not parse,
        :class:`~gamedb.errors.PositionNotFound` (a ``KeyError``) for a position that is not stored.

        >>> db.probe("tictactoe", "XX.OO....").best_move
        '3'
        """
        (answer,) = self.probe_many(name, [position])
        return answer

    def answerer(self, name: str, *, boards: bool = True, lines: bool = False) -> Callable[[Sequence[str | None]], list[Answer | GamedbError | str]]:
        """What answers a batch of positions of the solved game ``name``, each error in its place (checked solved now);
        ``lines``: each answer as its JSON line (:meth:`~gamedb.answers.Answer.json_line`).

        >>> answer = db.answerer("nim")
        >>> [getattr(a, "result", type(a).__name__) for a in answer(["3 5", "0", "x"])]
        ['win', 'lose', 'PositionError']
        """
        with self.read() as reader:
            self._rules_on(reader, name)[0].require_solved()
        return lambda batch: self._answer_batch(name, list(batch), "return", boards, lines)

    def get(self, name: str, position: str | None = None, default: Any = None) -> Answer | Any:
        """Like :meth:`probe`, but ``default`` when the position is not stored (text that does not parse raises).

        >>> db.get("nim", "20") is None      # Nim solved with --max 9: heap 20 is not stored
        True
        """
        try:
            return self.probe(name, position)
        except PositionNotFound:
            return default

    @overload
    def probe_many(
        self, name: str, positions: Iterable[str | None], *, errors: Literal["raise"] = "raise", batch: int = 1000, boards: bool = True
    ) -> Iterator[Answer]: ...

    @overload
    def probe_many(
        self, name: str, positions: Iterable[str | None], *, errors: Literal["return"], batch: int = 1000, boards: bool = True
    ) -> Iterator[Answer | GamedbError]: ...

    def probe_many(
        self, name: str, positions: Iterable[str | None], *, errors: str = "raise", batch: int = 1000, boards: bool = True
    ) -> Iterator[Answer | GamedbError]:
        """Answers for many positions, read a batch at a time; ``errors="return"`` yields each error in its place.

        >>> [a.result for a in db.probe_many("tictactoe", ["XX.OO....", "........."])]
        ['win', 'tie']
        """
        self._require_open()  # (now, not at the first answer)
        if errors not in ("raise", "return"):
            raise InputError(f"errors must be 'raise' or 'return', got {errors!r}")
        if isinstance(positions, (str, bytes)):  # (iterated, each character a position)
            raise InputError(f"positions must be a list (any iterable) of position texts, got the one text {positions!r}: "
                             "probe(name, position) answers one")
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:  # (0: no batch was read, no answer given)
            raise InputError(f"batch must be a whole number of positions, 1 or more, got {batch!r}")
        return self._answers(name, positions, errors, batch, boards)  # (the arguments checked now, not at the first answer)

    def _answers(self, name: str, positions: Iterable[str | None], errors: str, batch: int, boards: bool) -> Iterator[Answer | GamedbError]:
        for pending in batches(positions, batch):
            yield from self._answer_batch(name, pending, errors, boards)

    @overload
    def _answer_batch(
        self, name: str, positions: list[str | None], errors: str, boards: bool = True, lines: Literal[False] = False
    ) -> list[Answer | GamedbError]: ...
    @overload
    def _answer_batch(self, name: str, positions: list[str | None], errors: str, boards: bool, lines: bool) -> list[Answer | GamedbError | str]: ...
    def _answer_batch(
        self, name: str, positions: list[str | None], errors: str, boards: bool = True, lines: bool = False
    ) -> list[Answer | GamedbError] | list[Answer | GamedbError | str]:
        with self.read() as reader:  # one connection for the game's rules and the lookups
            record, game, reason = self._rules_on(reader, name)
            answers = answer_positions(reader, record, game, reason, positions, boards=boards, lines=lines)
            if any(isinstance(answer, BeyondSolvedRange) for answer in answers):
                answers = name_holders(reader, record, positions, answers, self.game_classes)
        if errors == "raise":
            for answer in answers:
                if isinstance(answer, GamedbError):
                    raise answer
        return answers

    def query_json(self, name: str, position: str | None = None) -> dict[str, Any]:
        """:meth:`probe`'s answer as the dict ``gamedb query --json`` prints.

        >>> db.query_json("tictactoe", "XX.OO....")["best_move"]
        '3'
        """
        return self.probe(name, position).to_dict()

    def stats(self, name: str) -> dict[str, Any]:
        """Counts of the stored positions by result, the start position's value, timings; in ``results``, the positions
        an unfinished solve has not decided yet are counted under None (``gamedb stats --json``: ``"undecided"``).

        >>> db.stats("tictactoe")["results"], db.stats("tictactoe")["reachable"]
        ({'win': 390, 'lose': 224, 'tie': 151, 'draw': 0}, 5478)
        """
        record = self.game(name)
        with self.read() as reader:
            return stats(reader, record)

    def positions(self, name: str) -> Iterator[dict[str, Any]]:
        """Every stored position of a solved game as a dict of its row, streamed in pages ordered by code.

        >>> next(iter(db.positions("tictactoe")))["text"]
        '.........'
        """
        record = self.game(name)
        record.require_solved()
        return positions(self.read, record, record.rules_or_reason(self.game_classes)[0])
