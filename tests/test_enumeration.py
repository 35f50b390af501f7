"""Exact enumeration: every distinct complete 14-tile hand over the 27 suited tiles, and
with the four wilds of the 112-tile set.

The core counts from its tables; here the same numbers are made without them: the
standard form by generating every hand from four melds and a pair, the seven-pairs forms
by counting pairs directly.
"""

from itertools import combinations_with_replacement
from math import comb

import numpy as np
import pytest

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


# The 112-tile set of 红中麻将: the 108 suited tiles and four 红中 that are wilds.  Counted
# again without the tables: a suit's tiles with k wilds complete it (as melds, or melds and
# the pair) when they are a complete suit less k tiles, so the complete suits are generated
# from melds and their tiles taken away one at a time.

SUIT_KEYS = 5**9
POWERS = 5 ** np.arange(9, dtype=np.int64)
MAX_WILDS = 5  # a 13-tile hand with four wilds is ready when a fifth would complete it


def complete_suits() -> tuple[np.ndarray, np.ndarray]:
    """(key, holds the pair) of every suit of at most four melds and a pair, from melds."""
    shapes_ = [np.eye(9, dtype=np.int64)[r] * 3 for r in range(9)]
    shapes_ += [np.eye(9, dtype=np.int64)[r : r + 3].sum(axis=0) for r in range(7)]
    found = set()
    for n in range(5):
        for melds in combinations_with_replacement(range(len(shapes_)), n):
            base = sum((shapes_[m] for m in melds), np.zeros(9, dtype=np.int64))
            for pair in (None, *range(9)):
                counts = base.copy()
                if pair is not None:
                    counts[pair] += 2
                if counts.max() <= 4:
                    found.add((int(counts @ POWERS), pair is not None))
    keys, pairs = zip(*sorted(found), strict=True)
    return np.array(keys), np.array(pairs)


def wild_profiles() -> np.ndarray:
    """Per suit key, bit 2k + p: k wilds complete the suit, with the pair when p is 1."""
    profile = np.zeros(SUIT_KEYS, dtype=np.int64)
    keys, pairs = complete_suits()
    for k in range(MAX_WILDS + 1):
        for p in (0, 1):
            profile[keys[pairs == p]] |= 1 << (2 * k + p)
        taken = []
        for power in POWERS:  # one more tile taken away
            has = (keys // power) % 5 > 0
            taken.append(np.stack([keys[has] - power, pairs[has]]))
        keys, pairs = np.unique(np.concatenate(taken, axis=1), axis=1)
    return profile


def add_profiles(a: int, b: int) -> int:
    """The profile of two suits together: wilds add up, at most one pair."""
    out = 0
    for i in range(2 * (MAX_WILDS + 1)):
        if a >> i & 1:
            for j in range(2 * (MAX_WILDS + 1)):
                if b >> j & 1 and (i & 1) + (j & 1) <= 1 and i // 2 + j // 2 <= MAX_WILDS:
                    out |= 1 << (i + j)
    return out


def hands_by_profile(dealt: bool) -> dict[tuple[int, int], int]:
    """Three-suit hands of at most 14 tiles by (tiles, profile): how many (or dealt ways)."""
    profile = wild_profiles()
    digits = (np.arange(SUIT_KEYS)[:, None] // POWERS) % 5
    tiles = digits.sum(axis=1)
    ways = np.prod(np.array([comb(4, c) for c in range(5)])[digits], axis=1) if dealt else 1
    keep = (tiles <= 14) & (profile > 0)
    suit: dict[tuple[int, int], int] = {}
    for n, prof, w in zip(tiles[keep], profile[keep], np.broadcast_to(ways, tiles.shape)[keep],
                          strict=True):  # fmt: skip
        suit[int(n), int(prof)] = suit.get((int(n), int(prof)), 0) + int(w)
    hands = {(0, 1): 1}  # no tiles: complete as nothing (no wild, no pair)
    for _ in range(3):
        grown: dict[tuple[int, int], int] = {}
        for (n, a), x in hands.items():
            for (m, b), y in suit.items():
                if n + m <= 14 and (both := add_profiles(a, b)):
                    grown[n + m, both] = grown.get((n + m, both), 0) + x * y
        hands = grown
    return hands


def seven_pairs_by_lone(quads: bool, dealt: bool) -> dict[tuple[int, int], int]:
    """Hands by (tiles, lone tiles a wild must pair): held an odd number of times with quads;
    with distinct pairs, held once (a kind held three or four times never makes them)."""
    ways = {(0, 0): 1}
    for _ in range(27):
        grown: dict[tuple[int, int], int] = {}
        for (n, lone), x in ways.items():
            for c in range(5 if quads else 3):
                key = (n + c, lone + c % 2)
                if key[0] <= 14:
                    grown[key] = grown.get(key, 0) + x * (comb(4, c) if dealt else 1)
        ways = grown
    return ways


@pytest.mark.parametrize("dealt", [False, True])
def test_112_tile_set_counts_match_a_count_without_the_tables(dealt):
    standard = hands_by_profile(dealt)
    quads, distinct = (seven_pairs_by_lone(q, dealt) for q in (True, False))
    wild_ways = [comb(4, w) if dealt else 1 for w in range(5)]
    if not dealt:  # distinct complete 14-tile hands, any number of the four wilds
        assert sum(shapes.count_complete_hands(14, 3, "standard", w) for w in range(5)) == (
            203_411_937)  # fmt: skip
    for w in range(5):
        complete = sum(x for (n, p), x in standard.items() if n == 14 - w and p >> (2 * w + 1) & 1)
        ready = sum(x for (n, p), x in standard.items() if n == 13 - w and p >> (2 * w + 3) & 1)
        assert shapes.count_complete_hands(14, 3, "standard", w, dealt=dealt) == (
            complete * wild_ways[w]
        )
        assert shapes.count_complete_hands(13, 3, "standard", w, ready=True, dealt=dealt) == (
            ready * wild_ways[w])  # fmt: skip
        for form, ways in (("quads", quads), ("distinct", distinct)):
            pairs = sum(x for (n, lone), x in ways.items() if n == 14 - w and lone <= w)
            assert shapes.count_complete_hands(14, 3, form, w, dealt=dealt) == (
                pairs * wild_ways[w])  # fmt: skip
