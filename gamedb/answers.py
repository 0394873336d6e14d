"""What a query returns, in one place: the answer, its JSON object and its plain text.

Both ways of answering a query -- the full path through SQLAlchemy
(:class:`gamedb.api.Database`) and the light read path of a ``gamedb query``
process (:mod:`gamedb.cli.quick`) -- build an :class:`Answer` with the same
functions of :mod:`gamedb.query` and print it with :func:`answer_lines` or
:meth:`Answer.to_dict` (:meth:`Answer.to_json` as text, :meth:`Answer.json_line` as one line), so they cannot
disagree: the object is defined once, by :meth:`Answer.to_dict` and :meth:`MoveValue.to_dict`, and every
JSON text is that object encoded (``tests/test_answer_golden.py`` holds them to known-good output).

Conventions (Gamesman, as GamesmanUni shows them): a position's ``result``
and ``remoteness`` are for the player to move there. Each move carries both
sides: the position it leads to with that position's value (``result``,
``remoteness``: for the player who moves next), and the move's value for the
player making it (``move_value``) with ``delta_remoteness``, how many plies
slower (for a win or a tie) or faster (for a loss) it is than the best move
of the same value. Positions of impartial games are N-positions (the next
player, the one to move, wins) or P-positions (the previous player wins),
with their Sprague-Grundy value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .values import DRAW, FOR_MOVER, LOSE, WIN

#: an impartial position's outcome class by its result for the player to move
OUTCOME_CLASS = {WIN: "N-position", LOSE: "P-position"}
#: the players of an impartial position, as combinatorial game theory names them
NEXT, PREVIOUS = "next", "previous"


@dataclass
class MoveValue:
    """One legal move and the value of the position it leads to (for the player to move there)."""

    move: str
    position: str
    result: str
    remoteness: int | None
    #: Sprague-Grundy value of the position moved to (impartial games)
    grundy: int | None = None
    #: how much slower (win, tie) or faster (loss) than the best move of the same value; None if unknown
    delta_remoteness: int | None = None

    @property
    def move_value(self) -> str:
        """The move's value for the player making it."""
        return FOR_MOVER[self.result]

    @property
    def move_remoteness(self) -> int | None:
        """Plies to the end after this move, counted from the position it is played from."""
        return None if self.remoteness is None else self.remoteness + 1

    def to_dict(self, impartial: bool) -> dict[str, Any]:
        """The move's object in ``moves`` of :meth:`Answer.to_dict`."""
        data: dict[str, Any] = {
            "move": self.move,
            "position": self.position,
            "result": self.result,
            "remoteness": self.remoteness,
            "move_value": FOR_MOVER[self.result],
            "delta_remoteness": self.delta_remoteness,
        }
        if impartial or self.grundy is not None:
            data["grundy"] = self.grundy
        return data


