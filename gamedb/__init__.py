"""gamedb: strongly solve finite two-player games and keep every answer in SQL.

Python API::

    from gamedb import Database, make_game

    db = Database("gamedb.sqlite", create=True)
    db.solve(make_game("tictactoe"))
    answer = db.probe("tictactoe", "X...O....")
    print(answer.result, answer.remoteness, answer.best_move)
"""

__version__ = "0.1.0"


def __getattr__(name):  # lazy, so that `gamedb --help` does not import SQLAlchemy
    if name == "Database":
        from .api import Database

        return Database
    if name == "make_game":
        from .games import make_game

        return make_game
    raise AttributeError(name)


__all__ = ["Database", "make_game", "__version__"]
