"""Memory sizes: ``--memory-limit`` read, sizes shown, and the default limit."""

from __future__ import annotations

import os
import re

from .errors import InputError, param
from .safe_text import shown

#: the largest --memory-limit taken (1 PiB): beyond it a number is a typo, not a machine
MAX_MEMORY_LIMIT = 1 << 50

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)i?b?\s*$", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """Bytes from ``2G``, ``512M``, ``300k``, ``1.5GiB``, ``1P`` or a plain number of bytes (more than 0)."""
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise InputError(f"{param('memory_limit')} must be a size such as 2G, 512M or 300000000, got {text!r}")
    if isinstance(text, int):
        size = text
    else:
        match = _SIZE.match(text)
        if not match:
            raise InputError(f"{param('memory_limit')} must be a size such as 2G, 512M or 300000000, got {shown(text)}")
        from fractions import Fraction  # exact: a number of 400 digits is not a float overflow

        number, unit = Fraction(match.group(1)), match.group(2).lower()
        size = int(number * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}[unit])
    if size <= 0:
        raise InputError(f"{param('memory_limit')} must be more than 0 bytes, got {shown(text)}")
    if size > MAX_MEMORY_LIMIT:
        raise InputError(f"{param('memory_limit')} must be at most 1P (1 PiB, 1024T), got {shown(text)}")
    return size


def human_size(n: float) -> str:
    """``512 B``, ``1.5 kB``, ``120 MB``, ``2.3 GB`` (powers of 1000)."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "B" or n >= 100 else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n} B"  # not reached


def default_memory_limit() -> int:
    """Half of the memory available now (Linux), else 2 GiB."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):
        return 2 << 30
