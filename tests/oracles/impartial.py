"""Independent oracles for the impartial games and stone game IX.

Written from scratch for the tests; nothing here imports ``gamedb``. Each is
the plainest correct computation: mex recurrences straight from the rules,
searches over whole positions, and the closed form of seed 004.
"""

from __future__ import annotations

from functools import cache


def mex(values) -> int:
    present = set(values)
    m = 0
    while m in present:
        m += 1
    return m


# --- octal games, straight from the code ------------------------------------------


def octal_digits(code: str) -> list[int]:
    """'0.137' -> [0, 1, 3, 7]; '4.07' -> [4, 0, 7]."""
    whole, frac = code.split(".")
    return [int(whole or "0")] + [int(ch) for ch in frac]


def octal_values(code: str, top: int) -> list[int]:
    """g(0..top) of an octal game: every option of heap n, every split in both orders."""
    digits = octal_digits(code)
    g = []
    for n in range(top + 1):
        seen = set()
        for k, d in enumerate(digits):
            if k > n:
                break
            rest = n - k
            if k > 0 and d & 1 and rest == 0:
                seen.add(0)
            if k > 0 and d & 2 and rest > 0:
                seen.add(g[rest])
            if d & 4:
                for a in range(1, rest):
                    seen.add(g[a] ^ g[rest - a])
        g.append(mex(seen))
    return g


def flip_run_values(top: int) -> list[int]:
    """Seed 003's recurrence: g(n) = mex{ g(i) ^ g(n - 2 - i) : 0 <= i <= n - 2 }."""
    g = []
    for n in range(top + 1):
        g.append(mex(g[i] ^ g[n - 2 - i] for i in range(n - 1)))
    return g


def grundy_game_values(top: int) -> list[int]:
    """Grundy's game: split a heap into two unequal non-empty heaps."""
    g = []
    for n in range(top + 1):
        g.append(mex(g[a] ^ g[n - a] for a in range(1, n) if a != n - a))
    return g


def subtraction_values(takes, top: int) -> list[int]:
    g = []
    for n in range(top + 1):
        g.append(mex(g[n - s] for s in takes if s <= n))
    return g


def one_heap_table(whole, leave, top: int) -> list[tuple[int, bool, int, str | None]]:
    """(grundy, wins, remoteness, best move) of every heap 0..top, heap by heap from the rules.

    A move removes ``k`` tokens: ``k`` in ``whole`` when they are the whole heap
    (the move ``1:0``), ``k`` in ``leave`` when at least one token is left
    (``1:REST``). Moves are ordered by ``k``, the whole heap before the rest;
    the best move is the first of the quickest winning moves (to a loss) or,
    from a loss, the first of the slowest. Wins come from the options'
    outcomes, not from the grundy values.
    """
    rows: list[tuple[int, bool, int, str | None]] = []
    for n in range(top + 1):
        options = []  # (order, label, child row)
        for k in sorted(set(whole) | set(leave)):
            if k in whole and n == k:
                options.append(("1:0", (0, False, 0, None)))
            if k in leave and n > k:
                options.append((f"1:{n - k}", rows[n - k]))
        g = mex(child[0] for _, child in options)
        if not options:
            rows.append((g, False, 0, None))
            continue
        losing = [(child[2], i) for i, (_, child) in enumerate(options) if not child[1]]
        if losing:
            r, i = min(losing)
            rows.append((g, True, 1 + r, options[i][0]))
        else:
            r, i = min((-child[2], i) for i, (_, child) in enumerate(options))
            rows.append((g, False, 1 - r, options[i][0]))
    return rows


def periodic_value(values: list[int], preperiod: int, period: int, n: int) -> int:
    """g(n) for any n from values that repeat with ``period`` from ``preperiod``."""
    if n < len(values):
        return values[n]
    return values[preperiod + (n - preperiod) % period]


# --- whole-position searches -----------------------------------------------------


@cache
def flip_string_wins(s: str) -> bool:
    """True if the player to move wins the flip game on string ``s`` (plain search)."""
    return any(s[i] == "+" and s[i + 1] == "+" and not flip_string_wins(s[:i] + "--" + s[i + 2 :]) for i in range(len(s) - 1))


