"""A Database used after close() (or after its with block) says it is closed: it opened the file again, without a word."""

import pytest

from gamedb import Database, DatabaseClosed, make_game
from gamedb.errors import GamedbError

CALLS = {
    "games": lambda db: db.games(),
    "game": lambda db: db.game("nim"),
    "stored_name": lambda db: db.stored_name("nim"),
    "rules": lambda db: db.rules("nim"),
    "solve": lambda db: db.solve(make_game("nim", max=3), "more"),
    "probe": lambda db: db.probe("nim", "3"),
    "get": lambda db: db.get("nim", "3"),
    "probe_many": lambda db: db.probe_many("nim", ["3"]),  # (refused when called, not at the first answer)
    "answerer": lambda db: db.answerer("nim"),
    "query_json": lambda db: db.query_json("nim", "3"),
    "stats": lambda db: db.stats("nim"),
    "positions": lambda db: db.positions("nim"),
    "verify": lambda db: db.verify("nim"),
    "compact": lambda db: db.compact("nim"),
    "missing_indexes": lambda db: db.missing_indexes(),
    "build_indexes": lambda db: db.build_indexes(),
    "copy_to": lambda db: db.copy_to(Database(db.location + ".copy.sqlite", create=True)),
    "copy_into": lambda db: Database(db.location.replace("g.sqlite", "src.sqlite"), readonly=True).copy_to(db),
    "read": lambda db: db.read().__enter__(),
    "engine": lambda db: db.engine,
    "with": lambda db: db.__enter__(),
}


@pytest.fixture(params=["sqlite", "readonly", "duckdb"])
def closed(request, tmp_path):
    suffix = ".duckdb" if request.param == "duckdb" else ".sqlite"
    path = tmp_path / f"g{suffix}"
    with Database(path, create=True) as db:
        db.solve(make_game("nim", max=5))
    with Database(tmp_path / "src.sqlite", create=True) as src:
        src.solve(make_game("nim", max=4), "other")
    db = Database(path, readonly=request.param == "readonly")
    db.probe("nim", "3")  # its connections open
    db.close()
    return db, path


@pytest.mark.parametrize("call", list(CALLS))
def test_every_method_of_a_closed_database_says_it_is_closed(closed, call):
    db, path = closed
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(DatabaseClosed, match=r"^the database .*g\.(sqlite|duckdb)'? is closed \(Database\.close\(\), or the end of its with block\)"):
        CALLS[call](db)
    assert issubclass(DatabaseClosed, GamedbError)
    db.close()  # closing again is harmless
    assert path.read_bytes() == before, "nothing written"


def test_a_database_after_its_with_block_is_closed(tmp_path):
    with Database(tmp_path / "w.sqlite", create=True) as db:
        db.solve(make_game("nim", max=3))
        assert db.probe("nim", "3").result == "win"
    with pytest.raises(DatabaseClosed):
        db.probe("nim", "3")
    with Database(tmp_path / "w.sqlite") as again:  # a new Database reads it
        assert again.probe("nim", "3").result == "win"
