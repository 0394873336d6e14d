"""The README and docs/ name only commands, options, modules and scripts that exist.

Read from the command line itself (``gamedb.cli.app``, as Click builds it):

- the command list of "The command line" names every command (and ``db``'s
  subcommands) and nothing else; each line's options are that command's, and
  a choice written ``--opt a|b|c`` lists exactly the option's choices;
- every ``gamedb ...`` command line in a code block or code span is a real
  command (and family, for ``solve``) with options it has;
- every ``--option`` named anywhere is an option of gamedb (any command, any
  family, the example plugin's), of a ``bench/`` script (its argparse
  ``add_argument``), or of another tool shown with it (:data:`OTHER_TOOLS`);
- every path under ``gamedb/``, ``bench/``, ``docs/``, ``examples/``,
  ``tests/``, ``migrations/`` and every dotted ``gamedb.`` module exists.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer

from gamedb.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "plugin" / "README.md"]

#: options of other programs the docs show (alembic, pip, pytest, python, git, ...), with the program
OTHER_TOOLS = {"--autogenerate": "alembic revision", "--disable-pip-version-check": "pip", "--no-nanny": "dask worker"}
#: words shaped like options that stand for a kind of option, not one
NOT_OPTIONS = {"--options"}


def _tree():
    """``{("solve", "nim"): click command, ...}``: every command of ``gamedb``, the root as ``()``."""
    found = {}

    def walk(command, path):
        found[path] = command
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


TREE = _tree()


def _options(command) -> dict[str, object]:
    return {opt: param for param in command.params for opt in (*param.opts, *param.secondary_opts) if opt.startswith("--")}


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _code(text: str) -> list[str]:
    """Lines of fenced code blocks, and inline code spans."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, re.S)
    outside = re.sub(r"```[^\n]*\n.*?```", "", text, flags=re.S)
    return [line for block in blocks for line in block.splitlines()] + re.findall(r"`([^`\n]+)`", outside)


def _command_lines(text: str) -> list[list[str]]:
    """Every ``gamedb ...`` command line in code: its words after ``gamedb``, up to a shell operator or comment."""
    found = []
    for line in _code(text):
        if line.strip().startswith("gamedb ["):  # the usage synopsis
            continue
        for match in re.finditer(r"(?:^|&&|\|\||\$\(|^\$ )\s*gamedb((?: +[^\s|&;>#)]+)*)", line.strip()):
            try:
                words = shlex.split(match.group(1))
            except ValueError:  # an unbalanced quote inside a span: take the plain words
                words = match.group(1).split()
            if words:
                found.append(words)
    return found


def _resolve(words: list[str]):
    """The command ``words`` run, and the option words given to it (and to the root)."""
    path: tuple[str, ...] = ()
    options = []
    for word in words:
        if word == "--":  # positions follow, not options
            break
        if word.startswith("--"):
            options.append(word.split("=")[0])
        elif (*path, word) in TREE:
            path = (*path, word)
    return path, options


def _choices(param) -> list[str]:
    """The values an option takes, as its help shows them (``[a|b|c]``), from its enum, or from its Click type."""
    import enum

    shown = re.fullmatch(r"\[([\w|-]+)\]", str(getattr(param, "metavar", None) or ""))
    if shown:
        return shown.group(1).split("|")
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [member.value for member in annotation]
    return list(getattr(getattr(param, "type", None), "choices", []))


