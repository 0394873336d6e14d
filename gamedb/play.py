"""Playing against perfect play: the state of one game in progress.

The CLI owns the conversation (prompts, printing); this module only keeps
the positions played, answers them from the database, and applies moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import GamedbError, InputError
from .answers import Answer


@dataclass
class PlaySession:
    """A game from a start position, the human playing ``human`` (player index)."""

    db: object  # gamedb.api.Database
    name: str
    human: int
    history: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.record, self.game = self.db.rules(self.name)
        self.record.require_solved()

    def start(self, position: str | None = None) -> Answer:
        answer = self.db.probe(self.name, position)
        self.history = [answer.position]
        return answer

    @property
    def position(self) -> str:
        return self.history[-1]

    def answer(self) -> Answer:
        return self.db.probe(self.name, self.position)

    def humans_turn(self, answer: Answer) -> bool:
        if self.record.impartial:
            # positions of impartial games do not say whose turn it is: plies alternate
            return (len(self.history) - 1) % 2 == self.human
        return answer.player == self.game.player_name(self.human)

    def play(self, answer: Answer, typed: str) -> Answer:
        """Apply the move the user typed (a move label); raise InputError if it is not legal."""
        state = self.game.parse(answer.position)
        label = self.game.parse_move(state, typed)
        chosen = next((m for m in answer.moves if m.move == label), None)
        if chosen is None:
            legal = ", ".join(m.move for m in answer.moves)
            raise InputError(f"{typed.strip()!r} is not a legal move here (legal: {legal})")
        self.history.append(chosen.position)
        return self.answer()

    def perfect_move(self, answer: Answer) -> str:
        """The stored best move, played by the computer."""
        if answer.best_move is None:
            raise GamedbError(f"no move from {answer.position!r}: the game is over")
        return answer.best_move

    def undo(self) -> bool:
        """Go back to the human's previous turn; False if there is nothing to undo."""
        start = len(self.history)
        while len(self.history) > 1:
            self.history.pop()
            if self.humans_turn(self.answer()) and len(self.history) < start:
                return True
        return len(self.history) < start
