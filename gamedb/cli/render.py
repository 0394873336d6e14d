"""How answers and progress are shown: progress bars on stderr, values, move tables, boards."""

from __future__ import annotations

from typing import Any

from .common import out


class ProgressBars:
    """Rich progress bars on stderr, one per phase, drawn only once work reports progress."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.bar = None
        self.tasks: dict[str, Any] = {}

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        if self.quiet:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("{task.description:>16}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
            )
            self.bar.start()
        if phase not in self.tasks:
            self.tasks[phase] = self.bar.add_task(phase, total=total)
        self.bar.update(self.tasks[phase], completed=done, total=total)

    def __enter__(self) -> "ProgressBars":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()



def value_text(result: str, remoteness: int | None) -> str:
    return result if remoteness is None else f"{result} in {remoteness}"



def moves_table(answer) -> list[str]:
    from ..values import FOR_MOVER

    if not answer.moves:
        return []
    mw = max(len(m.move) for m in answer.moves)
    pw = max(len(m.position) for m in answer.moves)
    # seen from the player to move now: the move itself is one more ply
    lines = []
    for m in answer.moves:
        value = value_text(FOR_MOVER[m.result], None if m.remoteness is None else m.remoteness + 1)
        grundy = f"  (grundy {m.grundy})" if m.grundy is not None else ""
        lines.append(f"  {m.move:<{mw}}  {m.position:<{pw}}  {value}{grundy}")
    if not answer.moves_complete:
        lines.append(f"  ... {answer.degree:,} moves in all; only the best is listed")
    return lines


def show_position(answer) -> None:
    out("")
    out(f"position   {answer.position}")
    if answer.board:
        for line in answer.board.splitlines():
            out(f"           {line}")
    winner = f" ({answer.winner} wins)" if answer.winner else ""
    out(f"to move    {answer.player}: {value_text(answer.result, answer.remoteness)}{winner}")
    if answer.moves:
        out(f"moves (best first; value for {answer.player}):")
        for line in moves_table(answer):
            out(line)

