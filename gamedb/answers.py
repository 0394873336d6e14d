"""What a query returns: the value of a position and of every move from it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class MoveValue:
    """One legal move and the value of the position it leads to (for the player to move there)."""

    move: str
    position: str
    result: str
    remoteness: int | None
    #: Sprague-Grundy value of the position moved to (impartial games)
    grundy: int | None = None


@dataclass
class Answer:
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

    def to_json(self, impartial: bool = False) -> dict:
        data = asdict(self)
        data.pop("board")
        if not impartial and data["grundy"] is None:
            data.pop("grundy")
        if not impartial:
            for move in data["moves"]:
                if move["grundy"] is None:
                    move.pop("grundy")
        if data["moves_complete"]:
            data.pop("moves_complete")
        return data
