"""Cat and mouse (LeetCode 913) on numpy arrays (:mod:`.cat_mouse`): a page of codes expanded over CSR move lists."""

import numpy as np

from ..vector import LOSE, UNDECIDED, WIN, Expansion, MovesInOrder, VectorRules
from . import CAT, HOLE, MOUSE


class CatMouseVector(VectorRules):
    distinct_moves = True  # (a node's neighbours are distinct: the graph's check refuses one listed twice)

    def __init__(self, mouse_moves: list[list[int]], cat_moves: list[list[int]], players: tuple[str, str]):
        """``mouse_moves`` and ``cat_moves``: every node's targets in move order (the family's own lists)."""
        n = self.n = len(mouse_moves)
        self.code_limit = 2 * n * n
        # one CSR table for both players: row turn * n + node
        rows = mouse_moves + cat_moves
        self._degree = np.array([len(r) for r in rows], dtype=np.int64)
        self._degree32 = self._degree.astype(np.int32)  # (the position table's width: a row batch copied once less)
        self._offset = np.concatenate(([0], np.cumsum(self._degree)))
        self._target = np.array([b for r in rows for b in r], dtype=np.int64)
        # what each move of a row adds to the code (the mover's token from its node to the target, the turn passed):
        # (b - m) * 2n + 1 for the mouse's, (b - c) * 2 - 1 for the cat's
        mover, node = np.divmod(np.repeat(np.arange(2 * n), self._degree), n)
        self._step = np.where(mover == MOUSE, (self._target - node) * 2 * n + 1, (self._target - node) * 2 - 1)
        self._players = players
        self._node_labels = np.array([str(i) for i in range(n)], dtype=object)
        self._text_parts: tuple[list[str], list[str]] | None = None  # built on first use
        # the same moves by target, for un-moves: row turn * n + target; a parent is its child less the move's step
        into = mover * n + self._target
        self._rev_step = self._step[np.argsort(into, kind="stable")]
        self._rev_degree = np.bincount(into, minlength=2 * n)
        self._rev_offset = np.concatenate(([0], np.cumsum(self._rev_degree)))

    def primitive(self, codes: np.ndarray) -> np.ndarray:
        return self._primitive(*self._tokens(np.asarray(codes, dtype=np.int64)))

    def _tokens(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(turn, mouse node, cat node) of every code."""
        mouse, cat = np.divmod(codes >> 1, self.n)
        return codes & 1, mouse, cat

    @staticmethod
    def _primitive(turn: np.ndarray, mouse: np.ndarray, cat: np.ndarray) -> np.ndarray:
        primitive = np.full(len(turn), UNDECIDED, dtype=np.int8)
        caught = mouse == cat
        primitive[caught] = np.where(turn[caught] == CAT, WIN, LOSE)
        escaped = mouse == HOLE  # checked last: it wins over "caught" (the cat never stands on 0)
        primitive[escaped] = np.where(turn[escaped] == MOUSE, WIN, LOSE)
        return primitive

    def _rows(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(codes as int64, turn, primitive value, the mover's row of the move table) of every code: what
        :meth:`expand` and :meth:`in_order` share."""
        codes = np.asarray(codes, dtype=np.int64)
        turn, mouse, cat = self._tokens(codes)
        return codes, turn, self._primitive(turn, mouse, cat), turn * self.n + np.where(turn == MOUSE, mouse, cat)

    def expand(self, codes: np.ndarray) -> Expansion:
        codes, turn, primitive, row = self._rows(codes)
        degree = np.where(primitive == UNDECIDED, self._degree[row], 0)
        ends = np.cumsum(degree)
        move = np.arange(int(ends[-1]) if len(ends) else 0) + np.repeat(self._offset[row] - (ends - degree), degree)  # into the row's moves
        children = np.repeat(codes, degree) + self._step[move]
        return Expansion(player=turn.astype(np.int8), primitive=primitive, degree=degree, children=children)

    def in_order(self, codes: np.ndarray) -> MovesInOrder:
        codes, turn, primitive, row = self._rows(codes)
        first = self._offset[row]

        def child(order: int, which: np.ndarray) -> np.ndarray:
            moved: np.ndarray = codes[which] + self._step[first[which] + order]
            return moved

        return MovesInOrder(turn.astype(np.int8), primitive, np.where(primitive == UNDECIDED, self._degree32[row], 0), child)

    def parents(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = self.n
        codes = np.asarray(codes, dtype=np.int64)
        mover = 1 - (codes & 1)  # the player who moved into each position
        mouse, cat = np.divmod(codes >> 1, n)
        row = mover * n + np.where(mover == MOUSE, mouse, cat)
        lengths = self._rev_degree[row]
        ends = np.cumsum(lengths)
        move = np.arange(int(ends[-1]) if len(ends) else 0) + np.repeat(self._rev_offset[row] - (ends - lengths), lengths)
        which = np.repeat(np.arange(len(codes)), lengths)
        parent = codes[which] - self._rev_step[move]
        pm, pc = np.divmod(parent >> 1, n)
        alive = (pm != HOLE) & (pm != pc)  # a position that is over has no moves
        return which[alive], parent[alive]

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
