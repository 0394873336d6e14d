"""Cat and mouse on an undirected graph (LeetCode 913): the mouse starts at node 1 and moves first, the cat at 2;
node 0 is the hole, which the cat may not enter. The cat wins on the mouse's node, the mouse in the hole; play that
goes on forever is a draw. Position text: ``mouse=M,cat=C,turn=mouse|cat``; move labels: the node moved to.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...errors import GraphError, PositionError
from ...safe_text import shown
from ...values import LOSE, WIN
from ..base import Capabilities, Estimate, Examples, Game, Param, TokenMoves, bounded_int, short_number
from ..json_option import load_json_option
from . import CAT, HOLE, MOUSE, State, TwoTokenCodes
from . import reach as _reach

if TYPE_CHECKING:
    from ..vector import VectorRules

_TEXT = re.compile(r"^\s*mouse\s*=\s*(\d+)\s*,\s*cat\s*=\s*(\d+)\s*,\s*turn\s*=\s*(mouse|cat)\s*$", re.ASCII)
#: the most nodes: up to 2·n² positions (8.6 billion here), refused before any work per edge
MAX_NODES = 1 << 16


class CatMouse(TwoTokenCodes, Game):
    family = "cat-mouse"
    summary = "Cat and mouse on an undirected graph (LeetCode 913); draws by repetition"
    position_syntax = "mouse=M,cat=C,turn=mouse|cat  (e.g. mouse=1,cat=2,turn=mouse)"
    examples = Examples(
        options={"graph": [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]},
        positions=[],
        bad_positions=[("mouse=1,cat=0,turn=mouse", "never be in the hole"), ("mouse=9,cat=2,turn=mouse", "not in the graph")],
        command_line="--graph '[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]'",
    )
    params = (Param("graph", str, "Adjacency list as JSON, inline or a file path: [[2,5],[3],[0,4,5],...].", required=True),)
    players = ("mouse", "cat")
    capabilities = Capabilities(vector_rules=True, token_moves=True)

    def __init__(self, graph: Any) -> None:
        self.graph = validate_graph(load_json_option(graph, "graph"))
        self.n = len(self.graph)
        self._mouse_moves = [sorted(nbrs) for nbrs in self.graph]
        self._cat_moves = [sorted(b for b in nbrs if b != HOLE) for nbrs in self.graph]
        self._vector: VectorRules | None = None  # made on first use
        self._estimate: Estimate | None = None  # (asked three times by a solve)
        self._jumps = [[[(str(b), b) for b in targets] for targets in table] for table in (self._mouse_moves, self._cat_moves)]
        rows = [(p, a, order, b, label) for p, table in enumerate(self._jumps) for a, moves in enumerate(table) for order, (label, b) in enumerate(moves)]
        self._token_moves = TokenMoves(self.n, rows)

    def parameters(self) -> dict[str, Any]:
        return {"graph": self.graph}

    def vector(self) -> VectorRules:
        if self._vector is None:
            from .cat_mouse_vector import CatMouseVector

            self._vector = CatMouseVector(self._mouse_moves, self._cat_moves, self.players)
        return self._vector

    def start(self) -> State:
        return State(1, 2, MOUSE)

    def estimate(self) -> Estimate:
        """2 · (nodes the mouse can reach) · (nodes the cat can reach) positions, and their moves."""
        if self._estimate is None:
            self._estimate = self._counted()
        return self._estimate

    def _counted(self) -> Estimate:
        mouse = _reach(self._mouse_moves, 1, stop=HOLE)  # the game ends when the mouse enters the hole
        cat = _reach(self._cat_moves, 2)
        mouse_moves = sum(len(self._mouse_moves[m]) for m in mouse if m != HOLE) * len(cat)
        cat_moves = sum(len(self._cat_moves[c]) for c in cat) * len(mouse - {HOLE})
        return Estimate(2 * len(mouse) * len(cat), mouse_moves + cat_moves)

    def primitive(self, state: State) -> str | None:
        if state.mouse == HOLE:
            return WIN if state.turn == MOUSE else LOSE
        if state.mouse == state.cat:
            return WIN if state.turn == CAT else LOSE
        return None

    def token_moves(self) -> TokenMoves:
        """The mouse's and the cat's move lists, stored instead of a row per move."""
        return self._token_moves

    def format(self, state: State) -> str:
        return f"mouse={state.mouse},cat={state.cat},turn={self.players[state.turn]}"

    def parse(self, text: str) -> State:
        match = _TEXT.match(text)
        if not match:
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise PositionError(f"bad cat-mouse position {shown!r}: expected {self.position_syntax}")
        mouse, cat = bounded_int(match.group(1), self.n - 1), bounded_int(match.group(2), self.n - 1)
        for who, node, digits in (("mouse", mouse, match.group(1)), ("cat", cat, match.group(2))):
            if node is None:
                raise PositionError(f"bad cat-mouse position: {who} node {short_number(digits)} is not in the graph (0..{self.n - 1})")
        assert mouse is not None and cat is not None  # both checked above
        if cat == HOLE:
            raise PositionError(f"bad cat-mouse position {text!r}: the cat can never be in the hole (node 0)")
        return State(mouse, cat, MOUSE if match.group(3) == "mouse" else CAT)


def validate_graph(graph: Any) -> list[list[int]]:
    """Check a LeetCode 913 graph, in time linear in its size; raise :class:`GraphError` naming the offending entry."""
    if not isinstance(graph, list):
        raise GraphError(f"graph must be a JSON list of lists, got {type(graph).__name__}")
    n = len(graph)
    if n < 3:
        raise GraphError(f"graph needs at least 3 nodes (hole 0, mouse 1, cat 2), got {n}")
    if n > MAX_NODES:
        raise GraphError(f"graph has {n:,} nodes, more than {MAX_NODES:,}: its game would have up to {2 * n * n:,} positions")
    for a, nbrs in enumerate(graph):
        if not isinstance(nbrs, list):
            raise GraphError(f"graph[{a}] must be a list of node numbers, got {shown(repr(nbrs), quotes=False)}")
        if not nbrs:
            raise GraphError(f"graph[{a}] is empty: node {a} has no moves")
        seen = set()
        for j, b in enumerate(nbrs):
            if isinstance(b, bool) or not isinstance(b, int):
                raise GraphError(f"graph[{a}][{j}] = {shown(repr(b), quotes=False)} is not a node number")
            if not 0 <= b < n:
                raise GraphError(f"graph[{a}][{j}] = {b} is out of range (nodes are 0..{n - 1})")
            if b == a:
                raise GraphError(f"graph[{a}][{j}] = {b} is a self-loop")
            if b in seen:
                raise GraphError(f"graph[{a}][{j}] = {b} is listed twice")
            seen.add(b)
    _check_symmetric(graph)
    # the cat must always be able to move: every node it can reach needs a neighbour other than the hole
    for a in sorted(_reach([[b for b in nbrs if b != HOLE] for nbrs in graph], 2)):
        if all(b == HOLE for b in graph[a]):
            raise GraphError(f"graph[{a}]: the cat can reach node {a} but has no move from it (its only neighbour is the hole)")
    return [list(nbrs) for nbrs in graph]


def _check_symmetric(graph: list[list[int]]) -> None:
    """Every edge a-b listed at a is listed at b too (the edges and their reverses, as sets of numbers, are the same; else
    the first entry, in list order, whose reverse is missing is named). Sets, not numpy: a `query` of a stored game builds
    its rules, and importing numpy for this took 0.05 s of a 0.14 s `gamedb query cat-mouse`."""
    n = len(graph)
    edges = {a * n + b for a, nbrs in enumerate(graph) for b in nbrs}
    if edges == {b * n + a for a, nbrs in enumerate(graph) for b in nbrs}:
        return
    a, j, b = next((a, j, b) for a, nbrs in enumerate(graph) for j, b in enumerate(nbrs) if b * n + a not in edges)
    raise GraphError(f"graph[{a}][{j}] = {b}: edge {a}-{b} is listed one way only ({a} missing from graph[{b}])")
