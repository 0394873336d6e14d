"""Octal games by code ``d0.d1d2...``: digit ``dk`` sums 1 (take k, the whole heap), 2 (take k, leave one heap) and
4 (take k, split the rest in two); ``d0`` may be 4 (split without taking). ``0.07`` flip, ``0.77`` Kayles, ``0.137``
Dawson's chess. Heaps of any size are answered once the periodicity theorem (Guy and Smith) proves the period.
"""

import re
from typing import Any

from ...errors import InputError, param
from ..base import Examples, Param
from . import HeapGame, max_param, octal_rules

_CODE = re.compile(r"^\s*(\d*)\.(\d*)\s*$")


class Octal(HeapGame):
    family = "octal"
    summary = "Octal games by code (0.07 flip game, 0.77 Kayles, 0.137 Dawson's chess, 4.07, ...); periods proven"
    examples = Examples(
        options={"code": "0.15", "max": 30},
        positions=["3 5 7", "1000000007"],
        bad_positions=[("x", "is not a heap size")],
        command_line="--code 0.77",
    )
    params = (Param("code", str, "Octal code such as 0.77 (Kayles), 0.137 (Dawson's chess), 0.07, 0.6 or 4.07.", required=True), max_param(1000))

    def __init__(self, code: str, max: int = 1000) -> None:
        self.code, digits = parse_code(code)
        self.rules_name = f"octal game {self.code}"
        super().__init__(max, octal_rules(digits))

    def parameters(self) -> dict[str, Any]:
        return {"code": self.code, "max": self.max_heap}

    def default_name(self) -> str:
        return f"octal-{self.code}"


def parse_code(code: object) -> tuple[str, list[int]]:
    """Normalised code text and its digits; raise :class:`InputError` naming what is wrong."""
    text = str(code)
    match = _CODE.match(text)
    if not match or not (match.group(1) or match.group(2)):
        raise InputError(f"{param('code', text, quote=True)} is not an octal code such as 0.77 (digits 0-7 around one point)")
    whole, frac = match.group(1) or "0", match.group(2).rstrip("0")
    bad = [ch for ch in whole + frac if ch not in "01234567"]
    if bad:
        raise InputError(f"{param('code', text, quote=True)}: {bad[0]!r} is not an octal digit (0-7)")
    if len(whole.lstrip("0")) > 1:
        raise InputError(f"{param('code', text, quote=True)}: one digit before the point (0 or 4)")
    d0 = int(whole)
    if d0 not in (0, 4):
        raise InputError(f"{param('code', text, quote=True)}: the digit before the point may only be 0 or 4 (split a heap without taking tokens)")
    return f"{d0}.{frac}" if frac else f"{d0}.0", [d0] + [int(ch) for ch in frac]
