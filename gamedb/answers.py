"""What a query returns: the answer, its JSON object (one table of fields, :meth:`Answer.to_dict`) and its plain text.

Values are for the player to move (Gamesman); ``move_value`` is a move's value for the player making it.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from .plural import counted
from .values import DRAW, FOR_MOVER, LOSE, WIN

#: an impartial position's outcome class by its result for the player to move
OUTCOME_CLASS = {WIN: "N-position", LOSE: "P-position"}
NEXT, PREVIOUS = "next", "previous"

#: ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` and its C encoder, made once (``dumps`` and
#: ``encode`` make one per call; an answer holds no cycles); ``encode`` on a Python without the C encoder
COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_encode_compact = (_C_ENCODER(None, COMPACT_JSON.default, json.encoder.encode_basestring, None, ":", ",", False, False, True)
                   if _C_ENCODER else lambda value, _: [COMPACT_JSON.encode(value)])


@dataclass
class MoveValue:
    """One legal move and the value of the position it leads to (for the player to move there)."""

    move: str
    position: str
    result: str
    remoteness: int | None
    grundy: int | None = None
    #: plies slower (win, tie) or faster (loss) than the best move of the same value; None if unknown
    delta_remoteness: int | None = None

    @property
    def move_value(self) -> str:
        """The move's value for the player making it."""
        return FOR_MOVER[self.result]

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
    """The stored value of a position and of every move from it (``moves`` best first for the player to move); in an
    impartial game ``player`` is ``"next"`` and ``winner`` ``"next"``/``"previous"`` (None: a tie or a draw)."""

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
    #: False when ``moves`` holds only the best move (a sum of huge heaps); ``degree`` still counts them all
    moves_complete: bool = True
    impartial: bool = False
    #: a family's own reading of the value (cat-mouse-grid: LeetCode's turn limit)
    verdict: dict[str, Any] = field(default_factory=dict)
    #: why the rules were not used (answered from the stored rows), in a Python caller's words (``game_classes=``)
    rules_missing: str | None = None
    #: :attr:`rules_missing` in the command line's words (``--game``), which the JSON object, its line and the CLI's note
    #: give, as ``gamedb query --json`` and ``gamedb serve`` print them; None: the same words
    rules_missing_flags: str | None = field(default=None, repr=False, compare=False)

    @property
    def _rules_missing_said(self) -> str | None:
        return self.rules_missing if self.rules_missing_flags is None else self.rules_missing_flags

    @property
    def outcome(self) -> str | None:
        """``N-position`` or ``P-position`` for an impartial game, else None."""
        return OUTCOME_CLASS.get(self.result) if self.impartial else None

    def to_dict(self, impartial: bool | None = None) -> dict[str, Any]:
        """The object ``gamedb query --json`` prints (its fields are documented in the README).

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
        if self.verdict:
            data.update(self.verdict)
        if self.rules_missing is not None:
            data["rules_missing"] = self._rules_missing_said
        return data

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as the JSON text ``gamedb query --json`` prints (``indent`` None: one line).

        >>> db.probe("tictactoe", "XX.OO....").to_json(indent=None)[:46]
        '{"game": "tictactoe", "position": "XX.OO....",'
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def json_line(self) -> str:
        """:meth:`to_dict` as compact JSON on one line, as ``gamedb query NAME -`` writes it (:func:`json_lines`)."""
        moves, impartial = self.moves, self.impartial
        objects = move_objects([m.move for m in moves], [m.position for m in moves], [m.result for m in moves],
                               [m.remoteness for m in moves], [m.delta_remoteness for m in moves], [m.grundy for m in moves], impartial)
        middle = json_fields({"outcome": OUTCOME_CLASS.get(self.result), "grundy": self.grundy} if impartial else
                             {"grundy": self.grundy} if self.grundy is not None else {})
        tail = json_fields({**({} if self.moves_complete else {"moves_complete": False}), **self.verdict,
                            **({} if self.rules_missing is None else {"rules_missing": self._rules_missing_said})})
        return json_lines(self.game, [self.position], [self.player], [self.result], [self.winner], [self.remoteness], [self.degree],
                          [self.best_move], [middle], [",".join(objects)], [tail])[0]


class _Numbers(dict[int | None, str]):
    """A number's JSON text (``null`` for None), each made once."""

    def __missing__(self, key: int | None) -> str:
        text = self[key] = "null" if key is None else str(int(key))
        return text


