"""The retrograde strategy's other ways to find the moves into a level, and its memory budget.

The row-by-row comparisons with the SQL engine are in tests/test_memory_engine.py (every small loopy game, both
backends); here each way the solver can take is forced on the same games: sparse codes (a sorted code array and
searches) instead of dense ones, a reverse index or re-expansion instead of the family's un-moves.
"""

from __future__ import annotations

import json
import random

import pytest

from gamedb import make_game
from gamedb.solvers import retrograde, retrograde_rules
from gamedb.solvers.protocol import TooLarge

from oracles.cat_mouse import random_graph
from tables import RUN_COLUMNS, assert_same_game

GAMES = [
    ("cat-mouse", {"graph": json.dumps(random_graph(random.Random(seed), 12 + seed, 0.1))}) for seed in range(4)
] + [("cat-mouse-grid", {"grid": ["...#F", ".#.##", "M.C.."]}), ("tictactoe", {})]
WAYS = {
    "sparse codes": {"DENSE_CODES_PER_POSITION": 0},
    "reverse index": {"has_parents": False},
    "re-expansion": {"has_parents": False, "INDEX_BYTES_PER_MOVE": 1 << 40},
    "sparse re-expansion": {"has_parents": False, "INDEX_BYTES_PER_MOVE": 1 << 40, "DENSE_CODES_PER_POSITION": 0},
    "best moves by expansion": {"has_in_order": False},
}


def _use_way(monkeypatch, settings: dict) -> None:
    """The solver made to take one of :data:`WAYS` to the moves into a level."""
    if "has_parents" in settings:
        monkeypatch.setattr(retrograde, "has_parents", lambda rules: False)
    if "has_in_order" in settings:
        monkeypatch.setattr(retrograde, "has_in_order", lambda rules: False)
    if "INDEX_BYTES_PER_MOVE" in settings:
        monkeypatch.setattr(retrograde_rules.ReverseIndex, "BYTES_PER_MOVE", settings["INDEX_BYTES_PER_MOVE"])
    if "DENSE_CODES_PER_POSITION" in settings:
        monkeypatch.setattr(retrograde, "DENSE_CODES_PER_POSITION", 0)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("family,options", GAMES, ids=[f"{f}-{i}" for i, (f, _) in enumerate(GAMES)])
def test_every_way_writes_the_sql_engines_rows(fresh_db, monkeypatch, way, family, options):
    _use_way(monkeypatch, WAYS[way])
    game = make_game(family, **options)
    sql_db, db = fresh_db(), fresh_db()
    sql_db.solve(game, "g", strategy="sql")
    assert db.solve(game, "g", strategy="retrograde").strategy == "retrograde"
    assert_same_game(sql_db, db, "g", ignore=RUN_COLUMNS)


@pytest.mark.parametrize("way", ["un-moves", *WAYS])
def test_a_level_tells_its_progress_as_it_goes(fresh_db, monkeypatch, way):
    """Within each level, every way of finding its moves says how many of its positions are done, up to all of them
    (a first level of 10^8 positions over at once took 15 minutes that showed nothing)."""
    _use_way(monkeypatch, WAYS.get(way, {}))
    monkeypatch.setattr(retrograde_rules, "BLOCK", 64)  # (several blocks a level; re-expansion: 2^14 positions a block)
    seen: list[tuple[str, int, int | None]] = []
    game = make_game("cat-mouse", graph=json.dumps(random_graph(random.Random(7), 100, 0.03)))
    fresh_db().solve(game, "g", strategy="retrograde", progress=lambda phase, done, total: seen.append((phase, done, total)))
    within = [(done, total) for phase, done, total in seen if phase == retrograde_rules.LEVEL_PHASE]
    assert within and all(total is not None and 0 < done <= total for done, total in within)
    assert any(done < total for done, total in within)  # told before a level's end
    levels = [done for phase, done, _ in seen if phase == "win/lose levels"]
    assert levels == list(range(1, len(levels) + 1))
    ends = [i for i, (phase, *_) in enumerate(seen) if phase in ("win/lose levels", "tie levels")]
    for before, end in zip([0, *ends], ends, strict=False):  # each level's last word on its positions: all of them
        told = [(done, total) for phase, done, total in seen[before:end] if phase == retrograde_rules.LEVEL_PHASE]
        if told:
            assert told[-1][0] == told[-1][1]


