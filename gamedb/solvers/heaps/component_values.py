"""The values of a heap game's single components as a query of a sum reads them: stored heaps 0..N, the period beyond."""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import LARGER_MAX, BeyondSolvedRange, PositionNotFound, param
from ...games.heaps import HeapGame
from ...store.damage import checked_heap_info, checked_position, damaged
from ...store.record import GameRecord
from ...store.rows import PositionRow, Reader
from .periodicity import THEOREM, Periodicity, proof_end, reduce
from .shared_sums import AnswerSums, SharedSums, shared_sums
from .sum_remoteness import SEARCH_BUDGET, OptionsByValue, SumSearch, nim_sum

#: one option of a component (:meth:`ComponentValues.options`)
_Option = tuple[int, tuple[int, ...], int, tuple[int, ...], str, str]

#: sum positions one query searches, at most, for the remoteness of sums (a few milliseconds)
QUERY_SEARCH_BUDGET = SEARCH_BUDGET // 10
#: sum positions one answer looks at, memoized or not, at most: a bound on the time of a sum of hundreds of heaps
QUERY_SEARCH_VISITS = 20 * QUERY_SEARCH_BUDGET


class ComponentValues:
    """Values of single components: the stored heaps 0..N, and beyond N the proven period."""

    def __init__(self, reader: Reader, record: GameRecord, game: HeapGame):
        self.reader, self.record, self.game = reader, record, game
        self.top = game.max_heap
        if record.positions is not None and record.positions != game.max_heap + 1:
            raise damaged(record.name, f"its parameters give heaps 0..{game.max_heap}, the game row says {record.positions:,} positions")
        checked_heap_info(record.name, record.info, game.max_heap, game.max_take, proof_end)
        info = (record.info or {}).get("periodicity")
        self.periodicity = Periodicity.from_dict(info) if info else None
        self.rows: dict[int, tuple[int, int | None, int, str | None]] = {}
        self.loaded_upto = -1
        #: every heap up to this one has its exact remoteness (files solved before the sum search: 0)
        self.searched_to = min((record.info or {}).get("remoteness_searched_to", 0), self.top)
        #: each heap's options by value, kept from one search to the next (they depend on the stored values only)
        self._heap_options: OptionsByValue = {}
        #: facts of sums kept between answers and batches (:mod:`.shared_sums`); None until a sum is asked about
        self._shared: SharedSums | None = None
        self._sums: AnswerSums | None = None
        self._options: dict[int, list[_Option]] = {}

    def new_search(self) -> None:
        """Start the remoteness search of sums afresh (its budget is per position answered)."""
        self._sums = None

    def need(self, sizes: Iterable[int]) -> None:
        """Load the stored rows the given component sizes map to; :class:`BeyondSolvedRange` for one beyond N without a period."""
        sizes = set(sizes)
        for n in sizes:
            if n > self.top and not (self.periodicity and self.periodicity.proven):
                raise BeyondSolvedRange(self._beyond(n))
        codes = sorted({self._stored(n) for n in sizes} - self.rows.keys())
        if codes:
            self._add(self.reader.positions(self.record, codes, checked=False).values(), codes)

    def need_upto(self, hi: int) -> None:
        """Load every stored heap 0..min(hi, N)."""
        hi = min(hi, self.top)
        if hi > self.loaded_upto:
            self._add(self.reader.positions_between(self.record, self.loaded_upto + 1, hi, checked=False), range(self.loaded_upto + 1, hi + 1))
            self.loaded_upto = hi

    def _add(self, rows: Iterable[PositionRow], codes: Iterable[int]) -> None:
        """Keep the rows read, the columns a heap's answer reads checked; every heap of ``codes`` must be among them."""
        for row in rows:
            if row.grundy is None:
                raise PositionNotFound(f"heap {row.code} of game {self.record.name!r} has no stored value")
            kept = {"code": row.code, "grundy": row.grundy, "remoteness": row.remoteness, "degree": row.degree, "best_move": row.best_move}
            checked_position(self.record.name, True, kept)
            self.rows[row.code] = (row.grundy, row.remoteness, row.degree, row.best_move)
        missing = [code for code in codes if code not in self.rows]
        if missing:  # every heap 0..N is stored: this one was deleted from the file
            raise damaged(self.record.name, f"heap {missing[0]} is missing from the file (heaps 0..{self.top} are stored)")

    def _stored(self, n: int) -> int:
        if n <= self.top:
            return n
        if self.periodicity is None:  # need() refuses such a component first
            raise BeyondSolvedRange(self._beyond(n))
        return reduce(n, self.periodicity)

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
        """Options of one component of ``n`` in move order: (rule index, parts, their XOR, the live parts sorted, and the
        parts as a plain heap game writes them in a label and a position: ``1+3``, ``1 3``); kept for the stored heaps."""
        found = self._options.get(n)
        if found is None:
            options = list(self.game.heap_options(n))
            self.need(p for _, parts in options for p in parts)
            found = []
            for idx, parts in options:
                shown = [str(p) for p in parts]
                live = tuple(sorted(p for p in parts if self.degree(p)))
                found.append((idx, parts, nim_sum(map(self.grundy, parts)), live, "+".join(shown) or "0", " ".join(shown)))
            if n <= self.top:
                self._options[n] = found
        return found

    def sums(self) -> AnswerSums:
        """The searches of sums of the answer in progress (made at its first sum)."""
        if self._sums is None:
            if self._shared is None:
                self._shared = shared_sums(*self._columns(), QUERY_SEARCH_BUDGET)
            self._sums = AnswerSums(self._shared, self._new_search, QUERY_SEARCH_VISITS)
        return self._sums

    def remoteness_of(self, heaps: tuple[int, ...]) -> int | None:
        """Remoteness of the sum of ``heaps`` (sorted, all with moves); None when not determined here."""
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
        what = f"{game.component_name} {n} is larger than {param('max', self.top)} of game {self.record.name!r}"
        if not game.theorem_applies:
            why = f"the {THEOREM} does not apply to {game.rules_name}, so only components up to {self.top} are known"
        elif per is None:
            why = f"no period of {game.rules_name} is stored"
        else:
            why = f"the values of {game.rules_name} were not proven periodic within 0..{self.top}"
            if per.candidate_period:
                why += (f" (they seem to repeat with period {per.candidate_period} from {per.candidate_preperiod}; "
                        f"the proof needs {param('max', per.needs_max)})")
        return f"{what}, and {why}; {LARGER_MAX}"


