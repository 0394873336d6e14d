"""Cat and mouse (LeetCode 913) on numpy arrays (:mod:`.cat_mouse`): a page of codes expanded over CSR move lists."""

import numpy as np

from ..vector import LOSE, UNDECIDED, WIN, Expansion, VectorRules, ranks_within
from . import CAT, HOLE, MOUSE, code_of


class CatMouseVector(VectorRules):
    def __init__(self, mouse_moves: list[list[int]], cat_moves: list[list[int]], players: tuple[str, str]):
        """``mouse_moves`` and ``cat_moves``: every node's targets in move order (the family's own lists)."""
        n = self.n = len(mouse_moves)
        self.code_limit = 2 * n * n
        # one CSR table for both players: row turn * n + node
        rows = mouse_moves + cat_moves
        self._degree = np.array([len(r) for r in rows], dtype=np.int64)
        self._offset = np.concatenate(([0], np.cumsum(self._degree)))
        self._target = np.array([b for r in rows for b in r], dtype=np.int64)
        self._players = players
        self._node_labels = np.array([str(i) for i in range(n)], dtype=object)
        self._text_parts: tuple[list[str], list[str]] | None = None  # built on first use
        # the same table reversed, for un-moves: row turn * n + target, the nodes that move there
        source = np.repeat(np.arange(2 * n), self._degree)
        by_target = np.argsort((source // n) * n + self._target, kind="stable")
        self._rev_source = (source % n)[by_target]
        self._rev_degree = np.bincount(((source // n) * n + self._target), minlength=2 * n)
        self._rev_offset = np.concatenate(([0], np.cumsum(self._rev_degree)))

    def expand(self, codes: np.ndarray) -> Expansion:
        n = self.n
        codes = np.asarray(codes, dtype=np.int64)
        turn = codes & 1
        rest = codes >> 1
        mouse, cat = rest // n, rest % n
        primitive = np.full(len(codes), UNDECIDED, dtype=np.int8)
        caught = mouse == cat
        primitive[caught] = np.where(turn[caught] == CAT, WIN, LOSE)
        escaped = mouse == HOLE  # checked last: it wins over "caught" (the cat never stands on 0)
        primitive[escaped] = np.where(turn[escaped] == MOUSE, WIN, LOSE)
        row = turn * n + np.where(turn == MOUSE, mouse, cat)
        degree = np.where(primitive == UNDECIDED, self._degree[row], 0)
        parent = np.repeat(np.arange(len(codes)), degree)
        b = self._target[self._offset[row][parent] + ranks_within(degree)]
        pt = turn[parent]
        children = np.where(pt == MOUSE, code_of(b, cat[parent], CAT, n), code_of(mouse[parent], b, MOUSE, n))
        return Expansion(player=turn.astype(np.int8), primitive=primitive, degree=degree.astype(np.int64), children=children)

    def parents(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = self.n
        codes = np.asarray(codes, dtype=np.int64)
        mover = 1 - (codes & 1)  # the player who moved into each position
        mouse, cat = np.divmod(codes >> 1, n)
        row = mover * n + np.where(mover == MOUSE, mouse, cat)
        lengths = self._rev_degree[row]
        which = np.repeat(np.arange(len(codes)), lengths)
        a = self._rev_source[self._rev_offset[row][which] + ranks_within(lengths)]
        m, c, by_mouse = mouse[which], cat[which], mover[which] == MOUSE
        pm, pc = np.where(by_mouse, a, m), np.where(by_mouse, c, a)
        alive = (pm != HOLE) & (pm != pc)  # a position that is over has no moves
        return which[alive], code_of(pm, pc, mover[which], n)[alive]

    def texts(self, codes: np.ndarray) -> list[str]:
        if self._text_parts is None:  # "mouse=M," per mouse node and "cat=C,turn=T" per (cat node, turn)
            n, names = self.n, self._players
            self._text_parts = ([f"mouse={m}," for m in range(n)], [f"cat={c},turn={names[t]}" for c in range(n) for t in (0, 1)])
        heads, tails = self._text_parts
        codes = np.asarray(codes, dtype=np.int64)
        mouse, tail = np.divmod(codes, 2 * self.n)  # code = mouse * 2n + cat * 2 + turn
        return [heads[m] + tails[t] for m, t in zip(mouse.tolist(), tail.tolist(), strict=True)]

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        n = self.n
        rest = np.asarray(children, dtype=np.int64) >> 1
        node = np.where((np.asarray(parents) & 1) == MOUSE, rest // n, rest % n)
        labels: list[str] = self._node_labels[node].tolist()  # a gather in C, not a Python loop (0.54 s of 2·10^6 best moves)
        return labels