def test_over_budget_is_refused_before_anything_is_written(fresh_db, cli):
    game = make_game("cat-mouse", graph=json.dumps(random_graph(random.Random(5), 30, 0.1)))
    need = retrograde.least_bytes(True, game.estimate().positions, game.estimate().moves)  # cat and mouse has vector rules
    db = fresh_db()
    with pytest.raises(TooLarge, match=r"cm needs up to 1,740 positions \(~.* of memory in the retrograde solver\)"):
        db.solve(game, "cm", strategy="retrograde", memory_limit=need - 1)
    with pytest.raises(TooLarge, match="positions need .* bytes in the retrograde solver"):  # the solver's own check
        retrograde.solve(None, game, memory_limit=need - 1)
    assert db.games() == []
    assert db.solve(game, "cm", strategy="retrograde", memory_limit=need).strategy == "retrograde"
    refused = cli("solve", "cat-mouse", "--graph", json.dumps(game.graph), "--strategy", "retrograde", "--memory-limit", "1k")
    assert refused.exit_code == 1 and refused.stderr.startswith("Error: cat-mouse needs up to 1,740 positions"), refused.stderr
    assert "retrograde solver) but --memory-limit is 1.0 kB" in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize("seed", range(6))
def test_cat_mouse_unmoves_are_the_moves_reversed(seed):
    """VectorRules.parents over every code (reachable or not) gives each move of expand, reversed, exactly once."""
    import numpy as np

    from gamedb.games.vector import has_parents
    from gamedb.solvers import capabilities

    rng = random.Random(seed)
    rules = capabilities.vector_rules(make_game("cat-mouse", graph=json.dumps(random_graph(rng, rng.randint(3, 14), rng.choice([0.0, 0.2])))))
    assert has_parents(rules) and not has_parents(retrograde_rules.OneByOne(make_game("tictactoe")))  # optional: off by default
    codes = np.arange(rules.code_limit)
    exp = rules.expand(codes)
    moves = sorted(zip(exp.children.tolist(), np.repeat(codes, exp.degree).tolist(), strict=True))
    which, parent = rules.parents(codes)
    assert sorted(zip(codes[which].tolist(), parent.tolist(), strict=True)) == moves
    assert rules.distinct_moves and len(set(moves)) == len(moves)  # (as the rules say: no move is counted twice)


def test_cat_mouse_moves_in_order_are_the_expansions():
    """``in_order``: the same player, primitive value and degree as ``expand``, and child ``k`` of every position with
    more than ``k`` moves its ``k``-th child."""
    import numpy as np

    from gamedb.games.vector import has_in_order
    from gamedb.solvers import capabilities

    rules = capabilities.vector_rules(make_game("cat-mouse", graph=json.dumps(random_graph(random.Random(4), 12, 0.3))))
    assert has_in_order(rules) and not has_in_order(retrograde_rules.OneByOne(make_game("tictactoe")))
    codes = np.arange(rules.code_limit)
    exp, ordered = rules.expand(codes), rules.in_order(codes)
    for field in ("player", "primitive", "degree"):
        assert (getattr(exp, field) == getattr(ordered, field)).all()
    starts = np.cumsum(exp.degree) - exp.degree
    assert exp.degree.max() > 2
    for k in range(int(exp.degree.max())):
        which = np.flatnonzero(exp.degree > k)
        assert (ordered.child(k, which) == exp.children[starts[which] + k]).all()


def test_the_first_move_in_order_to_a_wanted_child():
    """:func:`retrograde.first_in_order`: each position's first move whose child has its wanted key, none for a position
    without moves."""
    import numpy as np

    from gamedb.games.vector import MovesInOrder

    children = [[5, 6, 7], [], [7, 6], [6]]  # by position, in move order
    key = {5: 1, 6: 2, 7: 3}
    ordered = MovesInOrder(np.zeros(4, dtype=np.int8), np.zeros(4, dtype=np.int8), np.array([len(c) for c in children]),
                           lambda k, which: np.array([children[i][k] for i in which.tolist()], dtype=np.int64))
    at, order = retrograde.first_in_order(ordered, np.array([3, 0, 2, 2]), lambda codes: np.array([key[c] for c in codes.tolist()]))
    assert (at.tolist(), order.tolist()) == ([0, 2, 3], [2, 1, 0])


