"""Values of heaps 0..N of a heap game whose options all leave at most one heap (subtraction, octal without splits).

Heap n's options are heaps n - take (or the empty heap), so one loop finds its
values from the t heaps below, t the largest take. **The proof of the repeat:**
above t the same rules apply in the same order. Let ``s(m) = (g(m), r(m) -
r(m-1))``; if the window ``s(a..a+t-1)`` equals ``s(b..b+t-1)`` (``1 <= a <
b``, ``p = b - a``), then ``r(m) - r(m-p)`` is one constant ``C`` over
``b-1..b+t-1``, so heap ``b + t`` has the options of heap ``b + t - p`` in the
same rule order with remoteness ``C`` more: the same mex and the same chosen
option, hence ``s(b+t) = s(b+t-p)``, and by induction every later heap repeats
the heap ``p`` below (remoteness plus ``C``). Windows are found by a rolling
hash and compared in full before use.
"""

from __future__ import annotations

#: the rolling hash: a Mersenne prime modulus and a fixed base
_MODULUS = (1 << 61) - 1
_BASE = 1_000_003
#: s(m) = (g, d) packed as g * _PACK + d + _PACK // 2 (|d| <= 2 * max heap + 2 < _PACK // 2)
_PACK = 1 << 24


def single_heap_values(top: int, simple: list[tuple[int, int, int]]) -> tuple[list[int], list[int], list[tuple[int, int] | None], int | None]:
    """grundy, remoteness and best option (rule index, 0) of heaps 0..``top``, and the heap the proven repeat began at
    (None: none), for the rules ``simple``: (rule index, take, heaps left: 0 or 1) in rule order."""
    grundy: list[int] = []
    remoteness: list[int] = []
    best: list[tuple[int, int] | None] = []
    window = max((take for _, take, _ in simple), default=0)
    packed: list[int] = [0]  # s(m) packed, from m = 1 (index m)
    drop = pow(_BASE, window, _MODULUS)  # the weight of the symbol leaving the window
    rolling = 0  # hash of s(n - window .. n - 1)
    seen: dict[int, int] = {}  # hash of a window -> the heap just after it
    for n in range(top + 1):
        if window and n > window:
            # the window s(n - window .. n - 1) starts at heap >= 1: can it repeat an earlier one?
            earlier = seen.get(rolling)
            if earlier is not None and packed[earlier - window : earlier] == packed[n - window : n]:
                _repeat(grundy, remoteness, best, earlier, n, top)
                return grundy, remoteness, best, n
            seen[rolling] = n
        mask = 0
        quick = slow = None  # (remoteness, rule index) of the quickest zero-valued / the slowest option
        for idx, take, leaves in simple:
            if leaves:
                if n <= take:
                    continue
                v, r = grundy[n - take], remoteness[n - take]
            elif n == take:
                v = r = 0
            else:
                continue
            mask |= 1 << v
            if v == 0 and (quick is None or r < quick[0]):
                quick = (r, idx)
            if slow is None or r > slow[0]:
                slow = (r, idx)
        g = (~mask & (mask + 1)).bit_length() - 1
        grundy.append(g)
        if slow is None:
            remoteness.append(0)
            best.append(None)
        else:
            chosen = quick if g else slow
            assert chosen is not None  # a heap with a non-zero value has a move to zero
            r, idx = chosen
            remoteness.append(1 + r)
            best.append((idx, 0))
        if window and n >= 1:
            symbol = g * _PACK + remoteness[n] - remoteness[n - 1] + _PACK // 2
            packed.append(symbol)
            leaving = packed[n - window] if n > window else 0
            rolling = (rolling * _BASE + symbol - leaving * drop) % _MODULUS
    return grundy, remoteness, best, None


def _repeat(grundy: list[int], remoteness: list[int], best: list[tuple[int, int] | None], earlier: int, n: int, top: int) -> None:
    """Extend the lists from heap ``n`` to ``top``: heap m repeats heap m - (n - earlier), remoteness plus a constant."""
    period = n - earlier
    count = top + 1 - n
    block_g = grundy[n - period : n]
    block_b = best[n - period : n]
    block_r = remoteness[n - period : n]
    step = remoteness[n - 1] - remoteness[n - 1 - period]  # the remoteness gained over one block
    while len(block_r) < min(count, 4096):  # a block of some thousand heaps ending at n - 1: few list operations below
        block_r = [r - step for r in block_r] + block_r
        step *= 2
        block_g += block_g
        block_b += block_b
    repeats = -(-count // len(block_r))
    grundy.extend((block_g * repeats)[:count])
    best.extend((block_b * repeats)[:count])
    for k in range(1, repeats + 1):
        shift = k * step
        remoteness.extend([r + shift for r in block_r])
    del remoteness[top + 1 :]