def test_the_command_list_names_every_command_and_nothing_else():
    text = _text(ROOT / "README.md")
    block = re.search(r"## The command line\n\n```\n(.*?)```", text, re.S).group(1)
    listed = {}
    for line in block.splitlines()[1:]:
        match = re.match(r"  (\w[\w-]*(?: (?:upgrade|index))?)\b(.*?)(?:\s{2,}(.*))?$", line)
        if match and not line.startswith("   "):
            listed[tuple(match.group(1).split())] = (match.group(2) or "") + " " + (match.group(3) or "")
        elif listed:
            key = list(listed)[-1]
            listed[key] += " " + line
    commands = {path for path, cmd in TREE.items() if path and not getattr(cmd, "commands", None) and path[0] != "solve"}
    assert set(listed) == commands | {("solve",)}, set(listed) ^ (commands | {("solve",)})
    for path, described in listed.items():
        command = TREE[path]
        own = _options(command)
        if path == ("solve",):
            own = {opt: p for sub in command.commands.values() for opt, p in _options(sub).items()}
        own |= _options(TREE[()])
        for option, choices in re.findall(r"(--[a-z][\w-]*)(?:[ =]((?:[a-z]+\|)+[a-z]+))?", described):
            assert option in own, f"README's command list: {' '.join(path)} has no {option}"
            if choices:
                real = _choices(own[option])
                assert choices.split("|") == real, f"README's command list: {' '.join(path)} {option} is {'|'.join(real)}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_line_in_the_docs_is_a_real_command(doc):
    lines = _command_lines(_text(doc))
    if doc == ROOT / "README.md":
        assert len(lines) > 30
    for words in lines:
        path, options = _resolve(words)
        assert path, f"{doc.relative_to(ROOT)}: `gamedb {' '.join(words)}` names no command"
        command = TREE[path]
        assert not getattr(command, "commands", None) or words[-1] in ("--help", "-h") or path == ("solve",), f"`gamedb {' '.join(words)}`"
        own = _options(command) | _options(TREE[()])
        plugin = {p.flag for p in _plugin().params}
        for option in options:
            assert option in own or (path == ("solve",) and option in ("--game", "--set", *plugin)) or (
                path == ("solve", "takeaway") and option in plugin
            ), f"{doc.relative_to(ROOT)}: `gamedb {' '.join(words)}`: {' '.join(path)} has no {option}"


def _plugin():
    import sys

    sys.path.insert(0, str(ROOT / "examples" / "plugin"))
    try:
        from gamedb_takeaway import TakeAway
    finally:
        sys.path.pop(0)
    return TakeAway


def _bench_options() -> set[str]:
    return {opt for path in (ROOT / "bench").glob("*.py") for opt in re.findall(r"add_argument\(\s*\"(--[\w-]+)\"", _text(path))}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_option_the_docs_name_exists(doc):
    known = {opt for command in TREE.values() for opt in _options(command)} | {"--help"}
    known |= {p.flag for p in _plugin().params} | _bench_options() | set(OTHER_TOOLS) | NOT_OPTIONS
    named = set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", _text(doc)))
    assert named - known == set(), f"{doc.relative_to(ROOT)} names options nothing has"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_and_module_the_docs_name_exists(doc):
    text = _text(doc)
    base = ROOT if doc.parent in (ROOT, ROOT / "docs") else doc.parent
    paths = set(re.findall(r"(?<![\w./-])((?:gamedb|bench|docs|examples|tests|migrations|\.ci)/[\w./*-]*[\w*])", text))
    if doc.parent == ROOT / "docs":
        paths |= {f"docs/{p}" for p in re.findall(r"\]\((?!https?:)([\w./-]+)\)", text)}
    assert paths or doc.parent not in (ROOT,), "no paths found: the pattern is broken"
    for path in sorted(paths):
        where = ROOT if (ROOT / path.split("/")[0]).exists() else base
        if "*" in path:
            assert list(where.glob(path)), f"{doc.relative_to(ROOT)}: {path} matches nothing"
        else:
            assert (where / path).exists() or (where / path.rstrip(".")).exists(), f"{doc.relative_to(ROOT)}: {path} does not exist"
    # paths inside the package, named from gamedb/ (``solvers/choice.py``, ``store/sqlite_ddl.sql``)
    for path in sorted(set(re.findall(r"(?<![\w./-])((?:cli|games|solvers|store|web)/[\w./-]*\.(?:py|sql|js|css|html))", text))):
        assert (ROOT / "gamedb" / path).exists(), f"{doc.relative_to(ROOT)}: gamedb/{path} does not exist"
    for module in sorted(set(re.findall(r"(?<![\w./])(gamedb(?:\.[a-z_]\w*)+)", text))):
        parts = module.split(".")
        if parts[1] == "sqlite":  # the default database file, gamedb.sqlite
            continue
        if parts[:2] == ["gamedb", "migrations"]:  # migrations/ is installed as the package gamedb.migrations
            parts = parts[1:]
        # a module, a package, or a name inside one (gamedb.games.base.Game, gamedb.api.Database)
        found = any(
            (ROOT / Path(*parts[:i])).with_suffix(".py").exists() or (ROOT / Path(*parts[:i]) / "__init__.py").exists()
            for i in range(len(parts), 0, -1)
            if i >= min(len(parts), 2)
        )
        assert found, f"{doc.relative_to(ROOT)}: no module {module}"
