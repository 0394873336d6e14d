"""The tier solver's work folder (per tier ``.npy`` arrays, kept between passes and across a killed solve) and its writing of rows.

Only the tier being solved and those its moves reach are read back, so memory follows the largest tiers; the rows go
into a sink in code order, a committed range at a time, as one load (:meth:`~gamedb.store.sink.Sink.loading`).
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..games.tier_rules import TierArrayRules
from ..progress import Progress
from ..store.disk_full import is_disk_full
from ..store.rows import as_written, columns_except, stores_texts
from ..store.sink import LabelColumn, Sink, joined_columns, null_where_negative
from ..store.sqlite_file import file_of

if TYPE_CHECKING:
    import sqlalchemy as sa

#: positions written per committed range
WRITE_CHUNK = 200_000


class TierFolder:
    """The per-tier arrays of one solve (see the module's docstring)."""

    def __init__(self, path: Path):
        self.path = path
        self._headers: dict[tuple[str, int], tuple[int, tuple[int, ...], np.dtype[Any]]] = {}  # (kind, tier) -> data offset, row shape, dtype

    @classmethod
    def for_game(cls, engine: sa.Engine, name: str, key: str) -> TierFolder:
        """The folder of game ``name`` in this database (``key``: its rules and parameters), found before the game's row is made:
        beside a SQLite or DuckDB file (a DuckDB engine's URL is ``duckdb://`` whatever its file: two files solving the same
        game at once shared one folder in the temporary folder, each removing the other's arrays)."""
        file = file_of(engine)
        if file is None and engine.dialect.name == "duckdb":
            from ..store.duckdb_file import path_of

            file = path_of(engine)
        return cls.for_file(file, engine.url.render_as_string(hide_password=True), name, key)

    @classmethod
    def for_file(cls, file: Path | None, url: str, name: str, key: str) -> TierFolder:
        """:meth:`for_game` of the database at ``url``: beside its ``file`` (SQLite), else in the temporary folder."""
        tag = hashlib.sha1(json.dumps([url, name, key]).encode()).hexdigest()[:12]
        if file is not None:
            return cls(file.parent / f"{file.name}.tiers-{tag}")
        return cls(Path(tempfile.gettempdir()) / f"gamedb-tiers-{tag}")

    # --- the manifest: which tiers exist, written last by the forward pass ---------------
    def manifest(self) -> dict[str, Any] | None:
        try:
            data: dict[str, Any] = json.loads((self.path / "manifest.json").read_text())
            return data
        except (OSError, ValueError):
            return None

    def write_manifest(self, data: dict[str, Any]) -> None:
        tmp = self.path / "manifest.json.tmp"
        text = json.dumps(data)
        with _full_disk_said(tmp, len(text)):
            tmp.write_text(text)
        tmp.replace(self.path / "manifest.json")

    def reset(self) -> None:
        self.remove()
        self.path.mkdir(parents=True)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    # --- arrays -------------------------------------------------------------------
    def save(self, kind: str, tier: int, array: np.ndarray) -> None:
        """Save atomically (a killed solve never leaves half a file under the final name; two writers of one file, as a
        cluster's task run twice, each write their own temporary file)."""
        final, tmp = self._file(kind, tier)
        with _full_disk_said(tmp, array.nbytes):
            np.save(tmp, array)
        tmp.replace(final)

    def save_joined(self, kind: str, tier: int, pieces: list[str]) -> None:
        """Save the arrays of kinds ``pieces`` (of this tier, one dimension, one type) end to end as one, atomically, a
        piece's pages at a time (never the whole in memory)."""
        arrays = [self.load(piece, tier) for piece in pieces]
        final, tmp = self._file(kind, tier)
        n = sum(len(a) for a in arrays)
        with _full_disk_said(tmp, n * arrays[0].dtype.itemsize):
            out = np.lib.format.open_memmap(tmp, mode="w+", dtype=arrays[0].dtype, shape=(n,))
            at = 0
            for a in arrays:
                out[at : at + len(a)] = a
                at += len(a)
            out.flush()
            del out
        tmp.replace(final)

    def _file(self, kind: str, tier: int) -> tuple[Path, Path]:
        """An array's file, and the temporary one this thread writes it as first."""
        return self.path / f"{kind}-{tier}.npy", self.path / f"{kind}-{tier}.{os.getpid()}-{threading.get_ident()}.tmp.npy"

    def load(self, kind: str, tier: int, *, mmap: bool = True) -> np.ndarray:
        array: np.ndarray = np.load(self.path / f"{kind}-{tier}.npy", mmap_mode="r" if mmap else None)
        return array

    def read(self, kind: str, tier: int, start: int, stop: int) -> np.ndarray:
        """Rows ``start:stop`` of a saved array, read from its file (unlike a memory map, nothing stays in the process's memory)."""
        key = (kind, tier)
        if key not in self._headers:
            with open(self.path / f"{kind}-{tier}.npy", "rb") as f:
                version = np.lib.format.read_magic(f)
                read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
                shape, fortran, dtype = read_header(f)
                assert not fortran  # np.save writes C order
                self._headers[key] = (f.tell(), shape[1:], dtype)
        offset, row_shape, dtype = self._headers[key]
        row = int(np.prod(row_shape, dtype=np.int64)) * dtype.itemsize
        count = max(stop - start, 0) * (row // dtype.itemsize if dtype.itemsize else 0)
        data = np.fromfile(self.path / f"{kind}-{tier}.npy", dtype=dtype, count=count, offset=offset + start * row) if count else np.zeros(0, dtype)
        return data.reshape((max(stop - start, 0), *row_shape))

    def has(self, kind: str, tier: int) -> bool:
        return (self.path / f"{kind}-{tier}.npy").exists()


@contextmanager
def _full_disk_said(path: Path, size: int) -> Iterator[None]:
    """Write ``size`` bytes to ``path``; a short write is removed, one on a full disk raised as ENOSPC (numpy gives no errno)."""
    try:
        yield
    except OSError as exc:
        path.unlink(missing_ok=True)
        if exc.errno is None and is_disk_full(exc, path.parent, size):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path)) from None
        raise


