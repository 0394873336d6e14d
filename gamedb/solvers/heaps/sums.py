"""Answering positions of heap games: a sum of stored components valued by XOR (Sprague-Grundy), heaps above N by the period;
every move listed (up to :data:`MOVE_LIST_LIMIT`) and valued, the remoteness of live sums searched within a query's budget."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ...answers import Answer, MoveValue, impartial_players, set_delta_remoteness
from ...errors import BeyondSolvedRange, GamedbError
from ...games.base import State
from ...games.heaps import HeapGame
from ...store.damage import DamagedGame
from ...store.record import GameRecord
from ...store.rows import Reader
from ...values import LOSE, WIN, move_rank, move_sort_key
from .component_values import ComponentValues
from .periodicity import THEOREM, Periodicity
from .sum_remoteness import best_option, nim_sum

#: list every move only when the position has at most this many
MOVE_LIST_LIMIT = 10_000


def probe_sum(values: ComponentValues, position: str | None = None) -> Answer:
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
    if degree and degree <= MOVE_LIST_LIMIT:
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
        last = per.last_exceptional if per.last_exceptional is not None else "none"
        extra = {"period": per.period, "pre-period": per.preperiod, "last exceptional": last, "proof": f"{THEOREM}, from heaps 0..{per.checked_to}"}
    else:
        extra = {"period": f"not proven within heaps 0..{per.checked_to}: {per.reason}"}
    ((unknown,),) = reader.fetch("SELECT COUNT(*) FROM position WHERE game_id = ? AND remoteness IS NULL", (record.id,))
    extra["remoteness"] = "known for every heap" if not unknown else (
        f"exact for heaps 0..{info.get('remoteness_searched_to', 0)} (sums of heaps searched); null (not determined) for {unknown:,} "
        "larger heaps that need the remoteness of a sum of two heaps with moves beyond the search"
    )
    return {"periodicity": info["periodicity"], "extra": extra, "remoteness_unknown": unknown}


def probe_many(
    reader: Reader, record: GameRecord, game: HeapGame, positions: Sequence[str | None], *, boards: bool = True, lines: bool = False
) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start), the components read kept for the batch; a failure gives its error in
    its place (``lines``: left to :func:`gamedb.query.answer_positions`, which writes each answer's JSON line)."""
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


#: a listed move with its sort key (best first for the mover, then move order)
_Listed = tuple[tuple[int, int, int], MoveValue]


def _child_remoteness(comps: list[int], live: list[int], index: int, parts: tuple[int, ...], values: ComponentValues) -> int | None:
    """Remoteness of the sum left when component ``index`` becomes ``parts`` (None if not determined)."""
    others = [comps[j] for j in live if j != index]
    return values.remoteness_of(tuple(sorted(others + [p for p in parts if values.degree(p)])))


def all_moves(game: HeapGame, state: State, comps: list[int], live: list[int], total: int, values: ComponentValues) -> list[_Listed]:
    """Every move in move order (:meth:`HeapGame.sum_moves`: component by component, each heap's options in rule order), valued."""
    if type(game).sum_moves is not HeapGame.sum_moves:
        return _all_moves_of_family(game, state, comps, live, total, values)
    listed: list[_Listed] = []
    # (this runs for every move of every answer: the calls it makes per move are few, and bound to local names)
    append, remoteness_of, searched_to = listed.append, values.remoteness_of, values.searched_to
    sum_of = values.sums().of
    plain = game.plain_texts
    shown = [str(n) for n in comps]
    order = 0
    for index, n in enumerate(comps):
        options = values.options(n)
        if not options:
            continue
        base = total ^ values.grundy(n)
        others = tuple(sorted(comps[j] for j in live if j != index))  # the other live components
        if plain:  # the label and the position left, from the texts of the heaps (HeapGame.option_move, format)
            head, tail = " ".join(shown[:index]), " ".join(shown[index + 1 :])
            before, after = (head + " " if head else ""), (" " + tail if tail else "")
            gone, prefix = (head + after if head else tail or "0"), f"{index + 1}:"
        else:
            texts = game.option_texts(state, index, [(option[0], option[1]) for option in options])
        for k, (_, _, parts_value, live_parts, label_rest, middle) in enumerate(options):
            if plain:
                label, text = prefix + label_rest, (before + middle + after if middle else gone)
            else:
                label, text = texts[k]
            value = base ^ parts_value
            heaps = tuple(sorted(others + live_parts)) if live_parts else others
            crem = sum_of(heaps) if len(heaps) > 1 and heaps[-1] <= searched_to else remoteness_of(heaps)
            cresult, (rank, sign) = (WIN, _TO_WIN) if value else (LOSE, _TO_LOSS)
            append(((rank, sign * crem if crem is not None else 0, order), MoveValue(label, text, cresult, crem, value)))
            order += 1
    return listed


