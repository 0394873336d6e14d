"""A new solver is its module and one row of the strategy table (README, Development, "a new solver").

Every row of ``gamedb.solvers.choice.STRATEGIES`` names a solver class that
loads and implements the ``Solver`` protocol (``gamedb/solvers/protocol.py``),
an answerer module with ``probe_many``, and only capabilities a family can
declare (``gamedb.games.base.Capabilities``); its key is its name.
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gamedb.games.base import Capabilities
from gamedb.solvers.choice import STRATEGIES


@pytest.mark.parametrize("key", list(STRATEGIES))
def test_a_strategy_row_is_all_a_solver_needs_besides_its_module(key):
    row = STRATEGIES[key]
    assert row.name == key
    solver = row.load()
    assert callable(getattr(solver, "solve", None)) and callable(getattr(solver, "verify", None)), row.solver
    assert callable(getattr(importlib.import_module(row.answerer), "probe_many", None)), row.answerer
    declared = {f.name for f in dataclasses.fields(Capabilities)}
    assert {need.capability for need in row.needs} <= declared, row.needs


@pytest.mark.parametrize("key", list(STRATEGIES))
def test_every_hook_a_row_names_loads(key):
    from gamedb.solvers.choice import hook

    row = STRATEGIES[key]
    named = [row.memory_need, row.announce, row.takes_over, row.summary, *(row.new_file or ())]
    for spec in filter(None, named):
        assert callable(hook(spec)), spec