class CodeRange(NamedTuple):
    """Positions ``low <= code < high``: rows ``i:j`` of each tier ``t`` (``rows[t] = (i, j)``)."""

    rows: dict[int, tuple[int, int]]
    low: int
    high: int


#: loads of code ranges in order, each a context yielding its rows' count around which the writer commits (the range's
#: rows inserted uncommitted): given the ranges and whether texts are stored
Loads = Callable[[list[CodeRange], bool], Iterator[AbstractContextManager[int]]]


def write_positions(
    sink: Sink, rules: TierArrayRules, folder: TierFolder, counts: dict[int, int], state: dict[str, Any], *,
    progress: Progress | None = None, loads: tuple[Loads, int] | None = None,
) -> None:
    """Write every solved position row, in code order across the tiers, a committed range of :data:`WRITE_CHUNK` positions
    at a time, each made by :func:`range_columns` here (``loads``: elsewhere, as a cluster's workers make them, in ranges
    of that many positions)."""
    tiers = sorted(counts)
    total = sum(counts.values())
    lo = state.get("written_below", 0)
    his = [hi for hi in code_ranges(folder, tiers, loads[1] if loads else WRITE_CHUNK) if hi > lo]
    cuts = {t: _cuts(folder, t, [lo, *his]) for t in tiers}  # where each range starts in each tier
    done = sum(cuts[t][0] for t in tiers)
    ranges = [CodeRange({t: (cuts[t][k], cuts[t][k + 1]) for t in tiers}, low, high) for k, (low, high) in enumerate(zip([lo, *his], his, strict=False))]
    load = loads[0] if loads else functools.partial(_columns_loaded, sink, rules, folder)
    with sink.loading("position", total, state):
        for hi, loaded in zip(his, load(ranges, stores_texts(total)), strict=True):
            with loaded as rows:
                state["written_below"] = hi
                sink.update(progress=state)
                sink.commit()
            done += rows
            if progress:
                progress("write", done, total)


