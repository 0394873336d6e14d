"""The Python API as documented: docstring examples run (doctest), get() returns a default,
probe_many() answers a batch like one probe at a time."""

import doctest
from pathlib import Path

import pytest

import gamedb.answers
import gamedb.api
import gamedb.upkeep
from gamedb import Database, make_game
from gamedb.answers import Answer
from gamedb.errors import PositionError, PositionNotFound


@pytest.fixture(scope="module")
def ttt(tmp_path_factory):
    db = Database(tmp_path_factory.mktemp("api") / "ttt.sqlite", create=True)
    db.solve(make_game("tictactoe"))
    db.solve(make_game("nim", max=9))
    yield db
    db.close()


def test_docstring_examples_run(ttt, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the module's own example writes ttt.sqlite where it stands
    result = doctest.testmod(gamedb.api, extraglobs={"db": ttt}, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 15 and result.failed == 0
    result = doctest.testmod(gamedb.answers, extraglobs={"db": ttt}, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0
    result = doctest.testmod(gamedb.upkeep, extraglobs={"db": ttt}, optionflags=doctest.ELLIPSIS)  # (Database's upkeep methods)
    assert result.attempted >= 8 and result.failed == 0


@pytest.mark.parametrize("method", ["probe", "get", "probe_many", "positions", "verify", "stats", "games", "game", "stored_name", "rules",
                                    "solve", "answerer", "query_json", "compact", "missing_indexes", "build_indexes", "copy_to"])
def test_public_methods_have_docstrings_with_an_example(method):  # ("Every method has a docstring with an example": README)
    doc = getattr(Database, method).__doc__
    assert doc and ">>>" in doc, method


def test_get_returns_the_default_for_a_missing_position(ttt):
    with pytest.raises(PositionError):
        ttt.get("tictactoe", "XXXX")  # malformed text is a mistake, not a missing entry
    assert ttt.get("nim", "20", default="missing") == "missing"  # larger than --max 9 and no period: not stored
    assert ttt.get("tictactoe", "X...O....").remoteness == ttt.probe("tictactoe", "X...O....").remoteness
    with pytest.raises(PositionNotFound):
        ttt.probe("nim", "20")


def test_probe_many_equals_one_at_a_time(ttt):
    texts = [m.position for m in ttt.probe("tictactoe").moves] + [None, "XX.OO...."]
    batch = list(ttt.probe_many("tictactoe", texts, batch=3))
    assert batch == [ttt.probe("tictactoe", t) for t in texts]
    heaps = ["3 5 7", "1 2 3", "9", "0"]
    assert list(ttt.probe_many("nim", heaps)) == [ttt.probe("nim", h) for h in heaps]
    mixed = list(ttt.probe_many("nim", ["3", "20", "x"], errors="return"))
    assert mixed[0].result == "win" and isinstance(mixed[1], PositionNotFound) and isinstance(mixed[2], PositionError)
    with pytest.raises(PositionNotFound):
        list(ttt.probe_many("nim", ["3", "20"]))


def test_answerer_checks_the_game_first_and_answers_batches_like_probe_many(ttt):
    from gamedb.errors import GameNotFound

    with pytest.raises(GameNotFound):
        ttt.answerer("chess")  # refused before a position is read
    answer = ttt.answerer("nim")
    texts = ["3", "20", "x", "1 2 3"]
    got, expected = answer(texts), list(ttt.probe_many("nim", texts, errors="return"))
    assert [a if isinstance(a, Answer) else repr(a) for a in got] == [a if isinstance(a, Answer) else repr(a) for a in expected]
    assert isinstance(got[1], PositionNotFound) and isinstance(got[2], PositionError)
    assert answer([]) == []


def test_a_batch_without_lines_is_typed_without_str(tmp_path, monkeypatch):
    """Strict mypy sees a batch answered without ``lines`` hold answers and errors only (no cast needed to say so)."""
    api = pytest.importorskip("mypy.api")
    snippet = tmp_path / "batch_types.py"
    snippet.write_text(
        "from collections.abc import Iterator\n"
        "from typing import assert_type\n"
        "from gamedb.api import Database\n"
        "from gamedb.answers import Answer\n"
        "from gamedb.errors import GamedbError\n"
        "from gamedb.query import answer_positions\n"
        "from gamedb.store.record import GameRecord\n"
        "from gamedb.store.rows import Reader\n"
        "def f(db: Database, reader: Reader, record: GameRecord) -> None:\n"
        "    assert_type(db._answer_batch('g', [None], 'raise'), list[Answer | GamedbError])\n"
        "    assert_type(db._answer_batch('g', [None], 'return', True, True), list[Answer | GamedbError | str])\n"
        "    assert_type(answer_positions(reader, record, None, None, [None]), list[Answer | GamedbError])\n"
        "    assert_type(db.probe_many('g', [None], errors='return'), Iterator[Answer | GamedbError])\n"
    )
    monkeypatch.setenv("MYPYPATH", str(Path(gamedb.api.__file__).parents[1]))  # the package's own source and types
    out, err, status = api.run(["--strict", "--python-version", "3.11", "--cache-dir", str(tmp_path / "cache"), str(snippet)])
    assert status == 0, out + err


@pytest.mark.parametrize("refused", [{"strategy": "bogus"}, {"memory_limit": "lots"}, {"strategy": "memory", "memory_limit": "1KB"}])
def test_a_refused_solve_leaves_no_file_the_database_made(tmp_path, refused):
    from gamedb.errors import GamedbError

    path = tmp_path / "new.sqlite"
    db = Database(path, create=True)
    with pytest.raises(GamedbError):  # an InputError, or TooLarge for the memory limit
        db.solve(make_game("tictactoe"), **refused)
    assert list(tmp_path.iterdir()) == []  # as `gamedb solve` leaves none
    assert db.solve(make_game("nim", max=5)).positions == 6  # the same Database still solves: the file made again
    assert path.exists() and [g.name for g in db.games()] == ["nim"]
    with pytest.raises(GamedbError):
        db.solve(make_game("tictactoe"), **refused)
    db.close()
    assert [g.name for g in Database(path).games()] == ["nim"]  # a file holding a game is never removed


def test_a_file_the_database_did_not_make_stays_after_a_refused_solve(tmp_path):
    from gamedb.errors import InputError

    path = tmp_path / "empty.sqlite"
    Database(path, create=True).close()  # an empty database made on purpose, by someone else
    with Database(path, create=True) as db, pytest.raises(InputError):
        db.solve(make_game("tictactoe"), strategy="bogus")
    assert path.exists()


@pytest.mark.parametrize("suffix", [".sqlite", ".duckdb"])
def test_a_copy_of_nothing_leaves_no_file_the_target_made(ttt, tmp_path, suffix):
    from gamedb.errors import GameNotFound

    path = tmp_path / f"copy{suffix}"
    target = Database(path, create=True)
    with pytest.raises(GameNotFound):
        ttt.copy_to(target, ["no-such-game"])
    assert list(tmp_path.iterdir()) == []
    assert ttt.copy_to(target, ["nim"]).games == ["nim"]
    target.close()
    assert [g.name for g in Database(path).games()] == ["nim"]


@pytest.mark.parametrize("kwargs", [{"batch": 0}, {"batch": -5}, {"batch": 2.5}, {"errors": "ignore"}])
def test_probe_many_refuses_arguments_that_answer_nothing_or_wrongly_when_called(ttt, kwargs):
    from gamedb.errors import InputError

    with pytest.raises(InputError):  # at the call, not at the first answer: batch=0 gave no answer and no error at all
        ttt.probe_many("nim", ["3", "4"], **kwargs)


def test_probe_many_refuses_one_text_for_many(ttt):
    from gamedb.errors import InputError

    with pytest.raises(InputError, match="probe"):  # each character was a position: '3', ' ', '5'
        ttt.probe_many("nim", "3 5")
    assert [a.position for a in ttt.probe_many("nim", iter(["3 5"]))] == ["3 5"]


def test_a_position_that_is_not_text_is_a_position_error(ttt):
    with pytest.raises(PositionError, match="got int 5"):  # AttributeError: 'int' object has no attribute 'strip'
        ttt.probe("nim", 5)
    with pytest.raises(PositionError, match="got bytes b'3'"):
        ttt.probe("nim", b"3")
    mixed = list(ttt.probe_many("nim", ["3", 4, None, "20"], errors="return"))
    assert mixed[0] == ttt.probe("nim", "3") and mixed[2] == ttt.probe("nim")
    assert isinstance(mixed[1], PositionError) and isinstance(mixed[3], PositionNotFound)
    with pytest.raises(PositionError):  # get's default is for a position not stored, not for a mistake
        ttt.get("nim", 7.0, default="missing")


def test_a_read_only_database_refuses_to_write_in_gamedb_words(ttt, tmp_path):
    from gamedb.errors import GamedbError

    reader = Database(ttt.location, readonly=True)
    writes = [
        lambda: reader.solve(make_game("nim", max=3), "more"),
        lambda: reader.compact("nim"),
        lambda: Database(tmp_path / "other.sqlite", create=True).copy_to(reader),
    ]
    for write in writes:  # sqlalchemy's OperationalError: attempt to write a readonly database
        with pytest.raises(GamedbError, match="read-only"):
            write()
    assert [g.name for g in reader.games()] == ["nim", "tictactoe"] and reader.probe("nim", "3").result == "win"


@pytest.mark.parametrize(("family", "options", "said"), [
    ("nim", {"maxx": 3}, "unexpected keyword argument 'maxx' (its options: max)"),
    ("connect4", {"width": 5, "heigth": 4}, "'heigth' (its options: width, height, connect)"),
    ("octal", {}, "missing a required argument: 'code' (its options: code, max)"),
    ("tictactoe", {"size": 4}, "it takes no options"),
])
def test_make_game_names_the_options_of_the_family(family, options, said):
    from gamedb.errors import InputError

    with pytest.raises(InputError) as caught:  # a TypeError of Nim.__init__() before
        make_game(family, **options)
    assert f"the {family} family: " in str(caught.value) and said in str(caught.value)


def test_solve_takes_a_game_not_its_name(tmp_path):
    from gamedb.errors import InputError

    with Database(tmp_path / "s.sqlite", create=True) as db, pytest.raises(InputError, match=r"make_game\('nim', max=10\); got str 'nim'"):
        db.solve("nim")  # AttributeError: 'str' object has no attribute 'family'
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("options", [{"workers": "2"}, {"workers": 1.5}, {"workers": 1, "slice_size": "500"}, {"workers": True}])
def test_cluster_options_of_the_wrong_type_are_input_errors(tmp_path, options):
    from gamedb.errors import InputError
    from gamedb.solvers.protocol import Cluster

    with Database(tmp_path / "c.sqlite", create=True) as db, pytest.raises(InputError, match="must be a whole number"):
        db.solve(make_game("tictactoe"), cluster=Cluster(**options))  # TypeError: '<' not supported between 'str' and 'int'
    assert list(tmp_path.iterdir()) == []
