"""The hand core against the `mahjong` package (an independent implementation) on random hands."""

import random

from mahjong.shanten import Shanten

from handcore import shapes
from handcore.tiles import STANDARD

HANDS = 20_000
WALL = [tile for tile in range(27) for _ in range(4)]


def test_same_shanten_as_the_mahjong_package_on_random_hands():
    rng = random.Random(20261130)
    mismatches = []
    for _ in range(HANDS):
        hand = rng.sample(WALL, rng.choice((13, 14)))
        counts = STANDARD.counts(hand)
        keys = shapes.keys_of(counts)
        tiles_34 = counts + [0] * 7  # the same man/pin/sou order, no honours
        ours = (shapes.shanten_standard(keys), shapes.shanten_seven_pairs(keys, "distinct"))
        theirs = (
            Shanten.calculate_shanten_for_regular_hand(tiles_34),
            Shanten.calculate_shanten_for_chiitoitsu_hand(tiles_34),
        )
        if ours != theirs:
            mismatches.append((STANDARD.format(hand), ours, theirs))
    assert mismatches == []


def test_same_shanten_on_hands_rich_in_pairs_and_quads():
    # Random hands rarely hold quads; draw from a short wall so that they often do.
    rng = random.Random(7)
    short_wall = [tile for tile in rng.sample(range(27), 9) for _ in range(4)]
    for _ in range(2_000):
        hand = rng.sample(short_wall, rng.choice((13, 14)))
        counts = STANDARD.counts(hand)
        keys = shapes.keys_of(counts)
        tiles_34 = counts + [0] * 7
        assert shapes.shanten_standard(keys) == Shanten.calculate_shanten_for_regular_hand(
            tiles_34
        ), STANDARD.format(hand)
        assert shapes.shanten_seven_pairs(
            keys, "distinct"
        ) == Shanten.calculate_shanten_for_chiitoitsu_hand(tiles_34)
