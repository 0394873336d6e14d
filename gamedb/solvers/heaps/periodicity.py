"""Periods of heap-game values, proven by the octal periodicity theorem.

Theorem (Guy and Smith, 1956; Winning Ways ch. 4): let an octal game's moves
remove at most ``t`` tokens. If its Sprague-Grundy values satisfy
``g(n + p) = g(n)`` for every ``n`` with ``n0 <= n < 2*n0 + p + t``, then
``g(n + p) = g(n)`` for every ``n >= n0``.

(Proof sketch, which also covers splits that take no token, ``d0 = 4``: for
``n >= 2*n0 + p + t`` the options of heap ``n + p`` and heap ``n`` match one to
one -- ``n + p - k`` against ``n - k``, and a split ``a + b`` of ``n + p - k``
with ``b >= a`` against ``a + (b - p)``, where ``b - p >= n0`` -- and have
equal values by induction. We apply it with ``max(n0, 1)`` so that ``b - p``
is never an empty heap.) It does not apply to games with unequal splits
(Grundy's game) or to rules that grow with the heap (Nim).

:func:`find_period` takes the computed values g(0..N) and returns the
smallest period ``p`` with the smallest pre-period ``n0`` whose repetition
the computed range proves; ``last_exceptional`` is ``n0 - 1`` (None when the
values are periodic from 0). Heaps beyond N are then answered by
:func:`value_at` without computing anything.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Sequence

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

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict) -> "Periodicity":
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
    """The proven period of ``values`` (g(0), ..., g(N)) of an octal-style game whose moves take at most ``max_take``."""
    last = len(values) - 1
    candidate = None
    for period in range(1, last // 2 + 1):
        provable = proof_end(0, period, max_take) <= last
        if not provable and (candidate is not None or 3 * period > last):
            break
        n0 = preperiod_for(values, period)
        if provable and proof_end(n0, period, max_take) <= last:
            return Periodicity(
                proven=True,
                checked_to=last,
                max_take=max_take,
                period=period,
                preperiod=n0,
                last_exceptional=n0 - 1 if n0 > 0 else None,
            )
        if candidate is None and n0 + 3 * period <= last:  # seen three times, too late to prove
            candidate = (period, n0)
    if candidate is None:
        return Periodicity(proven=False, checked_to=last, max_take=max_take, reason=f"no period found in heaps 0..{last}")
    period, n0 = candidate
    return Periodicity(
        proven=False,
        checked_to=last,
        max_take=max_take,
        candidate_period=period,
        candidate_preperiod=n0,
        needs_max=proof_end(n0, period, max_take),
        reason=f"heaps 0..{last} repeat with period {period} from {n0}, but the theorem needs heaps up to {proof_end(n0, period, max_take)}",
    )


def reduce(n: int, periodicity: Periodicity) -> int:
    """The stored heap whose value equals that of heap ``n`` (n itself when stored)."""
    if n <= periodicity.checked_to:
        return n
    if not periodicity.proven:
        raise ValueError("values not proven periodic")
    n0, p = periodicity.preperiod, periodicity.period
    return n0 + (n - n0) % p
