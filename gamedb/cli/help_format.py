"""Help text in the usual Unix form: ``gamedb query [OPTIONS] NAME [POSITION]``.

Typer (0.29 and later) writes a required argument as ``{NAME}`` on the usage
line and appends its Python type to every argument in the help
(``NAME <str>``, ``--set <list[str]>``). gamedb gives each option a metavar
that says what to type (``--set KEY=VALUE``); this takes the Python types
and the braces out of the arguments as well. Older Typer versions, which
have neither, are left alone.
"""

from __future__ import annotations

import typer.core


def _usage_name(self: typer.core.TyperArgument) -> str:
    name = self.display_name_raw
    name = name if self.required else f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


def use_plain_argument_names() -> None:
    """Make Typer's arguments render as ``NAME`` / ``[POSITION]`` without a Python type."""
    argument = getattr(typer.core, "TyperArgument", None)
    if argument is None:
        return
    if hasattr(argument, "_usage_display_name"):
        argument._usage_display_name = _usage_name
    if hasattr(argument, "display_type_rich"):
        argument.display_type_rich = lambda self, ctx: None
