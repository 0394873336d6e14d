"""The tier solver: games of 10^8 positions in memory proportional to their largest tiers (no move goes to a smaller tier).

Forward, tier by tier from the start's, each tier's sorted codes go to a file (:mod:`.tier_store`); backward, from the
last tier, children are looked up (``searchsorted``) in the tiers they reach and valued by :mod:`.tier_values`, each
solved tier committed as ``solved_from`` (a killed solve resumes there); then the rows go into a sink in code order.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import GamedbError, param
from ..games.base import Game
from ..games.tier_rules import PositionRules, TierArrayRules
from ..games.vector import Expansion
from ..progress import Progress
from ..sizes import human_size
from ..store.disk_full import DiskFull, folder_bytes, is_disk_full, megabytes
from ..store.sink import Sink, game_key, now
from ..store.status import SOLVED, SOLVING
from . import capabilities
from .protocol import Solved, SolveJob, TooLarge
from .tier_forward import Part, Paths, children_by_tier, keeps_paths, least_keys, save_paths
from .tier_memory import tier_bytes
from .tier_store import Loads, TierFolder, write_positions
from .tier_values import TierValues, from_children, leveled

if TYPE_CHECKING:  # (a solve into a new file imports no SQLAlchemy)
    import sqlalchemy as sa

    from ..store.record import GameRecord

#: a tier's sorted codes, results and remoteness (the backward pass reads them for the tiers after it)
_Stored = tuple[np.ndarray, np.ndarray, np.ndarray]

#: codes to their canonical codes (:meth:`Game.canonical <gamedb.games.base.Game.canonical>` on arrays)
Canonical = Callable[[np.ndarray], np.ndarray]

#: positions expanded at once by array rules, and one at a time by per-position rules
ARRAY_CHUNK = 1 << 18
POSITION_CHUNK = 4096
class TierSolver:
    """The ``tiers`` strategy: verifies and answers like ``graph-sql`` (its position rows are the graph solvers')."""

    def verify(self, conn: sa.Connection, record: GameRecord, game: Game, *, progress: Progress | None = None) -> int:
        from .graph_verify import verify_graph

        return verify_graph(conn, record, game, progress=progress)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        """Enumerate the tiers (unless a killed solve did), then create or update the game row and solve."""
        from ..store.sql_sink import SqlSink

        return solve_into(lambda: SqlSink(db, job.begin, resumed=job.record is not None), lambda key: TierFolder.for_game(db, job.name, key), job)


def into_new_file(sink: Sink, job: SolveJob) -> Solved:
    """:func:`solve_into` a new file's ``sink``, the work folder beside the file (the database's: :meth:`TierSolver.solve`, which resumes)."""
    from contextlib import nullcontext

    new_file = job.new_file
    assert new_file is not None
    return solve_into(lambda: nullcontext(sink), lambda key: TierFolder.for_file(new_file, str(new_file), job.name, key), job)


def solve_into(open_sink: Callable[[], AbstractContextManager[Sink]], folder_for: Callable[[str], TierFolder], job: SolveJob) -> Solved:
    """:meth:`TierSolver.solve` into the sink ``open_sink`` gives once the tiers are enumerated (a new file's, or the database's);
    ``folder_for``: the work folder of the solve's key (rules, parameters and symmetry)."""
    t0 = time.perf_counter()
    game = job.game
    rules = rules_of(game)
    canon = canon_of(game, rules, job.symmetry)
    key = tiers_key(game, job.symmetry)
    folder = folder_for(key)
    state: dict[str, Any] = dict(job.record.progress or {}) if job.record is not None else {}
    fresh = "tiers" not in state or (folder.manifest() or {}).get("key") != key
    if fresh:  # a new solve, one killed while it enumerated, or one whose work folder is gone: from the start
        folder.reset()
        try:
            counts, reachable = enumerate_tiers(game, rules, folder, memory_limit=job.memory_limit, progress=job.progress, canon=canon)
            folder.write_manifest({"key": key, "tiers": {str(t): n for t, n in counts.items()}})
        except TooLarge:
            folder.remove()
            raise
        except OSError as exc:
            if not is_disk_full(exc):
                raise
            written = folder_bytes(folder.path)
            folder.remove()  # an enumeration never resumes (no manifest): its files would only fill the disk
            raise DiskFull(
                f"no space left on device while enumerating the tiers of {job.name} into {folder.path} "
                f"({megabytes(written)} written when the disk filled); the work folder was removed, as an enumeration "
                "cannot resume: free space on that disk (or solve into a file on another one) and run the same command again"
            ) from None
        state = {"tiers": len(counts), "moves": 0, "enumerate_seconds": round(time.perf_counter() - t0, 3)}
    with open_sink() as sink:
        sink.begin()
        if fresh:
            sink.clear(("position",))  # rows of a solve whose folder was lost
            sink.update(status=SOLVING, positions=sum(counts.values()), enumerate_seconds=state["enumerate_seconds"], progress=state)
            if canon is not None:
                start = int(canon(np.array([game.encode(game.start())], dtype=np.int64))[0])
                sink.update(start_code=start, info={"symmetry": {"group": job.symmetry, "reachable": reachable}})
            sink.commit()
        try:
            return Solved(*solve_tiers(sink, rules, folder, state, progress=job.progress, canon=canon))
        except Exception as exc:
            if not is_disk_full(exc):
                raise
            what = (
                f"saving the solved tiers of {job.name} in its work folder" if isinstance(exc, OSError)
                else f"writing the positions of {job.name} into the database (what was committed before is kept)"
            )
            raise DiskFull(
                f"no space left on device while {what}; the work folder {folder.path} ({megabytes(folder_bytes(folder.path))}) "
                "is kept, with every tier solved so far: free space on that disk and run the same command again to resume, "
                "or delete the folder to give its space back"
            ) from None


def rules_of(game: Game) -> TierArrayRules:
    return capabilities.array_rules(game) or PositionRules(game)


def canon_of(game: Game, rules: TierArrayRules, symmetry: int) -> Canonical | None:
    """Codes to the canonical codes a solve through ``symmetry`` stores (None, for 1: every position)."""
    return capabilities.canonical_codes(game, rules) if symmetry > 1 else None


def tiers_key(game: Game, symmetry: int) -> str:
    """What a work folder is for: the game's rules and parameters, and the symmetry it is solved through."""
    return game_key(game) + (f" symmetry {symmetry}" if symmetry > 1 else "")


def by_classes(game: Game, rules: TierArrayRules) -> bool:
    """Whether the tiers can be enumerated a symmetry class at a time: the rules count the classes, and keep no path texts."""
    return rules.class_sizes is not None and not keeps_paths(game, rules)


def solve_tiers(
    sink: Sink, rules: TierArrayRules, folder: TierFolder, state: dict[str, Any], *, progress: Progress | None = None, canon: Canonical | None = None
) -> tuple[int, int]:
    """Solve (or resume) the enumerated tiers from the last one back, then write their rows; return (positions, moves).
    With ``canon`` (symmetry) the tiers hold canonical codes and every child is looked up by its canonical code."""
    manifest = folder.manifest()
    assert manifest is not None  # written by the enumeration
    counts = {int(t): n for t, n in manifest["tiers"].items()}
    total = sum(counts.values())
    t1 = time.perf_counter()
    order = sorted(counts, reverse=True)
    solved_from = state.get("solved_from")
    done = sum(counts[t] for t in order if solved_from is not None and t >= solved_from)
    for t in order:
        if solved_from is not None and t >= solved_from:
            continue
        values, degree, player, best_child = solve_tier(rules, folder, t, counts, canon)
        for kind, array in (("result", values.result), ("remoteness", values.remoteness), ("degree", degree), ("player", player), ("best", best_child)):
            folder.save(kind, t, array)
        state.update(solved_from=t, moves=state["moves"] + int(degree.sum()))
        sink.update(progress=state)
        sink.commit()
        done += counts[t]
        if progress:
            progress("solve tiers", done, total)
    return finish_tiers(sink, rules, folder, counts, state, t1, progress=progress)


def finish_tiers(
    sink: Sink, rules: TierArrayRules, folder: TierFolder, counts: dict[int, int], state: dict[str, Any], t1: float, *,
    progress: Progress | None = None, loads: tuple[Loads, int] | None = None,
) -> tuple[int, int]:
    """Write the rows of the solved tiers (``state["moves"]``: their moves) into ``sink`` (``loads``: made elsewhere, in
    ranges of that many positions), mark the game solved, remove the folder."""
    total = sum(counts.values())
    write_positions(sink, rules, folder, counts, state, progress=progress, loads=loads)
    sink.finish(
        status=SOLVED,
        positions=total,
        moves=state["moves"],
        solve_seconds=round(time.perf_counter() - t1, 3),
        solved_at=now(),
        progress={"phase": "done", "tiers": len(counts)},
    )
    folder.remove()
    return total, state["moves"]


# --- 1. forward: the positions of every tier -------------------------------------------------


def enumerate_tiers(
    game: Game, rules: TierArrayRules, folder: TierFolder, *, memory_limit: int, progress: Progress | None = None, canon: Canonical | None = None
) -> tuple[dict[int, int], int]:
    """Find every tier's positions, save their sorted codes (and sequences); return (tier -> count, reachable positions).
    With ``canon``, canonical positions only when the rules count their classes' sizes and no texts are kept (else every
    position is enumerated, a text being the least sequence over all parents, and the canonical ones are saved)."""
    chunk = POSITION_CHUNK if isinstance(rules, PositionRules) else ARRAY_CHUNK
    starts = np.unique(np.array([game.encode(s) for s in game.starts()], dtype=np.int64))
    paths = keeps_paths(game, rules)
    by_class = canon if canon is not None and by_classes(game, rules) else None
    if by_class is not None:
        starts = np.unique(by_class(starts))
    pending: dict[int, list[Part]] = defaultdict(list)
    for t in np.unique(rules.tiers(starts)).tolist():
        found = starts[rules.tiers(starts) == t]
        pending[t].append((found, np.zeros(len(found), dtype=np.int64) if paths else None))
    counts: dict[int, int] = {}
    reachable = 0
    enumerated = 0  # (the progress: every position expanded, of which ``counts`` keeps the canonical ones)
    previous: Paths | None = None  # path texts: (tier, sequences, position index by rank) of the tier before
    while pending:
        t = min(pending)
        codes, keys = least_keys(pending.pop(t))
        need = tier_bytes(len(codes), max(counts.values(), default=0))
        if need > memory_limit:
            raise TooLarge(
                f"the tier solver needs ~{human_size(need)} at tier {t} ({len(codes):,} positions), more than the memory limit "
                f"{human_size(memory_limit)}; use a larger {param('memory_limit')}"
            )
        if paths:
            assert keys is not None  # (kept with the paths)
            previous = save_paths(rules, folder, t, codes, keys, previous)
            rank = previous[3]
        inner_new = codes
        known = codes
        while len(inner_new):
            inner = []
            expanded = enumerated + len(known) - len(inner_new)  # (a tier's moves inside it: its rounds before this one)
            for a in range(0, len(inner_new), chunk):
                page = inner_new[a : a + chunk]
                for u, part in children_by_tier(rules, game.family, t, page, rank[a : a + len(page)] if paths else None, by_class).items():
                    if u == t:
                        inner.append(part[0])
                    else:
                        pending[u].append(part)
                        if len(pending[u]) >= 16:
                            pending[u] = [least_keys(pending[u])]
                if progress:
                    progress("enumerate tiers", expanded + a + len(page), None)
            if rules.path_texts and inner:
                raise GamedbError(f"the {game.family} rules build texts from move sequences, so every move must go to the next tier")
            fresh = np.unique(np.concatenate(inner)) if inner else known[:0]
            inner_new = fresh[~_contains(known, fresh)]
            known = np.union1d(known, inner_new) if len(inner_new) else known
        if by_class is not None:
            assert rules.class_sizes is not None
            reachable += int(rules.class_sizes(known).sum())
        else:
            reachable += len(known)
        keep = slice(None) if canon is None or by_class is not None else canon(known) == known
        if paths and canon is not None:
            assert previous is not None
            folder.save("paths", t, previous[1][keep])  # the canonical positions' sequences only
        folder.save("codes", t, known[keep])
        counts[t] = len(known[keep])
        enumerated += len(known)
    return counts, reachable


def _contains(sorted_codes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    if not len(sorted_codes):
        return np.zeros(len(codes), dtype=bool)
    at = np.searchsorted(sorted_codes, codes).clip(0, len(sorted_codes) - 1)
    found: np.ndarray = sorted_codes[at] == codes
    return found


# --- 2. backward: the values of one tier --------------------------------------------------


class InnerMoves(Exception):
    """A move of the slice stays inside its tier: only the whole tier can be solved (level by level)."""


def values_loader(folder: TierFolder, *, mmap: bool = False) -> Callable[[int], _Stored]:
    """``values_of(u)``: the sorted codes, results and remoteness of solved tier ``u``, loaded once (``mmap``: codes too mapped)."""
    later: dict[int, _Stored] = {}

    def values_of(u: int) -> _Stored:
        if u not in later:
            codes = folder.load("codes", u, mmap=mmap)
            if not mmap and len(codes) and int(codes[0]) >= 0 and int(codes[-1]) < 1 << 31:
                codes = codes.astype(np.int32)  # searched 1.5x faster (:func:`_lookup`)
            later[u] = (codes, folder.load("result", u), folder.load("remoteness", u))
        return later[u]

    return values_of


def solve_tier(
    rules: TierArrayRules, folder: TierFolder, t: int, counts: dict[int, int], canon: Canonical | None = None
) -> tuple[TierValues, np.ndarray, np.ndarray, np.ndarray]:
    """(values, degree, player, best child code as moved to) of tier ``t``, whose later tiers are solved."""
    codes = folder.load("codes", t, mmap=False)
    values_of = values_loader(folder)
    try:
        return solve_slice(rules, t, codes, values_of, canon)
    except InnerMoves:  # moves inside the tier: solve the whole tier level by level
        chunk = POSITION_CHUNK if isinstance(rules, PositionRules) else ARRAY_CHUNK
        pages = [rules.expand(codes[a : a + chunk]) for a in range(0, len(codes), chunk)]
        degree = np.concatenate([p.degree for p in pages]).astype(np.int32)
        player = np.concatenate([p.player for p in pages]).astype(np.int8)
        v, children = _leveled_tier(rules, codes, pages, values_of, t, canon)
        best_child = np.full(len(codes), -1, dtype=np.int64)
        _keep(0, v, degree, children, v.result, v.remoteness, v.best, best_child)
        return v, degree, player, best_child


def solve_slice(
    rules: TierArrayRules, t: int, codes: np.ndarray, values_of: Callable[[int], _Stored], canon: Canonical | None = None
) -> tuple[TierValues, np.ndarray, np.ndarray, np.ndarray]:
    """(values, degree, player, best child code as moved to) of ``codes``, some sorted codes of tier ``t`` whose moves all
    leave it (else :class:`InnerMoves`), from ``values_of`` the tiers they reach: one slice of a tier, or all of it;
    ``canon``: children looked up by their canonical codes."""
    n = len(codes)
    chunk = POSITION_CHUNK if isinstance(rules, PositionRules) else ARRAY_CHUNK
    degree = np.zeros(n, dtype=np.int32)
    player = np.zeros(n, dtype=np.int8)
    result = np.zeros(n, dtype=np.int8)
    remoteness = np.zeros(n, dtype=np.int32)
    best = np.zeros(n, dtype=np.int32)
    best_child = np.full(n, -1, dtype=np.int64)  # the code moved to by the best move; -1: none
    for a in range(0, n, chunk):
        page = codes[a : a + chunk]
        exp = rules.expand(page)
        children = exp.children if canon is None else canon(exp.children)  # looked up canonical, moved to as the rules say
        degree[a : a + len(page)] = exp.degree
        player[a : a + len(page)] = exp.player
        cres = np.zeros(len(children), dtype=np.int8)
        crem = np.zeros(len(children), dtype=np.int32)
        for u, sel in _by_tier(rules, t, children):
            ucodes, ures, urem = values_of(u)
            at = _lookup(ucodes, children[sel], u)
            cres[sel], crem[sel] = ures[at], urem[at]
        v = from_children(exp.primitive, exp.degree, cres, crem)
        _keep(a, v, exp.degree, exp.children, result, remoteness, best, best_child)
    return TierValues(result, remoteness, best), degree, player, best_child


def _by_tier(rules: TierArrayRules, t: int, children: np.ndarray) -> list[tuple[int, Any]]:
    """(tier, selection of ``children``) of each tier that children of tier ``t`` are in (path texts: all in the next one,
    without the sort and masks: 8% of a slice's time); :class:`InnerMoves` if one stays in tier ``t``."""
    if rules.path_texts:
        return [(t + 1, slice(None))] if len(children) else []
    tiers = rules.tiers(children)
    if (tiers == t).any():
        raise InnerMoves(t)
    return [(u, tiers == u) for u in np.unique(tiers).tolist()]


def _keep(
    a: int, v: TierValues, degree: np.ndarray, children: np.ndarray, result: np.ndarray, remoteness: np.ndarray, best: np.ndarray, best_child: np.ndarray
) -> None:
    """Store a page's values from position ``a`` on, and each position's best child code."""
    b = a + len(v.result)
    result[a:b], remoteness[a:b], best[a:b] = v.result, v.remoteness, v.best
    has = v.best >= 0
    starts = np.concatenate(([0], np.cumsum(degree)[:-1])).astype(np.int64)
    best_child[a:b][has] = children[starts[has] + v.best[has]]


def _lookup(codes: np.ndarray, wanted: np.ndarray, tier: int) -> np.ndarray:
    """Where each of ``wanted`` is in ``codes`` (sorted; 32-bit when they fit: a code that does not is never found)."""
    at = np.searchsorted(codes, wanted.astype(codes.dtype, copy=False)).clip(0, max(len(codes) - 1, 0))
    if not len(codes) or not np.array_equal(codes[at], wanted):
        raise GamedbError(f"a move leads to a position missing from tier {tier}: the family's tiers or array rules are inconsistent")
    return at


def _leveled_tier(
    rules: TierArrayRules, codes: np.ndarray, pages: Sequence[Expansion], values_of: Callable[[int], _Stored], t: int, canon: Canonical | None
) -> tuple[TierValues, np.ndarray]:
    """Values of every position of tier ``t`` (expanded: ``pages``), moves inside the tier included; the children as moved to."""
    n = len(codes)
    moved = np.concatenate([p.children for p in pages])
    children = moved if canon is None else canon(moved)
    tiers = rules.tiers(children)
    child = np.zeros(len(children), dtype=np.int64)
    inside = tiers == t
    child[inside] = _lookup(codes, children[inside], t)
    outer_res, outer_rem = [np.zeros(0, dtype=np.int8)], [np.zeros(0, dtype=np.int32)]
    base = n
    for u in np.unique(tiers[~inside]).tolist():
        sel = tiers == u
        ucodes, ures, urem = values_of(u)
        at = _lookup(ucodes, children[sel], u)
        child[sel] = base + np.arange(int(sel.sum()))
        outer_res.append(np.asarray(ures[at]))
        outer_rem.append(np.asarray(urem[at]))
        base += int(sel.sum())
    primitive = np.concatenate([p.primitive for p in pages])
    degree = np.concatenate([p.degree for p in pages])
    return leveled(primitive, degree, child, np.concatenate(outer_res), np.concatenate(outer_rem)), moved
