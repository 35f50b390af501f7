"""Exact probabilities of opening hands (起手胡), by counting, without the engine.

A dealt hand of ``n`` tiles is a uniformly random ``n``-subset of the 108 physical tiles
(27 kinds × 4 copies).  The number of hands with ``c_k`` copies of kind ``k`` is
``prod_k C(4, c_k)``, so a probability is a sum over count vectors, done here as a
dynamic programme over the kinds with a small state per condition.  Kinds are visited
rank by rank (1m 1p 1s 2m ...); a kind is (suit 0..2, rank 1..9).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any

KINDS = [(suit, rank) for rank in range(1, 10) for suit in range(3)]
COPIES = 4

State = Any
Step = Callable[[State, tuple[int, int], int], State | None]


def probability(n: int, start: State, step: Step, accept: Callable[[State], bool]) -> Fraction:
    """P(accept(final state)) for a random n-tile hand; ``step`` returns None to prune."""
    table: dict[tuple[int, State], int] = {(0, start): 1}
    for kind in KINDS:
        nxt: dict[tuple[int, State], int] = {}
        for (used, state), ways in table.items():
            for c in range(min(COPIES, n - used) + 1):
                new = step(state, kind, c)
                if new is None:
                    continue
                key = (used + c, new)
                nxt[key] = nxt.get(key, 0) + ways * comb(COPIES, c)
        table = nxt
    hits = sum(w for (used, s), w in table.items() if used == n and accept(s))
    return Fraction(hits, comb(len(KINDS) * COPIES, n))


def four_of_a_kind(n: int) -> Fraction:  # 四喜: holds some tile four times
    return probability(n, False, lambda s, k, c: s or c == 4, bool)


def no_258(n: int) -> Fraction:  # 板板胡: no tile of rank 2, 5 or 8
    return probability(n, 0, lambda s, k, c: None if c and k[1] in (2, 5, 8) else 0, lambda s: True)


def missing_suit(n: int) -> Fraction:  # 缺一色: at most two suits present
    return probability(n, 0, lambda s, k, c: s | (1 << k[0]) if c else s,
                       lambda s: bin(s).count("1") <= 2)  # fmt: skip


def two_triplets(n: int) -> Fraction:  # 六六顺: two different tiles held three times or more
    return probability(n, 0, lambda s, k, c: min(2, s + (c >= 3)), lambda s: s >= 2)


def same_pair_three_suits(n: int) -> Fraction:  # 三同: one rank held twice in every suit
    def step(state: tuple[bool, int], kind: tuple[int, int], c: int) -> tuple[bool, int]:
        found, pairs = state
        pairs = (0 if kind[0] == 0 else pairs) + (c >= 2)
        return (found or (kind[0] == 2 and pairs == 3), pairs)

    return probability(n, (False, 0), step, lambda s: s[0])


def lone_suit_tile(n: int) -> Fraction:  # 一枝花: some suit has exactly one tile
    def step(state: tuple[int, int, int], kind: tuple[int, int], c: int) -> tuple[int, int, int]:
        counts = list(state)
        counts[kind[0]] = min(2, counts[kind[0]] + c)
        return tuple(counts)  # type: ignore[return-value]

    return probability(n, (0, 0, 0), step, lambda s: 1 in s)


# By the condition they compute, for the opening hands of the shipped rulesets.
EXACT = {
    "sixi": four_of_a_kind,
    "banbanhu": no_258,
    "queyise": missing_suit,
    "liuliushun": two_triplets,
    "santong": same_pair_three_suits,
    "yizhihua": lone_suit_tile,
}
