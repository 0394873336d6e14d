"""A game's whole graph as numpy arrays: every reachable position and its moves, breadth first."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

import numpy as np

from ..games.base import Game
from ..games.vector import RESULT_CODES, UNDECIDED, VectorRules, check_moves, stuck_error
from ..progress import Progress
from . import capabilities
from .protocol import TooLarge

#: bytes of memory per position and per move while solving (measured on
#: cat-mouse and Connect-Four with some margin); text is counted apart
BYTES_PER_POSITION = 120
BYTES_PER_MOVE = 48
#: extra bytes per position of the one-position-at-a-time enumeration (dict, ints, text object)
BYTES_PER_PYTHON_POSITION = 200

#: positions expanded at once by a family's vector rules
EXPAND_CHUNK = 16_384


@dataclass
class GameGraph:
    """Every reachable position of a game and its moves, as arrays (index = discovery order)."""

    codes: np.ndarray  # int64 [N]
    player: np.ndarray  # int8 [N]
    primitive: np.ndarray  # int8 [N], UNDECIDED or WIN/LOSE/TIE
    offset: np.ndarray  # int64 [N+1], moves of i: offset[i]:offset[i+1]
    child: np.ndarray  # int32/int64 [M], index of the child of every move
    vector: VectorRules | None = None
    texts: list[str] | None = None  # per position, when there is no vector path
    label_ids: np.ndarray | None = None  # int32 [M], index into label_names
    label_names: list[str] = field(default_factory=list)

    @property
    def positions(self) -> int:
        return len(self.codes)

    @property
    def moves(self) -> int:
        return len(self.child)

    @property
    def degree(self) -> np.ndarray:
        return np.diff(self.offset)


def estimate_bytes(positions: int, moves: int, text_bytes: int = 0) -> int:
    """Memory the in-memory solver needs for a game of this size."""
    return positions * BYTES_PER_POSITION + moves * BYTES_PER_MOVE + text_bytes


def estimate_game_bytes(game: Game, positions: int, moves: int) -> int:
    """Memory the in-memory solver needs for ``game`` with this many positions and moves (position texts aside)."""
    need = estimate_bytes(positions, moves)
    if not capabilities.declares_vector_rules(game):
        need += positions * BYTES_PER_PYTHON_POSITION
    return need


# --- 1. enumeration ------------------------------------------------------------------------


def enumerate_graph(game: Game, *, memory_limit: int, progress: Progress | None = None) -> GameGraph:
    """Every position reachable from the start, with its moves; :class:`TooLarge` over budget."""
    vector = capabilities.vector_rules(game)
    if vector is not None:
        return _enumerate_vector(game, vector, memory_limit, progress)
    return _enumerate_python(game, memory_limit, progress)


def _enumerate_vector(game: Game, vector: VectorRules, memory_limit: int, progress: Progress | None) -> GameGraph:
    frontier = np.unique(np.array([game.encode(state) for state in game.starts()], dtype=np.int64))
    seen = _Seen(vector.code_limit, frontier)
    parts = []  # (codes, expansion) per depth
    n_pos = n_mov = 0
    while len(frontier):
        found = []
        for a in range(0, len(frontier), EXPAND_CHUNK):  # a few thousand positions at a time: the budget holds
            page = frontier[a : a + EXPAND_CHUNK]
            exp = vector.expand(page)
            check_moves(game, page, exp.primitive, exp.degree)
            parts.append((page, exp))
            n_pos += len(page)
            n_mov += len(exp.children)
            if estimate_bytes(n_pos, n_mov) > memory_limit:
                raise TooLarge(f"more than {n_pos:,} positions and {n_mov:,} moves do not fit in {memory_limit:,} bytes")
            found.append(seen.add(exp.children))
            if progress:
                progress("enumerate", n_pos, None)
        frontier = np.sort(np.concatenate(found))
    del seen
    codes = np.concatenate([c for c, _ in parts])
    child = _indices(codes, np.concatenate([e.children for _, e in parts]), vector.code_limit)
    degree = np.concatenate([e.degree for _, e in parts])
    return GameGraph(
        codes=codes,
        player=np.concatenate([e.player for _, e in parts]),
        primitive=np.concatenate([e.primitive for _, e in parts]),
        offset=np.concatenate(([0], np.cumsum(degree))).astype(np.int64),
        child=child,
        vector=vector,
    )


#: codes below this bound are tracked in arrays indexed by code; sparser codes (dobutsu's) in sorted arrays
DENSE_CODES = 1 << 32


class _Seen:
    """The codes found so far: a bitmap indexed by code, or a sorted array when codes are sparse."""

    def __init__(self, code_limit: int, codes: np.ndarray):
        self.bits = np.zeros(code_limit, dtype=bool) if code_limit <= DENSE_CODES else None
        self.sorted = np.unique(codes)
        if self.bits is not None:
            self.bits[codes] = True

    def add(self, codes: np.ndarray) -> np.ndarray:
        """The codes not found before, sorted and unique, now found."""
        if self.bits is not None:
            fresh = np.unique(codes[~self.bits[codes]])  # most children are known: drop them before the sort
            self.bits[fresh] = True
            return fresh
        fresh = np.setdiff1d(codes, self.sorted)
        self.sorted = np.union1d(self.sorted, fresh)
        return fresh


def _indices(codes: np.ndarray, wanted: np.ndarray, code_limit: int) -> np.ndarray:
    """The index in ``codes`` (distinct) of every code of ``wanted`` (all among them)."""
    dtype = np.int32 if len(codes) < 2**31 else np.int64
    if code_limit <= DENSE_CODES:
        index = np.zeros(code_limit, dtype=dtype)
        index[codes] = np.arange(len(codes), dtype=dtype)
        found: np.ndarray = index[wanted]
        return found
    order = np.argsort(codes).astype(dtype)
    found = order[np.searchsorted(codes[order], wanted)]
    return found


def _enumerate_python(game: Game, memory_limit: int, progress: Progress | None) -> GameGraph:
    codes = list(dict.fromkeys(game.encode(state) for state in game.starts()))
    index = {code: i for i, code in enumerate(codes)}
    players = bytearray()
    prims = bytearray()
    degree = array("q")
    texts: list[str] = []
    text_bytes = 0
    child = array("q")
    label_ids = array("i")
    label_of: dict[str, int] = {}
    label_names: list[str] = []
    prim_codes = RESULT_CODES
    expand = game.expand
    i = 0
    while i < len(codes):
        code = codes[i]
        player, text, prim, moves = expand(code)
        if prim is None and not moves:
            raise stuck_error(game, text)
        players.append(player)
        prims.append(prim_codes[prim] if prim is not None else UNDECIDED)
        degree.append(len(moves))
        texts.append(text)
        text_bytes += len(text)
        for label, c in moves:
            lid = label_of.get(label)
            if lid is None:
                lid = label_of[label] = len(label_names)
                label_names.append(label)
            label_ids.append(lid)
            j = index.get(c)
            if j is None:
                j = index[c] = len(codes)
                codes.append(c)
            child.append(j)
        i += 1
        if not i & 0xFFFF or i == len(codes):
            need = estimate_bytes(len(codes), len(child), text_bytes) + len(codes) * BYTES_PER_PYTHON_POSITION
            if need > memory_limit:
                raise TooLarge(f"more than {len(codes):,} positions and {len(child):,} moves do not fit in {memory_limit:,} bytes")
            if progress:
                progress("enumerate", i, None)
    del index
    if progress:
        progress("enumerate", len(codes), None)
    n = len(codes)
    return GameGraph(
        codes=np.array(codes, dtype=np.int64),
        player=np.frombuffer(players, dtype=np.int8).copy(),
        primitive=np.frombuffer(prims, dtype=np.int8).copy(),
        offset=np.concatenate(([0], np.cumsum(np.frombuffer(degree, dtype=np.int64)))).astype(np.int64),
        child=np.frombuffer(child, dtype=np.int64).astype(np.int32 if n < 2**31 else np.int64),
        texts=texts,
        label_ids=np.frombuffer(label_ids, dtype=np.int32).copy(),
        label_names=label_names,
    )


