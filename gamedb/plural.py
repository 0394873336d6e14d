"""Counts in messages: ``1 position``, ``2 positions`` (never ``1 positions``)."""


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with thousands separators and ``noun``, singular for 1 (``plural``: when not ``noun`` + ``s``).

    >>> counted(1, "move"), counted(0, "move"), counted(5478, "position"), counted(2, "game", "games")
    ('1 move', '0 moves', '5,478 positions', '2 games')
    """
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"
