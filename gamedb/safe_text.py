"""Text from a file or a user (terminal escape sequences, 100 KB names) made safe to show: escaped and cut."""

#: how long a note of gamedb's own may be before it is cut
NOTE_LIMIT = 2000

#: the ASCII characters a terminal shows as they are: the printable ones, and the newline between lines
_SHOWN_ASCII = bytes(c for c in range(128) if chr(c).isprintable() or chr(c) == "\n")


def escaped(text: str, keep: str = "") -> str:
    """``text`` with every non-printable character but those in ``keep`` written as a Python escape (``\\x1b``)."""
    if text.isprintable():
        return text
    rest = text
    for c in keep:
        rest = rest.replace(c, "")
    if rest.isprintable():  # only the kept characters (newlines in a table): nothing to escape
        return text
    return "".join(c if c.isprintable() or c in keep else repr(c)[1:-1] for c in text)


def shown(text: object, limit: int = 80, *, quotes: bool = True) -> str:
    """A value from a file or a user for a message: escaped, at most ``limit`` characters, quoted."""
    text = str(text)
    cut = f"... ({len(text):,} characters)" if len(text) > limit else ""
    body = escaped(text[:limit]) + cut
    return f"'{body}'" if quotes else body


def cut_middle(text: str, limit: int = 400) -> str:
    """A message of at most about ``limit`` characters: its start and end, the middle cut out."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 2 // 3], text[-(limit // 3) :]
    return f"{head} [... {len(text) - len(head) - len(tail):,} characters cut ...] {tail}"


def json_escaped(text: str) -> str:
    """JSON with every non-printable character as a \\u escape: the same data, safe on a terminal."""
    if text.isascii():  # the usual case, tested ten times faster: drop the shown characters, see whether any is left
        if not text.encode("ascii").translate(None, _SHOWN_ASCII):
            return text
    elif text.replace("\n", "").isprintable():
        return text
    out = []
    for c in text:
        if c.isprintable() or c == "\n":
            out.append(c)
        elif ord(c) > 0xFFFF:  # a surrogate pair, as JSON writes it
            v = ord(c) - 0x10000
            out.append(f"\\u{0xD800 + (v >> 10):04x}\\u{0xDC00 + (v & 0x3FF):04x}")
        else:
            out.append(f"\\u{ord(c):04x}")
    return "".join(out)
