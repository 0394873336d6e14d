"""``gamedb play``: a game against perfect play in the terminal."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..errors import InputError
from ..safe_text import escaped
from .common import handle_errors, open_database, out, stored_name
from .options import GameClassOption
from .render import show_position, value_text


@handle_errors
def play_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Name of a solved game.")],
    as_player: Annotated[
        Optional[str], typer.Option("--as", metavar="PLAYER", help="The player you play (default: the player who moves first).")
    ] = None,
    start: Annotated[Optional[str], typer.Option("--from", metavar="POSITION", help="Start from this position instead of the start.")] = None,
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
    answer = session.start(start)
    out(f"You play {players[human]}; gamedb plays {players[1 - human]} perfectly. Type a move, hint, undo or quit.")
    while True:
        show_position(answer)
        if not answer.moves:
            if answer.winner:
                verdict = "You win!" if answer.winner == players[human] else f"{answer.winner} wins."
            else:
                verdict = f"Game over: {answer.result}."
            out(f"Game over. {verdict}")
            return
        if not session.humans_turn(answer):
            move = session.perfect_move(answer)
            out(f"{answer.player} plays {move}")
            answer = session.play(answer, move)
            continue
        try:
            typed = input(escaped(f"{answer.player} to move> "))
        except EOFError:
            out("")
            return
        command = typed.strip().lower()
        if typed.strip() in {m.move for m in answer.moves}:  # a move label wins over a command of the same name
            command = "move"
        if command in ("quit", "q", "exit"):
            return
        if command in ("hint", "h", "?"):
            out(f"hint: {answer.best_move} ({value_text(answer.result, answer.remoteness)} for {answer.player})")
            continue
        if command in ("undo", "u"):
            if not session.undo():
                out("Nothing to undo.")
            answer = session.answer()
            continue
        if not command:
            continue
        try:
            answer = session.play(answer, typed)
        except InputError as exc:
            out(str(exc))


def register(app: typer.Typer) -> None:
    """Add these commands to the root command, in the order ``--help`` lists them."""
    app.command(
    "play",
    epilog="Example:  gamedb play tictactoe --as O\n\nAt your turn type a move label, or hint, undo, quit.",
)(play_command)
