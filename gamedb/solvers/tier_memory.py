"""The memory a tier solve needs, from the family's bounds on its tiers: the ``tiers`` strategy's memory hook and note."""

from __future__ import annotations

from ..errors import param
from ..games.base import Game
from ..sizes import human_size

#: memory per position of the tier being solved and of the next tier (codes, values, the
#: sequences of path texts, the children of a page and their lookups), measured on Connect-Four 5x5
BYTES_PER_TIER_POSITION = 100
#: memory outside the tiers: pages being expanded and written, numpy and SQLAlchemy
BASE_BYTES = 300 << 20
#: the largest tier game (positions, by its estimate) solved straight into a new file, which a killed solve loses
#: (Connect-Four 5x4, 5.6·10^6 by the estimate, in seconds; 5x5's minutes resume tier by tier in the database)
TIERS_INTO_NEW_FILE = 10_000_000


def fits_new_file(game: Game) -> bool:
    """A tier game of at most :data:`TIERS_INTO_NEW_FILE` positions by its estimate (a larger one resumes tier by tier)."""
    estimate = game.estimate()
    return estimate is not None and estimate.positions <= TIERS_INTO_NEW_FILE


def tier_bytes(largest: int, next_largest: int) -> int:
    """Memory the tier solver needs when its largest tier (and the largest tier one reaches) has this many positions."""
    return BASE_BYTES + (largest + next_largest) * BYTES_PER_TIER_POSITION


def memory_estimate(game: Game) -> tuple[int, int, int] | None:
    """(bytes, positions of the largest tier, of the next largest) a tier solve needs at most; None: the family gives no bounds."""
    estimate = game.estimate()
    if estimate is None or not estimate.tiers:
        return None
    largest, second = (sorted(estimate.tiers.values(), reverse=True) + [0])[:2]
    return tier_bytes(largest, second), largest, second


def memory_need(game: Game, name: str) -> tuple[int, str, str] | None:
    """The strategy's memory hook (:data:`gamedb.solvers.choice.STRATEGIES`): (bytes, what needs them, advice)."""
    estimate = memory_estimate(game)
    if estimate is None:
        return None
    need, largest, second = estimate
    words = f"{name} needs up to ~{human_size(need)} of memory in the tier solver (tiers of up to {largest:,} and {second:,} positions)"
    return need, words, f"use a larger {param('memory_limit')}"


def memory_note(game: Game, limit: int) -> str | None:
    """What the command line says before a tier solve: the memory it needs at most and the limit."""
    estimate = memory_estimate(game)
    if estimate is None:
        return None
    need, largest, second = estimate
    return (
        f"The tier solver needs up to ~{human_size(need)} of memory (its two largest tiers: up to {largest:,} and {second:,} positions); "
        f"memory limit {human_size(limit)}."
    )


def slice_size_for(memory_limit: int, workers: int) -> int:
    """Positions per slice of a cluster solve: half of each worker's share of ``memory_limit`` (the rest: its maps of the tiers reached)."""
    share = memory_limit // max(workers, 1) - BASE_BYTES
    return int(min(max(share // (2 * BYTES_PER_TIER_POSITION), 4096), 1 << 22))


def slice_note(game: Game, slice_size: int) -> str:
    """What the command line says before a cluster solve: the slice size and the memory each slice takes."""
    estimate = memory_estimate(game)
    reach = f"; its tiers up to {estimate[1]:,} positions" if estimate is not None else ""
    return (
        f"Cluster solve: slices of up to {slice_size:,} positions, ~{human_size(BASE_BYTES + slice_size * BYTES_PER_TIER_POSITION)} of memory "
        f"per worker for each (plus the mapped pages of the tiers it reaches{reach}); --slice-size sets it."
    )