def _all_moves_of_family(game: HeapGame, state: State, comps: list[int], live: list[int], total: int, values: ComponentValues) -> list[_Listed]:
    """:func:`all_moves` of a family with moves of its own (flip: a run's two mirror flips leave the same heaps)."""
    moves = list(game.sum_moves(state))
    values.need(p for *_, parts in moves for p in parts)
    listed: list[_Listed] = []
    for order, (label, child, index, n, parts) in enumerate(moves):
        value = total ^ values.grundy(n) ^ nim_sum(map(values.grundy, parts))
        cresult = WIN if value else LOSE
        crem = _child_remoteness(comps, live, index, parts, values)
        listed.append((move_sort_key(cresult, crem, order), MoveValue(label, game.format(child), cresult, crem, value)))
    return listed


#: (rank, sign of the remoteness) of a move to a win, and to a loss, as :func:`~gamedb.values.move_sort_key` ranks them
_TO_WIN, _TO_LOSS = move_rank(WIN, 1), move_rank(LOSE, 1)


def best_of(listed: list[_Listed], result: str) -> MoveValue | None:
    """The solver's best-move rule applied to a full move list (in move order)."""
    win = result == WIN
    found = best_option([(0, mv.remoteness, mv) for _, mv in listed if mv.result == LOSE or not win], win)
    return None if found is None else found[1]


def best_by_search(game: HeapGame, state: State, comps: list[int], live: list[int], total: int, values: ComponentValues) -> MoveValue | None:
    """The best move of a position with too many moves to list, found without listing them."""
    stored = stored_best(game, state, comps, live, total, values)
    if stored is not None:
        return stored
    if not total:  # a loss with unknown remoteness: the first move
        index = live[0]
        idx, parts = next(iter(game.heap_options(comps[index])))
        return _option_move(game, state, comps, live, total, index, idx, parts, values)
    for index in live:
        n = comps[index]
        found = _first_option_with_value(game, n, total ^ values.grundy(n), values)
        if found is not None:
            return _option_move(game, state, comps, live, total, index, *found, values)
    raise AssertionError("a position with a non-zero grundy value has a move to zero")


def stored_best(game: HeapGame, state: State, comps: list[int], live: list[int], total: int, values: ComponentValues) -> MoveValue | None:
    """With one live component, a stored heap, that heap's stored best move (its search of sums went further than a query's)."""
    if len(live) != 1 or comps[live[0]] > values.top:
        return None
    index = live[0]
    n = comps[index]
    label = values.best_move(n)
    for idx, parts in game.heap_options(n):
        if game.heap_label(n, idx, parts) == label:
            return _option_move(game, state, comps, live, total, index, idx, parts, values)
    return None


def _first_option_with_value(game: HeapGame, n: int, target: int, values: ComponentValues) -> tuple[int, tuple[int, ...]] | None:
    """The first option (in move order) of a heap of ``n`` whose value is ``target``, without listing them all; beyond
    the stored heaps the period bounds the splits ``a + b`` looked at: ``a >= n0 + p`` repeats ``(a - p) + (b + p)``."""
    per = values.periodicity
    for idx, rule in enumerate(game.rules):
        rest = n - rule.take
        if rule.parts == 0:
            if rest == 0 and target == 0:
                return idx, ()
        elif rule.parts == 1:
            if rest >= 1:
                values.need([rest])
                if values.grundy(rest) == target:
                    return idx, (rest,)
        elif rest >= 2:
            amax = (rest - rule.unequal) // 2
            if n > values.top:
                if per is None or per.preperiod is None or per.period is None:  # need() refuses such a component first
                    raise BeyondSolvedRange(values._beyond(n))
                amax = min(amax, per.preperiod + per.period - 1)
                values.need_upto(amax)
                values.need(rest - a for a in range(1, amax + 1))
            else:
                values.need_upto(rest)
            for a in range(1, amax + 1):
                if values.grundy(a) ^ values.grundy(rest - a) == target:
                    return idx, (a, rest - a)
    return None


def _option_move(
    game: HeapGame, state: State, comps: list[int], live: list[int], total: int, index: int, idx: int, parts: tuple[int, ...], values: ComponentValues
) -> MoveValue:
    values.need(parts)
    value = total ^ values.grundy(comps[index]) ^ nim_sum(map(values.grundy, parts))
    label, child = game.option_move(state, index, idx, parts)
    return MoveValue(label, game.format(child), WIN if value else LOSE, _child_remoteness(comps, live, index, parts, values), value)


