"""The hand core against hands quoted in the rule documents and a plain recursive reference."""

import random
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from handcore import shapes
from handcore.tiles import STANDARD, WITH_HONOURS
from tests import reference

SEED_HANDS = yaml.safe_load(
    (Path(__file__).parent / "data" / "seed_hands.yaml").read_text(encoding="utf-8")
)["hands"]


def keys(text):
    return shapes.keys_of(STANDARD.counts(STANDARD.parse(text)))


def tiles(names):
    return sorted(STANDARD.parse(" ".join(names))) if names else []


def hand_of(entry):
    """Concealed keys, exposed meld count and tiles held in melds, of a seed entry."""
    source = entry.get("test_hand", entry)
    meld_tiles = []
    for meld in source.get("melds", []):
        meld_tiles += STANDARD.parse(meld.split()[1])
    return keys(source["concealed"]), len(source.get("melds", [])), STANDARD.counts(meld_tiles)


def waits_of(hand_keys, in_melds):
    """Waits, less any tile whose four copies are already held in hand and melds."""
    return [
        t
        for t in shapes.waits(hand_keys)
        if shapes.tile_count(hand_keys, t) + in_melds[t] < STANDARD.copies
    ]


WAITING = [e for e in SEED_HANDS if e["kind"] in ("wait", "fragment")]
COMPLETE = [e for e in SEED_HANDS if e["kind"] in ("complete", "opening")]


@pytest.mark.parametrize("entry", WAITING, ids=[e["id"] for e in WAITING])
def test_seed_hand_waits(entry):
    hand_keys, melds, in_melds = hand_of(entry)
    expected = entry.get("test_hand", entry)["waits"]
    assert waits_of(hand_keys, in_melds) == tiles(expected)
    assert (shapes.shanten(hand_keys, melds) == 0) == bool(expected)


@pytest.mark.parametrize("entry", WAITING, ids=[e["id"] for e in WAITING])
def test_seed_hand_pairs_per_wait(entry):
    source = entry.get("test_hand", entry)
    hand_keys, _, _ = hand_of(entry)
    for wait, pairs in source.get("pairs", {}).items():
        won = shapes.add_tile(hand_keys, STANDARD.parse(wait)[0])
        found = sorted({d.pair for d in shapes.decompositions(won)})
        assert found == tiles(pairs), wait


@pytest.mark.parametrize("entry", COMPLETE, ids=[e["id"] for e in COMPLETE])
def test_seed_complete_hands(entry):
    hand_keys, melds, _ = hand_of(entry)
    forms = set(entry["complete_as"])
    assert shapes.is_complete(hand_keys) == ("standard" in forms)
    assert (shapes.seven_pairs(hand_keys) is not None) == ("seven_pairs" in forms)
    assert shapes.shanten(hand_keys, melds) == -1
    if "pairs" in entry:
        assert sorted({d.pair for d in shapes.decompositions(hand_keys)}) == tiles(entry["pairs"])


def test_seed_hands_cover_every_kind_of_claim():
    kinds = {e["kind"] for e in SEED_HANDS}
    assert kinds == {"wait", "complete", "fragment", "opening"}
    assert len(SEED_HANDS) >= 60


def test_full2007_example_3_true_and_false_pairs():
    # 长沙麻将全规则 §十四 例3: 123万 123万 5666万 9999万杠, 胡5万则为真将, 和47万则以6万为佯将.
    hand = keys("123m 123m 5666m")
    assert shapes.waits(hand) == tiles(["4m", "5m", "7m"])
    pair = {w: {d.pair for d in shapes.decompositions(shapes.add_tile(hand, w))} for w in (3, 4, 6)}
    assert pair == {4: {4}, 3: {5}, 6: {5}}  # 5m pairs 55m; 4m and 7m pair 66m


def test_seven_pairs_forms_and_quads():
    # full2007 例6 (one pair dropped, the example has 15 tiles): a quad counts as two pairs.
    hand = keys("1111m 4455s 336699p")
    assert shapes.seven_pairs(hand, "quads") == shapes.SevenPairs(
        tuple(sorted(STANDARD.parse("1m 1m 4s 5s 3p 6p 9p"))), 1
    )
    assert shapes.seven_pairs(hand, "distinct") is None
    assert shapes.shanten_seven_pairs(hand, "quads") == -1
    assert shapes.shanten_seven_pairs(hand, "distinct") == 1
    assert shapes.shanten_seven_pairs(hand, melds=1) is None


