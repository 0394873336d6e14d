"""Typer options shared by several commands (kept out of :mod:`.common`, which the light solve path imports without Typer)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

#: ``--game`` on a command that reads a stored game's rules
GameClassOption = Annotated[
    Optional[str],
    typer.Option(
        "--game",
        metavar="MODULE:CLASS",
        help="For a game solved from a Python class (solve --game module:Class): the same module:Class, "
        "which you trust to run. A database file never chooses code on its own.",
    ),
]
