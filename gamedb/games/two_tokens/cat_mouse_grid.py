"""Cat and mouse on a grid with walls and food (LeetCode 1728): ``--grid`` rows of ``#`` wall, ``.`` floor, one ``C``
cat, ``M`` mouse, ``F`` food. The mouse moves first; a turn jumps up, down, left or right by 1 up to the player's
jump length (never through a wall) or stays. The cat wins on the mouse's cell or the food, the mouse on the food.

LeetCode's turn limit (a turn is one ply) is applied when answering: the stored table is the unlimited (loopy) game,
and with Gamesman remoteness the mouse can force the food within ``L`` plies exactly when it wins with remoteness
<= ``L`` (:func:`mouse_wins_within`); ``query`` adds the limited reading to the unlimited ``result`` and ``winner``.

Position text: ``mouse=r2c0,cat=r1c1,turn=mouse`` (0-based row, column); moves: ``up1``.. ``down1``.. ``left1``..
``right1``.. then ``stay``; codes: cells ``row * cols + col`` in the two-token layout.
"""

import json
import re
from pathlib import Path
from typing import Any

from ...errors import GraphError, PositionError, param, said_as
from ...plural import counted
from ...values import LOSE, WIN
from ..base import Estimate, Examples, Game, Param, bounded_int, require_int
from ..json_option import load_json_option
from . import CAT, MOUSE, State, TwoTokenCodes, reach

__all__ = ["CatMouseGrid", "State", "leetcode_answer", "mouse_wins_within", "validate_grid"]

PLAYERS = ("mouse", "cat")
WALL, FLOOR = "#", "."
CELL_CHARS = "#.CMF"
DEFAULT_TURN_LIMIT = 1000
MAX_CELLS = 400  # 20 x 20: up to 320,000 positions; LeetCode allows 8 x 8
DIRECTIONS = (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1))

# ASCII only: \d would also match other scripts' digits, which int() then reads
_KEY = re.compile(r"(mouse|cat|turn)\s*=", re.IGNORECASE | re.ASCII)
_CELL = re.compile(r"^[(\[]?\s*r?\s*(\d+)\s*(?:[,:]\s*c?|c|\s)\s*(\d+)\s*[)\]]?$", re.IGNORECASE | re.ASCII)