def test_decompositions_of_a_pure_hand():
    splits = shapes.decompositions(keys("11122233344455m"))
    assert len(splits) == len(set(splits))
    as_text = sorted(
        (STANDARD.name(d.pair), tuple((m.kind, STANDARD.name(m.tile)) for m in d.melds))
        for d in splits
    )
    assert ("5m", (("pung", "1m"), ("pung", "2m"), ("pung", "3m"), ("pung", "4m"))) in as_text
    assert ("5m", (("pung", "4m"), ("chow", "1m"), ("chow", "1m"), ("chow", "1m"))) in as_text
    assert ("2m", (("pung", "1m"), ("chow", "2m"), ("chow", "3m"), ("chow", "3m"))) in as_text
    assert len(as_text) == 4


def test_exposed_melds_leave_fewer_melds_to_make():
    hand = keys("123m 55p")  # three melds exposed
    assert shapes.is_complete(hand)
    assert shapes.shanten_standard(hand, melds=3) == -1
    assert shapes.shanten_standard(keys("12m 55p"), melds=3) == 0
    assert shapes.shanten_standard(keys("5p"), melds=4) == 0


def test_a_tile_held_four_times_is_no_wait():
    # 1111m 234p 567p 789s could only win on a fifth 1m: not ready, two tiles away.
    hand = keys("1111m 234p 567p 789s")
    assert shapes.waits(hand) == []
    assert shapes.shanten_standard(hand) == 1


# ---- property tests against the plain recursive reference -----------------------------------


def hands(min_size, max_size):
    return st.lists(st.integers(0, 26), min_size=min_size, max_size=max_size).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    )


def one_suit_heavy():
    """Hands drawn mostly from one suit, where splits are many and interesting."""
    return st.lists(st.integers(0, 8), min_size=14, max_size=14).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    )


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands(14, 14), one_suit_heavy(), hands(2, 11).filter(lambda t: len(t) % 3 == 2)))
def test_completeness_and_splits_match_reference(hand):
    counts = STANDARD.counts(hand)
    hand_keys = shapes.keys_of(counts)
    expected = reference.decompositions(counts)
    assert shapes.is_complete(hand_keys) == bool(expected)
    got = {
        (d.pair, tuple(sorted((m.kind, m.tile) for m in d.melds)))
        for d in shapes.decompositions(hand_keys)
    }
    assert got == expected
    assert len(shapes.decompositions(hand_keys)) == len(got)


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands(13, 14), one_suit_heavy()))
def test_shanten_matches_reference(hand):
    counts = STANDARD.counts(hand)
    hand_keys = shapes.keys_of(counts)
    assert shapes.shanten_standard(hand_keys) == reference.shanten_standard(counts)
    for form in ("quads", "distinct"):
        seven = reference.shanten_seven_pairs(counts, form == "quads")
        assert shapes.shanten_seven_pairs(hand_keys, form) == seven


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 3).flatmap(lambda k: st.tuples(st.just(k), hands(13 - 3 * k, 14 - 3 * k))))
def test_shanten_with_exposed_melds_matches_reference(case):
    melds, hand = case
    counts = STANDARD.counts(hand)
    got = shapes.shanten_standard(shapes.keys_of(counts), melds)
    assert got == reference.shanten_standard(counts, melds)


@settings(max_examples=200, deadline=None)
@given(hands(13, 13))
def test_waits_are_the_tiles_that_complete(hand):
    counts = STANDARD.counts(hand)
    hand_keys = shapes.keys_of(counts)
    expected = [
        t
        for t in range(27)
        if counts[t] < 4
        and (
            reference.is_complete([n + (i == t) for i, n in enumerate(counts)])
            or all(n % 2 == 0 for n in [c + (i == t) for i, c in enumerate(counts)])
        )
    ]
    assert shapes.waits(hand_keys) == expected
    assert (shapes.shanten(hand_keys) == 0) == bool(expected)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(hands(1, 14), one_suit_heavy().map(lambda ts: ts[1:]), hands(13, 13)),
    st.sampled_from(["quads", "distinct", None]),
)
def test_waits_shortcut_agrees_with_trying_every_tile(hand, form):
    """``waits`` answers a hand no one tile completes from the tables; trying each tile
    must find nothing there, and the same tiles elsewhere (one-suit hands are often ready)."""
    hand_keys = shapes.keys_of(STANDARD.counts(hand))
    tried = [
        t
        for t in range(27)
        if shapes.tile_count(hand_keys, t) < 4
        and shapes.is_winning(shapes.add_tile(hand_keys, t), form)
    ]
    assert shapes.waits(hand_keys, form) == tried


