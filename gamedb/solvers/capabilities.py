"""The optional capabilities a game declares, handed to the solvers that use them; no other module asks a game what it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GamedbError

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    from ..games.base import Estimate, Game, TokenMoves
    from ..games.tier_rules import TierArrayRules
    from ..games.vector import VectorRules


def array_rules(game: Game) -> TierArrayRules | None:
    """The game's rules on numpy arrays with tiers, or None when it declares none."""
    return game.array_rules() if game.capabilities.array_rules else None


def declares_vector_rules(game: Game) -> bool:
    """Whether the game has rules on numpy arrays (a memory estimate needs no more than that)."""
    return game.capabilities.vector_rules


def vector_rules(game: Game) -> VectorRules | None:
    """The game's rules on numpy arrays, or None when it declares none."""
    return game.vector() if game.capabilities.vector_rules else None


def move_lists(game: Game) -> TokenMoves | None:
    """The game's two-token move lists, or None for a game stored with move rows."""
    if not game.capabilities.token_moves:
        return None
    if game.impartial:
        raise GamedbError(f"{game.family}: an impartial game cannot keep move lists (its Grundy values are computed from move rows)")
    return game.token_moves()


def symmetry_group(game: Game) -> int:
    """The size of the game's symmetry group (1: none declared)."""
    return max(int(game.symmetries), 1)


def stored_estimate(game: Game) -> Estimate | None:
    """The game's estimate of the rows a solve stores: one per class of positions (``classes`` kept, the sign of it) when
    the family counts its classes and solves with its symmetries (vector rules, a group of more than 1); else ``classes`` None."""
    estimate = game.estimate()
    if estimate is None or estimate.classes is None:
        return estimate
    if declares_vector_rules(game) and symmetry_group(game) > 1:
        return estimate._replace(positions=estimate.classes[0], moves=estimate.classes[1])
    return estimate._replace(classes=None)


def canonical_codes(game: Game, rules: VectorRules) -> Callable[[np.ndarray], np.ndarray]:
    """:meth:`Game.canonical` on arrays: the rules' own, else the game's code by code."""
    if rules.canonical is not None:
        return rules.canonical
    import numpy as np

    one = game.canonical
    return lambda codes: np.array([one(code) for code in np.asarray(codes).tolist()], dtype=np.int64)