def test_cat_mouse_primitive_values_alone_are_the_expansions():
    import numpy as np

    from gamedb.games.vector import has_primitive
    from gamedb.solvers import capabilities

    rules = capabilities.vector_rules(make_game("cat-mouse", graph=json.dumps(random_graph(random.Random(3), 12, 0.2))))
    codes = np.arange(rules.code_limit)
    assert has_primitive(rules) and (rules.primitive(codes) == rules.expand(codes).primitive).all()


def test_counting_with_primitive_values_a_block_of_positions_over_at_once_and_one_lost_at_once():
    """A block whose positions are all over at once has no child (Dōbutsu's full count met one: 131,072 positions in a
    row where a lion can be taken); a position all of whose moves go to positions won at once loses at level 1."""
    import numpy as np

    from gamedb.games.vector import LOSE, UNDECIDED, WIN, Expansion

    state = retrograde.State.empty(4)
    over = Expansion(player=np.zeros(2, dtype=np.int8), primitive=np.array([WIN, LOSE], dtype=np.int8), degree=np.zeros(2, dtype=np.int64),
                     children=np.zeros(0, dtype=np.int64))
    never = lambda codes: pytest.fail("no child to look at")  # noqa: E731
    state.record(np.array([0, 1]), over, never, None, primitive=never)
    assert state.result[:2].tolist() == [WIN, LOSE] and state.counter[:2].tolist() == [0, 0] and state.lost_at_once == 0
    children = np.array([10, 11, 10, 12, 13])  # position 2: 10, 11 (both won at once); position 3: 10, 12, 13
    moved = Expansion(player=np.zeros(2, dtype=np.int8), primitive=np.full(2, UNDECIDED, dtype=np.int8), degree=np.array([2, 3]),
                      children=children)
    won_at_once = lambda codes: np.where(codes <= 11, WIN, UNDECIDED).astype(np.int8)  # noqa: E731
    state.record(np.array([2, 3]), moved, never, None, primitive=won_at_once)
    assert state.result[2:4].tolist() == [LOSE, UNDECIDED] and state.remoteness[2:4].tolist() == [1, -1]
    assert state.counter[2:4].tolist() == [0, 2] and state.lost_at_once == 1 and state.wins_counted


@pytest.mark.parametrize("marked", [True, False], ids=["marks (dense codes)", "sorted (sparse codes)"])
def test_a_step_takes_one_off_a_counter_for_every_move_into_it(marked):
    import numpy as np

    state = retrograde.State.empty(10)
    state.counter[:] = 5
    state.marks = np.empty(10, dtype=np.int32) if marked else None
    hit = retrograde.count_down(state, np.array([3, 7, 3, 3, 1, 7, 9]))
    assert sorted(hit.tolist()) == [1, 3, 7, 9]
    assert state.counter.tolist() == [5, 4, 5, 2, 5, 5, 5, 3, 5, 4]
    assert retrograde.count_down(state, np.array([], dtype=np.int64)).tolist() == []


@pytest.mark.parametrize("family,options", [GAMES[1], ("dobutsu", {"pieces": "C"})], ids=["cat-mouse", "dobutsu-C"])
@pytest.mark.parametrize("given", [True, False], ids=["primitive given", "no primitive"])
def test_moves_into_positions_won_at_once_are_left_out_of_the_counters(fresh_db, monkeypatch, family, options, given):
    """With the rules' primitive values (sparse codes), level 0 looks up no parents of the positions their mover wins
    at once (the counters left those moves out), and the rows are the SQL engine's all the same."""
    import numpy as np

    from gamedb.games.vector import WIN
    from gamedb.solvers import capabilities

    _use_way(monkeypatch, WAYS["sparse codes"])
    if not given:
        monkeypatch.setattr(retrograde, "has_primitive", lambda rules: False)
    game = make_game(family, **options)
    rules = capabilities.vector_rules(game)
    looked_up: list[np.ndarray] = []
    unmoves = type(rules).parents

    def parents(self, codes):
        looked_up.append(np.asarray(codes).copy())
        return unmoves(self, codes)

    monkeypatch.setattr(type(rules), "parents", parents)
    sql_db, db = fresh_db(), fresh_db()
    sql_db.solve(game, "g", strategy="sql")
    db.solve(game, "g", strategy="retrograde", symmetry=False)
    assert_same_game(sql_db, db, "g", ignore=RUN_COLUMNS)
    won_at_once = sum(int((rules.primitive(codes) == WIN).sum()) for codes in looked_up)
    assert (won_at_once == 0) == given
