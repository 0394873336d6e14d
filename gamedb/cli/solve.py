"""``gamedb solve FAMILY``: one subcommand per family, and ``--game module:Class`` for a class of one's own."""

from __future__ import annotations

import inspect
from enum import Enum
from typing import Annotated, Any, Optional

import typer

from ..errors import InputError, UnknownFamily
from ..games import BUILTIN, family, family_names
from ..games.base import Game
from ..solvers.choice import AUTO, CHOICES, CHOICES_HELP
from .common import err, handle_write_errors, out, settings
from .lazy import LazyGroup, commands_of
from .solve_run import run_solve

#: the choices of ``--strategy`` (:data:`gamedb.solvers.choice.CHOICES`), listed by ``--help``
StrategyChoice = Enum("StrategyChoice", {choice: choice for choice in CHOICES}, type=str)  # type: ignore[misc]
#: what ``--engine``, the old name of ``--strategy``, says on stderr when it is used
ENGINE_DEPRECATED = "Note: --engine is deprecated; use --strategy (it takes the same values)."


class FamilyCommands(LazyGroup):
    """``gamedb solve``: a subcommand per family, built (the family imported) when it is called or help lists it."""

    def names(self) -> list[str]:
        return family_names()

    def knows(self, name: str) -> bool:
        return name in BUILTIN or name in family_names()  # a built-in family without reading the plugins' entry points

    def build(self, name: str) -> Any:
        return commands_of(lambda app: _solve_command(app, name)).get(name)


solve_app = typer.Typer(
    cls=FamilyCommands,
    help="Solve a game: enumerate every reachable position and store its value. One subcommand per family.",
    rich_markup_mode=None,
)


def _run_solve(
    ctx: typer.Context, game: Game, name: str | None, force: bool, quiet: bool, strategy: str = AUTO, memory_limit: str | None = None,
    cluster: Any = None, symmetry: bool | None = None,
) -> None:
    run_solve(settings(ctx).db, game, name, force, quiet, strategy, memory_limit, cluster, symmetry)


@solve_app.callback(invoke_without_command=True, epilog="Example:  gamedb solve --game gamedb_takeaway:TakeAway --set matches=21    "
                        "(in examples/plugin/ of gamedb's source, or with it on PYTHONPATH)")