@dataclass
class Answer:
    """The stored value of a position and of every move from it.

    ``player`` names the player to move (``"next"`` in an impartial game,
    where a position does not say whose turn it is) and ``winner`` the
    player who wins (``"next"``/``"previous"`` in an impartial game; None
    for a tie or a draw). ``moves`` is sorted best first for the player to
    move. ``rules_missing`` is None when the game's rules answered; else it
    says why they are not available here and what was answered without them.
    """

    game: str
    position: str
    player: str
    result: str
    winner: str | None
    remoteness: int | None
    degree: int
    best_move: str | None
    grundy: int | None = None
    moves: list[MoveValue] = field(default_factory=list)
    board: str | None = None
    #: False when ``moves`` holds only the best move because the position has
    #: too many moves to list (a sum of huge heaps); ``degree`` still counts them all
    moves_complete: bool = True
    impartial: bool = False
    #: a family's own reading of the value (cat-mouse-grid: LeetCode's turn limit)
    verdict: dict[str, Any] = field(default_factory=dict)
    rules_missing: str | None = None

    @property
    def outcome(self) -> str | None:
        """``N-position`` or ``P-position`` for an impartial game, else None."""
        return OUTCOME_CLASS.get(self.result) if self.impartial else None

    def to_dict(self, impartial: bool | None = None) -> dict[str, Any]:
        """The object ``gamedb query --json`` prints, as a dict (its fields are documented in the README).

        >>> db.probe("tictactoe", "XX.OO....").to_dict()["best_move"]
        '3'
        """
        impartial = self.impartial if impartial is None else impartial
        data: dict[str, Any] = {
            "game": self.game,
            "position": self.position,
            "player": self.player,
            "result": self.result,
            "winner": self.winner,
            "remoteness": self.remoteness,
            "degree": self.degree,
            "best_move": self.best_move,
        }
        if impartial:
            data["outcome"] = OUTCOME_CLASS.get(self.result)
        if impartial or self.grundy is not None:
            data["grundy"] = self.grundy
        data["moves"] = [m.to_dict(impartial) for m in self.moves]
        if not self.moves_complete:
            data["moves_complete"] = False
        data.update(self.verdict)
        if self.rules_missing is not None:
            data["rules_missing"] = self.rules_missing
        return data

    def to_json(self, indent: int | None = 2) -> str:
        """The JSON text ``gamedb query --json`` prints (without its final newline): :meth:`to_dict` encoded,
        ``indent`` spaces deep (None: on one line).

        >>> print(db.probe("tictactoe", "XX.OO....").to_json())  # doctest: +ELLIPSIS
        {
          "game": "tictactoe",
          "position": "XX.OO....",
        ...
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def json_line(self) -> str:
        """:meth:`to_dict` as compact JSON text, one line (``json.dumps(..., ensure_ascii=False,
        separators=(",", ":"))``), as ``gamedb query NAME -`` writes it for every position."""
        return COMPACT_JSON.encode(self.to_dict())


#: ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``, made once: dumps with options builds a new encoder
#: per call (an answer's object holds no cycles to look for)
COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def impartial_players(result: str) -> tuple[str, str | None]:
    """(player, winner) of an impartial position with this result for the player to move."""
    return NEXT, {WIN: NEXT, LOSE: PREVIOUS}.get(result)


def set_delta_remoteness(moves: list[MoveValue]) -> None:
    """Fill ``delta_remoteness`` of each move: its distance from the best move of the same value.

    Winning and tying moves are best when quickest, losing moves when
    slowest; a draw has no remoteness (0). Unknown (None) when a remoteness
    of that class is not known (sums of several live heaps).
    """
    best: dict[str, int | None] = {}  # by the move's value: the best remoteness, None when one is unknown
    for m in moves:
        value, rem = FOR_MOVER[m.result], m.remoteness
        if value not in best:
            best[value] = rem
            continue
        held = best[value]
        if held is not None and (rem is None or (rem > held if value == LOSE else rem < held)):
            best[value] = rem
    for m in moves:
        value, rem = FOR_MOVER[m.result], m.remoteness
        held = best[value]
        m.delta_remoteness = 0 if value == DRAW else None if held is None or rem is None else abs(rem - held)


def value_text(result: str, remoteness: int | None) -> str:
    """``win in 3``, or ``draw`` when there is no remoteness."""
    return result if remoteness is None else f"{result} in {remoteness}"


def mover_text(answer: Answer) -> str:
    """Whose view move values are given from, for plain output."""
    return "the player to move" if answer.impartial else answer.player


def move_lines(answer: Answer) -> list[str]:
    """The moves as plain text, best first, each valued for the player making it."""
    if not answer.moves:
        return []
    mw = max(len(m.move) for m in answer.moves)
    pw = max(len(m.position) for m in answer.moves)
    lines = []
    for m in answer.moves:
        grundy = f"  (grundy {m.grundy})" if m.grundy is not None else ""
        lines.append(f"  {m.move:<{mw}}  {m.position:<{pw}}  {value_text(m.move_value, m.move_remoteness)}{grundy}")
    if not answer.moves_complete:
        lines.append(f"  ... {answer.degree:,} moves in all; only the best is listed")
    return lines


def answer_lines(answer: Answer) -> list[str]:
    """What plain ``gamedb query`` prints on stdout."""
    lines = [f"game       {answer.game}", f"position   {answer.position}"]
    if answer.board:
        lines += [f"           {line}" for line in answer.board.splitlines()]
    if answer.impartial:
        who = "the player to move wins" if answer.result == WIN else "the player who moved last wins"
        lines.append(f"outcome    {answer.outcome} ({who})")
        lines.append(f"value      {value_text(answer.result, answer.remoteness)} for the player to move")
    else:
        winner = f" ({answer.winner} wins{' with no turn limit' if answer.verdict.get('decided_by') else ''})" if answer.winner else ""
        lines.append(f"to move    {answer.player}")
        lines.append(f"value      {value_text(answer.result, answer.remoteness)}{winner}")
    if answer.grundy is not None:
        lines.append(f"grundy     {answer.grundy}")
    lines.append(f"best move  {answer.best_move if answer.best_move is not None else '-'}")
    lines += verdict_lines(answer.verdict)
    if answer.moves:
        lines.append(f"moves (best first; value for {mover_text(answer)}, plies to the end):")
        lines += move_lines(answer)
    return lines


def verdict_lines(verdict: dict[str, Any]) -> list[str]:
    """A family's verdict in words: the turn limit of ``cat-mouse-grid`` as one line, anything else ``key: value``."""
    verdict = dict(verdict)
    lines = []
    if "turn_limit" in verdict and "winner_within_limit" in verdict:
        limit, winner, decided = verdict.pop("turn_limit"), verdict.pop("winner_within_limit"), verdict.pop("decided_by", None)
        verdict.pop("mouse_wins_within_limit", None)
        why = f", decided by the turn limit (the mouse cannot reach the food within {limit} turns)" if decided else ""
        lines.append(f"turn limit {limit}: the {winner} wins{why}")
    return lines + [f"{key.replace('_', ' ')}: {value}" for key, value in verdict.items()]


def rules_missing_note(answer: Answer) -> str | None:
    """The message plain output gives (on stderr) when the rules were not available."""
    return None if answer.rules_missing is None else f"Note: {answer.rules_missing}"
