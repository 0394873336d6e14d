"""Arguments on the usage line in the usual Unix form, ``gamedb query [OPTIONS] NAME [POSITION]``, on every Typer allowed.

Typer 0.27 and 0.28 write a required argument as ``{NAME}`` and drop the ``...`` of one that repeats.
"""

from __future__ import annotations

from typing import Any

import typer.core


def _usage_pieces(self: Any, ctx: Any) -> list[str]:
    name = self.metavar if self.metavar is not None else (self.name or "").upper()
    return [(name if self.required else f"[{name}]") + ("..." if self.nargs != 1 else "")]


def use_plain_argument_names() -> None:
    """Make Typer's arguments render as ``NAME`` / ``[POSITION]`` / ``[NAME]...`` on the usage line."""
    typer.core.TyperArgument.get_usage_pieces = _usage_pieces  # type: ignore[method-assign]
