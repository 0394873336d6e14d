"""A test game: the flip game on one whole +/- string (no components), so it is solved by the move-table engine.

Shared by the tests of Grundy values from the move table and of verify's tampering checks.
"""

from gamedb.games.base import Game
from gamedb.values import LOSE


class FlipString(Game):
    """The flip game on whole strings (no components): solved by the move-table engine."""

    family = "flip-string"
    impartial = True

    def __init__(self, text="++++++-+++++"):
        self.text = text

    def parameters(self):
        return {"text": self.text}

    def start(self):
        return self.text

    def moves(self, s):
        return [(str(i), s[:i] + "--" + s[i + 2 :]) for i in range(len(s) - 1) if s[i : i + 2] == "++"]

    def primitive(self, s):
        return None if "++" in s else LOSE

    def to_move(self, s):
        return 0

    def encode(self, s):
        return int("1" + s.replace("+", "1").replace("-", "0"), 2)

    def decode(self, code):
        return bin(code)[3:].replace("1", "+").replace("0", "-")

    def format(self, s):
        return s

    def parse(self, text):
        return text
