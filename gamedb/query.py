"""Answering positions of a solved game through a reader, with or without its rules (the strategy that stored a game
answers for it: :func:`gamedb.solvers.choice.answered_by`)."""

from collections.abc import Collection, Iterable, Sequence
from typing import Literal, overload

from .answers import Answer, MoveValue, set_delta_remoteness
from .errors import LARGER_MAX, BeyondSolvedRange, GamedbError, PositionError, PositionNotFound, command_line_words, marked_text, python_text
from .games.base import Game
from .safe_text import shown
from .solvers.choice import answered_by
from .solvers.graph_answer import answer_from_row
from .store.record import GameRecord, record_from_mapping
from .store.rows import Reader, result_of
from .values import move_sort_key

__all__ = ["Answer", "MoveValue", "answer_positions", "probe", "probe_many", "probe_without_rules"]


@overload
def answer_positions(
    reader: Reader, record: GameRecord, game: Game | None, reason: str | None, positions: Sequence[str | None], *, boards: bool = True,
    lines: Literal[False] = False,
) -> list[Answer | GamedbError]: ...
@overload
def answer_positions(
    reader: Reader, record: GameRecord, game: Game | None, reason: str | None, positions: Sequence[str | None], *, boards: bool = True,
    lines: bool,
) -> list[Answer | GamedbError | str]: ...
def answer_positions(
    reader: Reader, record: GameRecord, game: Game | None, reason: str | None, positions: Sequence[str | None], *, boards: bool = True,
    lines: bool = False,
) -> list[Answer | GamedbError] | list[Answer | GamedbError | str]:
    """Answers for a batch of positions: by the rules when ``game`` is given, else from the stored rows alone (``lines``:
    each as its JSON line, :meth:`~gamedb.answers.Answer.json_line`); a position that is not text has its error in its place."""
    if not all(map(_is_text, positions)):  # (a caller of the Python API: an int, bytes...)
        answered = iter(answer_positions(reader, record, game, reason, [p for p in positions if _is_text(p)], boards=boards, lines=lines))
        return [next(answered) if _is_text(position) else _not_text(position) for position in positions]
    record.require_solved()
    if game is None:
        answers: list[Answer | GamedbError | str] = [*probe_without_rules(reader, record, positions, reason or "the rules are not available")]
    else:  # (lines: the graph answerer makes them from the batch's columns; any Answer left becomes its line below)
        answers = answered_by(record, game).probe_many(reader, record, game, positions, boards=boards, lines=lines)
    return [answer.json_line() if lines and isinstance(answer, Answer) else answer for answer in answers]


def _is_text(position: object) -> bool:
    return position is None or isinstance(position, str)


def _not_text(position: object) -> PositionError:
    got = f"{type(position).__name__} {shown(repr(position), 40, quotes=False)}"
    return PositionError(f"a position is given as its text (a str), or None for the start; got {got}")


def name_holders(
    reader: Reader, record: GameRecord, positions: Sequence[str | None], answers: list[Answer | GamedbError | str], game_classes: Collection[str] = ()
) -> list[Answer | GamedbError | str]:
    """``answers`` with each :class:`~gamedb.errors.BeyondSolvedRange` naming the other solved games of the family
    that answer its position (``...; the game 'nim-4038d771' (max=20) has it``)."""
    others: list[tuple[GameRecord, Game | None, str | None]] = []
    for other_name in reader.names_of_family(record.family):
        row = reader.game_row(other_name) if other_name != record.name else None
        try:
            other = record_from_mapping(row) if row is not None else None
        except GamedbError:  # a damaged game holds nothing
            continue
        if other is not None and other.solved:
            others.append((other, *other.rules_or_reason(game_classes)))
    if not others:
        return answers
    named: list[Answer | GamedbError | str] = []
    for position, answer in zip(positions, answers, strict=True):
        if isinstance(answer, BeyondSolvedRange):
            holders = [
                other for other, game, reason in others
                if isinstance(answer_positions(reader, other, game, reason, [position], boards=False)[0], Answer)
            ]
            if holders:
                answer = BeyondSolvedRange(holders_message(marked_text(answer), record, holders), tuple(g.name for g in holders))
        named.append(answer)
    return named


def holders_message(message: str, record: GameRecord, holders: list[GameRecord]) -> str:
    """``message`` naming the other games that hold the position instead of advising a larger solve."""
    for advice in (f"; {LARGER_MAX}", f" ({LARGER_MAX})"):
        message = message.removesuffix(advice)

    def differs(other: GameRecord) -> str:
        shown = ", ".join(f"{key}={value}" for key, value in sorted(other.parameters.items()) if record.parameters.get(key) != value)
        return f"{other.name!r} ({shown})" if shown else repr(other.name)

    if len(holders) == 1:
        return f"{message}; the game {differs(holders[0])} has it"
    return f"{message}; the games {', '.join(map(differs, holders))} have it"


def probe(reader: Reader, record: GameRecord, game: Game, position: str | None = None) -> Answer:
    """The stored value of one position and of every move from it; raises on a bad or unknown position."""
    (answer,) = probe_many(reader, record, game, [position])
    if isinstance(answer, GamedbError):
        raise answer
    return answer


def probe_many(reader: Reader, record: GameRecord, game: Game, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start) from the strategy that stored the game; errors in their places."""
    answers: list[Answer | GamedbError] = answered_by(record, game).probe_many(reader, record, game, positions, boards=boards)
    return answers


def probe_without_rules(reader: Reader, record: GameRecord, positions: Iterable[str | None], reason: str) -> list[Answer | GamedbError]:
    """Answers read from the stored rows alone (positions written exactly as stored), when the rules are not here."""
    names = reader.player_names(record.id)
    answers: list[Answer | GamedbError] = []
    for text in positions:
        text = record.start_position if text is None else text
        row = reader.position_by_text(record, text)
        if row is None:
            answers.append(
                PositionNotFound(
                    f"position {text!r} is not stored in game {record.name!r}; without the rules of "
                    f"{record.family!r} ({reason}) a position must be written exactly as stored"
                )
            )
            continue
        answer = answer_from_row(record, row, lambda i: names[i] if i < len(names) else f"player {i + 1}", text=text)
        stored = reader.stored_moves(record, row.code) if row.degree else []  # the children's rows checked
        listed = sorted(stored, key=lambda m: move_sort_key(result_of(m.child), m.child.remoteness, m.ord))
        answer.moves = [MoveValue(m.label, m.child.text or f"#{m.child.code}", result_of(m.child), m.child.remoteness, m.child.grundy) for m in listed]
        set_delta_remoteness(answer.moves)
        answer.moves_complete = len(answer.moves) == row.degree
        note = _without_rules_note(record, reason, row.degree, len(answer.moves))  # (the reason's marks kept: said_as)
        answer.rules_missing, answer.rules_missing_flags = python_text(note), command_line_words(note)
        answers.append(answer)
    return answers


def _without_rules_note(record: GameRecord, reason: str, degree: int, listed: int) -> str:
    moves = "the moves from the stored move rows" if listed == degree else "no moves (this file keeps no move rows for it)"
    return (f"the rules of {shown(record.family)} are not available here ({reason}); answered from the stored rows: "
            f"value, remoteness, best move, {moves}. Needs the rules: positions written other than as stored, "
            "positions that are not stored (sums of components), the board picture, play and verify")
