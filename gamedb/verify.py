"""Re-derive every stored value from the rules and the children's stored values.

For each stored position (in pages, ordered by code) the rules give its
player, text, primitive value and moves; the children's stored values then
fix what its result, remoteness, degree and best move must be
(:func:`gamedb.values.value_from_children`). Win and lose remoteness are
checked exactly, so by induction on remoteness a table that passes is right
everywhere, draws included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import sqlalchemy as sa

from .catalog import GameRecord
from .errors import VerifyError
from .games.base import Game
from .games.heap import HeapGame
from .query import fetch_rows
from .values import DRAW, LOSE, TIE, WIN, value_from_children

Progress = Callable[[str, int, "int | None"], None]


@dataclass
class VerifyReport:
    game: str
    positions: int


MAX_FAILURES = 100_000

_PAGE = sa.text(
    "SELECT code, text, player, result, remoteness, degree, best_move, grundy FROM position "
    "WHERE game_id = :g AND code > :after ORDER BY code LIMIT :n"
)


def verify(engine: sa.Engine, record: GameRecord, game: Game, *, batch: int = 5000, progress: Progress | None = None) -> VerifyReport:
    """Raise :class:`VerifyError` naming a wrong position.

    The whole table is checked. When values disagree, the position named is
    the first (in code order) whose children all passed: a hand-edited value
    makes its parents disagree too, and this names the edited one.
    """
    record.require_solved()
    if isinstance(game, HeapGame):  # one row per heap, moves as rules
        from .heap_verify import verify_heaps

        return VerifyReport(record.name, verify_heaps(engine, record, game, progress=progress))
    checked, after = 0, -1
    failures: dict[int, tuple[str, list[int]]] = {}
    with engine.connect() as conn:
        if not conn.execute(sa.text("SELECT 1 FROM position WHERE game_id = :g AND code = :c"), {"g": record.id, "c": record.start_code}).first():
            raise VerifyError(f"{record.name}: the start position {record.start_position!r} is not stored")
        while True:
            rows = conn.execute(_PAGE, {"g": record.id, "after": after, "n": batch}).all()
            if not rows:
                break
            after = rows[-1].code
            expanded = [game.expand(row.code) for row in rows]
            values = fetch_rows(conn, record.id, [child for _, _, _, moves in expanded for _, child in moves])
            for row, exp in zip(rows, expanded):
                problem = _check(row, exp, values, record.impartial)
                if problem and len(failures) < MAX_FAILURES:
                    failures[row.code] = (f"position {row.text!r}: {problem}", [c for _, c in exp[3]])
            checked += len(rows)
            if progress:
                progress("verify", checked, record.positions)
    if failures:
        roots = [code for code, (_, children) in failures.items() if not any(c in failures for c in children)]
        first = failures[min(roots) if roots else min(failures)][0]
        more = f" ({len(failures) - 1} more positions disagree)" if len(failures) > 1 else ""
        raise VerifyError(f"{record.name}: {first}{more}")
    if record.positions is not None and checked != record.positions:
        raise VerifyError(f"{record.name}: {checked} positions stored, the game row says {record.positions}")
    return VerifyReport(record.name, checked)


class _Mismatch(Exception):
    pass


def _check(row, expanded, values, impartial: bool = False) -> str | None:
    """What is wrong with one stored position, or None."""
    try:
        _check_row(row, expanded, values)
        if impartial:
            _check_grundy(row, expanded, values)
    except _Mismatch as exc:
        return str(exc)
    return None


def _check_row(row, expanded, values) -> None:
    player, text, prim, moves = expanded

    def fail(what: str):
        raise _Mismatch(what)

    if text != row.text:
        fail(f"stored text differs from the rules' text {text!r}")
    if player != row.player:
        fail(f"stored player {row.player}, the rules say {player}")
    if row.degree != len(moves):
        fail(f"stored degree {row.degree}, the rules give {len(moves)} moves")
    children = []
    for label, child in moves:
        if child not in values:
            fail(f"move {label} leads to a position that is not stored (code {child})")
        _, cres, crem, _ = values[child]
        if cres is None:
            fail(f"move {label} leads to a position with no stored result")
        children.append((cres, crem))
    try:
        result, remoteness = value_from_children(prim, children)
    except ValueError as exc:
        fail(str(exc))
    if (row.result, row.remoteness) != (result, remoteness):
        fail(f"stored {row.result} in {row.remoteness}, the rules and children give {result} in {remoteness}")
    best = _best_move(result, remoteness, moves, children)
    if row.best_move != best:
        fail(f"stored best move {row.best_move!r}, expected {best!r}")


def _check_grundy(row, expanded, values) -> None:
    """Impartial games: grundy is the mex of the children's values, and 0 exactly for a loss."""
    grundies = [values[child][3] for _, child in expanded[3]]
    grundy = None if None in grundies else mex(grundies)  # a position on a cycle has none
    if row.grundy != grundy:
        raise _Mismatch(f"stored grundy {row.grundy}, the mex of the children's values is {grundy}")
    if grundy is not None and (grundy == 0) != (row.result == LOSE):
        raise _Mismatch(f"grundy {grundy} disagrees with result {row.result} (a loss exactly when grundy is 0)")


def mex(values) -> int:
    """The least non-negative integer not among ``values``."""
    present = set(values)
    least = 0
    while least in present:
        least += 1
    return least


def _best_move(result, remoteness, moves, children):
    wanted = {WIN: LOSE, LOSE: WIN, TIE: TIE, DRAW: DRAW}[result]
    for (label, _), (cres, crem) in zip(moves, children):
        if cres != wanted:
            continue
        if result == DRAW or crem == remoteness - 1:
            return label
    return None
