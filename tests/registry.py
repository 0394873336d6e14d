"""The families the generic suites run on, each with the examples it declares.

A family declares its small options, positions worth asking about and the
bad positions a user will type on its class (``examples``, a
:class:`gamedb.games.base.Examples`); the conformance, array-rules, tier,
light-query-path and bad-input suites iterate the registry
(``gamedb.games.BUILTIN``, installed plugins, and the example plugin of
``examples/plugin``) and read those examples, so a new family needs no edit
to any test table. ``tests/test_new_family.py`` registers a toy family and
runs every suite's check on it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gamedb import Database
from gamedb.games import BUILTIN, family, family_names
from gamedb.games.base import Examples, Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "plugin"))

#: the example plugin, by its class (whether or not the package is installed)
PLUGIN = "gamedb_takeaway:TakeAway"


def registered() -> list[str]:
    """Every family gamedb knows by name, and the example plugin by its class."""
    names = family_names()
    return names if "takeaway" in names else [*names, PLUGIN]


def builtin() -> list[str]:
    """The built-in families (those a stored game names by family name alone, without a plugin package)."""
    return list(BUILTIN)


def examples(name: str) -> Examples:
    return family(name).examples


def example_game(name: str) -> Game:
    """The family's game at its example options."""
    cls = family(name)
    return cls.from_options(**dict(cls.examples.options))


def solve_examples(path: Path, names: list[str]) -> Path:
    """A new SQLite file holding each family's example game, stored under the family's name."""
    with Database(path, create=True) as db:
        for name in names:
            db.solve(example_game(name), name)
    return path
