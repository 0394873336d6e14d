"""The tier solver on a Dask cluster: the tasks of :mod:`.tier_slices` over slices of the tiers, then the rows loaded once.

Forward, tier by tier from the start's: a tier is settled (a large one by ranges of codes over the workers, then
joined), then its slices are expanded in parallel, the tasks of each tier submitted ahead, after the tier before it.
Backward, every slice is submitted at once, each after the joins of the tiers its tier reaches (futures as
dependencies), so the scheduler runs a tier's slices as soon as those are done. The work folder keeps every finished
file: the same command resumes there. Last, :func:`~.tiers.finish_tiers` writes the rows through the database's one
sink, as the single-process solve does; into SQLite the workers make them, a code range each into a part file.
"""

from __future__ import annotations

import functools
import json
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import sqlalchemy as sa

from ..games.base import Game
from ..progress import Progress
from ..store.duckdb_file import reading
from ..store.part_files import parts_for
from ..store.rows import stores_texts
from ..store.sql_sink import SqlSink
from ..store.status import SOLVING
from . import tier_slices
from .dask_client import cluster_client, said_as_memory, stopped_aside
from .protocol import Solved, SolveJob
from .tier_forward import keeps_paths
from .tier_memory import slice_size_for
from .tier_store import CodeRange, TierFolder
from .tiers import canon_of, finish_tiers, rules_of, tiers_key

#: slices a tier is cut into per worker thread at least, so that every worker has work in a tier whose slices wait for the tier after it
SLICES_PER_THREAD = 4
#: positions of a slice at least (smaller slices cost more in their task than in their work), unless the memory budget says less
LEAST_SLICE = 20_000
#: part files of rows made ahead of the one being loaded, per worker thread, and their rows at most (a range's rows take
#: a worker about 0.9 µs each, the client 0.45 µs: the first part is waited for)
PARTS_AHEAD = 2
PART_ROWS = 1 << 19
#: positions of a code range DuckDB reads from the Parquet parts, sorts and inserts in one statement: at least this many,
#: and the game in at most :data:`PARQUET_RANGES` of them (each reads a row group of every part it overlaps, and
#: Connect-Four's tiers all span the codes: 5x6's 330 parts in ranges of 2^21, 3.2·10^6 rows a second)
PARQUET_RANGE = 1 << 21
PARQUET_RANGES = 64
#: positions of a tier's settle range at least (a tier smaller is settled by one task: a range costs a task and a hop
#: more than it saves), and slices' worth of positions at most (a range holds its codes three times: 24 B a position,
#: where a slice takes 100: the memory budget)
SETTLE_RANGE = 1 << 21
SETTLE_SLICES = 4
#: tiers whose tasks are submitted ahead of the one whose results the client waits for; a tier's size is guessed from the
#: last known and its growth over the one before (first: :data:`GROWTH` a tier), for the number of its expand tasks (as
#: many as its guessed slices: too many do nothing, too few take several slices each)
TIERS_AHEAD = 2
GROWTH = 8.0