@handle_write_errors
def solve_plugin(
    ctx: typer.Context,
    game: Annotated[
        Optional[str],
        typer.Option("--game", metavar="MODULE:CLASS", help="Solve a game written in Python: package.module:ClassName (a gamedb.games.base.Game subclass)."),
    ] = None,
    settings: Annotated[Optional[list[str]], typer.Option("--set", metavar="KEY=VALUE", help="Option of that game as KEY=VALUE (repeatable).")] = None,
    name: Annotated[Optional[str], typer.Option(
        "--name", metavar="NAME", help="Name to store the game under (default: the family name, with the options that distinguish it).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a stored game of the same name.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
    strategy: Annotated[Optional[StrategyChoice], typer.Option(
        "--strategy", metavar=f"[{'|'.join(CHOICES)}]", show_default=False,
        help="The strategy (default: auto; a family's --help lists them); before a family's name or after it.")] = None,
    memory_limit: Annotated[Optional[str], typer.Option(
        "--memory-limit", metavar="SIZE", help="Memory the solve may use, e.g. 2G (default: half the available memory).")] = None,
    symmetry: Annotated[Optional[bool], typer.Option(
        "--symmetry/--no-symmetry", show_default=False, help="Store one position per symmetry class (default: where the strategy uses them).")] = None,
) -> None:
    """Solve a game: enumerate every reachable position and store its value. One subcommand per family."""
    if ctx.invoked_subcommand is not None:
        if game is not None:
            raise InputError("--game and a family name cannot be used together")
        if settings:
            raise InputError(
                f"--set goes with --game; give a family's options after its name (gamedb solve {ctx.invoked_subcommand} --help)"
            )
        return  # --name, --force, --quiet given here are read by the family's command (group_options)
    if game is None:
        out(ctx.get_help())
        raise typer.Exit(0)
    try:
        cls = family(game)
    except UnknownFamily as exc:  # a --game value that names no game class: a bad option (a family that fails to load is exit 1)
        raise InputError(str(exc)) from None
    options = _parse_settings(cls, settings or [])
    _run_solve(ctx, cls.from_options(**options), name, force, quiet, AUTO if strategy is None else strategy.value, memory_limit, None, symmetry)


def group_options(ctx: typer.Context, name: str | None, force: bool, quiet: bool) -> tuple[str | None, bool, bool]:
    """--name, --force and --quiet, given after the family or before it (``gamedb solve --name n nim``).

    Two different names, one on each side, are refused rather than one of them ignored.
    """
    group = ctx.parent.params if ctx.parent is not None else {}
    before = group.get("name")
    if before is not None and name is not None and before != name:
        raise InputError(f"two names given: --name {before} before the family and --name {name} after it")
    return name if name is not None else before, force or bool(group.get("force")), quiet or bool(group.get("quiet"))


def group_value(ctx: typer.Context, key: str, option: str, value: Any, default: Any) -> Any:
    """``--strategy``, ``--memory-limit`` or ``--symmetry`` given before the family's name (``gamedb solve --strategy memory nim``,
    as with ``--game``), else its own ``value``; two different values, one on each side, refused."""
    before = (ctx.parent.params if ctx.parent is not None else {}).get(key)
    if before is None:
        return value
    if value != default and value != before:
        raise InputError(f"two values of {option}: one before the family's name and another after it")
    return before


def _parse_settings(cls: type[Game], settings: list[str]) -> dict[str, Any]:
    """--set KEY=VALUE pairs, converted with the family's declared option types."""
    types = {p.name: p.type for p in cls.params}
    options: dict[str, Any] = {}
    for item in settings:
        key, sep, value = item.partition("=")
        key = key.strip().lstrip("-").replace("-", "_")
        if not sep or not key:
            raise InputError(f"--set takes KEY=VALUE, got {item!r}")
        if key not in types:
            known = ", ".join(types) or "none"
            raise InputError(f"{cls.family} has no option {key!r} (options: {known})")
        try:
            options[key] = types[key](value)
        except ValueError:
            raise InputError(f"--set {key}: {value!r} is not a valid {types[key].__name__}") from None
    return options


#: the options of every family's solve command after its own: name -> (default, annotation Typer reads)
SHARED_OPTIONS: dict[str, tuple[Any, Any]] = {
    "name": (None, Annotated[Optional[str], typer.Option(
        "--name", metavar="NAME", help="Name to store the game under (default: the family name, with the options that distinguish it).")]),
    "force": (False, Annotated[bool, typer.Option("--force", help="Replace a stored game of the same name.")]),
    "quiet": (False, Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")]),
    "strategy": (StrategyChoice(AUTO), Annotated[StrategyChoice, typer.Option(
        "--strategy",
        metavar=f"[{'|'.join(CHOICES)}]",
        help=f"{CHOICES_HELP}. All write the same position rows.",
    )]),
    "engine": (None, Annotated[Optional[StrategyChoice], typer.Option(
        "--engine", metavar=f"[{'|'.join(CHOICES)}]", hidden=True, help="Deprecated: the old name of --strategy.")]),
    "memory_limit": (None, Annotated[Optional[str], typer.Option(
        "--memory-limit", metavar="SIZE",
        help="Memory the solve may use, e.g. 2G or 500M (default: half the available memory); also sizes SQLite's cache for the SQL solver.",
    )]),
    "workers": (None, Annotated[Optional[int], typer.Option(
        "--workers", metavar="N", help="Solve the tiers on a local Dask cluster of N worker processes (the cluster extra; docs/cluster.md).")]),
    "scheduler": (None, Annotated[Optional[str], typer.Option(
        "--scheduler", metavar="ADDRESS", help="Solve the tiers on the Dask cluster of this scheduler, e.g. tcp://host:8786.")]),
    "work_dir": (None, Annotated[Optional[str], typer.Option(
        "--work-dir", metavar="PATH", help="Folder of a cluster solve's slices, shared by its workers (default: beside the database file).")]),
    "slice_size": (None, Annotated[Optional[int], typer.Option(
        "--slice-size", metavar="POSITIONS", help="Positions per slice of a tier in a cluster solve (default: from --memory-limit).")]),
    "symmetry": (None, Annotated[Optional[bool], typer.Option(
        "--symmetry/--no-symmetry", show_default=False,
        help="Store one position per symmetry class (Connect-Four's mirror, tic-tac-toe's 8, Dōbutsu's 4); answers are the same. "
             "Default: on for a family that declares symmetries, with the tiers strategy or retrograde on vector rules (Dōbutsu).",
    )]),
}
#: the options that make a solve run on a cluster
CLUSTER_OPTIONS = ("workers", "scheduler", "work_dir", "slice_size")


def _solve_command(app: typer.Typer, fam: str) -> None:
    """Add ``gamedb solve FAMILY`` to ``app`` with the family's declared options."""
    cls = family(fam)

    def command(ctx: typer.Context, **kwargs: Any) -> None:
        name, force, quiet = group_options(ctx, kwargs.pop("name"), kwargs.pop("force"), kwargs.pop("quiet"))
        strategy, engine = kwargs.pop("strategy"), kwargs.pop("engine")
        if engine is not None:
            err(ENGINE_DEPRECATED)
            strategy = engine
        strategy = group_value(ctx, "strategy", "--strategy", strategy, StrategyChoice(AUTO))
        memory_limit = group_value(ctx, "memory_limit", "--memory-limit", kwargs.pop("memory_limit"), None)
        symmetry = group_value(ctx, "symmetry", "--symmetry/--no-symmetry", kwargs.pop("symmetry"), None)
        cluster = {k: kwargs.pop(k) for k in CLUSTER_OPTIONS}
        if cluster["workers"] is None and cluster["scheduler"] is None:
            if cluster["work_dir"] is not None or cluster["slice_size"] is not None:
                raise InputError("--work-dir and --slice-size go with --workers or --scheduler (a solve on a cluster)")
            cluster = {}
        options = {k: v for k, v in kwargs.items() if v is not None}
        _run_solve(ctx, cls.from_options(**options), name, force, quiet, strategy, memory_limit, _cluster(cluster), symmetry)

    keyword = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
    for p in cls.params:
        option = typer.Option(p.flag, metavar=p.name.upper(), help=p.help, show_default=not p.required)
        kind = p.type if p.required else Optional[p.type]
        params.append(inspect.Parameter(p.name, keyword, default=... if p.required else p.default, annotation=Annotated[kind, option]))
    params += [inspect.Parameter(name, keyword, default=default, annotation=annotation) for name, (default, annotation) in SHARED_OPTIONS.items()]
    # Typer reads the options from the signature; a function object declares no __signature__, so it goes in its __dict__
    vars(command)["__signature__"] = inspect.Signature(params)
    command.__name__ = f"solve_{fam.replace('-', '_')}"
    given = cls.examples.command_line  # the family's own example options; else the required options' names
    example = " ".join([f"gamedb solve {fam}"] + ([given] if given else [f"{p.flag} {p.name.upper()}" for p in cls.params if p.required]))
    doc = f"{cls.summary}.\n\nPosition syntax: {cls.position_syntax}"
    app.command(fam, help=doc, epilog=f"\b\nExample:\n  {example}")(handle_write_errors(command))


def _cluster(options: dict[str, Any]) -> Any:
    if not options:
        return None
    from ..solvers.protocol import Cluster

    return Cluster(**options)


def register(app: typer.Typer) -> None:
    app.add_typer(solve_app, name="solve")

