"""Answering positions of heap games: a sum of stored components valued by XOR (Sprague-Grundy), heaps above N by the period.

Every move is listed (up to :data:`MOVE_LIST_LIMIT`) and valued; the remoteness
of several live components is searched within a query's budget, null beyond.
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
from .sum_remoteness import nim_sum

#: list every move only when the position has at most this many
MOVE_LIST_LIMIT = 10_000


def probe_sum(values: ComponentValues, position: str | None = None, *, move_limit: int | None = MOVE_LIST_LIMIT) -> Answer:
    """The value of a heap-game position and of every move from it, from the stored components."""
    record, game = values.record, values.game
    state = game.start() if position is None else game.parse(position)
    comps = game.heaps(state)
    values.need(comps)
    total = nim_sum(map(values.grundy, comps))
    live = [i for i, n in enumerate(comps) if values.degree(n)]
    degree = sum(values.degree(n) for n in comps)
    remoteness = values.remoteness_of(tuple(sorted(comps[i] for i in live)))
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
        game=record.name, position=game.format(state), player=player, result=result, winner=winner, remoteness=remoteness, degree=degree,
        best_move=best.move if best is not None else None, grundy=total, moves=moves, board=game.describe(state),
        moves_complete=not degree or bool(listed), impartial=True,
    )


def stats_summary(reader: Reader, record: GameRecord) -> dict[str, Any]:
    """What ``gamedb stats`` adds for a heap game (the strategy's hook): its period and which heaps have a remoteness."""
    info = record.info or {}
    if "periodicity" not in info:
        return {}
    extra: dict[str, Any]
    if info["periodicity"] is None:
        extra = {"period": "not looked for: the octal periodicity theorem does not apply to these rules"}
    elif (per := Periodicity.from_dict(info["periodicity"])).proven:
        extra = {
            "period": per.period,
            "pre-period": per.preperiod,
            "last exceptional": per.last_exceptional if per.last_exceptional is not None else "none",
            "proof": f"{THEOREM}, from heaps 0..{per.checked_to}",
        }
    else:
        extra = {"period": f"not proven within heaps 0..{per.checked_to}: {per.reason}"}
    ((unknown,),) = reader.fetch("SELECT COUNT(*) FROM position WHERE game_id = ? AND remoteness IS NULL", (record.id,))
    extra["remoteness"] = "known for every heap" if not unknown else (
        f"exact for heaps 0..{info.get('remoteness_searched_to', 0)} (sums of heaps searched); null (not determined) for {unknown:,} "
        "larger heaps that need the remoteness of a sum of two heaps with moves beyond the search"
    )
    return {"periodicity": info["periodicity"], "extra": extra, "remoteness_unknown": unknown}


def probe_many(reader: Reader, record: GameRecord, game: HeapGame, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start), the components read kept for the batch; a failure gives its error in its place."""
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
