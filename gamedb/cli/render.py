"""How answers and progress are shown: progress bars on stderr, values, move tables, boards."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any

from ..answers import Answer, move_lines, value_text
from ..plural import counted
from .common import out

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress

class ProgressBars:
    """Progress of long work on stderr, from the library's ``progress(phase, done, total)`` callback: on a terminal
    Rich bars once the work has taken :data:`BAR_AFTER` seconds, elsewhere a line every :data:`LINE_EVERY` seconds for each
    phase that moved (a cluster solve's workers each have theirs)."""

    BAR_AFTER = 1.0
    LINE_EVERY = 5.0

    def __init__(self, quiet: bool, *, stream: IO[str] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = clock()
        self.last_line = self.started
        self.bar: RichProgress | None = None
        self.tasks: dict[str, Any] = {}
        self.moved: dict[str, str] = {}  # (not a terminal) the phases that moved since the last lines, with their counts

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        if self.quiet:
            return
        now = self.clock()
        if not self.terminal:
            self.moved[phase] = f"{done:,}/{total:,}" if total else f"{done:,}"
            if now - self.last_line >= self.LINE_EVERY:
                self.last_line = now
                for name, count in self.moved.items():
                    print(f"{name}: {count} ({now - self.started:.0f} s)", file=self.stream, flush=True)
                self.moved.clear()
            return
        if self.bar is None:
            if now - self.started < self.BAR_AFTER:
                return
            self.bar = self._start_bar()
        bar = self.bar
        count = f"{done:,}/{total:,}" if total else f"{done:,}"
        if phase not in self.tasks:
            self.tasks[phase] = bar.add_task(phase, total=total, count=count)
        bar.update(self.tasks[phase], completed=done, total=total, count=count)

    def _start_bar(self) -> RichProgress:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(
            TextColumn("{task.description:>16}"),
            BarColumn(),
            TextColumn("{task.fields[count]}"),
            TimeElapsedColumn(),
            console=Console(file=self.stream),
        )
        bar.start()
        return bar

    def __enter__(self) -> ProgressBars:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def show_position(answer: Answer, shown: int | None = None) -> None:
    """The position, its value and its moves, best first (only the ``shown`` best, and a count of the others)."""
    out("")
    out(f"position   {answer.position}")
    if answer.board:
        for line in answer.board.splitlines():
            out(f"           {line}")
    winner = f" ({answer.winner} wins)" if answer.winner else ""
    out(f"to move    {answer.player}: {value_text(answer.result, answer.remoteness)}{winner}")
    if answer.moves:
        out(f"moves (best first; value for {answer.player}, plies to the end):")
        listed = answer.moves if shown is None else answer.moves[:shown]
        for line in move_lines(replace(answer, moves=listed)):
            out(line)
        if len(listed) < len(answer.moves):
            out(f"  ... and {len(answer.moves) - len(listed):,} more ({counted(answer.degree, 'move')} in all): type moves to list them all")

