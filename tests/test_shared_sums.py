"""The remoteness of heap sums shared between answers (gamedb/solvers/heaps/shared_sums.py).

The shared facts must change no answer: each is compared, as the JSON line
``query -`` writes, with the answer of a search run afresh for that answer
alone (the code before the cache, restated here in a few lines), in a stream,
in another order and alone, also with a cache so small that it is emptied
again and again. The remoteness values themselves are checked against a
plain minimax over whole positions (tests/oracles/impartial.py).
"""

from __future__ import annotations

import random

import pytest

from gamedb import Database
from gamedb.solvers.heaps import component_values, shared_sums
from gamedb.solvers.heaps.sum_remoteness import SearchExhausted, SumSearch

from oracles.impartial import octal_children, remoteness_by_search, subtraction_children


class OwnSearchOnly:
    """An answer's searches as before the shared facts: one budgeted search, from an empty memo, per answer."""

    def __init__(self, shared: object, new_search, max_visits: int) -> None:
        self.search: SumSearch = new_search()

    def of(self, heaps: tuple[int, ...]) -> int | None:
        try:
            return self.search.of(heaps)
        except SearchExhausted:
            return None


def lines(db: Database, name: str, positions: list[str]) -> dict[str, str]:
    return {p: a.json_line() for p, a in zip(positions, db.probe_many(name, positions, boards=False, batch=300), strict=True)}


def without_cache(db: Database, name: str, positions: list[str], monkeypatch) -> dict[str, str]:
    with monkeypatch.context() as m:
        m.setattr(component_values, "AnswerSums", OwnSearchOnly)
        return lines(db, name, positions)


def nim_sample(count: int, seed: int) -> list[str]:
    """Lines of the issue's stream (heaps up to 5 7 9 11 13), and sums whose search spends its budget."""
    rng = random.Random(seed)
    sample = [" ".join(str(rng.randint(0, top)) for top in (5, 7, 9, 11, 13)) for _ in range(count)]
    return sample + ["3 5 7 9 11", "5 7 9 11 13", "13 11 9 7 5", "5 5 5 5 5", "1 2 3", "0 0 0 0 1", "4 4"]


@pytest.fixture
def nim13(cli):
    assert cli("solve", "nim", "--max", "13", "-q").exit_code == 0
    return Database(cli.db_path)


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch):
    monkeypatch.setattr(shared_sums, "_shared", None)


def test_stream_answers_are_those_of_a_search_per_answer(nim13, monkeypatch):
    sample = nim_sample(600, seed=25)
    expected = without_cache(nim13, "nim", sample, monkeypatch)
    assert lines(nim13, "nim", sample) == expected
    # the facts are kept now: another order, and each alone, still give the same lines
    shuffled = sample[::-1]
    assert lines(nim13, "nim", shuffled) == expected
    for position in sample[:40]:
        assert lines(nim13, "nim", [position]) == {position: expected[position]}
    # the sample holds every kind: sums found, sums whose search spent its budget (null), and both in one answer
    assert any('"remoteness":null' in line for line in expected.values())
    assert any('"remoteness":null' not in line.split('"moves"')[0] for line in expected.values())
    kept = shared_sums._shared[1]
    assert len(kept) > 100 and 0 < kept.bytes <= kept.max_bytes


def test_a_cache_emptied_again_and_again_changes_nothing(nim13, monkeypatch):
    sample = nim_sample(150, seed=7)
    expected = without_cache(nim13, "nim", sample, monkeypatch)
    monkeypatch.setattr(shared_sums, "CACHE_BYTES", 20_000)
    monkeypatch.setattr(shared_sums, "_shared", None)
    assert lines(nim13, "nim", sample) == expected
    kept = shared_sums._shared[1]
    assert kept.max_bytes == 20_000 and kept.generation > 3  # emptied many times over
    assert kept.bytes < 20_000 + 1000 * 200  # emptied at the next answer, so at most one answer's facts over


def test_kayles_sums_with_splits(cli, monkeypatch):
    assert cli("solve", "octal", "--code", "0.77", "--max", "20", "--name", "kayles", "-q").exit_code == 0
    db = Database(cli.db_path)
    rng = random.Random(3)
    sample = [" ".join(str(rng.randint(0, 12)) for _ in range(rng.randint(2, 4))) for _ in range(150)] + ["8 9 10 11", "12 12 12"]
    expected = without_cache(db, "kayles", sample, monkeypatch)
    assert lines(db, "kayles", sample) == expected
    assert any('"remoteness":null' in line for line in expected.values())


def test_remoteness_of_small_sums_against_minimax(nim13):
    children = subtraction_children(range(1, 14))
    known = 0
    positions = [f"{a} {b} {c}" for a in range(1, 5) for b in range(1, 5) for c in range(0, 6)]
    for answer in nim13.probe_many("nim", positions, boards=False):
        heaps = tuple(int(h) for h in answer.position.split() if h != "0")
        assert answer.remoteness is not None  # small sums: found within the budget
        assert (answer.result == "win", answer.remoteness) == remoteness_by_search(children, heaps), answer.position
        for move in answer.moves:
            if move.remoteness is not None:
                child = tuple(int(h) for h in move.position.split() if h != "0")
                assert move.remoteness == remoteness_by_search(children, child)[1], (answer.position, move.move)
                known += 1
    assert known > 700


def test_kayles_remoteness_against_minimax(cli):
    assert cli("solve", "octal", "--code", "0.77", "--max", "12", "-q").exit_code == 0
    db = Database(cli.db_path)
    children = octal_children("0.77")
    positions = [f"{a} {b}" for a in range(1, 7) for b in range(1, 7)] + ["2 3 4", "1 1 5", "3 3 3"]
    checked = 0
    for answer in db.probe_many("octal-0.77", positions, boards=False):
        heaps = tuple(int(h) for h in answer.position.split() if h != "0")
        assert answer.remoteness == remoteness_by_search(children, heaps)[1], answer.position
        checked += 1
    assert checked == len(positions)


def test_flip_strings(cli, monkeypatch):
    # flip lists a run's mirror flips as two moves that leave the same runs (its own sum_moves)
    assert cli("solve", "flip", "--max", "14", "-q").exit_code == 0
    db = Database(cli.db_path)
    rng = random.Random(11)
    sample = ["-".join("+" * rng.randint(0, 12) for _ in range(rng.randint(2, 4))) for _ in range(120)] + ["++--+++", "+++++-+++++-++++"]
    expected = without_cache(db, "flip", sample, monkeypatch)
    assert lines(db, "flip", sample) == expected
