"""The tasks of a tier solve on a cluster (:mod:`.tier_cluster`), each run by a worker on files of the shared work folder.

Forward, :func:`settle` makes a tier's sorted codes from the parts the earlier tiers' slices found (a large one in
ranges of codes: :func:`settle_range`, then :func:`settle_join`) and :func:`expand` finds the children of one slice;
backward, :func:`solve_part` values one slice from the tiers it reaches (into DuckDB, writing its rows as a Parquet part
too: :func:`parquet_parts`) and :func:`join` makes the tier's columns of its slices; last, into SQLite,
:func:`rows_part` makes the rows of a code range. Every task first looks for what it writes (each file written
atomically) and returns at once when a task before it (killed or not) finished it, so a rerun resumes from the finished
slices.
"""

from __future__ import annotations

import json
import os
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import GamedbError, said_as
from ..games.base import Game
from ..games.tier_rules import PositionRules, TierArrayRules
from ..store.part_files import write_parquet, write_part
from .tier_forward import children_by_tier, keeps_paths, least_keys, save_paths
from .tier_store import TierFolder, range_columns, tier_columns
from .tiers import ARRAY_CHUNK, POSITION_CHUNK, InnerMoves, canon_of, rules_of, solve_slice, values_loader

#: the columns a solved slice (and tier) has, "best" (the best child's code) written last
KINDS = ("result", "remoteness", "degree", "player", "best")
#: those the slices of the tiers before it read, joined first (the rest, 72% of the bytes, beside those slices)
VALUES = KINDS[:2]
OTHERS = KINDS[2:]
#: those a slice whose rows are a Parquet part saves: the rest are in its part (the degrees count the moves)
WITH_PARTS = (*VALUES, "degree")
#: a start's part: found before any tier was expanded
START = "start"


def part_names(source: str) -> tuple[str, str]:
    """The kinds of the codes and keys files one slice (``source``: "tier.first") found for a later tier."""
    return f"pcodes.{source}", f"pkeys.{source}"


def settle(game: Game, path: str, u: int, first: bool, symmetry: int = 1, after: Any = None) -> tuple[int, int]:
    """Save tier ``u``'s sorted codes (and ranks and move sequences for path texts) from its parts; return its size (0,
    nothing saved, for a tier no part reaches) and the positions they stand for (through ``symmetry``, one code a class).
    ``first``: the start's tier (no tier before it); ``after``: the tasks before it."""
    folder = TierFolder(Path(path))
    rules = rules_of(game)
    if folder.has("codes", u):
        return _sizes(rules, folder.load("codes", u), symmetry)
    found = sorted(folder.path.glob(f"pcodes.*-{u}.npy"))
    if not found:
        return 0, 0
    paths = keeps_paths(game, rules)
    parts = [(np.load(f), np.load(f.with_name("pkeys" + f.name[len("pcodes") :])) if paths else None) for f in found]
    codes, keys = least_keys(parts)
    if paths:
        assert keys is not None  # (kept with the paths)
        previous = None
        if not first:
            rank = folder.load("rank", u - 1, mmap=False)
            by_rank = np.empty_like(rank)
            by_rank[rank] = np.arange(len(rank))
            previous = (u - 1, folder.load("paths", u - 1, mmap=False), by_rank, rank)
        folder.save("rank", u, save_paths(rules, folder, u, codes, keys, previous)[3])
    folder.save("codes", u, codes)
    _remove_parts(folder, u)
    return _sizes(rules, codes, symmetry)


def settle_bounds(path: str, u: int, pieces: int, after: Any = None) -> np.ndarray:
    """The ``pieces + 1`` bounds of tier ``u``'s settle ranges (``after``: the tasks whose parts they sample), found once
    for all of its :func:`settle_range` tasks: each sampling every part itself read ``pieces`` times the pages."""
    folder = TierFolder(Path(path))
    if folder.has("codes", u):  # (joined by an earlier run: the ranges return at once)
        return _bounds([], pieces)
    return _bounds([np.load(f, mmap_mode="r") for f in sorted(folder.path.glob(f"pcodes.*-{u}.npy"))], pieces)


def settle_range(game: Game, path: str, u: int, k: int, bounds: np.ndarray, symmetry: int = 1) -> tuple[int, int]:
    """Range ``k`` of tier ``u``'s settle (from ``bounds[k]`` up to ``bounds[k + 1]``, excluded: :func:`settle_bounds`),
    for a game that keeps no path texts: the distinct codes of every part in it, saved as a piece of the tier for
    :func:`settle_join`; its size and the positions it stands for."""
    folder = TierFolder(Path(path))
    rules = rules_of(game)
    piece = _piece(k, len(bounds) - 1)
    if folder.has("codes", u):  # (joined by an earlier run: the join counts the tier)
        return 0, 0
    if folder.has(piece, u):
        return _sizes(rules, folder.load(piece, u), symmetry)
    parts = [np.load(f, mmap_mode="r") for f in sorted(folder.path.glob(f"pcodes.*-{u}.npy"))]
    low, high = bounds[k : k + 2]
    mine = [np.array(p[np.searchsorted(p, low) : np.searchsorted(p, high)]) for p in parts]
    codes, _ = least_keys([(c, None) for c in mine if len(c)] or [(np.zeros(0, dtype=np.int64), None)])
    folder.save(piece, u, codes)
    return _sizes(rules, codes, symmetry)