HONOUR_WALL = WITH_HONOURS.wall()
HEAVY_WALL = [t for t in HONOUR_WALL if t < 9 or WITH_HONOURS.is_honour(t)]  # 万 and honours


def honour_hands(wall: list[int]):
    """Hands about to draw (1 to 13 tiles) from ``wall``: honours held, often ready."""
    return (
        st.sampled_from((1, 4, 7, 10, 13))
        .flatmap(lambda n: st.lists(st.integers(0, len(wall) - 1), min_size=n, max_size=n,
                                    unique=True))
        .map(lambda picks: [wall[i] for i in picks])
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(honour_hands(HONOUR_WALL), honour_hands(HEAVY_WALL)),
    st.sampled_from(["quads", "distinct", None]),
)
def test_waits_shortcut_agrees_with_trying_every_tile_with_honours(hand, form):
    """The table shortcut of ``waits`` stays exact when a hand holds honours (their block's
    keys in the same tables): it answers as trying each of the 34 tiles does."""
    hand_keys = shapes.keys_of(WITH_HONOURS.counts(hand), WITH_HONOURS)
    tried = [
        t
        for t in WITH_HONOURS.in_play
        if shapes.tile_count(hand_keys, t) < 4
        and shapes.is_winning(shapes.add_tile(hand_keys, t), form)
    ]
    assert shapes.waits(hand_keys, form) == tried


def pairs_and_one():
    """Thirteen tiles a tile away from seven pairs: six pairs and a tile, or a quad (two
    pairs), three pairs and a tile held three times."""
    return st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True).flatmap(
        lambda ts: st.sampled_from([ts[:6] * 2 + ts[6:], ts[:1] * 4 + ts[1:4] * 2 + ts[4:5] * 3])
    )


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        hands(1, 14), one_suit_heavy().map(lambda ts: ts[1:]), hands(13, 13),
        honour_hands(HONOUR_WALL), honour_hands(HEAVY_WALL), pairs_and_one(),
    ),
    st.booleans(),
)  # fmt: skip
def test_completing_is_the_tiles_that_complete(hand, seven_pairs):
    """``completing`` (the engine's waits of a hand, read from the tables) names the tiles
    that make the hand complete, or seven pairs when asked, as trying each tile does."""
    hand_keys = shapes.keys_of(WITH_HONOURS.counts(hand), WITH_HONOURS)
    tried = sum(
        1 << t
        for t in WITH_HONOURS.in_play
        if shapes.tile_count(hand_keys, t) < 4
        and shapes.is_winning(shapes.add_tile(hand_keys, t), "quads" if seven_pairs else None)
    )
    assert shapes.completing(hand_keys, seven_pairs) == tried


def test_combined_distances_are_the_min_plus_convolution_either_way_round() -> None:
    """Two groups' distance vector: for m melds and h pairs, the fewest tiles missing over
    every way of sharing them out (the memo keeps it both ways round)."""
    vectors = shapes._VECTORS[: len(shapes._T.distance_vectors)]
    rng = random.Random(5)
    for _ in range(2000):
        a, b = rng.randrange(len(vectors)), rng.randrange(len(vectors))
        expected = tuple(
            min(
                vectors[a][2 * m1 + h1] + vectors[b][2 * (m - m1) + h - h1]
                for m1 in range(m + 1)
                for h1 in range(h + 1)
            )
            for m in range(5)
            for h in (0, 1)
        )
        assert shapes._VECTORS[shapes._combine(a, b)] == expected
        assert shapes._combine(b, a) == shapes._combine(a, b)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=WITH_HONOURS.kinds, max_size=WITH_HONOURS.kinds),
    st.booleans(),
)
def test_counts_of_gives_back_the_counts_kept_or_not(counts, clear):
    """``counts_of`` reads each suit's counts from a memo: the same counts whether the
    memo holds the suit, had to work it out, or was emptied on the way (as when full)."""
    if clear:
        shapes._SUIT_COUNTS.clear()
    hand_keys = shapes.keys_of(counts, WITH_HONOURS)
    first = shapes.counts_of(hand_keys)
    assert first[: WITH_HONOURS.kinds] == counts
    assert not any(first[WITH_HONOURS.kinds :])  # the honour block's unused ranks
    assert shapes.counts_of(hand_keys) == first
