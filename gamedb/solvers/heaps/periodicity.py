"""Periods of heap-game values, proven by the octal periodicity theorem.

Theorem (Guy and Smith, 1956; Winning Ways ch. 4): if an octal game's moves take at most ``t`` tokens and
``g(n + p) = g(n)`` for ``n0 <= n < 2*n0 + p + t``, then for every ``n >= n0``. Applied with ``max(n0, 1)`` it
covers splits taking no token; it does not apply to unequal splits (Grundy's game) or to Nim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

THEOREM = "octal periodicity theorem (Guy and Smith)"


@dataclass(frozen=True)
class Periodicity:
    """What the computed values 0..``checked_to`` show about the period."""

    proven: bool
    checked_to: int
    max_take: int
    period: int | None = None
    preperiod: int | None = None
    last_exceptional: int | None = None
    #: when not proven: a period the values seem to have, and the --max the theorem would need
    candidate_period: int | None = None
    candidate_preperiod: int | None = None
    needs_max: int | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Periodicity:
        return cls(**data)


def proof_end(preperiod: int, period: int, max_take: int) -> int:
    """The largest heap whose value the theorem needs for (preperiod, period)."""
    return 2 * max(preperiod, 1) + 2 * period + max_take - 1


def preperiod_for(values: Sequence[int], period: int) -> int:
    """Smallest n0 with values[n + period] == values[n] for all n0 <= n <= N - period."""
    n = len(values) - 1 - period
    while n >= 0 and values[n + period] == values[n]:
        n -= 1
    return n + 1


def find_period(values: Sequence[int], max_take: int) -> Periodicity:
    """The smallest period (then pre-period) that g(0..N) prove, for moves taking at most ``max_take``."""
    last = len(values) - 1
    candidate = None
    for period in range(1, last // 2 + 1):
        provable = proof_end(0, period, max_take) <= last
        if not provable and (candidate is not None or 3 * period > last):
            break
        n0 = preperiod_for(values, period)
        if provable and proof_end(n0, period, max_take) <= last:
            return Periodicity(True, last, max_take, period, n0, n0 - 1 if n0 > 0 else None)
        if candidate is None and n0 + 3 * period <= last:  # seen three times, too late to prove
            candidate = (period, n0)
    if candidate is None:
        return Periodicity(proven=False, checked_to=last, max_take=max_take, reason=f"no period found in heaps 0..{last}")
    period, n0 = candidate
    needs = proof_end(n0, period, max_take)
    reason = f"heaps 0..{last} repeat with period {period} from {n0}, but the theorem needs heaps up to {needs}"
    return Periodicity(False, last, max_take, candidate_period=period, candidate_preperiod=n0, needs_max=needs, reason=reason)


def reduce(n: int, periodicity: Periodicity) -> int:
    """The stored heap whose value equals that of heap ``n`` (n itself when stored)."""
    if n <= periodicity.checked_to:
        return n
    if not periodicity.proven:
        raise ValueError("values not proven periodic")
    n0, p = periodicity.preperiod, periodicity.period
    assert n0 is not None and p is not None  # a proven period has both
    return n0 + (n - n0) % p