def _columns_loaded(
    sink: Sink, rules: TierArrayRules, folder: TierFolder, ranges: list[CodeRange], texts_stored: bool
) -> Iterator[AbstractContextManager[int]]:
    """:data:`Loads` in this process: into DuckDB the next range is made by a thread while the sink writes this one (5x4:
    2.8 -> 2.3 s; into SQLite, whose inserts hold Python's lock, it cost 7%)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as ahead:
        coming = ahead.submit(range_columns, rules, folder, ranges[0].rows, texts_stored) if ranges and sink.writes_outside_gil else None
        for k, this in enumerate(ranges):
            columns = coming.result() if coming is not None else range_columns(rules, folder, this.rows, texts_stored)
            coming = ahead.submit(range_columns, rules, folder, ranges[k + 1].rows, texts_stored) if coming is not None and k + 1 < len(ranges) else None
            sink.columns("position", columns)
            yield nullcontext(len(columns["code"]))


def range_columns(rules: TierArrayRules, folder: TierFolder, rows: dict[int, tuple[int, int]], texts_stored: bool) -> dict[str, Any]:
    """The position columns of one code range, in code order: rows ``i:j`` of each tier ``t`` (``rows[t] = (i, j)``)."""
    parts = [tier_columns(rules, folder, t, i, j, texts_stored, *(folder.read(kind, t, i, j) for kind in _SOLVED))
             for t, (i, j) in sorted(rows.items()) if j > i]
    joined: Mapping[str, Any] = joined_columns(parts)  # (arrays and LabelColumns: indexed by an array)
    order = np.argsort(joined["code"], kind="stable")
    return {k: v[order] for k, v in joined.items()}


def tier_columns(
    rules: TierArrayRules, folder: TierFolder, t: int, i: int, j: int, texts_stored: bool, player: np.ndarray, result: np.ndarray,
    remoteness: np.ndarray, degree: np.ndarray, best: np.ndarray, *, codes: np.ndarray | None = None,
) -> dict[str, Any]:
    """The position columns of rows ``i:j`` of tier ``t`` (``codes``: theirs, if read already) from its solved arrays, in
    code order (the texts made here; the text left out when not stored). The best move: by rules with a ``label_table``,
    as the id of its label (-1: none), a :class:`~gamedb.store.sink.LabelColumn`; by others, as text."""
    page = folder.read("codes", t, i, j) if codes is None else codes
    by_paths = rules.path_texts and folder.has("paths", t)  # (not saved when the estimate said no texts)
    text = np.array(rules.format_paths(folder.read("paths", t, i, j)) if by_paths else rules.texts(page), dtype=object) if texts_stored else None
    has = best >= 0
    labels: Any
    if rules.label_table:
        ids = np.full(len(page), -1, dtype=np.int32)
        if has.any():
            ids[has] = rules.label_ids(page[has], best[has])
        labels = LabelColumn(ids, rules.label_table)
    else:
        labels = np.full(len(page), None, dtype=object)
        if has.any():
            labels[has] = rules.labels(page[has], best[has])
    values = (page, text, player, result, null_where_negative(remoteness), degree, labels)
    return as_written(dict(zip(_COLUMNS, values, strict=True)), texts_stored)


def _cuts(folder: TierFolder, tier: int, bounds: list[int]) -> list[int]:
    """Where each of ``bounds`` falls in a tier's sorted codes, mapped once (a map kept for the whole write left every page
    resident as the searches went by: 600 MB of Connect-Four 5x5's peak)."""
    codes = folder.load("codes", tier)
    found: list[int] = np.searchsorted(codes, bounds).tolist()
    del codes
    return found


def code_ranges(folder: TierFolder, tiers: list[int], chunk: int = WRITE_CHUNK) -> list[int]:
    """Upper bounds (exclusive) of code ranges of about ``chunk`` positions over all tiers, in order."""
    step = min(256, chunk)
    samples, top = [np.zeros(0, dtype=np.int64)], 1
    for t in tiers:  # one tier mapped at a time: a sample touches every page of its file, which stay resident while mapped
        codes = folder.load("codes", t)
        samples.append(np.array(codes[::step]))
        top = max(top, int(codes[-1]) + 1 if len(codes) else 0)
        del codes
    sample = np.sort(np.concatenate(samples))
    bounds = sample[chunk // step :: chunk // step].tolist()
    return sorted(set(b for b in bounds if b < top)) + [top]


#: the position columns a tier solve fills (partisan games only: no grundy values)
_COLUMNS = columns_except("grundy")
#: the solved arrays of a tier that make its rows, in :func:`tier_columns`' order
_SOLVED = ("player", "result", "remoteness", "degree", "best")
