"""Value conventions (Gamesman): every value is for the player to move.

Preference of the mover: lose < draw < tie < win.
"""

from __future__ import annotations

WIN = "win"
LOSE = "lose"
TIE = "tie"
DRAW = "draw"

RESULTS = (WIN, LOSE, TIE, DRAW)

#: the same results as small integers, for the numpy paths (:mod:`gamedb.games.vector`);
#: code 0 means not decided yet
RESULT_CODES = {WIN: 1, LOSE: 2, TIE: 3, DRAW: 4}
RESULT_NAMES = (None, *RESULT_CODES)

#: a child's value is for the opponent; this is what it means for the mover
FOR_MOVER = {WIN: LOSE, LOSE: WIN, TIE: TIE, DRAW: DRAW}


def move_sort_key(result: str, remoteness: int | None, order: int) -> tuple:
    """Sort key that puts the mover's best move first.

    ``result`` and ``remoteness`` are the child's (for the opponent). Winning
    moves come first, fastest win first; then ties (shortest first), then
    draws, then losing moves (longest resistance first); equal moves keep the
    family's move order.
    """
    mine = FOR_MOVER[result]
    r = remoteness if remoteness is not None else 0
    if mine == WIN:
        return (0, r, order)
    if mine == TIE:
        return (1, r, order)
    if mine == DRAW:
        return (2, 0, order)
    return (3, -r, order)


def is_remoteness(value) -> bool:
    """A remoteness as stored for a decided position: a non-negative integer."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def value_problem(result, remoteness) -> str | None:
    """What makes a stored (result, remoteness) pair impossible, or None when it is well formed.

    A result is one of :data:`RESULTS`; win, lose and tie carry a
    non-negative integer remoteness, a draw none. Says nothing about whether
    the value is *right* (that needs the children).
    """
    if result not in RESULTS:
        return f"stored result {result!r} is not one of {', '.join(RESULTS)}"
    if result == DRAW:
        if remoteness is not None:
            return f"stored draw with remoteness {remoteness!r} (a draw has none)"
    elif not is_remoteness(remoteness):
        return f"stored {result} with remoteness {remoteness!r} (a {result} needs a non-negative integer)"
    return None


def value_from_children(primitive: str | None, children: list[tuple[str, int | None]]):
    """The (result, remoteness) a position must have, from its children's values.

    ``children`` holds (result, remoteness) of every child, for the opponent,
    each well formed (the caller checks them with :func:`value_problem`).
    Used by ``verify``; the engine computes the same thing set-based in SQL.
    """
    if primitive is not None:
        return primitive, 0
    if not children:
        raise ValueError("a non-primitive position must have moves")
    loses = [r for res, r in children if res == LOSE]
    if loses:
        return WIN, 1 + min(loses)
    if all(res == WIN for res, _ in children):
        return LOSE, 1 + max(r for _, r in children)
    ties = [r for res, r in children if res == TIE]
    if ties:
        return TIE, 1 + min(ties)
    return DRAW, None


def mex(values) -> int:
    """The least non-negative integer not among ``values``."""
    present = set(values)
    least = 0
    while least in present:
        least += 1
    return least