class CatMouseGrid(TwoTokenCodes, Game):
    family = "cat-mouse-grid"
    summary = "Cat and mouse on a grid with walls and food, jumps up to a length (LeetCode 1728)"
    position_syntax = "mouse=rRcC,cat=rRcC,turn=mouse|cat  (0-based row R, column C; e.g. mouse=r2c0,cat=r1c1,turn=mouse)"
    examples = Examples(
        options={"grid": ["####F", "#C...", "M...."], "cat_jump": 1, "mouse_jump": 2},
        positions=[],
        bad_positions=[("mouse=r0c0,cat=r1c1", "turn= missing"), ("mouse=zz,cat=r1c1,turn=cat", "is not a cell")],
        command_line='--grid \'["####F","#C...","M...."]\' --mouse-jump 2',
    )
    params = (
        Param("grid", str, "The grid as a JSON list of row strings, inline or a file path: "
              "'[\"####F\",\"#C...\",\"M....\"]' (# wall, . floor, C cat, M mouse, F food).", required=True),
        Param("cat_jump", int, "Longest jump of the cat (cells, at least 1).", default=1),
        Param("mouse_jump", int, "Longest jump of the mouse (cells, at least 1).", default=1),
        Param("turn_limit", int, "The mouse wins only if it can force the food within this many turns (moves of either player); "
              "applied when answering, the stored values are for the unlimited game.", default=DEFAULT_TURN_LIMIT),
    )
    players = PLAYERS

    def __init__(self, grid: Any, cat_jump: int = 1, mouse_jump: int = 1, turn_limit: int = DEFAULT_TURN_LIMIT) -> None:
        self.grid = validate_grid(_load_grid(grid))
        self.cat_jump = require_int("cat-jump", cat_jump, 1)
        self.mouse_jump = require_int("mouse-jump", mouse_jump, 1)
        self.turn_limit = require_int("turn-limit", turn_limit, 1)
        self.rows, self.cols = len(self.grid), len(self.grid[0])
        self.n = self.rows * self.cols
        self.food = self._find("F")
        self._start = State(self._find("M"), self._find("C"), MOUSE)
        self._jumps = (self._jump_table(self.mouse_jump), self._jump_table(self.cat_jump))

    def parameters(self) -> dict[str, Any]:
        return {"grid": self.grid, "cat_jump": self.cat_jump, "mouse_jump": self.mouse_jump, "turn_limit": self.turn_limit}

    def default_name(self) -> str:
        return self.family

    def start(self) -> State:
        return self._start

    def estimate(self) -> Estimate:
        """2 · (cells the mouse can reach) · (cells the cat can reach) positions, and their moves."""
        mouse, cat = (
            reach([[b for _, b in moves] for moves in self._jumps[who]], cell, stop=self.food)  # the game ends at the food
            for who, cell in ((MOUSE, self._start.mouse), (CAT, self._start.cat))
        )
        moves = sum(len(self._jumps[MOUSE][m]) for m in mouse) * len(cat) + sum(len(self._jumps[CAT][c]) for c in cat) * len(mouse)
        return Estimate(2 * len(mouse) * len(cat), moves)

    def primitive(self, state: State) -> str | None:
        if state.cat in (state.mouse, self.food):
            winner = CAT
        elif state.mouse == self.food:
            winner = MOUSE
        else:
            return None
        return WIN if state.turn == winner else LOSE

    def format(self, state: State) -> str:
        return f"mouse={self._cell_text(state.mouse)},cat={self._cell_text(state.cat)},turn={PLAYERS[state.turn]}"

    def parse(self, text: str) -> State:
        keys = list(_KEY.finditer(text))
        if not keys or text[: keys[0].start()].strip(" \t,;"):
            raise PositionError(f"bad cat-mouse-grid position {text!r}: expected {self.position_syntax}")
        fields: dict[str, str] = {}
        for i, key in enumerate(keys):
            name = key.group(1).lower()
            end = keys[i + 1].start() if i + 1 < len(keys) else len(text)
            if name in fields:
                raise PositionError(f"bad cat-mouse-grid position {text!r}: {name}= is given twice")
            fields[name] = text[key.end() : end].strip().rstrip(",;").strip()
        missing = [name for name in ("mouse", "cat", "turn") if name not in fields]
        if missing:
            raise PositionError(f"bad cat-mouse-grid position {text!r}: {', '.join(m + '=' for m in missing)} missing; expected {self.position_syntax}")
        turn = fields["turn"].lower()
        if turn not in PLAYERS:
            raise PositionError(f"bad cat-mouse-grid position {text!r}: turn must be mouse or cat, got {fields['turn']!r}")
        mouse, cat = (self._parse_cell(text, who, fields[who]) for who in ("mouse", "cat"))
        return State(mouse, cat, PLAYERS.index(turn))

    def describe(self, state: State) -> str:
        rows = [list(row.replace("C", FLOOR).replace("M", FLOOR)) for row in self.grid]
        for cell, mark in ((state.mouse, "M"), (state.cat, "C")):
            r, c = divmod(cell, self.cols)
            rows[r][c] = "*" if rows[r][c] in "MC" else mark
        return "\n".join("".join(row) for row in rows)

    def parse_move(self, state: State, text: str) -> str | None:
        label = re.sub(r"\s+", "", text).lower()
        labels = [lab for lab, _ in self.moves(state)]
        return next((lab for lab in (label, label + "1") if lab in labels), None)  # "up" means up1

    def verdict(self, result: str, remoteness: int | None, player: int | str) -> dict[str, Any]:
        """The answer under the turn limit, counted from this position (``decided_by``: the limit gave the cat it)."""
        within = mouse_wins_within(result, remoteness, player, self.turn_limit)
        index = PLAYERS.index(player) if isinstance(player, str) else int(player)
        cat_wins_anyway = result == (WIN if index == CAT else LOSE)
        return {
            "turn_limit": self.turn_limit,
            "mouse_wins_within_limit": within,
            "winner_within_limit": PLAYERS[MOUSE] if within else PLAYERS[CAT],
            "decided_by": None if within or cat_wins_anyway else "turn limit",
        }

    def _find(self, char: str) -> int:
        for r, row in enumerate(self.grid):
            c = row.find(char)
            if c >= 0:
                return r * self.cols + c
        raise AssertionError(char)  # validate_grid guarantees one of each

    def _jump_table(self, longest: int) -> list[list[tuple[str, int]]]:
        """Every open cell's moves (label, cell) in move order."""
        table: list[list[tuple[str, int]]] = [[] for _ in range(self.n)]
        for r, row in enumerate(self.grid):
            for c, char in enumerate(row):
                if char == WALL:
                    continue
                moves = table[r * self.cols + c]
                for name, dr, dc in DIRECTIONS:
                    for length in range(1, longest + 1):
                        rr, cc = r + dr * length, c + dc * length
                        if not (0 <= rr < self.rows and 0 <= cc < self.cols) or self.grid[rr][cc] == WALL:
                            break
                        moves.append((f"{name}{length}", rr * self.cols + cc))
                moves.append(("stay", r * self.cols + c))
        return table

    def _cell_text(self, cell: int) -> str:
        r, c = divmod(cell, self.cols)
        return f"r{r}c{c}"

    def _parse_cell(self, text: str, who: str, value: str) -> int:
        match = _CELL.match(value)
        if not match:
            raise PositionError(f"bad cat-mouse-grid position {text!r}: {who}={value!r} is not a cell (write rRcC, e.g. r2c0)")
        r, c = bounded_int(match.group(1), 999_999), bounded_int(match.group(2), 999_999)
        if r is None or c is None:  # far off any grid
            raise PositionError(f"bad cat-mouse-grid position {text!r}: {who} cell {value!r} is off the {self.rows}x{self.cols} grid")
        if not (r < self.rows and c < self.cols):
            raise PositionError(f"bad cat-mouse-grid position {text!r}: {who} cell r{r}c{c} is off the {self.rows}x{self.cols} grid "
                                f"(rows 0..{self.rows - 1}, columns 0..{self.cols - 1})")
        if self.grid[r][c] == WALL:
            raise PositionError(f"bad cat-mouse-grid position {text!r}: {who} cell r{r}c{c} is a wall")
        return r * self.cols + c


