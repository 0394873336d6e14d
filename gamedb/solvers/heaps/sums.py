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
one; of a sum it follows the engine's rule (:mod:`gamedb.solvers.heaps.values`): a
win moves to a zero-valued position, the quickest when all their
remotenesses are known; a loss to the slowest when all are known; otherwise
the lowest move order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...answers import Answer, MoveValue, impartial_players, set_delta_remoteness
from ...errors import LARGER_MAX, BeyondSolvedRange, GamedbError, PositionNotFound
from ...games.base import State
from ...games.heaps import HeapGame
from ...store.damage import DamagedGame, checked_heap_info, checked_position, damaged
from ...store.record import GameRecord
from ...store.rows import PositionRow, Reader
from ...values import LOSE, WIN, move_rank, move_sort_key
from .periodicity import THEOREM, Periodicity, reduce
from .shared_sums import AnswerSums, SharedSums, shared_sums
from .sum_remoteness import SEARCH_BUDGET, SumSearch

if TYPE_CHECKING:
    import sqlalchemy as sa

#: a listed move with its sort key (best first for the mover, then move order)
_Listed = tuple[tuple[int, int, int], MoveValue]
#: one option of a component (:meth:`ComponentValues.options`)
_Option = tuple[int, tuple[int, ...], int, tuple[int, ...], str, str]

#: list every move only when the position has at most this many
MOVE_LIST_LIMIT = 10_000
#: sum positions one query searches, at most, for the remoteness of sums (a few milliseconds)
QUERY_SEARCH_BUDGET = SEARCH_BUDGET // 10
#: sum positions one answer looks at, at most, memoized or not (its children's searches included): a bound on the
#: time of a sum of hundreds of heaps; ordinary sums look at about QUERY_SEARCH_BUDGET at most
QUERY_SEARCH_VISITS = 20 * QUERY_SEARCH_BUDGET


