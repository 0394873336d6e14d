"""Playing against perfect play: the positions of one game in progress (the CLI owns the conversation)."""

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
    opening: str | None = None

    def __post_init__(self) -> None:
        self.record, self.game = self.db.rules(self.name)
        self.record.require_solved()

    def start(self, position: str | None = None) -> Answer:
        """A new game from ``position`` or the family's play start; a bad position leaves the game as it was."""
        text = self.game.format(self.game.play_start()) if position is None else position
        answer = self.db.probe(self.name, text)
        self.history = [answer.position]
        self.opening = answer.position
        return self._seen_by_players(answer)

    def new_game(self, position: str | None = None) -> Answer:
        """A new game from ``position``, or from where this game started when None."""
        return self.start(self.opening if position is None else position)

    @property
    def position(self) -> str:
        return self.history[-1]

    def answer(self) -> Answer:
        return self._seen_by_players(self.db.probe(self.name, self.position))

    def mover(self) -> int:
        """Index of the player to move now."""
        return self.mover_at(len(self.history) - 1)

    def mover_at(self, ply: int) -> int:
        """Index of the player to move at ``history[ply]`` (impartial games: plies alternate from the first player)."""
        if self.record.impartial:
            return ply % 2
        return self.game.to_move(self.game.parse(self.history[ply]))

    def repeated_from(self) -> int | None:
        """The earlier ply at which the current position was reached too (a draw by repetition ends the game), or None.

        The rules of the loopy families (cat and mouse, Dōbutsu) make a repeated position a draw: the value the store
        gives play that goes on forever. An impartial position does not say who is to move: it repeats at a ply of the
        same parity only.
        """
        now = len(self.history) - 1
        step = 2 if self.record.impartial else 1
        return next((ply for ply in range(now - step, -1, -step) if self.history[ply] == self.position), None)

    def over(self, answer: Answer) -> bool:
        """No move can be played from here: the game has ended, or its position has been reached before."""
        return not answer.moves or self.repeated_from() is not None

    def humans_turn(self, answer: Answer) -> bool:
        return self.mover() == self.human

    def _seen_by_players(self, answer: Answer) -> Answer:
        """The answer with ``player`` and ``winner`` naming this session's players (not next/previous)."""
        if not self.record.impartial:
            return answer
        mover = self.mover()
        winner = {"win": mover, "lose": 1 - mover}.get(answer.result)
        return replace(answer, player=self.game.player_name(mover), winner=None if winner is None else self.game.player_name(winner))

    def play(self, answer: Answer, typed: str) -> Answer:
        """Apply the move the user typed (a move label, in any case); raise InputError if it is not legal."""
        if self.repeated_from() is not None:
            raise InputError(f"{typed.strip()!r} is not a legal move here: the game is over, a draw by repetition")
        state = self.game.parse(answer.position)
        label = self.game.parse_move(state, typed)
        if label is None:  # a label typed in another case (B4B3, c*b2), when no other move is spelled so
            alike = [m.move for m in answer.moves if m.move.casefold() == typed.strip().casefold()]
            label = alike[0] if len(alike) == 1 else None
        chosen = next((m for m in answer.moves if m.move == label), None)
        if chosen is None:
            raise InputError(f"{typed.strip()!r} is not a legal move here")
        self.history.append(chosen.position)
        return self.answer()

    def perfect_move(self, answer: Answer) -> str:
        """The stored best move, played by the computer."""
        if answer.best_move is None or self.repeated_from() is not None:
            raise GamedbError(f"no move from {answer.position!r}: the game is over")
        return answer.best_move

    def last_own_move(self) -> int | None:
        """The ply of the human's last move (the position it was played from), None if the human has not moved yet."""
        return next((ply for ply in range(len(self.history) - 2, -1, -1) if self.mover_at(ply) == self.human), None)

    def undo(self) -> bool:
        """Take back the human's last move and the reply to it; False if the human has not moved yet."""
        ply = self.last_own_move()
        if ply is None:
            return False
        del self.history[ply + 1 :]
        return True
