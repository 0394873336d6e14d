"""A new DuckDB file written whole by a solve (``--db games.duckdb`` not there yet): the new SQLite file's sink, its rows
appended by a thread of its own while the solver goes on (DuckDB works outside Python's lock)."""

from __future__ import annotations

import bisect
import itertools
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from .duckdb_file import append_columns, connect, create_schema
from .new_sqlite_file import NewSqliteFile
from .sink import Column, joined_columns, rows_in

if TYPE_CHECKING:
    from concurrent.futures import Future

#: rows a new file's sink gathers before one INSERT (past DuckDB's row group of 122,880 rows, which it writes to the
#: file as it goes; smaller INSERTs wait in memory: cat-mouse's 123 batches of 16,000 positions took 2.9 s, 0.4 s in 2^17s)
APPEND_ROWS = 1 << 17
#: rows gathered at most while the thread appends (the solver waits for it then): memory
GATHER_ROWS = 1 << 21
#: rows appended between commits (DuckDB keeps what a transaction has not written out in memory)
COMMIT_ROWS = 1 << 20


class _Made:
    """The connection the file's thread is making, used as the connection once made (its failure raised then)."""

    def __init__(self, future: Any) -> None:
        self._future = future

    def __getattr__(self, name: str) -> Any:
        return getattr(self._future.result(), name)

    def close(self) -> None:
        try:
            conn = self._future.result()
        except Exception:  # (nothing was made)
            return
        conn.close()


#: Python's switch interval while the thread appends (5 ms by default): DuckDB's scan of numpy arrays takes Python's lock
#: now and then, and waited up to that long each time for the solver's thread (2·10^6 rows appended beside a thread
#: running Python: 1.6 s, 0.6 s at this interval; alone 0.55 s)
SWITCH_INTERVAL = 2e-4
_appending = 0  # new files whose thread appends, in this process
_before = 0.0  # the interval before the first of them shortened it
_interval_lock = threading.Lock()


def _shorten_interval() -> None:
    global _appending, _before
    with _interval_lock:
        if not _appending:
            _before = sys.getswitchinterval()
            sys.setswitchinterval(min(_before, SWITCH_INTERVAL))
        _appending += 1


def _restore_interval() -> None:
    """The interval as it was before the first file still appending shortened it (set back by the last)."""
    global _appending
    with _interval_lock:
        _appending -= 1
        if not _appending:
            sys.setswitchinterval(_before)


#: rows the thread takes a job at most (the rest wait, for two connections to share when the solver is done)
THREAD_ROWS = 1 << 18
#: rows left to append when the solver is done from which two connections append them, half each
TWO_LANES = 1 << 18
#: DuckDB's rows a row group: a transaction's last one is compressed and written when it commits (cat-mouse: 17 ms for
#: a full one, while the other connection waited)
ROW_GROUP = 122_880
#: the time a row of a transaction's last row group takes to commit, against appending a row (cat-mouse: 17 ms, 21 ms)
COMMIT_SHARE = 0.8
#: the time the thread takes a row, against this one, while both append (cat-mouse's end: 0.22-0.25 us, 0.19-0.20 us)
THREAD_SHARE = 1.2


