"""Value conventions (Gamesman): every value is for the player to move; the mover prefers win > tie > draw > lose."""

from collections.abc import Iterable

WIN = "win"
LOSE = "lose"
TIE = "tie"
DRAW = "draw"

RESULTS = (WIN, LOSE, TIE, DRAW)

#: the results as small integers: the numpy paths' codes and ``position.result`` as stored (revision 0007; 0, not
#: decided yet, is stored as NULL); README.md ("Looking positions up with plain SQL") shows this table
RESULT_CODES = {WIN: 1, LOSE: 2, TIE: 3, DRAW: 4}
RESULT_NAMES = (None, *RESULT_CODES)
#: a stored result (a code, or the word in a file below revision 0007) -> its word
RESULT_WORDS: dict[object, str] = {**{code: word for word, code in RESULT_CODES.items()}, **{word: word for word in RESULT_CODES}}


def result_word_sql(column: str, *, older_words: bool = False) -> str:
    """SQL reading a stored result code as its word (NULL: undecided); ``older_words``: a file below revision 0007 stores the
    word itself, kept as it is, and any other value is given as text (the reader's damage check names it)."""
    if not older_words:
        return f"CASE {column} " + " ".join(f"WHEN {code} THEN '{word}'" for word, code in RESULT_CODES.items()) + " END"
    text = f"CAST({column} AS TEXT)"
    return f"CASE {text} " + " ".join(f"WHEN '{code}' THEN '{word}'" for word, code in RESULT_CODES.items()) + f" ELSE {text} END"

#: a child's value is for the opponent; this is what it means for the mover
FOR_MOVER = {WIN: LOSE, LOSE: WIN, TIE: TIE, DRAW: DRAW}

#: (rank, sign of the remoteness) of a move by its child's result: winning moves (the child lost) first, quickest
#: first; then ties, quickest first; draws; losing moves last, slowest first
_RANK = {LOSE: (0, 1), TIE: (1, 1), DRAW: (2, 0), WIN: (3, -1)}


def move_sort_key(result: str, remoteness: int | None, order: int) -> tuple[int, int, int]:
    """Sort key that puts the mover's best move first, from the child's value; equal moves keep the move order."""
    return (*move_rank(result, remoteness), order)


def move_rank(result: str, remoteness: int | None) -> tuple[int, int]:
    """:func:`move_sort_key` without the move order, for a stable sort."""
    rank, sign = _RANK[result]
    return (rank, sign * remoteness if remoteness is not None else 0)


def is_remoteness(value: object) -> bool:
    """A remoteness as stored for a decided position: a non-negative integer."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def value_problem(result: object, remoteness: object) -> str | None:
    """What makes a stored (result, remoteness) pair impossible (not whether it is right), or None."""
    if result not in RESULTS:
        return f"stored result {result!r} is not one of {', '.join(RESULTS)}"
    if result == DRAW:
        if remoteness is not None:
            return f"stored draw with remoteness {remoteness!r} (a draw has none)"
    elif not is_remoteness(remoteness):
        return f"stored {result} with remoteness {remoteness!r} (a {result} needs a non-negative integer)"
    return None


def value_from_children(primitive: str | None, children: list[tuple[str, int | None]]) -> tuple[str, int | None]:
    """The (result, remoteness) a position must have, from its children's well-formed values (for ``verify``)."""
    if primitive is not None:
        return primitive, 0
    if not children:
        raise ValueError("a non-primitive position must have moves")
    loses = [r for res, r in children if res == LOSE and r is not None]
    if loses:
        return WIN, 1 + min(loses)
    if all(res == WIN for res, _ in children):
        return LOSE, 1 + max(r for _, r in children if r is not None)
    ties = [r for res, r in children if res == TIE and r is not None]
    if ties:
        return TIE, 1 + min(ties)
    return DRAW, None


def best_move(result: str, remoteness: int | None, children: list[tuple[str, tuple[str, int | None]]]) -> str | None:
    """The label of the best move (the solvers' rule) of a position valued ``result`` in ``remoteness``, from its moves'
    (label, child's value) in move order: the first that keeps the value (a draw: the first drawing child); None: none."""
    wanted = FOR_MOVER.get(result)
    for label, (cres, crem) in children:
        if cres == wanted and (remoteness is None or crem == remoteness - 1):
            return label
    return None


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not among ``values``."""
    present = set(values)
    least = 0
    while least in present:
        least += 1
    return least
