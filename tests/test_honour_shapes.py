"""Hand shapes with honours: pungs and pairs but no sequences, checked against independent
answers (the recursive reference and the `mahjong` package) on hands rich in honours."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from handcore import discards, shapes
from handcore.tiles import RANKS, WITH_HONOURS, TileSet
from tests import reference

TILES = WITH_HONOURS
HONOUR_TILES = [t for t in TILES.in_play if TILES.is_honour(t)]


def keys(counts):
    return shapes.keys_of(counts)  # the honours after the three suits, as in every ruleset


def honour_heavy(low, high):
    """Hands with about half their tiles honours, where pungs and pairs of honours abound."""
    pool = st.one_of(st.sampled_from(HONOUR_TILES), st.sampled_from(TILES.in_play))
    return st.lists(pool, min_size=low, max_size=high).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    )


def counts_34(hand):
    return TILES.counts(hand)[:34]  # the reference's and the package's 34 kinds


@settings(max_examples=300, deadline=None)
@given(honour_heavy(2, 14).filter(lambda t: len(t) % 3 == 2))
def test_completeness_and_splits_match_the_reference(hand):
    counts = TILES.counts(hand)
    expected = reference.decompositions(counts_34(hand))
    assert shapes.is_complete(keys(counts)) == bool(expected)
    got = {
        (d.pair, tuple(sorted((m.kind, m.tile) for m in d.melds)))
        for d in shapes.decompositions(keys(counts))
    }
    assert got == expected
    assert all(kind == "pung" for _, melds in got for kind, tile in melds if TILES.is_honour(tile))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 3).flatmap(lambda k: st.tuples(st.just(k), honour_heavy(13 - 3 * k, 14 - 3 * k)))
)
def test_shanten_matches_the_reference(case):
    melds, hand = case
    counts = TILES.counts(hand)
    assert shapes.shanten_standard(keys(counts), melds) == reference.shanten_standard(
        counts_34(hand), melds
    )


def test_same_shanten_as_the_mahjong_package_with_honours():
    rng = random.Random(20261201)
    wall = TILES.wall()
    mismatches = []
    for n in range(4_000):
        # every other hand from a short wall of few kinds, so that honour pungs and quads abound
        pool = wall if n % 2 else [t for t in rng.sample(TILES.in_play, 10) for _ in range(4)]
        hand = rng.sample(pool, rng.choice((13, 14)))
        counts = TILES.counts(hand)
        ours = (
            shapes.shanten_standard(keys(counts)),
            shapes.shanten_seven_pairs(keys(counts), "distinct"),
        )
        theirs = (
            Shanten.calculate_shanten_for_regular_hand(counts[:34]),
            Shanten.calculate_shanten_for_chiitoitsu_hand(counts[:34]),
        )
        if ours != theirs:
            mismatches.append((TILES.format(hand), ours, theirs))
    assert mismatches == []


@settings(max_examples=150, deadline=None)
@given(honour_heavy(13, 13))
def test_waits_are_the_tiles_that_complete(hand):
    counts = TILES.counts(hand)
    expected = [
        t
        for t in TILES.in_play
        if counts[t] < 4
        and (
            reference.is_complete(counts_34([*hand, t]))
            or all(n % 2 == 0 for n in TILES.counts([*hand, t]))
        )
    ]
    assert shapes.waits(keys(counts)) == expected


def test_waits_leave_out_tiles_out_of_play():
    dragons = TileSet(honours=(5, 6, 7))
    hand = dragons.parse("123m 456p 789s 中中 发发")
    got = shapes.waits(shapes.keys_of(dragons.counts(hand), dragons), playable=dragons.playable())
    assert [dragons.name(t) for t in got] == ["5z", "6z"]
    # seven pairs with distinct pairs: a single of a new kind helps, but only kinds in play
    single = dragons.parse("11m 22m 33p 44p 55s 66s 中")
    _, masks = discards.accepted_tiles(
        shapes.keys_of(dragons.counts(single), dragons), 0, "distinct", 4, dragons.playable()
    )
    assert masks[3] == 1 << 4  # 中 only: no 8z or 9z, no wind


@settings(max_examples=100, deadline=None)
@given(honour_heavy(14, 14))
def test_discard_table_accepts_exactly_the_draws_that_help(hand):
    counts = TILES.counts(hand)
    table = discards.discard_table(keys(counts), playable=TILES.playable())
    assert sorted(o.discard for o in table) == sorted(set(hand))
    for option in table:
        after = [n - (t == option.discard) for t, n in enumerate(counts)]
        now = shapes.shanten(keys(after))
        assert option.shanten == now
        helps = [
            t
            for t in TILES.in_play
            if after[t] < 4
            and shapes.shanten(keys([n + (i == t) for i, n in enumerate(after)])) < now
        ]
        assert list(option.accepted) == helps
        assert all(t // RANKS < 4 for t in option.accepted)