def _jobs(batches: list[Mapping[str, Column]]) -> Iterator[list[Mapping[str, Column]]]:
    """``batches`` in order, in as many runs as :data:`THREAD_ROWS` rows make, of about equal rows (a batch more or less)."""
    ends = list(itertools.accumulate(rows_in(b) for b in batches))
    runs = -(-ends[-1] // THREAD_ROWS) if ends and ends[-1] else 1
    first = 0
    for k in range(1, runs + 1):  # run k ends at the first batch whose rows reach k / runs of all
        last = len(batches) if k == runs else bisect.bisect_left(ends, k * ends[-1] // runs) + 1
        if last > first:
            yield batches[first:last]
            first = last


def lanes_cut(ends: Sequence[int], behind: int, uncommitted: int) -> int:
    """Where the last rows are cut between the thread (``behind`` rows of its jobs still to append, its transaction
    ``uncommitted`` rows long with them) and the other connection (the rows from the cut, in a new transaction): the batch
    (``ends``: each batch's last row, counted from 1) at which both are done soonest, the thread's commit with its share
    and this connection's after it, each as long as its transaction's last row group (:data:`COMMIT_SHARE`; the thread's
    rows slower, :data:`THREAD_SHARE`). A cut by the rows alone left one connection idle for 0.02-0.05 s of cat-mouse's
    end (the thread committed midway, and last)."""
    total = ends[-1] if ends else 0

    def done(cut: int) -> float:
        share = ends[cut - 1] if cut else 0
        thread = THREAD_SHARE * (behind + share + COMMIT_SHARE * ((uncommitted + share) % ROW_GROUP))
        return max(thread, total - share) + COMMIT_SHARE * ((total - share) % ROW_GROUP)

    return min(range(len(ends) + 1), key=done)


class NewDuckdbFile(NewSqliteFile):
    """:class:`~gamedb.store.new_sqlite_file.NewSqliteFile` for a DuckDB file: no SQLAlchemy, Alembic or duckdb-engine.
    A thread of its own appends the rows while the solver goes on (DuckDB works outside Python's lock): anything else
    waits for that thread first."""

    def _create(self) -> Any:
        from concurrent.futures import ThreadPoolExecutor

        self._waiting: dict[str, list[Mapping[str, Column]]] = {}  # column batches not yet appended, by table
        self._uncommitted = 0
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="gamedb-duckdb")
        self._pending: dict[Future[None], int] = {}  # the thread's jobs not yet waited for, in order: the rows of each
        _shorten_interval()  # (restored by abort(), which finish() ends with)
        self._shortened = True
        return _Made(self._thread.submit(self._made))  # (made by the thread while the solver starts: 0.05 s)

    def _made(self) -> Any:
        # one DuckDB thread: its appends scan numpy arrays in order; a second took 25 % more CPU (2·10^6 rows: 0.54 s, 0.44)
        conn = connect(self.temp, read_only=False, threads=1, synced=False)  # (finish() syncs it before it is linked)
        create_schema(conn, self.revision)
        conn.execute("BEGIN TRANSACTION")
        return conn

    @property
    def conn(self) -> Any:
        self._wait(0)
        return super().conn

    def _wait(self, left: int) -> None:
        """Until at most ``left`` of the thread's jobs are pending; the first failure raised."""
        while len(self._pending) > left:
            job = next(iter(self._pending))
            del self._pending[job]
            job.result()

    def _submit(self, table: str, batches: list[Mapping[str, Column]], commits: bool = True) -> None:
        """``batches`` of ``table`` appended by the thread, after its other jobs (:meth:`_append`)."""
        self._queue(self._thread.submit(self._append, table, batches, self.game_id, commits), sum(rows_in(b) for b in batches))

    def _queue(self, job: Future[None], rows: int = 0) -> None:
        """``job`` (appending ``rows`` rows of the table the lanes share) waited for in turn (:meth:`_wait`)."""
        self._pending[job] = rows

    def rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Appended by the thread, after its other jobs, while the solver goes on (idle then: the players' and a token game's
        move lists took 0.02 s of the solver's thread between cat-mouse's levels and its rows)."""
        if rows:  # as columns: DuckDB's executemany runs one statement per row (17 s for cat-mouse's 4,000 token moves)
            self._few(table, {k: [row[k] for row in rows] for k in rows[0]}, {})

    def _labels_written(self, new: Mapping[str, Column]) -> None:
        self._few("move_label", new, {"game_id": self.game_id})

    def _few(self, table: str, columns: Mapping[str, Column], constants: dict[str, int]) -> None:
        """A few rows (``columns``, each with ``constants``) appended by the thread, after its other jobs."""
        self._queue(self._thread.submit(append_columns, self._conn, table, columns, constants))

    @property
    def writes_outside_gil(self) -> bool:
        return True

    def columns(self, table: str, columns: Mapping[str, Column]) -> None:
        """Batches gathered to :data:`APPEND_ROWS` rows a table or more, appended by the thread when it is free (or waited
        for at :data:`GATHER_ROWS`), :data:`THREAD_ROWS` a job: cat-mouse, 2·10^6 positions, whole process 1.29 -> 1.19 s
        (appends of 2^17 rows as they came, two in flight: 1.25 s; a second DuckDB thread or a second connection appending
        beside it while the solver runs: no faster); the rows still waiting at the end shared by two connections
        (:meth:`_append_in_two`): 1.22 -> 1.01 s."""
        self._waiting.setdefault(table, []).append(self._with_label_ids(table, columns))
        waiting = sum(rows_in(b) for b in self._waiting[table])
        if waiting >= APPEND_ROWS and (all(f.done() for f in self._pending) or waiting >= GATHER_ROWS):
            self._wait(0)
            self._submit(table, self._taken(table, THREAD_ROWS))

    def _taken(self, table: str, most: int | None = None) -> list[Mapping[str, Column]]:
        """The batches of ``table`` waiting (the first of them up to ``most`` rows, one batch at least), taken."""
        waiting = self._waiting.get(table, [])
        k, rows = 0, 0
        while k < len(waiting) and (most is None or rows < most):
            rows += rows_in(waiting[k])
            k += 1
        taken, self._waiting[table] = waiting[:k], waiting[k:]
        return taken

    def _append(self, table: str, batches: list[Mapping[str, Column]], game_id: int, commits: bool = True) -> None:
        """The thread's job: ``batches`` appended in its transaction, committed every :data:`COMMIT_ROWS` rows (``commits``
        False: not before the next :meth:`_commit`)."""
        if not batches:
            return
        joined = joined_columns(batches)
        append_columns(self._conn, table, joined, {"game_id": game_id})
        self._uncommitted += rows_in(joined)
        if commits and self._uncommitted >= COMMIT_ROWS:
            self._commit()

    def _commit(self) -> None:
        """The thread's transaction committed and the next one begun (the file is not in place until complete)."""
        self._conn.execute("COMMIT; BEGIN TRANSACTION")
        self._uncommitted = 0

    def _append_in_two(self, table: str, batches: list[Mapping[str, Column]]) -> None:
        """The last rows of a table appended by two connections at once, when the solver is done and a core is free, in
        the rows' order (DuckDB places a transaction's rows when it commits): the first batches by the thread in its
        transaction, which it then commits while this one still appends (:func:`lanes_cut`; not midway: the rows waiting
        at the end are about :data:`GATHER_ROWS` at most); the rest by this one in a transaction of its own, committed
        after the thread's. Each lane joins its batches a job at a time (all of cat-mouse's last 80 batches joined first:
        27-52 ms of this thread while the other one waited)."""
        waiting = [rows for job, rows in self._pending.items() if not job.done()]
        behind = sum(waiting) - (waiting[0] // 2 if waiting else 0)  # (the first is under way: half done, as likely as not)
        ends = list(itertools.accumulate(rows_in(b) for b in batches))
        cut = lanes_cut(ends, behind, self._uncommitted + sum(waiting))
        for job in _jobs(batches[:cut]):
            self._submit(table, job, commits=False)
        self._queue(self._thread.submit(self._commit))
        lane = self._conn.cursor()
        try:
            lane.execute("BEGIN TRANSACTION")
            for job in _jobs(batches[cut:]):
                append_columns(lane, table, joined_columns(job), {"game_id": self.game_id})
            self._wait(0)
            lane.execute("COMMIT")
        finally:
            lane.close()

    def abort(self) -> None:
        thread = getattr(self, "_thread", None)
        if thread is not None:
            thread.shutdown(wait=True, cancel_futures=True)
            self._pending = {}
        if getattr(self, "_shortened", False):  # (abort() runs twice: in finish() and on leaving the with block)
            self._shortened = False
            _restore_interval()
        super().abort()

    def loading(self, table: str, rows: int, notes: dict[str, Any] | None = None) -> AbstractContextManager[None]:
        return nullcontext()  # no index on position (zone maps); the others are small

    def _complete(self) -> None:
        for table in list(self._waiting):
            batches = self._taken(table)
            if sum(rows_in(b) for b in batches) >= TWO_LANES:
                self._append_in_two(table, batches)
            else:
                self._submit(table, batches)
        self._wait(0)
        self._update_game()  # (after the rows: set first, it waited for the thread's last job alone, 0.02-0.03 s of cat-mouse)
        self.conn.execute("COMMIT")
        self.conn.execute("CHECKPOINT")  # everything in the file, nothing in its write-ahead log
        self._read_back()
        self.conn.close()
