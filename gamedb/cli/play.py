"""``gamedb play``: a game against perfect play in the terminal."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..answers import value_text
from ..errors import GamedbError, InputError, command_line_text
from ..safe_text import escaped
from .common import GameClassOption, handle_errors, open_database, out, stored_name
from .render import show_position

if TYPE_CHECKING:
    from ..answers import Answer
    from ..play import PlaySession

#: moves listed at each turn, best first (``moves`` lists them all)
MOVES_SHOWN = 9

#: the commands typed at the prompt: (names, arguments, what it does); a move label wins over a command of the same name
COMMANDS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("MOVE",), "", "play that move (a move label, as listed)"),
    (("hint", "h", "?"), "", "show the best move and its value"),
    (("moves", "m"), "", "list every move of this position, best first"),
    (("undo", "u"), "", "take back your last move (and the computer's reply to it)"),
    (("new", "n"), "[POSITION]", "start a new game: from where this one started, or from POSITION"),
    (("help",), "", "list these commands"),
    (("quit", "q", "exit"), "", "stop playing"),
)


def command_help() -> list[str]:
    """The lines ``help`` prints: every command, its short names and what it does."""
    lines = ["Commands:"]
    for names, args, text in COMMANDS:
        aliases = f" ({', '.join(names[1:])})" if len(names) > 1 else ""
        usage = f"{names[0]}{aliases} {args}".rstrip()
        lines.append(f"  {usage:<24} {text}")
    return lines


def _command(word: str) -> str | None:
    """The command's first name for a word typed at the prompt (any of its names, any case), or None."""
    for names, _, _ in COMMANDS[1:]:
        if word.lower() in names:
            return names[0]
    return None


def _legal_summary(answer: Answer) -> str:
    if len(answer.moves) <= MOVES_SHOWN:
        return f"legal: {', '.join(m.move for m in answer.moves)}"
    return f"{answer.degree:,} legal moves: type moves to list them"


@handle_errors
def play_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Name of a solved game.")],
    as_player: Annotated[Optional[str], typer.Option("--as", metavar="PLAYER", help="The player you play (default: the player who moves first).")] = None,
    position: Annotated[
        Optional[str],
        typer.Option(
            "--position",
            "--from",
            metavar="TEXT",
            help="Start from this position (default, or empty: the game's start; heap games: heaps 3 4 5, each at most --max).",
        ),
    ] = None,
    game_class: GameClassOption = None,
) -> None:
    """Play against perfect play in the terminal; the value of every move is shown after each move."""
    from ..play import PlaySession

    db = open_database(ctx, readonly=True, game_class=game_class, short=True)
    name = stored_name(db, name)
    record, game = db.rules(name)
    players = list(game.players)
    if as_player is None:
        human = 0
    else:
        lowered = [p.lower() for p in players]
        if as_player.lower() not in lowered:
            raise InputError(f"--as must be one of {', '.join(players)}, got {as_player!r}")
        human = lowered.index(as_player.lower())
    session = PlaySession(db, name, human)
    if position is not None and not position.strip():  # '' or blanks: the start, as `gamedb query NAME ""` answers it
        position = None  # (a family's own message for it, such as the heap games' "write 0", answers another question)
    answer = session.start(position)
    out(f"You play {players[human]}; gamedb plays {players[1 - human]} perfectly. Type a move, or help for the commands.")
    _conversation(session, answer, players[human])


def _after_the_end(session: PlaySession) -> str:
    """What can be typed once the game is over: undo only after a move of the human's, new POSITION when it started over."""
    if session.last_own_move() is not None:
        return "Type new for another game, undo to take back your move, or quit."
    if len(session.history) == 1:
        return "Type new POSITION for a game from another position, or quit."
    return "Type new for another game, or quit."


def _playable(session: PlaySession, answer: Answer) -> Answer:
    """The answer as the position is shown: a position reached again ends the game, so its moves are not listed (as at
    the end of a game, where there are none)."""
    return answer if session.repeated_from() is None else replace(answer, moves=[])


def _conversation(session: PlaySession, answer: Answer, human: str) -> None:
    """Turns until quit or the end of input: the computer's moves, the human's moves and commands."""
    shown = False
    while True:
        if not shown:
            repeated = session.repeated_from()
            show_position(_playable(session, answer), shown=MOVES_SHOWN)
            shown = True
            if repeated is not None:
                when = "at the start" if repeated == 0 else f"after move {repeated}"
                out(f"Game over: {answer.position} was reached {when} too: a draw by repetition. {_after_the_end(session)}")
            elif not answer.moves:
                verdict = ("You win!" if answer.winner == human else f"{answer.winner} wins.") if answer.winner else f"A {answer.result}."
                out(f"Game over. {verdict} {_after_the_end(session)}")
            elif not session.humans_turn(answer):
                move = session.perfect_move(answer)
                out(f"{answer.player} plays {move}")
                answer, shown = session.play(answer, move), False
                continue
        over = session.over(answer)
        try:
            typed = input(escaped("game over> " if over else f"{answer.player} to move> "))
        except EOFError:
            out("")
            return
        word, _, rest = typed.strip().partition(" ")
        command = None if not over and typed.strip() in {m.move for m in answer.moves} else _command(word)
        if command == "quit":
            return
        if command == "help":
            for line in command_help():
                out(line)
        elif command == "hint":
            if answer.best_move is None or over:
                out("No move: the game is over.")
            else:
                out(f"hint: {answer.best_move} ({value_text(answer.result, answer.remoteness)} for {answer.player})")
        elif command == "moves":
            show_position(_playable(session, answer))
        elif command == "undo":
            if session.undo():
                answer, shown = session.answer(), False
            else:
                out("Nothing to undo: you have not moved yet.")
        elif command == "new":
            try:
                answer, shown = session.new_game(rest.strip() or None), False
            except GamedbError as exc:
                out(f"{command_line_text(exc)} (the game in progress goes on)")
        elif typed.strip() and over:
            out(f"{typed.strip()!r} is not a legal move here: the game is over (help lists the commands)")
        elif typed.strip():
            try:
                answer, shown = session.play(answer, typed), False
            except InputError as exc:
                said = command_line_text(exc)
                out(f"{said} ({_legal_summary(answer)}; help lists the commands)" if answer.moves else f"{said}: the game is over (help lists the commands)")


def register(app: typer.Typer) -> None:
    """Add these commands to the root command, in the order ``--help`` lists them."""
    lines = "\n\n".join(line.strip() for line in command_help()[1:])
    app.command(
        "play",
        epilog=f"Example:  gamedb play nim --position '3 5 7'\n\nAt your turn type a move label or a command:\n\n{lines}",
    )(play_command)
