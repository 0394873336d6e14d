"""The board and pieces of Dōbutsu shōgi (:mod:`.dobutsu`), shared by its rules on codes and on arrays."""

from __future__ import annotations

LION, GIRAFFE, ELEPHANT, CHICK, HEN = 1, 2, 3, 4, 5
SECOND = 8  # owner bit of a square's value
HAND, TURN = 48, 60  # bit offsets: hand counts (2 bits each, player * 6 + 2 * kind), player to move
CHARS = ".LGECH"
HAND_KINDS = "GEC"  # hand slot k holds pieces of kind k + 2
#: the eight directions (row step, column step) in the family's move order; rows grow toward the first player
DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
#: the steps of each kind for the first player (forward is row - 1); the second player's are mirrored in rows
STEPS = {
    LION: frozenset(DIRS),
    GIRAFFE: frozenset({(-1, 0), (0, -1), (0, 1), (1, 0)}),
    ELEPHANT: frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1)}),
    CHICK: frozenset({(-1, 0)}),
    HEN: frozenset({(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)}),
}

def square_name(s: int) -> str:
    return "abc"[s % 3] + str(s // 3 + 1)


def steps(value: int) -> list[tuple[int, int, int]]:
    """(direction index, row step, column step) of every step the piece ``value`` (kind and owner) may take."""
    kind, mirror = value & 7, -1 if value & SECOND else 1
    return [(i, dr, dc) for i, (dr, dc) in enumerate(DIRS) if (dr * mirror, dc) in STEPS[kind]]


def target(s: int, dr: int, dc: int) -> int | None:
    r, c = s // 3 + dr, s % 3 + dc
    return 3 * r + c if 0 <= r < 4 and 0 <= c < 3 else None


def hand_kind(kind: int) -> int:
    """The hand slot (0 G, 1 E, 2 C) a captured piece of ``kind`` goes to: a hen goes back as a chick."""
    return CHICK - 2 if kind == HEN else kind - 2


#: the nibbles of column a (column c is 8 bits up)
COLUMN_A = sum(15 << (12 * r) for r in range(4))


def mirrored(code: int) -> int:
    """The position with columns a and c swapped (a symmetry of the game)."""
    return (code & ~(COLUMN_A | COLUMN_A << 8)) | ((code >> 8) & COLUMN_A) | ((code & COLUMN_A) << 8)


def rotated(code: int) -> int:
    """The position seen by the other player: the board turned half round, owners, hands and turn swapped."""
    board = 0
    for s in range(12):
        value = (code >> 4 * s) & 15
        board |= (value ^ SECOND if value else 0) << 4 * (11 - s)
    hands = (code >> HAND) & 0o7777
    return board | ((hands & 0o77) << 6 | hands >> 6) << HAND | (~code & 1 << TURN)
