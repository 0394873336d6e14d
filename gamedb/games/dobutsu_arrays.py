"""Dōbutsu shōgi on numpy arrays: the rules of :mod:`.dobutsu` forward (:meth:`DobutsuArrays.expand`) and
backward (:meth:`DobutsuArrays.parents`), the left-right mirror and the rotation that swaps the players.

Every position has the same move slots, in the family's move order: a step
from each square in each of the eight directions, then a drop of each hand
kind on each square; a slot is used when the move is legal. Codes are the
family's (see :mod:`.dobutsu`): a move adds a few shifted nibbles to a code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .dobutsu_board import CHICK, DIRS, HAND, HAND_KINDS, HEN, LION, SECOND, TURN, square_name, steps, target
from .vector import LOSE, UNDECIDED, WIN, Expansion, VectorRules

_SHIFT = 4 * np.arange(12, dtype=np.int64)
#: CAN[value, d]: the piece ``value`` (kind and owner) may step in direction d
CAN = np.zeros((16, 8), dtype=bool)
for _value in [k | o for k in range(LION, HEN + 1) for o in (0, SECOND)]:
    CAN[_value, [d for d, _, _ in steps(_value)]] = True
#: TO[s, d]: the square one step from s in direction d, or 12 (off the board)
TO = np.array([[12 if (t := target(s, dr, dc)) is None else t for dr, dc in DIRS] for s in range(12)], dtype=np.int64)
#: FROM[t, d]: the square a step in direction d to t came from, or 12
FROM = np.array([[12 if (s := target(t, -dr, -dc)) is None else s for dr, dc in DIRS] for t in range(12)], dtype=np.int64)
#: the hand slot (0 G, 1 E, 2 C) of a captured piece, by kind (0 and the lion: none)
_HAND_SLOT = np.array([0, 0, 0, 1, 2, 2, 0, 0], dtype=np.int64)
_ROW = np.arange(13, dtype=np.int64) // 3  # the row of a square (12: off the board)
_COL0 = sum(15 << (12 * r) for r in range(4))  # the nibbles of column a
_NAMES = [square_name(s) for s in range(12)]
#: the byte of every square's value in a position's text, and of either player to move
_CHAR_BYTES = np.frombuffer(b".LGECH..-lgech..".replace(b"-", b"."), dtype=np.uint8)
_TURN_BYTES = np.array([list(b"first\0"), list(b"second")], dtype=np.uint8)


def boards(codes: np.ndarray) -> np.ndarray:
    """The twelve squares of every position: int64 [n, 13], column 12 an always-empty square off the board."""
    octets = np.ascontiguousarray(codes, dtype="<i8").view(np.uint8).reshape(len(codes), 8)[:, :6]
    out = np.zeros((len(codes), 13), dtype=np.int64)
    out[:, 0:12:2], out[:, 1:12:2] = octets & 15, octets >> 4
    return out


def sorted_unique(codes: np.ndarray) -> np.ndarray:
    """The distinct values of ``codes``, sorted (a sort: faster than numpy's hashing unique on int64 codes)."""
    codes = np.sort(codes)
    return codes[np.concatenate(([True], codes[1:] != codes[:-1]))] if len(codes) else codes


class DobutsuArrays(VectorRules):
    code_limit = 1 << 61

    def __init__(self, game: Any) -> None:  # game: the Dobutsu family (it imports this module)
        self.game = game

    def primitive(self, codes: np.ndarray) -> np.ndarray:
        """WIN, LOSE or UNDECIDED for the player to move of every position (the family's :meth:`primitive`)."""
        board = boards(codes)
        player = codes >> TURN
        own = (SECOND * player)[:, None]
        their_lion = (board[:, :12] == (LION | (SECOND - own))).argmax(axis=1)
        own_lion = (board[:, :12] == (LION | own)).argmax(axis=1)
        near = np.take_along_axis(board, FROM[their_lion], axis=1)  # [n, 8]: the square a step d onto the lion starts from
        capture = (CAN[near, np.arange(8)] & ((near & SECOND) == own)).any(axis=1)
        out = np.full(len(codes), UNDECIDED, dtype=np.int8)
        out[_ROW[their_lion] == 3 - 3 * player] = LOSE
        out[(_ROW[own_lion] == 3 * player) | capture] = WIN
        return out

    def expand(self, codes: np.ndarray) -> Expansion:
        codes = codes_in = np.asarray(codes, dtype=np.int64)
        primitive = self.primitive(codes)
        live = np.nonzero(primitive == UNDECIDED)[0]  # a position whose game is over has no move
        codes, n = codes[live], len(live)
        board = boards(codes)
        player = codes >> TURN
        own = (SECOND * player)[:, None]
        mine = (board != 0) & ((board & SECOND) == own)
        step = CAN[board[:, :12]] & mine[:, :12, None] & ~mine[:, TO] & (TO < 12)
        drop = (((codes[:, None] >> (HAND + 6 * player[:, None] + 2 * np.arange(3))) & 3) > 0)[:, :, None] & (board[:, None, :12] == 0)
        legal = np.concatenate([step.reshape(n, 96), drop.reshape(n, 36)], axis=1)
        degree = np.zeros(len(primitive), dtype=np.int64)
        degree[live] = legal.sum(axis=1)
        i, slot = np.nonzero(legal)  # every move, by position and then in the family's move order
        is_drop = slot >= 96
        s, t = np.where(is_drop, 12, slot // 8), np.where(is_drop, (slot - 96) % 12, TO.ravel()[np.minimum(slot, 95)])
        value, landed, hand = board[i, s], board[i, t], HAND + 6 * player[i]
        gain = np.where(landed != 0, np.int64(1) << (hand + 2 * _HAND_SLOT[landed & 7]), 0)
        new = np.where(((value & 7) == CHICK) & (_ROW[t] == 3 * player[i]), HEN | own[i, 0], value)
        kind = (slot - 96) // 12
        new = np.where(is_drop, (kind + 2) | own[i, 0], new)
        gain = np.where(is_drop, -(np.int64(1) << (hand + 2 * kind)), gain)
        children = (codes[i] ^ (1 << TURN)) - (value << (4 * s % 48)) + ((new - landed) << 4 * t) + gain
        return Expansion(player=(np.asarray(codes_in) >> TURN).astype(np.int8), primitive=primitive, degree=degree, children=children)

    def parents(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(which, parent)``: every position ``parent[i]`` with a legal move to ``codes[which[i]]``, each pair once.

        A parent whose game is over (it has no move) is left out, read from the child's board: only the squares
        the un-move changes differ."""
        codes = np.asarray(codes, dtype=np.int64)
        n = len(codes)
        board = boards(codes)
        mover = 1 - (codes >> TURN)  # who made the move
        own = SECOND * mover
        value = board[:, :12]  # the piece that moved or was dropped, on its target
        mine = (value != 0) & ((value & SECOND) == own[:, None])
        far = _ROW[None, :12] == 3 * mover[:, None]
        stepped = mine[:, :, None] & (board[:, FROM] == 0) & (FROM[None] < 12)  # [n, 12, 8]: from an empty square
        same = stepped & CAN[value] & ~(far & ((value & 7) == CHICK))[:, :, None]  # a chick on the far rank was dropped
        promoted = stepped & (far & (value == (HEN | own[:, None])))[:, :, None] & CAN[CHICK | own][:, None, :]
        had = ((codes[:, None] >> (HAND + 6 * mover[:, None] + 2 * np.arange(3))) & 3) > 0
        taken_ok = np.concatenate([np.ones((n, 1), dtype=bool), had[:, [0, 1, 2, 2]]], axis=1)  # nothing, G, E, C, H taken
        i, unpromote, slot = np.nonzero(np.stack([same.reshape(n, 96), promoted.reshape(n, 96)], axis=1))
        r, taken = np.nonzero(taken_ok[i])  # each un-move once per piece it may have taken
        i, unpromote, slot = i[r], unpromote[r], slot[r]
        j, dropped_on = np.nonzero(mine & ((value & 7) >= 2) & ((value & 7) <= CHICK))  # un-drops
        t = np.concatenate([slot // 8, dropped_on])
        i = np.concatenate([i, j])
        s = np.concatenate([FROM.ravel()[slot], np.full(len(j), 12)])  # 12: a drop comes from no square
        moved, side, drop = value[i, t], own[i], np.arange(len(i)) >= len(slot)
        was = np.where(drop, 0, np.where(np.concatenate([unpromote, np.zeros(len(j), dtype=np.int64)]) == 1, CHICK | side, moved))
        kind = np.array([0, 2, 3, 4, 5])[np.concatenate([taken, np.zeros(len(j), dtype=np.int64)])]
        lost = np.where(kind > 0, kind | (SECOND - side), 0)  # the piece captured, back on the target
        hand = np.int64(1) << (HAND + 6 * mover[i] + 2 * _HAND_SLOT[np.where(drop, moved & 7, kind)])
        parent = (codes[i] ^ (1 << TURN)) - (moved << 4 * t) + (was << (4 * s % 48)) + (lost << 4 * t) + np.where(drop, hand, -hand * (kind > 0))
        # the parent's game is over when its player can take the other lion, or its own lion stands on its far
        # rank, or the other lion stands on its back rank (the child's own lion on the far rank: no parent)
        their = (value == (LION | (SECOND - own))[:, None]).argmax(axis=1)
        lion = np.where((moved & 7) == LION, s, (value == (LION | own)[:, None]).argmax(axis=1)[i])
        around = FROM[their[i]]  # [m, 8]: where a step onto the other lion starts
        near = np.where(around == s[:, None], was[:, None], np.where(around == t[:, None], lost[:, None], board[i[:, None], around]))
        capture = (CAN[near, np.arange(8)] & ((near & SECOND) == side[:, None])).any(axis=1)
        keep = ~capture & (_ROW[lion] != 3 * mover[i]) & (_ROW[their[i]] != 3 - 3 * mover[i])
        return i[keep], parent[keep]

    def mirror(self, codes: np.ndarray) -> np.ndarray:
        """The left-right mirror of every position (columns a and c swapped): a symmetry of the game."""
        codes = np.asarray(codes, dtype=np.int64)
        mirrored: np.ndarray = (codes & ~np.int64(_COL0 | _COL0 << 8)) | ((codes >> 8) & _COL0) | ((codes & _COL0) << 8)
        return mirrored

    def rotate(self, codes: np.ndarray) -> np.ndarray:
        """Every position seen by the other player: the board turned half round, owners, hands and turn swapped."""
        codes = np.asarray(codes, dtype=np.int64)
        board = np.zeros_like(codes)
        for s in range(12):
            board |= ((codes >> 4 * s) & 15) << 4 * (11 - s)
        occupied = (board | board >> 1 | board >> 2) & 0x111111111111  # kinds are 1-5: one of their three bits is set
        hands = (codes >> HAND) & 0o7777
        rotated: np.ndarray = (board ^ (occupied << 3)) | ((((hands & 0o77) << 6) | (hands >> 6)) << HAND) | (~codes & (1 << TURN))
        return rotated

    def canonical(self, codes: np.ndarray) -> np.ndarray:
        """The least of every position, its mirror, its rotation and the rotation's mirror (the game's symmetries)."""
        turned = self.rotate(codes)
        least: np.ndarray = np.minimum(np.minimum(codes, self.mirror(codes)), np.minimum(turned, self.mirror(turned)))
        return least

    def texts(self, codes: np.ndarray) -> list[str]:
        """The family's text of every position, built as bytes on arrays (the rows, then the hands and the turn
        with their unused bytes moved to the end, where they are dropped)."""
        codes = np.asarray(codes, dtype=np.int64)
        n = len(codes)
        out = np.zeros((n, 35), dtype=np.uint8)
        out[:, [r * 4 + c for r in range(4) for c in range(3)]] = _CHAR_BYTES[boards(codes)[:, :12]]
        out[:, [3, 7, 11, 15]] = ord("/")
        out[:, 15] = ord(" ")
        tail = out[:, 16:]
        for p in (0, 1):
            for k, letter in enumerate(HAND_KINDS):
                count = (codes >> (HAND + 6 * p + 2 * k)) & 3
                for j in (0, 1):
                    tail[:, 6 * p + 2 * k + j] = np.where(count > j, ord(letter.lower() if p else letter), 0)
        tail[:, 0] = np.where((codes >> HAND) & 0o7777, tail[:, 0], ord("-"))
        tail[:, 12] = ord(" ")
        tail[:, 13:] = _TURN_BYTES[codes >> TURN]
        tail[:] = np.take_along_axis(tail, np.argsort(tail == 0, axis=1, kind="stable"), axis=1)
        texts: list[str] = out.view("S35").ravel().astype("U35").tolist()
        return texts

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        before, after = boards(np.asarray(parents, dtype=np.int64))[:, :12], boards(np.asarray(children, dtype=np.int64))[:, :12]
        changed = before != after
        source = (changed & (after == 0)).argmax(axis=1)
        dest = (changed & (after != 0)).argmax(axis=1)
        drop = changed.sum(axis=1) == 1
        kinds = after[np.arange(len(dest)), dest] & 7
        return [
            f"{HAND_KINDS[k - 2]}*{_NAMES[t]}" if d else _NAMES[s] + _NAMES[t]
            for d, k, s, t in zip(drop.tolist(), kinds.tolist(), source.tolist(), dest.tolist(), strict=True)
        ]
