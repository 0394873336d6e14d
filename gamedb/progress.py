"""The one progress callback every long operation (solve, verify, copy) reports through."""

from collections.abc import Callable

#: ``progress(phase, done, total)``: the stage ("enumerate", "verify", ...), what is done, the total or None
Progress = Callable[[str, int, int | None], None]
