"""A command group that builds a command (imports its module) only when it is called or help lists it."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

import typer.core


class LazyGroup(typer.core.TyperGroup):
    """A Typer group that builds each command on first use (:meth:`build`) from the names it lists (:meth:`names`)."""

    def names(self) -> list[str]:
        """The commands' names, in the order help lists them."""
        raise NotImplementedError

    def knows(self, name: str) -> bool:
        """Whether ``name`` is one of :meth:`names` (a group may answer without listing them all)."""
        return name in self.names()

    def build(self, name: str) -> Any:  # a Click command of Typer's, or None: no such command
        """The command ``name``, built now (its module imported)."""
        raise NotImplementedError

    @property
    def commands(self) -> MutableMapping[str, Any]:
        """Every command, built (for a walk of the whole tree: help, tests)."""
        for name in self.names():
            self.get_command(None, name)
        return self._built

    @commands.setter
    def commands(self, value: MutableMapping[str, Any]) -> None:  # (Typer's own registered commands, if any)
        self._built: dict[str, Any] = dict(value)

    def list_commands(self, ctx: Any) -> list[str]:
        return self.names()

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = self._built.get(cmd_name)
        if found is None and self.knows(cmd_name):
            found = self.build(cmd_name)
            if found is not None:
                self._built[cmd_name] = found
        return found


def commands_of(register: Any) -> dict[str, Any]:
    """The Click commands a module's ``register(app)`` adds to a Typer app, built as the root's would be."""
    import typer.main

    app = typer.Typer(rich_markup_mode=None, add_completion=False)
    register(app)
    return dict(typer.main.get_group(app).commands)
