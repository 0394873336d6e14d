"""The one progress callback every long operation (solve, verify, copy) reports through."""

from __future__ import annotations

from typing import Callable, Optional

#: ``progress(phase, done, total)``: ``phase`` names the stage ("enumerate", "verify", ...),
#: ``done`` counts what is finished, ``total`` is the expected count or None when unknown.
#: The library never prints; the CLI draws these as progress bars on stderr.
Progress = Callable[[str, int, Optional[int]], None]