def settle_join(game: Game, path: str, u: int, pieces: int, symmetry: int = 1, found: Any = ()) -> tuple[int, int]:
    """Save tier ``u``'s sorted codes from the ranges :func:`settle_range` saved (``found``: their sizes, in order) and
    remove its parts; its size (0, nothing saved: a tier no part reaches) and the positions they stand for."""
    folder = TierFolder(Path(path))
    names = [_piece(k, pieces) for k in range(pieces)]
    if folder.has("codes", u):
        sizes = _sizes(rules_of(game), folder.load("codes", u), symmetry)
    else:
        sizes = (sum(n for n, _ in found), sum(s for _, s in found))
        if sizes[0]:
            folder.save_joined("codes", u, names)
    _remove_parts(folder, u)
    for name in names:
        (folder.path / f"{name}-{u}.npy").unlink(missing_ok=True)
    return sizes


def _remove_parts(folder: TierFolder, u: int) -> None:
    """Remove the parts found for tier ``u`` (its codes are saved)."""
    for f in folder.path.glob(f"pcodes.*-{u}.npy"):
        f.unlink(missing_ok=True)
        f.with_name("pkeys" + f.name[len("pcodes") :]).unlink(missing_ok=True)


def _piece(k: int, pieces: int) -> str:
    """The kind of a settle's range ``k`` of ``pieces`` (a rerun cut otherwise makes its own)."""
    return f"settle{k}of{pieces}"


#: codes sampled from the parts per range of a settle, for its bounds
BOUND_SAMPLE = 256


