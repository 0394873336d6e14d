"""Connect-Four on numpy arrays (:mod:`.connect4`): a stone in column ``c`` adds ``1 << (c*(H+1) + h)`` to the code
(O: the sentinel moves up), twice that for X (the old sentinel bit stays as an X stone). Texts are move sequences,
built by the tier solver from the parents' (:attr:`path_texts`). Every step works on whole boards as bitboards: the
stones are the bits below each column's sentinel (its highest bit, found by smearing the bits down within columns)."""

from typing import Any

import numpy as np

from .tier_rules import TierArrayRules
from .vector import LOSE, TIE, UNDECIDED, Expansion


def popcount(words: np.ndarray) -> np.ndarray:
    """Set bits of every non-negative int64 (numpy >= 2 counts them itself)."""
    if hasattr(np, "bitwise_count"):
        counted: np.ndarray = np.bitwise_count(words).astype(np.int64)
        return counted
    table = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
    summed: np.ndarray = table[np.ascontiguousarray(words, dtype=np.int64).view(np.uint8).reshape(-1, 8)].sum(axis=1)
    return summed


class Connect4Arrays(TierArrayRules):
    """The rules of one :class:`~gamedb.games.connect4.Connect4` board on arrays of codes."""

    path_texts = True

    def __init__(self, game: Any) -> None:  # game: the Connect4 family (it imports this module)
        self.game = game
        w, h = self.width, self.height = game.width, game.height
        s = self.stride = h + 1
        self.code_limit = 1 << (w * s)
        self.label_count = w
        self.label_table = tuple(game._labels)
        self._full, self._shifts = np.int64(game._full), game._shifts
        self._chunk = np.int64((1 << s) - 1)
        self._columns = np.array([((1 << s) - 1) << (c * s) for c in range(w)], dtype=np.int64)
        self._tops = np.array([1 << (c * s + h) for c in range(w)], dtype=np.int64)  # a sentinel there: the column is full
        self._smear = []  # (shift, the bits that keep what a shift brings: not the top `shift` bits of a column)
        shift = 1
        while shift < s:
            top = sum(((1 << shift) - 1) << (c * s + s - shift) for c in range(w))
            self._smear.append((shift, np.int64(((1 << (w * s)) - 1) & ~top)))
            shift *= 2

    def _board(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(every stone, each column's sentinel bit) of every code."""
        s = codes
        for shift, keep in self._smear:  # every bit at or below a column's sentinel
            s = s | ((s >> shift) & keep)
        mask = (s >> 1) & self._smear[0][1] if self._smear else np.zeros_like(codes)
        return mask, s ^ mask

    def _has_line(self, stones: np.ndarray) -> np.ndarray:
        found = np.zeros(len(stones), dtype=np.int64)
        for shifts in self._shifts:
            m = stones
            for shift in shifts:
                m = m & (stones >> shift)
            found |= m
        has: np.ndarray = found != 0
        return has

    def expand(self, codes: np.ndarray) -> Expansion:
        codes = np.asarray(codes, dtype=np.int64)
        mask, sentinels = self._board(codes)
        x = codes ^ sentinels
        stones = popcount(mask)
        x_moves = (stones & 1) == 0
        last = np.where(x_moves, mask ^ x, x)  # the stones of the player who moved last
        primitive = np.full(len(codes), UNDECIDED, dtype=np.int8)
        primitive[mask == self._full] = TIE
        primitive[self._has_line(last)] = LOSE  # a line made with the last stone wins even on a full board
        open_ = primitive == UNDECIDED
        step = x_moves.astype(np.int64)
        degree = np.zeros(len(codes), dtype=np.int64)
        legal = np.empty((len(codes), self.width), dtype=bool)
        children = np.empty((len(codes), self.width), dtype=np.int64)
        for c in range(self.width):  # column by column: whole-length operations (a [n, width] broadcast runs 5 long)
            drop = sentinels & self._columns[c]  # the column's sentinel: where its next stone goes
            can = ((drop & self._tops[c]) == 0) & open_
            legal[:, c] = can
            degree += can
            children[:, c] = codes + (drop << step)
        return Expansion(player=(stones & 1).astype(np.int8), primitive=primitive, degree=degree, children=children[legal])

    def codes_of(self, texts: list[str]) -> np.ndarray:
        """Texts of digits only (a board up to 9 wide) dropped column by column for every text at once: -1 for a move
        that is no column or finds it full, or a line made before the last move (``parse`` says why)."""
        codes = np.array([self.game._bottom_all if text == "-" else -1 for text in texts], dtype=np.int64)  # - : the start
        which = np.array([i for i, text in enumerate(texts) if text.isdigit() and text.isascii()], dtype=np.int64)
        if self.width > 9 or not len(which):
            return codes
        chars = np.array([texts[i] for i in which.tolist()], dtype=bytes)  # NUL past each text's end
        moves = chars.view(np.uint8).reshape(len(which), -1).astype(np.int64) - ord("1")
        bottoms = np.array(self.game._bottom, dtype=np.int64)
        x, mask, last = (np.zeros(len(which), dtype=np.int64) for _ in range(3))
        ok = np.ones(len(which), dtype=bool)
        for i in range(moves.shape[1]):
            playing = moves[:, i] != -ord("1")
            c = np.clip(moves[:, i], 0, self.width - 1)
            cell = (mask + bottoms[c]) & self._columns[c] & ~self._tops[c]  # 0: the column is full
            ok &= ~playing | ((moves[:, i] == c) & (cell != 0))
            cell = np.where(playing & ok, cell, 0)
            mask |= cell
            last = np.where(playing, cell, last)
            if not i & 1:
                x |= cell
        before = mask ^ last  # the board before the last move: no line on it (the game was not over)
        ok &= ~(self._has_line(x & before) | self._has_line((mask ^ x) & before))
        codes[which[ok]] = (x + mask + self.game._bottom_all)[ok]
        return codes

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        found: list[str] = np.array(self.game._labels, dtype=object)[self.label_ids(parents, children)].tolist()
        return found

    def label_ids(self, parents: np.ndarray, children: np.ndarray) -> np.ndarray:
        """The 0-based column of every move ``parents[i] -> children[i]``."""
        diff = np.asarray(children, dtype=np.int64) - np.asarray(parents, dtype=np.int64)
        bit = np.log2(diff.astype(np.float64)).astype(np.int64)  # diff is a power of two: exact
        column: np.ndarray = bit // self.stride
        return column

    def texts(self, codes: np.ndarray) -> list[str]:
        """The smallest legal sequence of every board, all searched at once (:meth:`sequences`); the few boards
        whose search runs long, or that no sequence reaches (then the error), one by one as ``Connect4.format``."""
        game = self.game
        codes = np.asarray(codes, dtype=np.int64)
        unique, where = np.unique(codes, return_inverse=True)
        paths, lengths = self.sequences(unique)
        if self.width <= 9:  # columns as digits, NUL past each sequence's end (dropped as the bytes become str)
            # (a column at least: the empty board alone has sequences of no move, and a view of rows of no bytes is empty)
            paths = paths if paths.shape[1] else np.zeros((len(unique), 1), dtype=paths.dtype)
            digits = np.where(np.arange(paths.shape[1]) < lengths[:, None], paths + ord("1"), 0).astype(np.uint8)
            found: list[str] = np.ascontiguousarray(digits).view(f"S{paths.shape[1]}").ravel().astype(str).tolist()
        else:
            found = [",".join(game._labels[c] for c in row[:n]) for row, n in zip(paths.tolist(), lengths.tolist(), strict=True)]
        for i in (lengths < 0).nonzero()[0].tolist():
            found[i] = game.format(game.decode(int(unique[i])))
        texts: list[str] = [text or "-" for text in np.array(found, dtype=object)[where.ravel()].tolist()]
        return texts

    def sequences(self, codes: np.ndarray, steps: int = 64) -> tuple[np.ndarray, np.ndarray]:
        """The smallest legal move sequence (0-based columns, uint8 [n, most stones]) and its length for every board:
        ``Connect4._search``'s depth-first search, every board a step at a time together; -1 for a board not done in
        ``steps`` steps past its stones (or that nothing reaches)."""
        target, sentinels = self._board(codes)
        x, n = codes ^ sentinels, popcount(target)
        check = self._has_line(x) | self._has_line(target ^ x)  # then a line may only appear with the last stone
        bottoms = np.array(self.game._bottom, dtype=np.int64)
        paths = np.zeros((len(codes), int(n.max(initial=0))), dtype=np.uint8)
        lengths = np.full(len(codes), -1, dtype=np.int64)
        lengths[n == 0] = 0
        if check.any():  # a board with a line: a legal parent's sequence and the stone that made it (no long search)
            self._over(codes[check], target[check], x[check], n[check], bottoms, steps, paths, lengths, check.nonzero()[0])
        mask, k, after = np.zeros_like(codes), np.zeros_like(codes), np.zeros_like(codes)  # after: the columns tried
        live = ((n > 0) & ~check).nonzero()[0]
        for _ in range(int(n.max(initial=0)) + steps):
            if not len(live):
                break
            m, t, own, kk = mask[live], target[live], x[live], k[live]
            x_turn = (kk & 1) == 0
            cells = (m[:, None] + bottoms) & self._columns[None, :] & t[:, None]  # the next cell of each column, if the board's
            ok = (cells != 0) & (((cells & own[:, None]) != 0) == x_turn[:, None]) & (np.arange(self.width) >= after[live, None])
            late = (check[live] & (kk + 1 < n[live])).nonzero()[0]
            if len(late):  # the game must not be over before the last stone
                mover = np.where(x_turn[late], own[late], t[late] ^ own[late])
                grown = (m[late, None] | cells[late]) & mover[:, None]
                ok[late] &= ~self._has_line(grown.ravel()).reshape(len(late), self.width)
            moved = ok.any(axis=1)
            go, c = live[moved], ok[moved].argmax(axis=1)
            paths[go, k[go]] = c
            mask[go] |= cells[moved, c]
            k[go] += 1
            after[go] = 0
            back = live[~moved & (kk > 0)]  # a dead end: the last stone taken back, the next column tried
            k[back] -= 1
            c = paths[back, k[back]].astype(np.int64)
            column = mask[back] & self._columns[c]
            mask[back] ^= (column + bottoms[c]) >> 1  # the column's stones are consecutive from its bottom: its top one
            after[back] = c + 1
            done = go[k[go] == n[go]]
            lengths[done] = n[done]
            live = live[(k[live] < n[live]) & (moved | (kk > 0))]
        return paths, lengths

    def _over(self, codes: np.ndarray, target: np.ndarray, x: np.ndarray, n: np.ndarray, bottoms: np.ndarray, steps: int,
              paths: np.ndarray, lengths: np.ndarray, at: np.ndarray) -> None:
        """The smallest sequences of boards with a line into ``paths``/``lengths`` at ``at``: the least, over the last
        mover's top stones whose removal leaves no line (the legal parents), of the parent's sequence and that column."""
        mover = np.where(n & 1, x, target ^ x)
        parents = np.zeros((len(codes), self.width), dtype=np.int64)
        for c in range(self.width):
            column = target & self._columns[c]
            top = ((column + bottoms[c]) >> 1) & column & mover
            below, xs = target ^ top, x & ~top
            ok = (top != 0) & ~(self._has_line(xs) | self._has_line(below ^ xs))
            parents[:, c] = np.where(ok, xs + below + self.game._bottom_all, -1)
        board, column = (parents >= 0).nonzero()
        unique, where = np.unique(parents[board, column], return_inverse=True)
        found, found_lengths = self.sequences(unique, steps)  # boards without a line
        where = where.ravel()
        keep = ~np.isin(board, board[found_lengths[where] < 0])  # a parent not searched to its end: the board left (-1)
        board, column, where = board[keep], column[keep], where[keep]
        rows = np.zeros((len(board), paths.shape[1]), dtype=np.uint8)
        rows[:, : found.shape[1]] = found[where]
        rows[np.arange(len(board)), n[board] - 1] = column
        order = np.lexsort((*rows.T[::-1], board))  # by board, then the sequence
        first = order[np.r_[True, board[order][1:] != board[order][:-1]]] if len(order) else order
        paths[at[board[first]]] = rows[first]
        lengths[at[board[first]]] = n[board[first]]

    def format_paths(self, paths: np.ndarray) -> list[str]:
        """Texts of positions given their smallest move sequences (uint8 [n, stones] of 0-based columns)."""
        n, k = paths.shape
        if k == 0:
            return ["-"] * n
        if self.width <= 9:
            digits = np.ascontiguousarray(paths + ord("1"), dtype=np.uint8)
            texts: list[str] = digits.view(f"S{k}").ravel().astype(str).tolist()
            return texts
        labels = self.game._labels
        return [",".join(labels[c] for c in row) for row in paths.tolist()]

    def mirror(self, codes: np.ndarray) -> np.ndarray:
        codes = np.asarray(codes, dtype=np.int64)
        mirror = np.zeros_like(codes)
        for c in range(self.width):
            mirror |= ((codes >> (c * self.stride)) & self._chunk) << ((self.width - 1 - c) * self.stride)
        return mirror

    def canonical(self, codes: np.ndarray) -> np.ndarray:
        codes = np.asarray(codes, dtype=np.int64)
        least: np.ndarray = np.minimum(codes, self.mirror(codes))
        return least

    def class_sizes(self, codes: np.ndarray) -> np.ndarray:
        sizes: np.ndarray = 1 + (self.mirror(codes) != codes)
        return sizes

    def tiers(self, codes: np.ndarray) -> np.ndarray:
        return popcount(self._board(np.asarray(codes, dtype=np.int64))[0])
