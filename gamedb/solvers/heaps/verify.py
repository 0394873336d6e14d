"""Rechecking a solved heap game in Python: every heap against its options by induction, the stored rules and period too."""

from __future__ import annotations

from typing import NoReturn, cast

import sqlalchemy as sa

from ...errors import VerifyError
from ...games.heaps import HeapGame
from ...plural import counted
from ...progress import Progress
from ...store.record import GameRecord
from ...store.rows import PositionRow, read_range
from ...values import LOSE, WIN, is_remoteness, mex
from .solver import analyse_values
from .sum_remoteness import SEARCH_BUDGET, SearchExhausted, SumSearch, best_option, nim_sum

#: verify searches at most this many sum positions (a stored ``remoteness_searched_to`` beyond is refused)
VERIFY_SEARCH_BUDGET = 4 * SEARCH_BUDGET

_RULES = sa.text("SELECT idx, take, parts, unequal FROM heap_rule WHERE game_id = :g ORDER BY idx")


def verify_heaps(conn: sa.Connection, record: GameRecord, game: HeapGame, *, progress: Progress | None = None) -> int:
    """Raise :class:`VerifyError` naming the first wrong heap; return the number of heaps checked."""

    def fail(what: str) -> NoReturn:
        raise VerifyError(f"{record.name}: {what}")

    rules = [tuple(r) for r in conn.execute(_RULES, {"g": record.id})]
    expected = [(i, r.take, r.parts, int(r.unequal)) for i, r in enumerate(game.rules)]
    if rules != expected:
        fail(f"the stored heap rules {rules} differ from the rules of {game.rules_name} {expected}")
    rows = read_range(conn, record, checked=False)  # judged below, with the rules
    if [row.code for row in rows] != list(range(game.max_heap + 1)):
        fail(f"expected exactly the heaps 0..{game.max_heap}, found {len(rows)} rows")
    # a malformed grundy is reported when its own row is checked, before the rows of larger heaps read it
    grundy = cast("list[int]", [row.grundy for row in rows])
    remoteness = [row.remoteness for row in rows]
    degree = [row.degree for row in rows]
    searched_to = (record.info or {}).get("remoteness_searched_to", 0)  # files solved before the search: 0
    if not isinstance(searched_to, int) or isinstance(searched_to, bool) or not 0 <= searched_to <= game.max_heap:
        fail(f"stored remoteness_searched_to {searched_to!r} is not a heap size 0..{game.max_heap}")
    search = SumSearch(game, grundy, degree, remoteness, budget=VERIFY_SEARCH_BUDGET)
    for row in rows:
        try:
            problem = _check_heap(game, row, grundy, remoteness, degree, search if row.code <= searched_to else None)
        except SearchExhausted:
            fail(f"stored remoteness_searched_to {searched_to}: the search of sums stops before heap {row.code}")
        if problem:
            fail(f"position {row.text!r}: {problem}")
        if progress and (row.code % 1000 == 0 or row.code == game.max_heap):
            progress("verify", row.code + 1, game.max_heap + 1)
    stored = (record.info or {}).get("periodicity")
    found = analyse_values(game, grundy)  # every heap 0..N, in order (checked above)
    if (found.to_dict() if found else None) != stored:
        fail(f"stored period {stored} differs from what the stored values show: {found.to_dict() if found else None}")
    if record.positions is not None and len(rows) != record.positions:
        fail(f"{counted(len(rows), 'position')} stored, the game row says {record.positions}")
    return len(rows)


def _check_heap(
    game: HeapGame, row: PositionRow, grundy: list[int], remoteness: list[int | None], degree: list[int], search: SumSearch | None
) -> str | None:
    n = row.code
    if row.text is not None and row.text != game.format(game.heap_state(n)):
        return f"stored text differs from the rules' text {game.format(game.heap_state(n))!r}"
    if row.player != 0:
        return f"stored player {row.player}, impartial positions are stored with player 0"
    if row.degree != game.heap_degree(n):
        return f"stored degree {row.degree!r}, the rules give {counted(game.heap_degree(n), 'move')}"
    # malformed values first: the rows of larger heaps read this one's grundy, remoteness and degree
    if not is_remoteness(row.grundy):
        return f"stored grundy {row.grundy!r} is not a non-negative integer"
    if row.result not in (WIN, LOSE):
        return f"stored result {row.result!r}, a heap game position is a win or a lose"
    if row.remoteness is not None and not is_remoteness(row.remoteness):
        return f"stored remoteness {row.remoteness!r} is not a non-negative integer"
    options = []  # (value, remoteness or None, (rule index, parts))
    for idx, parts in game.heap_options(n):
        live = tuple(sorted(p for p in parts if degree[p]))
        if len(live) <= 1:
            rem = remoteness[live[0]] if live else 0
        else:
            rem = search.of(live) if search is not None else None
        options.append((nim_sum(grundy[p] for p in parts), rem, (idx, parts)))
    grundy_here = mex(value for value, _, _ in options)
    if row.grundy != grundy_here:
        return f"stored grundy {row.grundy}, the mex of its options' values is {grundy_here}"
    result = WIN if grundy_here else LOSE
    if row.result != result:
        return f"stored result {row.result}, grundy {grundy_here} means {result}"
    found = best_option(options, result == WIN)
    rem, best = 0, None
    if found is not None:
        least, (idx, parts) = found
        rem = None if least is None else 1 + least
        best = game.option_move(game.heap_state(n), 0, idx, parts)[0]
    if row.remoteness != rem:
        return f"stored remoteness {row.remoteness}, the options give {rem}"
    if row.best_move != best:
        return f"stored best move {row.best_move!r}, expected {best!r}"
    return None