class ComponentValues:
    """Values of single components: the stored heaps 0..N, and beyond N the proven period."""

    def __init__(self, reader: Reader, record: GameRecord, game: HeapGame):
        self.reader, self.record, self.game = reader, record, game
        self.top = game.max_heap
        if record.positions is not None and record.positions != game.max_heap + 1:
            raise damaged(record.name, f"its parameters give heaps 0..{game.max_heap}, the game row says {record.positions:,} positions")
        checked_heap_info(record.name, record.info, game.max_heap, game.max_take)
        info = (record.info or {}).get("periodicity")
        self.periodicity = Periodicity.from_dict(info) if info else None
        self.rows: dict[int, tuple[int, int | None, int, str | None]] = {}
        self.loaded_upto = -1
        #: every heap up to this one has its exact remoteness (files solved before the sum search: 0)
        self.searched_to = min((record.info or {}).get("remoteness_searched_to", 0), self.top)
        #: each heap's options by value, kept from one search to the next (they depend on the stored values only)
        self._heap_options: dict[int, dict[int, list[tuple[int, ...]]]] = {}
        #: facts of sums kept between answers and batches (:mod:`.shared_sums`); None until a sum is asked about
        self._shared: SharedSums | None = None
        self._sums: AnswerSums | None = None
        self._options: dict[int, list[_Option]] = {}
        self._pairs: dict[int, list[tuple[int, tuple[int, ...]]]] = {}

    def new_search(self) -> None:
        """Start the remoteness search of sums afresh (its budget is per position answered)."""
        self._sums = None

    # --- loading -------------------------------------------------------------
    def check(self, sizes: Iterable[int]) -> None:
        """Raise :class:`PositionNotFound` if a component is beyond N and no period answers it."""
        for n in sizes:
            if n > self.top and not (self.periodicity and self.periodicity.proven):
                raise BeyondSolvedRange(self._beyond(n))

    def need(self, sizes: Iterable[int]) -> None:
        """Load the stored rows the given component sizes map to."""
        sizes = set(sizes)
        self.check(sizes)
        codes = sorted({self._stored(n) for n in sizes} - self.rows.keys())
        if codes:
            self._add(self.reader.positions(self.record, codes, checked=False).values())
            self._require(codes)

    def need_upto(self, hi: int) -> None:
        """Load every stored heap 0..min(hi, N)."""
        hi = min(hi, self.top)
        if hi > self.loaded_upto:
            self._add(self.reader.positions_between(self.record, self.loaded_upto + 1, hi, checked=False))
            self._require(range(self.loaded_upto + 1, hi + 1))
            self.loaded_upto = hi

    def _require(self, codes: Iterable[int]) -> None:
        """Every heap 0..N is stored: one that is not was deleted from the file."""
        missing = [code for code in codes if code not in self.rows]
        if missing:
            raise damaged(self.record.name, f"heap {missing[0]} is missing from the file (heaps 0..{self.top} are stored)")

    def _add(self, rows: Iterable[PositionRow]) -> None:
        """Keep the rows read (unchecked): a heap's answer reads their grundy, remoteness, degree and best move only."""
        for row in rows:
            if row.grundy is None:
                raise PositionNotFound(f"heap {row.code} of game {self.record.name!r} has no stored value")
            checked_position(  # the columns a heap's answer reads
                self.record.name, True, {"code": row.code, "grundy": row.grundy, "remoteness": row.remoteness, "degree": row.degree, "best_move": row.best_move}
            )
            self.rows[row.code] = (row.grundy, row.remoteness, row.degree, row.best_move)

    def _stored(self, n: int) -> int:
        if n <= self.top:
            return n
        if self.periodicity is None:  # check() refuses such a component first
            raise BeyondSolvedRange(self._beyond(n))
        return reduce(n, self.periodicity)

    # --- values ----------------------------------------------------------------
    def grundy(self, n: int) -> int:
        return self.rows[self._stored(n)][0]

    def remoteness(self, n: int) -> int | None:
        return self.rows[n][1] if n <= self.top else (0 if self.degree(n) == 0 else None)

    def degree(self, n: int) -> int:
        return self.rows[n][2] if n <= self.top else self.game.heap_degree(n)

    def best_move(self, n: int) -> str | None:
        """The stored best move of one heap of ``n`` (None beyond the stored heaps)."""
        return self.rows[n][3] if n <= self.top else None

    def options(self, n: int) -> list[_Option]:
        """Options of one component of ``n`` in move order: (rule index, parts, their XOR, the parts with moves,
        sorted, and the parts as a plain heap game writes them in a label and in a position: ``1+3``, ``1 3``).

        Kept for the stored heaps (a batch asks about the same few again and again); computed each time beyond.
        """
        found = self._options.get(n)
        if found is None:
            options = list(self.game.heap_options(n))
            self.need(p for _, parts in options for p in parts)
            found = []
            for idx, parts in options:
                value = 0
                for p in parts:
                    value ^= self.grundy(p)
                shown = [str(p) for p in parts]
                found.append((idx, parts, value, tuple(sorted(p for p in parts if self.degree(p))), "+".join(shown) or "0", " ".join(shown)))
            if n <= self.top:
                self._options[n] = found
        return found

    def option_pairs(self, n: int) -> list[tuple[int, tuple[int, ...]]]:
        """(rule index, parts) of each option of one component of ``n``, as :meth:`options` lists them."""
        found = self._pairs.get(n)
        if found is None:
            found = [(option[0], option[1]) for option in self.options(n)]
            if n <= self.top:
                self._pairs[n] = found
        return found

    def sums(self) -> AnswerSums:
        """The searches of sums of the answer in progress (made at its first sum)."""
        if self._sums is None:
            if self._shared is None:
                self._shared = shared_sums(*self._columns(), QUERY_SEARCH_BUDGET)
            self._sums = AnswerSums(self._shared, self._new_search, QUERY_SEARCH_VISITS)
        return self._sums

    def sum_remoteness(self, live: list[int]) -> int | None:
        """Remoteness of the sum of the heaps ``live`` (all with moves); None when not determined here."""
        return self.remoteness_of(tuple(sorted(live)))

    def remoteness_of(self, heaps: tuple[int, ...]) -> int | None:
        """:meth:`sum_remoteness` of heaps already sorted."""
        if not heaps:
            return 0
        if len(heaps) == 1:
            return self.remoteness(heaps[0])
        if heaps[-1] > self.searched_to:
            return None
        return self.sums().of(heaps)

    def _new_search(self) -> SumSearch:
        """A search of sums under one answer's budget."""
        return SumSearch(*self._columns(), budget=QUERY_SEARCH_BUDGET, max_visits=QUERY_SEARCH_VISITS, options=self._heap_options)

    def _columns(self) -> tuple[HeapGame, list[int], list[int], list[int | None]]:
        """The game and the grundy, degree and remoteness of every heap 0..searched_to: what a search of sums reads."""
        self.need_upto(self.searched_to)
        column = [self.rows[n] for n in range(self.searched_to + 1)]
        return self.game, [r[0] for r in column], [r[2] for r in column], [r[1] for r in column]

    def _beyond(self, n: int) -> str:
        game, per = self.game, self.periodicity
        what = f"{game.component_name} {n} is larger than --max {self.top} of game {self.record.name!r}"
        if not game.theorem_applies:
            why = f"the {THEOREM} does not apply to {game.rules_name}, so only components up to {self.top} are known"
        elif per is None:
            why = f"no period of {game.rules_name} is stored"
        else:
            why = f"the values of {game.rules_name} were not proven periodic within 0..{self.top}"
            if per.candidate_period:
                why += (
                    f" (they seem to repeat with period {per.candidate_period} from {per.candidate_preperiod};"
                    f" the proof needs --max {per.needs_max})"
                )
        return f"{what}, and {why}; {LARGER_MAX}"


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
        listed = _all_moves(game, state, comps, live, total, values)
        best = _stored_best(game, state, comps, live, total, values) or _best_of(listed, result)
    elif degree:
        best = _best_by_search(game, state, comps, live, total, values)
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


