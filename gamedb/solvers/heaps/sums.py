"""Answering positions of heap games: sums of stored components, by XOR.

The database of a heap game (:mod:`gamedb.games.heaps`) holds single heaps
0..N. A position is a sum of components (the heaps of ``3 5 7``, the ``+``
runs of ``++--+++``); by the Sprague-Grundy theorem its value is the XOR of
the components' values, looked up without enumerating the sum. Heaps above N
are answered from the proven period (:mod:`gamedb.solvers.heaps.periodicity`), without
computing anything; if no period is proven, such a query fails naming why.

Every move of the sum is still listed (up to :data:`MOVE_LIST_LIMIT`), each
with the value of the position it leads to: the sum's XOR with the moved
component's value replaced by that of the heaps it leaves.

Remoteness of a sum with at most one component that has moves is that
component's. The remoteness of a sum of several live components is not
determined by theirs: it is searched (:mod:`gamedb.solvers.heaps.sum_remoteness`) when
every component is a heap up to the game's ``remoteness_searched_to`` and
the search fits :data:`QUERY_SEARCH_BUDGET` positions, and is null (not
determined) otherwise. The best move of a single stored heap is the stored
one; of a sum it follows the solver's rule (:mod:`gamedb.solvers.heaps.values`): a
win moves to a zero-valued position, the quickest when all their
remotenesses are known; a loss to the slowest when all are known; otherwise
the lowest move order.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ...answers import Answer, impartial_players, set_delta_remoteness
from ...errors import GamedbError
from ...games.heaps import HeapGame
from ...store.damage import DamagedGame
from ...store.record import GameRecord
from ...store.rows import Reader
from ...values import LOSE, WIN
from .component_values import ComponentValues
from .periodicity import THEOREM, Periodicity
from .sum_moves import all_moves, best_by_search, best_of, stored_best

#: list every move only when the position has at most this many
MOVE_LIST_LIMIT = 10_000


def probe_sum(values: ComponentValues, position: str | None = None, *, move_limit: int | None = MOVE_LIST_LIMIT) -> Answer:
    """The value of a heap-game position and of every move from it, from the stored components."""
    record, game = values.record, values.game
    state = game.start() if position is None else game.parse(position)
    comps = game.heaps(state)
    values.need(comps)
    total = 0
    for n in comps:
        total ^= values.grundy(n)
    live = [i for i, n in enumerate(comps) if values.degree(n)]
    degree = sum(values.degree(n) for n in comps)
    remoteness = values.sum_remoteness([comps[i] for i in live])
    result = WIN if total else LOSE

    listed, best = [], None
    if degree and (move_limit is None or degree <= move_limit):
        listed = all_moves(game, state, comps, live, total, values)
        best = stored_best(game, state, comps, live, total, values) or best_of(listed, result)
    elif degree:
        best = best_by_search(game, state, comps, live, total, values)
    listed.sort(key=itemgetter(0))
    moves = [mv for _, mv in listed]
    if best is not None and not (moves and moves[0] is best):  # first, also where unknown remoteness leaves the sort undecided
        moves = [best] + [mv for mv in moves if mv.move != best.move]
    set_delta_remoteness(moves)
    player, winner = impartial_players(result)
    return Answer(
        game=record.name,
        position=game.format(state),
        player=player,
        result=result,
        winner=winner,
        remoteness=remoteness,
        degree=degree,
        best_move=best.move if best is not None else None,
        grundy=total,
        moves=moves,
        board=game.describe(state),
        moves_complete=not degree or bool(listed),
        impartial=True,
    )


def stats_summary(reader: Reader, record: GameRecord) -> dict[str, Any]:
    """What ``gamedb stats`` adds for a heap game (the strategy's hook): its period and which heaps have a remoteness."""
    if not (record.info and "periodicity" in record.info):
        return {}
    extra = periodicity_summary(record)
    extra["remoteness"], unknown = remoteness_summary(reader, record)
    return {"periodicity": record.info["periodicity"], "extra": extra, "remoteness_unknown": unknown}


def periodicity_summary(record: GameRecord) -> dict[str, Any]:
    """Lines for ``stats``: the period, pre-period and last exceptional value, or why there is none."""
    info = (record.info or {}).get("periodicity")
    if info is None:
        return {"period": "not looked for: the octal periodicity theorem does not apply to these rules"}
    per = Periodicity.from_dict(info)
    if per.proven:
        return {
            "period": per.period,
            "pre-period": per.preperiod,
            "last exceptional": per.last_exceptional if per.last_exceptional is not None else "none",
            "proof": f"{THEOREM}, from heaps 0..{per.checked_to}",
        }
    return {"period": f"not proven within heaps 0..{per.checked_to}: {per.reason}"}


def remoteness_summary(reader: Reader, record: GameRecord) -> tuple[str, int]:
    """The ``stats`` line on which heaps have a remoteness, and the number of heaps without one."""
    ((unknown,),) = reader.fetch("SELECT COUNT(*) FROM position WHERE game_id = ? AND remoteness IS NULL", (record.id,))
    searched_to = (record.info or {}).get("remoteness_searched_to", 0)
    if not unknown:
        return "known for every heap", 0
    return (
        f"exact for heaps 0..{searched_to} (sums of heaps searched); null (not determined) for {unknown:,} larger heaps "
        "that need the remoteness of a sum of two heaps with moves beyond the search",
        unknown,
    )


def probe_many(reader: Reader, record: GameRecord, game: HeapGame, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start); a position that fails gives its error in its place.

    The components read for one position are kept for the next (one
    :class:`ComponentValues` per batch); the search of sums' remoteness starts
    afresh for each, so a position gets the same answer alone or in a batch.
    """
    values = ComponentValues(reader, record, game)
    answers: list[Answer | GamedbError] = []
    for position in positions:
        values.new_search()  # each answer searches within its own budget: the same answer alone or in a batch
        try:
            answers.append(probe_sum(values, position))
        except DamagedGame:
            raise  # the file, not this position: one line naming the game, for the whole command
        except GamedbError as exc:
            answers.append(exc)
    return answers
