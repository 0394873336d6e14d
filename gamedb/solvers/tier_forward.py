"""The tier solver's forward step: a page's children by tier with their least move keys, and the smallest move sequences."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import GamedbError
from ..games.base import Game
from ..games.tier_rules import TierArrayRules
from ..store.rows import stores_texts
from .tier_store import TierFolder

#: codes found for a tier, with the least key given to each (the path texts' ranks; None without path texts)
Part = tuple[np.ndarray, "np.ndarray | None"]
#: path texts: (tier, sequences, position index by rank, rank by position index) of a tier
Paths = tuple[int, np.ndarray, np.ndarray, np.ndarray]


def keeps_paths(game: Game, rules: TierArrayRules) -> bool:
    """Whether the enumeration keeps the smallest move sequences (for the texts): not for a game stored without texts
    (5x5: 1 GB of them, two tiers at once, and the keys that find them, twice the memory of the codes while merging)."""
    estimate = game.estimate()
    return rules.path_texts and (estimate is None or stores_texts(estimate.positions))


def children_by_tier(
    rules: TierArrayRules, family: str, t: int, page: np.ndarray, rank: np.ndarray | None, canon: Callable[[np.ndarray], np.ndarray] | None = None
) -> dict[int, Part]:
    """The children of ``page`` (codes of tier ``t``) by tier: distinct codes and the least move key of each (paths kept:
    parent rank and label, from ``rank``, the page's ranks; else None); ``canon``: the children's canonical codes instead
    (no paths); the forward step of one page."""
    exp = rules.expand(page)
    children = exp.children if canon is None else canon(exp.children)
    if not len(children):
        return {}
    if rules.path_texts:  # every move goes to the next tier
        return {t + 1: least_keys([(children, move_keys(rules, page, exp.degree, children, rank))], distinct=False)}
    tiers = rules.tiers(children)
    if len(tiers) and tiers.min() < t:
        raise GamedbError(f"the {family} rules declare tiers wrongly: a move goes from tier {t} to tier {int(tiers.min())}")
    keys = move_keys(rules, page, exp.degree, children, rank)
    return {u: least_keys([(children[tiers == u], None if keys is None else keys[tiers == u])], distinct=False) for u in np.unique(tiers).tolist()}


def move_keys(rules: TierArrayRules, page: np.ndarray, degree: np.ndarray, children: np.ndarray, rank: np.ndarray | None) -> np.ndarray | None:
    """Each move's key: its parent's rank and its label (None without path texts' ranks)."""
    if rank is None:
        return None
    parents = np.repeat(np.arange(len(page)), degree)
    keys: np.ndarray = rank[parents] * rules.label_count + rules.label_ids(page[parents], children)
    return keys


def least_keys(parts: list[Part], *, distinct: bool = True) -> Part:
    """The distinct codes of ``parts`` (sorted) and the least key given to each (None: parts without keys); ``distinct``:
    each part's codes are sorted and distinct already."""
    if distinct and len(parts) == 1:
        return parts[0]
    codes = np.concatenate([p[0] for p in parts])
    if parts[0][1] is None:
        small = len(codes) > 0 and int(codes.min()) >= 0 and int(codes.max()) < 1 << 31
        if small:
            codes = codes.astype(np.int32)  # a sort of 32-bit codes: 2-3x faster
        codes.sort(kind="stable" if len(parts) > 1 else "quicksort")  # sorted runs, which the stable sort merges (0.26 s for 8·10^6 codes in 4 runs, not 1.9 s)
        if small:
            codes = codes.astype(np.int64)
        first = np.ones(len(codes), dtype=bool)
        first[1:] = codes[1:] != codes[:-1]
        return codes[first], None
    keys = np.concatenate([p[1] for p in parts if p[1] is not None])
    if not len(codes):
        return codes, keys
    key_bits = int(keys.max()).bit_length()
    if key_bits + int(codes.max()).bit_length() <= 62 and int(codes.min()) >= 0 and int(keys.min()) >= 0:
        # one sort of (code, key) packed in an int64: several times faster than lexsort
        packed = np.sort((codes << key_bits) | keys, kind="stable")
        codes, keys = packed >> key_bits, packed & ((np.int64(1) << key_bits) - 1)
    else:
        order = np.lexsort((keys, codes))
        codes, keys = codes[order], keys[order]
    first = np.ones(len(codes), dtype=bool)
    first[1:] = codes[1:] != codes[:-1]
    return codes[first], keys[first]


def save_paths(rules: TierArrayRules, folder: TierFolder, t: int, codes: np.ndarray, keys: np.ndarray, previous: Paths | None) -> Paths:
    """Each position's smallest move sequence: its best parent's (least rank, then label) and that move's label; saved."""
    if previous is None:
        paths = np.zeros((len(codes), 0), dtype=np.uint8)
    else:
        _, parent_paths, by_rank, _ = previous
        parent = by_rank[keys // rules.label_count]
        paths = np.concatenate((parent_paths[parent], (keys % rules.label_count).astype(np.uint8)[:, None]), axis=1)
    by_rank = np.argsort(keys, kind="stable")
    rank = np.empty(len(codes), dtype=np.int64)
    rank[by_rank] = np.arange(len(codes))
    folder.save("paths", t, paths)
    return t, paths, by_rank, rank