def _bounds(parts: list[np.ndarray], pieces: int) -> np.ndarray:
    """The ``pieces + 1`` bounds of a settle's ranges of codes (each range from one bound up to the next, excluded):
    quantiles of every part's codes at one stride."""
    total = sum(len(p) for p in parts)
    step = max(total // (pieces * BOUND_SAMPLE), 1)
    sample = np.sort(np.concatenate([np.asarray(p[::step], dtype=np.int64) for p in parts] or [np.zeros(0, dtype=np.int64)]))
    inner = sample[(np.arange(1, pieces) * len(sample)) // pieces] if len(sample) else np.zeros(pieces - 1, dtype=np.int64)
    return np.concatenate(([np.iinfo(np.int64).min], inner, [np.iinfo(np.int64).max])).astype(np.int64)


def _sizes(rules: TierArrayRules, codes: np.ndarray, symmetry: int) -> tuple[int, int]:
    """The codes of a tier and the positions they stand for (one code a class of a ``symmetry`` > 1: the rules count them)."""
    if symmetry == 1 or not len(codes):
        return len(codes), len(codes)
    assert rules.class_sizes is not None  # (a cluster solve keeps classes only for such rules: :func:`.tiers.by_classes`)
    return len(codes), int(rules.class_sizes(np.asarray(codes)).sum(dtype=np.int64))


def expand(game: Game, path: str, t: int, a: int, b: int, symmetry: int = 1) -> list[int]:
    """Save the children of codes ``a:b`` of tier ``t`` (canonical, through ``symmetry`` > 1), by tier, as parts; return
    the tiers they reach."""
    folder = TierFolder(Path(path))
    marker = folder.path / f"expanded.{t}.{a}.json"
    if marker.exists():
        reached: list[int] = json.loads(marker.read_text())
        return reached
    rules = rules_of(game)
    codes = folder.read("codes", t, a, b)
    rank = folder.read("rank", t, a, b) if keeps_paths(game, rules) else None
    chunk = POSITION_CHUNK if isinstance(rules, PositionRules) else ARRAY_CHUNK
    pending: dict[int, list[tuple[np.ndarray, np.ndarray | None]]] = defaultdict(list)
    canon = canon_of(game, rules, symmetry)
    for c in range(0, len(codes), chunk):
        found = children_by_tier(rules, game.family, t, codes[c : c + chunk], None if rank is None else rank[c : c + chunk], canon)
        for u, part in found.items():
            if u == t:
                raise _inner(game, t)
            pending[u].append(part)
            if len(pending[u]) >= 16:
                pending[u] = [least_keys(pending[u])]
    for u, parts in pending.items():
        codes_u, keys_u = least_keys(parts)
        codes_kind, keys_kind = part_names(f"{t}.{a}")
        if keys_u is not None:
            folder.save(keys_kind, u, keys_u)
        folder.save(codes_kind, u, codes_u)
    tmp = marker.with_suffix(f".{os.getpid()}-{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(sorted(pending)))
    tmp.replace(marker)
    return sorted(pending)


def solve_part(game: Game, path: str, t: int, a: int, b: int, rows_texts: bool | None = None, symmetry: int = 1) -> int:
    """Save the columns of codes ``a:b`` of tier ``t`` (once the tiers they reach are joined; through ``symmetry`` > 1,
    each child looked up by its canonical code); return ``b - a``.
    ``rows_texts`` not None: their position rows too, as a Parquet part (:func:`parquet_parts`; with texts if True)."""
    folder = TierFolder(Path(path))
    kinds = KINDS if rows_texts is None else WITH_PARTS
    if all(folder.has(f"s{a}_{b}.{kind}", t) or folder.has(kind, t) for kind in kinds):  # (by both ends: a rerun may slice otherwise)
        return b - a
    rules = rules_of(game)
    codes = folder.read("codes", t, a, b)
    try:
        values, degree, player, best_child = solve_slice(rules, t, codes, values_loader(folder, mmap=True), canon_of(game, rules, symmetry))
    except InnerMoves:
        raise _inner(game, t) from None
    if rows_texts is not None:  # before the columns: a slice whose columns are saved has its part
        rows = tier_columns(rules, folder, t, a, b, rows_texts, player, values.result, values.remoteness, degree, best_child, codes=codes)
        write_parquet(_rows_part(folder, t, a, b), rows)  # (labels as indices: 0.13 -> 0.05 µs a row against texts)
    for kind, array in zip(KINDS, (values.result, values.remoteness, degree, player, best_child), strict=True):
        if kind in kinds:
            folder.save(f"s{a}_{b}.{kind}", t, array)
    return b - a


def join(path: str, t: int, slices: list[tuple[int, int]], kinds: tuple[str, ...], after: Any = None) -> int:
    """Save tier ``t``'s columns ``kinds`` from its ``slices`` (their rows ``a:b``; ``after``: their tasks); return its
    moves if ``kinds`` has the degrees (else 0). With the degrees, the tier's Parquet parts are these slices' once each
    of them has one (a slicing of an earlier run's left over is removed)."""
    folder = TierFolder(Path(path))
    for kind in kinds:
        if not folder.has(kind, t):
            folder.save(kind, t, np.concatenate([folder.load(f"s{a}_{b}.{kind}", t, mmap=False) for a, b in slices]))
    for a, b in slices:
        for kind in kinds:
            (folder.path / f"s{a}_{b}.{kind}-{t}.npy").unlink(missing_ok=True)
    if "degree" not in kinds:
        return 0
    mine = {_rows_part(folder, t, a, b) for a, b in slices}
    if all(part.exists() for part in mine):
        for part in set(folder.path.glob(f"rows.{t}.*.parquet")) - mine:
            part.unlink()
    return int(folder.load("degree", t).sum(dtype=np.int64))


def _rows_part(folder: TierFolder, t: int, a: int, b: int) -> Path:
    """The Parquet part of the rows ``a:b`` of tier ``t`` (:func:`parquet_parts` reads the name back)."""
    return folder.path / f"rows.{t}.{a}-{b}.parquet"


def parquet_parts(folder: TierFolder, counts: dict[int, int]) -> list[tuple[Path, int, int]]:
    """The Parquet parts :func:`solve_part` wrote with the code span of each (first, last); every row of every tier must
    be in one."""
    found: dict[int, list[tuple[int, int, Path]]] = defaultdict(list)
    for part in folder.path.glob("rows.*.parquet"):
        tier, rows = part.name.split(".")[1:3]
        a, b = rows.split("-")
        found[int(tier)].append((int(a), int(b), part))
    spans = []
    for t, n in counts.items():
        ends = sorted(found.pop(t, []))
        if [a for a, _, _ in ends] != [0, *(b for _, b, _ in ends[:-1])] or (ends[-1][1] if ends else 0) != n:
            raise GamedbError(f"the work folder {folder.path} holds the rows of tier {t} in parts that do not fit together "
                              "(a solve begun by another version of gamedb?): remove the folder and solve again")
        spans += [(part, int(folder.read("codes", t, a, a + 1)[0]), int(folder.read("codes", t, b - 1, b)[0])) for a, b, part in ends if b > a]
    return spans


def rows_part(game: Game, path: str, name: str, rows: dict[int, tuple[int, int]], texts_stored: bool) -> str:
    """Write the position rows of one code range (rows ``i:j`` of each tier ``t``: ``rows[t] = (i, j)``) as the part file
    ``name`` (:mod:`~gamedb.store.part_files`); return its path."""
    part = Path(path) / name
    if not part.exists():
        write_part(part, range_columns(rules_of(game), TierFolder(Path(path)), rows, texts_stored))
    return str(part)


def _inner(game: Game, t: int) -> GamedbError:
    return GamedbError(
        f"a move of {game.family} stays inside tier {t}: a solve on a cluster needs every move to reach a later tier; "
        f"solve {said_as('with cluster=None', 'without --workers and --scheduler')}"
    )