def flip_string_moves(s: str) -> dict[str, str]:
    """label (index of the first + flipped) -> resulting string."""
    return {str(i): s[:i] + "--" + s[i + 2 :] for i in range(len(s) - 1) if s[i : i + 2] == "++"}


def nim_moves(heaps: tuple[int, ...]) -> dict[str, str]:
    """'I:REST' -> resulting position text for a Nim position (heap I, from 1, becomes REST)."""
    moves = {}
    for i, h in enumerate(heaps):
        for left in range(h):
            child = heaps[:i] + ((left,) if left else ()) + heaps[i + 1 :]
            moves[f"{i + 1}:{left}"] = " ".join(map(str, child)) if child else "0"
    return moves


def kayles_moves(heaps: tuple[int, ...]) -> dict[str, str]:
    """Kayles (0.77): knock down one pin or two adjacent pins of one row; label 'I:REST'."""
    moves = {}
    for i, h in enumerate(heaps):
        for width in (1, 2):
            for left in range(h - width + 1):
                right = h - width - left
                parts = tuple(sorted(p for p in (left, right) if p))
                rest = "+".join(map(str, parts)) if parts else "0"
                child = heaps[:i] + parts + heaps[i + 1 :]
                moves[f"{i + 1}:{rest}"] = " ".join(map(str, child)) if child else "0"
    return moves


# --- stone game IX ------------------------------------------------------------------


def stone_ix_alice_wins(c0: int, c1: int, c2: int) -> bool:
    """Seed 004's closed form (LeetCode 2029) from the counts of stones by residue."""
    if c0 % 2 == 0:
        return c1 > 0 and c2 > 0
    return abs(c1 - c2) >= 3


def stone_ix_leetcode(stones: list[int]) -> bool:
    cnt = [0, 0, 0]
    for s in stones:
        cnt[s % 3] += 1
    return stone_ix_alice_wins(*cnt)


# --- remoteness by searching whole positions (sums of heaps) ----------------------------


def octal_children(code: str):
    """children(heaps) of the octal game ``code``: every position one move leaves (heaps kept sorted, 0s dropped)."""
    digits = octal_digits(code)

    def children(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
        found = set()
        for i, h in enumerate(heaps):
            others = heaps[:i] + heaps[i + 1 :]
            for k, d in enumerate(digits):
                rest = h - k
                if rest < 0:
                    break
                if k > 0 and d & 1 and rest == 0:
                    found.add(others)
                if k > 0 and d & 2 and rest > 0:
                    found.add(tuple(sorted(others + (rest,))))
                if d & 4:
                    for a in range(1, rest):
                        found.add(tuple(sorted(others + (a, rest - a))))
        return found

    return children


def grundy_game_children(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Grundy's game: split one heap into two unequal non-empty heaps."""
    found = set()
    for i, h in enumerate(heaps):
        others = heaps[:i] + heaps[i + 1 :]
        for a in range(1, h):
            if 2 * a != h:
                found.add(tuple(sorted(others + (a, h - a))))
    return found


def subtraction_children(takes):
    def children(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
        return {tuple(sorted(p for p in heaps[:i] + (h - s,) + heaps[i + 1 :] if p)) for i, h in enumerate(heaps) for s in takes if s <= h}

    return children


def remoteness_by_search(children, position: tuple[int, ...]) -> tuple[bool, int]:
    """(first player wins, remoteness) of ``position`` by plain minimax over whole positions.

    Gamesman rules, normal play: no move is a loss in 0; a win is 1 + the
    least remoteness of the losing children, a loss 1 + the greatest of all.
    No Grundy values: the outcome is searched too.
    """

    @cache
    def solve(pos: tuple[int, ...]) -> tuple[bool, int]:
        found = [solve(c) for c in children(pos)]
        if not found:
            return False, 0
        losing = [r for wins, r in found if not wins]
        if losing:
            return True, 1 + min(losing)
        return False, 1 + max(r for _, r in found)

    return solve(tuple(sorted(position)))
