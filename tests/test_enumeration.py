"""Exact enumeration: every distinct complete 14-tile hand over the 27 suited tiles.

The core counts from its tables; here the same numbers are made without them: the
standard form by generating every hand from four melds and a pair, the seven-pairs forms
by counting pairs directly.
"""

from itertools import combinations_with_replacement
from math import comb

import numpy as np

from handcore import shapes

KINDS = 27


def meld_rows() -> np.ndarray:
    rows = []
    for tile in range(KINDS):
        row = np.zeros(KINDS, dtype=np.uint8)
        row[tile] = 3
        rows.append(row)
        if tile % 9 <= 6:
            row = np.zeros(KINDS, dtype=np.uint8)
            row[tile : tile + 3] = 1
            rows.append(row)
    return np.array(rows)


def test_standard_form_count_matches_generation_from_melds():
    melds = meld_rows()  # 27 pungs and 21 chows
    choice = np.array(list(combinations_with_replacement(range(len(melds)), 4)))
    four_melds = melds[choice].sum(axis=1, dtype=np.uint8)  # every multiset of four melds
    powers = 5 ** np.arange(KINDS, dtype=np.int64)
    hands = []
    for pair in range(KINDS):
        counts = four_melds.copy()
        counts[:, pair] += 2
        valid = counts.max(axis=1) <= 4
        hands.append(counts[valid].astype(np.int64) @ powers)
    generated = len(np.unique(np.concatenate(hands)))
    assert shapes.count_complete_hands(14, 3, "standard") == generated


def test_seven_distinct_pairs_count():
    assert shapes.count_complete_hands(14, 3, "distinct") == comb(KINDS, 7) == 888_030


def test_seven_pairs_with_quads_count():
    # Each kind holds 0, 1 or 2 pairs: the x**7 coefficient of (1 + x + x**2) ** 27.
    poly = [1]
    for _ in range(KINDS):
        poly = [
            sum(poly[i - j] for j in range(3) if 0 <= i - j < len(poly))
            for i in range(len(poly) + 2)
        ]
    assert shapes.count_complete_hands(14, 3, "quads") == poly[7]


def test_small_hands_count_by_hand():
    # Two tiles: any pair, 27 hands.  Five tiles over one suit: a pair and a meld.
    assert shapes.count_complete_hands(2, 3) == 27
    one_suit = {
        tuple(sorted(p + m))
        for p in [(r, r) for r in range(9)]
        for m in [(r, r, r) for r in range(9)] + [(r, r + 1, r + 2) for r in range(7)]
        if max((p + m).count(t) for t in p + m) <= 4
    }
    assert shapes.count_complete_hands(5, 1) == len(one_suit)
