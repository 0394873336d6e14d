"""A new solver is its module and one row of the strategy table (README, Development, "a new solver").

Every row of ``gamedb.solvers.choice.STRATEGIES`` names a solver class that
loads and implements the ``Solver`` protocol (``gamedb/solvers/protocol.py``),
an answerer module with ``probe_many``, and only capabilities a family can
declare (``gamedb.games.base.Capabilities``); its key is its name.
"""

from __future__ import annotations

import dataclasses

import pytest

from gamedb.games.base import Capabilities
from gamedb.solvers.choice import STRATEGIES


@pytest.mark.parametrize("key", list(STRATEGIES))
def test_a_strategy_row_is_all_a_solver_needs_besides_its_module(key):
    row = STRATEGIES[key]
    assert row.name == key
    solver = row.load()
    assert callable(getattr(solver, "verify", None)), row.name
    # a strategy writes into any sink, or computes inside the database
    assert row.into_sink is not None or callable(getattr(solver, "solve", None)), row.name
    assert callable(getattr(row.answerer(), "probe_many", None)), row.name
    declared = {f.name for f in dataclasses.fields(Capabilities)}
    assert {need.capability for need in row.needs} <= declared, row.needs


def test_the_strategy_hooks_are_loaders_not_importlib():
    """The strategy table's hooks import their modules by plain local imports: no importlib call in solvers/ or store/."""
    import pathlib

    import gamedb

    root = pathlib.Path(gamedb.__file__).parent
    users = [str(p) for folder in ("solvers", "store") for p in (root / folder).rglob("*.py") if "import_module" in p.read_text()]
    assert users == []