def _child_remoteness(comps: list[int], live: list[int], index: int, parts: tuple[int, ...], values: ComponentValues) -> int | None:
    """Remoteness of the sum left when component ``index`` becomes ``parts`` (None if not determined)."""
    others = [comps[j] for j in live if j != index]
    return values.sum_remoteness(others + [p for p in parts if values.degree(p)])


def _all_moves(game: HeapGame, state: State, comps: list[int], live: list[int], total: int, values: ComponentValues) -> list[_Listed]:
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
            texts = game.option_texts(state, index, values.option_pairs(n))
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
    """:func:`_all_moves` of a family with moves of its own (flip: a run's two mirror flips leave the same heaps)."""
    moves = list(game.sum_moves(state))
    values.need(p for *_, parts in moves for p in parts)
    listed: list[_Listed] = []
    for order, (label, child, index, n, parts) in enumerate(moves):
        value = total ^ values.grundy(n)
        for p in parts:
            value ^= values.grundy(p)
        cresult = WIN if value else LOSE
        crem = _child_remoteness(comps, live, index, parts, values)
        listed.append((move_sort_key(cresult, crem, order), MoveValue(label, game.format(child), cresult, crem, value)))
    return listed


#: (rank, sign of the remoteness) of a move to a win, and to a loss, as :func:`~gamedb.values.move_sort_key` ranks them
_TO_WIN, _TO_LOSS = move_rank(WIN, 1), move_rank(LOSE, 1)


def _best_of(listed: list[_Listed], result: str) -> MoveValue | None:
    """The engine's best-move rule applied to a full move list."""
    wanted = [(key[2], mv) for key, mv in listed if result == LOSE or mv.result == LOSE]
    if not wanted:
        return None
    known = [(order, mv.remoteness, mv) for order, mv in wanted if mv.remoteness is not None]
    if len(known) == len(wanted):
        sign = 1 if result == WIN else -1
        return min(known, key=lambda found: (sign * found[1], found[0]))[2]
    return min(wanted, key=lambda pair: pair[0])[1]


def _best_by_search(game: HeapGame, state: State, comps: list[int], live: list[int], total: int, values: ComponentValues) -> MoveValue | None:
    """The best move of a position with too many moves to list, found without listing them."""
    stored = _stored_best(game, state, comps, live, total, values)
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


def _stored_best(game: HeapGame, state: State, comps: list[int], live: list[int], total: int, values: ComponentValues) -> MoveValue | None:
    """With one live component, a stored heap: its stored best move, played on it in this position (else None).

    The solver chose it knowing the remoteness of every sum its options
    leave up to ``remoteness_searched_to``, which a query's smaller search
    may not reach; the position's value is that heap's, so is its best move.
    """
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
    """The first option (in move order) of a heap of ``n`` whose value is ``target``, without listing them all.

    Beyond the stored heaps the period bounds the search: for splits ``a + b``
    with ``a >= n0 + p`` the value repeats that of ``(a - p) + (b + p)``.
    """
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
                if per is None or per.preperiod is None or per.period is None:  # check() refuses such a component first
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
    n = comps[index]
    values.need(parts)
    value = total ^ values.grundy(n)
    for p in parts:
        value ^= values.grundy(p)
    crem = _child_remoteness(comps, live, index, parts, values)
    return _move_value(game, state, index, idx, parts, WIN if value else LOSE, crem, value)


def _move_value(
    game: HeapGame, state: State, index: int, idx: int, parts: tuple[int, ...], cresult: str, crem: int | None, value: int
) -> MoveValue:
    label, child = game.option_move(state, index, idx, parts)
    return MoveValue(label, game.format(child), cresult, crem, value)


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


def remoteness_summary(conn: sa.Connection, record: GameRecord) -> tuple[str, int]:
    """The ``stats`` line on which heaps have a remoteness, and the number of heaps without one."""
    import sqlalchemy as sa  # stats only: the light read path imports this module

    unknown = conn.execute(
        sa.text("SELECT COUNT(*) FROM position WHERE game_id = :g AND remoteness IS NULL"), {"g": record.id}
    ).scalar()
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