_NUMBER = _Numbers()
_string = json.encoder.encode_basestring  # a string as JSON (ensure_ascii=False), quoted


def _maybe(text: str | None) -> str:
    return "null" if text is None else _string(text)


def json_fields(fields: dict[str, Any]) -> str:
    """``fields`` as the compact JSON members that follow others in an object (``,"a":1,...``; empty: none)."""
    return "," + "".join(_encode_compact(fields, 0))[1:-1] if fields else ""


def move_objects(labels: Iterable[str], positions: Iterable[str], results: Iterable[str], remoteness: Iterable[int | None],
                 deltas: Iterable[int | None], grundy: Iterable[int | None] | None, impartial: bool) -> list[str]:
    """The object of each move in ``moves`` (:meth:`MoveValue.to_dict`) as compact JSON, for columns of moves (``grundy``
    None: none has one); results are the words of :data:`~gamedb.values.FOR_MOVER` (rows are read checked)."""
    s, n, mover = _string, _NUMBER, FOR_MOVER
    tails = repeat("") if grundy is None else ["" if g is None and not impartial else f',"grundy":{n[g]}' for g in grundy]
    return [f'{{"move":{s(m)},"position":{s(p)},"result":"{r}","remoteness":{n[rem]},"move_value":"{mover[r]}","delta_remoteness":{n[d]}{t}}}'
            for m, p, r, rem, d, t in zip(labels, positions, results, remoteness, deltas, tails, strict=False)]  # tails may repeat


def json_lines(game: str, positions: Iterable[str], players: Iterable[str], results: Iterable[str], winners: Iterable[str | None],
               remoteness: Iterable[int | None], degrees: Iterable[int], best_moves: Iterable[str | None], middles: Iterable[str],
               moves: Iterable[str], tails: Iterable[str]) -> list[str]:
    """THE encoder of ``gamedb query --format jsonl`` and ``query NAME -``: each answer's :meth:`Answer.to_dict` as one
    compact line, for columns of answers (``middles``: the :func:`json_fields` before ``moves``, outcome and grundy;
    ``moves``: the :func:`move_objects` joined by commas; ``tails``: the fields after them)."""
    s, n, g = _string, _NUMBER, _string(game)
    return [f'{{"game":{g},"position":{s(p)},"player":{s(pl)},"result":"{r}","winner":{_maybe(w)},"remoteness":{n[rem]},'
            f'"degree":{n[d]},"best_move":{_maybe(b)}{mid},"moves":[{mv}]{tail}}}'
            for p, pl, r, w, rem, d, b, mid, mv, tail  # middles may repeat
            in zip(positions, players, results, winners, remoteness, degrees, best_moves, middles, moves, tails, strict=False)]


def impartial_players(result: str) -> tuple[str, str | None]:
    """(player, winner) of an impartial position with this result for the player to move."""
    return NEXT, {WIN: NEXT, LOSE: PREVIOUS}.get(result)


def set_delta_remoteness(moves: list[MoveValue]) -> None:
    """Fill each move's ``delta_remoteness``: wins and ties are best quickest, losses slowest; None if unknown."""
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


def move_lines(answer: Answer) -> list[str]:
    """The moves as plain text, best first, each valued for the player making it (plies from this position)."""
    if not answer.moves:
        return []
    mw = max(len(m.move) for m in answer.moves)
    pw = max(len(m.position) for m in answer.moves)
    lines = []
    for m in answer.moves:
        grundy = f"  (grundy {m.grundy})" if m.grundy is not None else ""
        plies = None if m.remoteness is None else m.remoteness + 1
        lines.append(f"  {m.move:<{mw}}  {m.position:<{pw}}  {value_text(m.move_value, plies)}{grundy}")
    if not answer.moves_complete:
        lines.append(f"  ... {counted(answer.degree, 'move')} in all; only the best is listed")
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
        mover = "the player to move" if answer.impartial else answer.player
        lines.append(f"moves (best first; value for {mover}, plies to the end):")
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
    return None if answer.rules_missing is None else f"Note: {answer._rules_missing_said}"
