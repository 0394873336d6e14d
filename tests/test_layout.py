"""The package's shape: no import cycles, small modules, one place that asks what a game is."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gamedb"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """gamedb modules ``path`` imports anywhere in it (lazy imports in functions included)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            targets = [target] + [f"{target}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in modules and t != name)
    return found


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {name: _imports(path, modules) for name, path in paths.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles_in_gamedb():
    """Parent packages aside (a package's ``__init__`` is imported with every module in it)."""
    graph = _graph()
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not name.startswith(t + ".")}
    assert _cycle(graph) is None


def test_the_store_imports_nothing_from_the_solvers():
    """Layers look down: gamedb.store is below gamedb.solvers (lazy imports included)."""
    up = {name: sorted(t for t in targets if t.startswith("gamedb.solvers")) for name, targets in _graph().items() if name.startswith("gamedb.store")}
    assert {name: targets for name, targets in up.items() if targets} == {}


def test_no_module_over_400_lines():
    long = {str(p.relative_to(PACKAGE.parent)): n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


def test_only_the_choice_module_asks_what_a_game_is():
    """Capabilities are declared on the game class and read in gamedb/solvers/choice.py and capabilities.py alone."""
    asking = re.compile(r"isinstance\([^)]*HeapGame|hasattr\(game|\.vector\(\)|\.token_moves\(\)")
    found = [
        f"{p.relative_to(PACKAGE.parent)}:{i}"
        for p in PACKAGE.rglob("*.py")
        if p.name not in ("choice.py", "capabilities.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if asking.search(line)
    ]
    assert found == []


def test_the_public_api_comes_from_gamedb_alone():
    import gamedb
    from gamedb import Answer, Database, Game, GamedbError, InputError, VerifyError, make_game

    assert Database.__module__ == "gamedb.api" and Answer.__module__ == "gamedb.answers"
    assert issubclass(make_game("tictactoe").__class__, Game)
    assert issubclass(VerifyError, GamedbError) and issubclass(InputError, ValueError)
    assert set(gamedb.__all__) <= set(dir(gamedb))
    try:
        gamedb.NoSuchThing  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("gamedb.NoSuchThing should not exist")


def test_one_position_row_type_from_the_schema():
    from gamedb.store.rows import POSITION_COLUMNS, PositionRow, columns_except
    from gamedb.store.schema import position

    assert PositionRow._fields == POSITION_COLUMNS == tuple(c.name for c in position.columns)[1:]
    assert columns_except("best_move", "grundy") == POSITION_COLUMNS[:6]
    try:
        columns_except("grundy", "no_such_column")
    except ValueError as exc:
        assert "no_such_column" in str(exc)
    else:
        raise AssertionError("an unknown column should be refused")


def test_position_columns_are_listed_in_one_module():
    """Readers select position rows through gamedb/store/rows.py, not a copied column list."""
    listed = re.compile(r"SELECT[^\"']*\bbest_move\b[^\"']*\bgrundy\b|\(\s*\"code\", \"text\", \"player\"")
    found = [
        f"{p.relative_to(PACKAGE.parent)}:{i}"
        for p in PACKAGE.rglob("*.py")
        if p.name != "rows.py"
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if listed.search(line)
    ]
    assert found == []