def mouse_wins_within(result: str, remoteness: int | None, player: int | str, turn_limit: int) -> bool:
    """Whether the mouse can force the food within ``turn_limit`` plies, from a stored value for ``player`` to move."""
    index = PLAYERS.index(player) if isinstance(player, str) else int(player)
    mouse_wins = result == (WIN if index == MOUSE else LOSE)
    return mouse_wins and remoteness is not None and remoteness <= turn_limit


def leetcode_answer(answer_or_values: Any, turn_limit: int = DEFAULT_TURN_LIMIT) -> bool:
    """LeetCode 1728's ``true``/``false`` from the start's :class:`~gamedb.answers.Answer` or ``(result, remoteness, player)``."""
    if isinstance(answer_or_values, tuple):
        result, remoteness, player = answer_or_values
    else:
        result, remoteness, player = answer_or_values.result, answer_or_values.remoteness, answer_or_values.player
    return mouse_wins_within(result, remoteness, player, turn_limit)


def _load_grid(value: Any) -> Any:
    """``--grid`` as JSON or a file, with a hint when the rows were typed bare (``--grid M.C.F``)."""
    try:
        return load_json_option(value, "grid")
    except GraphError:
        text = value.strip() if isinstance(value, str) else ""
        if text and set(text) <= set(CELL_CHARS + ", \n") and not Path(text).exists():
            rows = json.dumps(text.replace(",", " ").split(), separators=(",", ":"))
            example = said_as(f"grid='{rows}'", f"--grid '{rows}'")
            raise GraphError(f"{param('grid')}: {text!r} is not a file; give the rows as a JSON list, e.g. {example}") from None
        raise


def validate_grid(grid: Any) -> list[str]:
    """Check a LeetCode 1728 grid; raise :class:`GraphError` naming the offending row and column."""
    if isinstance(grid, str):
        raise GraphError(f"grid must be a JSON list of row strings such as [\"M.C\",\"#.F\"], got the single string {grid!r}")
    if not isinstance(grid, list):
        raise GraphError(f"grid must be a JSON list of row strings, got {type(grid).__name__}")
    if not grid:
        raise GraphError("grid has no rows")
    for r, row in enumerate(grid):
        if not isinstance(row, str):
            raise GraphError(f"grid row {r} must be a string such as \"M.#F\", got {row!r}")
        if not row:
            raise GraphError(f"grid row {r} is empty")
        if len(row) != len(grid[0]):
            raise GraphError(f"grid row {r} has {counted(len(row), 'cell')} but row 0 has {len(grid[0])}: the grid must be rectangular")
        for c, char in enumerate(row):
            if char not in CELL_CHARS:
                raise GraphError(
                    f"grid row {r} column {c}: {char!r} is not a cell (use # wall, . floor, C cat, M mouse, F food)"
                )
    cells = len(grid) * len(grid[0])
    if cells > MAX_CELLS:
        raise GraphError(f"grid is {len(grid)}x{len(grid[0])} = {cells} cells; at most {MAX_CELLS} cells are supported")
    for char, who in (("C", "cat"), ("M", "mouse"), ("F", "food")):
        where = [f"row {r} column {c}" for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == char]
        if not where:
            raise GraphError(f"grid has no {char!r} ({who}); it needs exactly one")
        if len(where) > 1:
            raise GraphError(f"grid has {len(where)} {char!r} ({who}) cells, at {', '.join(where)}; it needs exactly one")
    return list(grid)