def solve_on_cluster(db: sa.Engine, job: SolveJob) -> Solved:
    """Solve ``job`` (``job.cluster`` set) on a Dask cluster into the work folder, then write its rows into ``db``."""
    rules, key, cluster, symmetry = rules_of(job.game), tiers_key(job.game, job.symmetry), job.cluster, job.symmetry
    assert cluster is not None
    size = cluster.slice_size or slice_size_for(job.memory_limit, cluster.workers or 1)
    folder = work_folder(db, job.name, key, cluster.work_dir)
    t0 = time.perf_counter()
    parts = parts_for(db.dialect.name)
    with stopped_aside() as aside, ExitStack() as stack:
        client = stack.enter_context(cluster_client(cluster, job.memory_limit, stop=aside))
        stack.enter_context(said_as_memory(size))
        counts, reach, reachable = _enumerate(client, job.game, folder, key, size, job.progress, symmetry)
        t1 = time.perf_counter()
        texts_stored = stores_texts(sum(counts.values()))
        moves = _solve(client, job.game, folder, counts, reach, size, job.progress, texts_stored if parts == "parquet" else None, symmetry)
        spans = tier_slices.parquet_parts(folder, counts) if parts == "parquet" else None
        if parts != "sqlite":  # the workers are done (into SQLite they make the rows): the cluster stops while the rows are written
            stack.close()
        with reading(db, folder.path) if spans is not None else nullcontext(), SqlSink(db, job.begin, resumed=job.record is not None) as sink:
            sink.begin()
            assert job.record is not None  # made by begin
            state: dict[str, Any] = dict(job.record.progress or {})
            if "tiers" not in state:  # nothing written yet
                sink.clear(("position",))
                state = {"tiers": len(counts), "moves": moves, "enumerate_seconds": round(t1 - t0, 3), "cluster": True}
                sink.update(status=SOLVING, positions=sum(counts.values()), enumerate_seconds=state["enumerate_seconds"], progress=state)
                canon = canon_of(job.game, rules, symmetry)
                if canon is not None:
                    start = int(canon(np.array([job.game.encode(job.game.start())], dtype=np.int64))[0])
                    sink.update(start_code=start, info={"symmetry": {"group": symmetry, "reachable": reachable}})
            sink.commit()  # (a SQLite part is attached outside a transaction)
            state["moves"] = moves
            loads = None
            if parts == "sqlite":  # the rows made by the workers (PostgreSQL takes the command's columns)
                part_rows = max(min(size, PART_ROWS, -(-sum(counts.values()) // (SLICES_PER_THREAD * _threads(client)))), LEAST_SLICE)
                loads = (functools.partial(_parts_loaded, client, job.game, sink, folder), part_rows)
            elif spans is not None:  # the slices' rows, sorted by DuckDB a code range at a time
                loads = (functools.partial(_parquet_loaded, sink, spans), max(PARQUET_RANGE, -(-sum(counts.values()) // PARQUET_RANGES)))
            return Solved(*finish_tiers(sink, rules, folder, counts, state, t1, progress=job.progress, loads=loads))


def work_folder(db: sa.Engine, name: str, key: str, work_dir: str | None) -> TierFolder:
    """The solve's folder: beside the database file (a server's: in the temporary folder), or in ``work_dir``."""
    default = TierFolder.for_game(db, name, key).path
    leaf = default.name.replace("tiers-", "cluster-")
    return TierFolder(Path(work_dir) / leaf if work_dir is not None else default.with_name(leaf))


def _slices(n: int, size: int, threads: int) -> list[tuple[int, int]]:
    """Ranges of a tier of ``n`` positions: at most ``size`` each, and enough for every thread of the cluster to take
    :data:`SLICES_PER_THREAD` (when they are :data:`LEAST_SLICE` positions or more)."""
    step = -(-n // _pieces(n, size, threads))
    return [(a, min(a + step, n)) for a in range(0, n, step)] or [(0, 0)]


def _pieces(n: int, size: int, threads: int) -> int:
    return max(-(-n // size), min(SLICES_PER_THREAD * threads, n // LEAST_SLICE), 1)


def _settle_ranges(n: int, size: int, threads: int) -> int:
    """Ranges of codes a tier guessed at ``n`` positions is settled in: one a :data:`SETTLE_RANGE` positions, up to two a
    worker thread, and enough that none holds more than :data:`SETTLE_SLICES` slices of ``size``."""
    return max(min(n // SETTLE_RANGE, 2 * threads), -(-n // (SETTLE_SLICES * size)), 1)


def _enumerate(
    client: Any, game: Game, folder: TierFolder, key: str, size: int, progress: Progress | None, symmetry: int
) -> tuple[dict[int, int], dict[int, list[int]], int]:
    """Every tier's size, the tiers its moves reach and the positions reachable (through ``symmetry`` > 1 the tiers hold
    a code a class), from the manifest of a finished enumeration or found now: each
    tier's settle and expand tasks submitted :data:`TIERS_AHEAD` tiers ahead of the one the client reads (the next
    tier guessed as the next number: one no move reaches is settled empty), each after the tier before it."""
    manifest = folder.manifest()
    if manifest is not None and manifest.get("key") == key and "reachable" in manifest:
        return {int(t): n for t, n in manifest["tiers"].items()}, {int(t): r for t, r in manifest["reach"].items()}, manifest["reachable"]
    if (folder.path / "key.json").exists() and json.loads((folder.path / "key.json").read_text()) != key:
        folder.reset()  # another game's (or other rules') files
    folder.path.mkdir(parents=True, exist_ok=True)
    (folder.path / "key.json").write_text(json.dumps(key))
    rules = rules_of(game)
    starts = np.unique(np.array([game.encode(s) for s in game.starts()], dtype=np.int64))
    canon = canon_of(game, rules, symmetry)
    starts = starts if canon is None else np.unique(canon(starts))
    start_tiers = rules.tiers(starts)
    codes_kind, keys_kind = tier_slices.part_names(tier_slices.START)
    first = int(start_tiers.min())
    for t in np.unique(start_tiers).tolist():
        if not folder.has("codes", t):
            folder.save(keys_kind, t, np.zeros(int((start_tiers == t).sum()), dtype=np.int64))
            folder.save(codes_kind, t, starts[start_tiers == t])
    run, path, threads = uuid.uuid4().hex[:8], str(folder.path), _threads(client)
    places, paths = _places(client), keeps_paths(game, rules)
    submitted: list[tuple[int, Any, list[Any], list[Any]]] = []  # (tier, its settle, its expands, its settle's ranges), in order
    known = (first, int((start_tiers == first).sum()), GROWTH)  # the last tier settled, its size and growth

    def submit(u: int) -> None:
        after = submitted[-1][2] if submitted else None
        guess = int(known[1] * known[2] ** min(u - known[0], TIERS_AHEAD + 1))
        ranges = 1 if paths else _settle_ranges(guess, size, threads)
        found: list[Any] = []  # a large tier's settle tasks: its bounds and its ranges
        if ranges > 1:  # by ranges of codes over the workers (their bounds found once), then joined
            bounds = client.submit(tier_slices.settle_bounds, path, u, ranges, after, key=f"settle-{u}-bounds-{run}")
            found = [bounds, *(client.submit(tier_slices.settle_range, game, path, u, k, bounds, symmetry, key=f"settle-{u}-{k}-{run}",
                                             workers=[places[k % len(places)]], allow_other_workers=True) for k in range(ranges))]
            settled = client.submit(tier_slices.settle_join, game, path, u, ranges, symmetry, found[1:], key=f"settle-{u}-join-{run}")
        else:
            settled = client.submit(tier_slices.settle, game, path, u, u == first, symmetry, after, key=f"settle-{u}-{run}")
        pieces = min(_pieces(guess, size, threads), SLICES_PER_THREAD * threads)
        submitted.append((u, settled, [  # given their workers: a task with a future as argument runs where that future's result lies
            client.submit(_on_worker, _expand_piece, game, path, u, k, pieces, size, threads, symmetry, settled, key=f"expand-{u}-{k}-{run}",
                          workers=[places[k % len(places)]], allow_other_workers=True)
            for k in range(pieces)
        ], found))

    by_worker: Counter[str] = Counter()  # slices each worker expanded
    starts_reached = np.unique(start_tiers).tolist()
    (counts, reach, stands), worker = client.submit(
        _on_worker, _small_tiers, game, path, first, starts_reached, size, threads, symmetry, key=f"small-{run}").result()
    reached = {*starts_reached, *(u for tiers in reach.values() for u in tiers)}
    if progress and reach:
        progress("enumerate tiers (cluster)", sum(counts.values()), None)
        by_worker[worker] += len(reach)
        progress(f"slices expanded by {worker}", by_worker[worker], None)
    start = min(reached - set(reach), default=None)  # the first tier left to expand (settled if small)
    if start is not None:
        before = [u for u in counts if u < start]
        if start in counts and before:
            known = (start, counts[start], max((counts[start] / counts[max(before)]) ** (1 / (start - max(before))), 1.0))
        submit(start)
    i = 0
    while i < len(submitted):
        while len(submitted) <= i + TIERS_AHEAD:
            submit(max(submitted[-1][0] + 1, min(u for u in reached if u > submitted[i - 1][0]) if i else 0))
        t, settled, expands, _ = submitted[i]
        i += 1
        n, stands[t] = settled.result()
        if n:  # a tier (else one no move reaches)
            counts[t], known = n, (t, n, max((n / known[1]) ** (1 / (t - known[0])), 1.0) if t > known[0] else known[2])
            found = client.gather(expands)
            reach[t] = sorted({u for (tiers, _), _ in found for u in tiers})
            reached.update(reach[t])
            if progress:
                progress("enumerate tiers (cluster)", sum(counts.values()), None)
                for (_, done), worker in found:
                    by_worker[worker] += done
                    progress(f"slices expanded by {worker}", by_worker[worker], None)
        if not any(u > t for u in reached):
            break
    client.cancel([f for _, settled, expands, found in submitted[i:] for f in (settled, *expands, *found)])
    reachable = sum(stands.values())
    folder.write_manifest({"key": key, "tiers": {str(t): n for t, n in counts.items()}, "reach": {str(t): r for t, r in reach.items()}, "reachable": reachable})
    return counts, reach, reachable


def _small_tiers(
    game: Game, path: str, first: int, reached: list[int], size: int, threads: int, symmetry: int
) -> tuple[dict[int, int], dict[int, list[int]], dict[int, int]]:
    """Settle and expand the tiers from the start's in one task while :func:`_slices` cuts each into one slice; their sizes,
    the tiers they reach (the first larger one: settled only) and the positions each stands for."""
    counts, reach, pending, stands = {}, {}, set(reached), {}
    while pending:
        t = min(pending)
        counts[t], stands[t] = tier_slices.settle(game, path, t, t == first, symmetry)
        if _pieces(counts[t], size, threads) > 1:
            break
        pending.discard(t)
        reach[t] = tier_slices.expand(game, path, t, 0, counts[t], symmetry)
        pending.update(reach[t])
    return counts, reach, stands


def _expand_piece(
    game: Game, path: str, t: int, k: int, pieces: int, size: int, threads: int, symmetry: int, settled: tuple[int, int]
) -> tuple[list[int], int]:
    """Expand slices ``k``, ``k + pieces``, ... of tier ``t`` (``settled``: its size first; none if 0); the tiers they reach and their number."""
    mine = _slices(settled[0], size, threads)[k::pieces] if settled[0] else []
    return sorted({u for a, b in mine for u in tier_slices.expand(game, path, t, a, b, symmetry)}), len(mine)


def _solve(
    client: Any, game: Game, folder: TierFolder, counts: dict[int, int], reach: dict[int, list[int]], size: int, progress: Progress | None,
    rows_texts: bool | None, symmetry: int,
) -> int:
    """Solve every slice, all submitted at once, each after the joins of the values of the tiers its tier reaches (futures
    as dependencies: a tier's slices are dealt round the workers, since Dask runs a task where its futures' results lie),
    the tier's other columns joined beside them; return the moves of the game. ``rows_texts``: as :func:`~.tier_slices.solve_part`."""
    from dask.distributed import as_completed

    path, run, threads, places = str(folder.path), uuid.uuid4().hex[:8], _threads(client), _places(client)
    parts = sum(len(_slices(n, size, threads)) for n in counts.values())
    submitted: list[Any] = []
    joins: dict[int, Any] = {}
    for t in sorted(counts, reverse=True):  # (a tier's moves reach later tiers only: their joins are submitted)
        slices, after = _slices(counts[t], size, threads), [joins[u] for u in reach[t]]
        mine = [
            client.submit(_on_worker, tier_slices.solve_part, game, path, t, a, b, rows_texts, symmetry, after=after, key=f"solve-{t}-{a}-{run}",
                          workers=[places[(t + k) % len(places)]], allow_other_workers=True)
            for k, (a, b) in enumerate(slices)
        ]
        joins[t] = client.submit(tier_slices.join, path, t, slices, tier_slices.VALUES, mine, key=f"join-{t}-{run}")
        others = tier_slices.OTHERS if rows_texts is None else ("degree",)  # (the rest in the slices' Parquet parts)
        submitted += [*mine, joins[t], client.submit(tier_slices.join, path, t, slices, others, mine, key=f"rest-{t}-{run}")]
    done, tiers, moves = 0, 0, 0
    by_worker: Counter[str] = Counter()  # slices each worker solved
    for future in as_completed(submitted):  # type: ignore[no-untyped-call]
        found = future.result()
        if future.key.startswith("rest-"):
            moves += found
        elif future.key.startswith("join-"):
            tiers += 1
            if progress:
                progress("tiers solved (cluster)", tiers, len(counts))
        else:
            done += 1
            by_worker[found[1]] += 1
            if progress:
                progress("slices solved (cluster)", done, parts)
                progress(f"slices solved by {found[1]}", by_worker[found[1]], None)
    return moves


def _parts_loaded(
    client: Any, game: Game, sink: SqlSink, folder: TierFolder, ranges: list[CodeRange], texts_stored: bool
) -> Iterator[AbstractContextManager[int]]:
    """:data:`~.tier_store.Loads` made by the workers: each range's rows written into a part by a task, :data:`PARTS_AHEAD`
    per worker thread ahead of the one the sink loads (the folder holds only those), each removed once its rows are committed."""
    run, ahead = uuid.uuid4().hex[:8], PARTS_AHEAD * _threads(client)

    def submit(k: int) -> Any:
        name = "rows-{}-{}.part".format(*map(sum, zip(*ranges[k].rows.values(), strict=True)))  # rows below it and below its end
        return client.submit(tier_slices.rows_part, game, str(folder.path), name, ranges[k].rows, texts_stored, key=f"rows-{k}-{run}")

    coming = [submit(k) for k in range(min(len(ranges), ahead))]
    for k in range(len(ranges)):
        part = Path(coming[k].result())
        if len(coming) < len(ranges):
            coming.append(submit(len(coming)))
        yield sink.part("position", [part], (ranges[k].low, ranges[k].high))
        part.unlink()


def _parquet_loaded(
    sink: SqlSink, spans: list[tuple[Path, int, int]], ranges: list[CodeRange], texts_stored: bool
) -> Iterator[AbstractContextManager[int]]:
    """:data:`~.tier_store.Loads` from the slices' Parquet parts (``spans``: each with its first and last code): each code
    range read from the parts it overlaps, sorted and inserted by DuckDB on all its threads."""
    for this in ranges:
        overlap = [part for part, first, last in spans if first < this.high and last >= this.low]
        yield sink.part("position", overlap, (this.low, this.high))


def _on_worker(task: Callable[..., Any], *args: Any, after: Any = None) -> tuple[Any, str]:
    """``task(*args)`` (``after``: the futures it waits for) and the name of the worker that ran it (its address without the
    protocol, or the name it was given)."""
    from distributed import get_worker

    return task(*args), "worker " + str(get_worker().name).removeprefix("tcp://")


def _places(client: Any) -> list[str]:
    """The workers' addresses, each once a thread: where the tasks of a tier are dealt."""
    return [worker for worker, n in sorted(client.nthreads().items()) for _ in range(n)]


def _threads(client: Any) -> int:
    return max(int(sum(client.nthreads().values())), 1)
