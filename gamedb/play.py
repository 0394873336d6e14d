"""Playing against perfect play: the state of one game in progress.

The CLI owns the conversation (prompts, printing); this module only keeps
the positions played, answers them from the database, and applies moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .answers import Answer
from .errors import GamedbError, InputError

if TYPE_CHECKING:
    from .api import Database


@dataclass
class PlaySession:
    """A game from a start position, the human playing ``human`` (player index)."""

    db: Database
    name: str
    human: int
    history: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.record, self.game = self.db.rules(self.name)
        self.record.require_solved()

    def start(self, position: str | None = None) -> Answer:
        answer = self.db.probe(self.name, position)
        self.history = [answer.position]
        return self._seen_by_players(answer)

    @property
    def position(self) -> str:
        return self.history[-1]

    def answer(self) -> Answer:
        return self._seen_by_players(self.db.probe(self.name, self.position))

    def mover(self) -> int:
        """Index of the player to move now.

        A partisan position says whose turn it is. A position of an impartial
        game does not (``3 5`` is the same game whoever faces it): the player
        who moves at the session's start position is the first player, and
        plies alternate from there.
        """
        if self.record.impartial:
            return (len(self.history) - 1) % 2
        return self.game.to_move(self.game.parse(self.position))

    def humans_turn(self, answer: Answer) -> bool:
        return self.mover() == self.human

    def _seen_by_players(self, answer: Answer) -> Answer:
        """The answer with ``player`` and ``winner`` naming the players of this session.

        An impartial game's stored answer speaks of the next and previous
        player (N- and P-positions); here they become the player whose turn
        it is and the other one.
        """
        if not self.record.impartial:
            return answer
        mover = self.mover()
        winner = {"win": mover, "lose": 1 - mover}.get(answer.result)
        return replace(
            answer,
            player=self.game.player_name(mover),
            winner=None if winner is None else self.game.player_name(winner),
        )

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
