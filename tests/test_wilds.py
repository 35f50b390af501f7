"""Wild tiles (癞子) in the hand core, against brute-force substitution.

A hand with ``w`` wilds is its other tiles plus ``w`` tiles chosen freely (no tile more
than four times).  The reference tries every such choice and asks the wild-free core
(itself checked against a plain recursive search in test_shapes): the hand is complete if
some choice completes it, its shanten is the least over the choices, and a draw helps if
it lowers that least.  ``bench/wild_agreement.py`` runs the same check on more hands.
Hands with honours (a count vector of the 136-tile set) have their wilds stand for any
suited tile or honour.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handcore import discards, shapes
from handcore.suit_tables import HONOUR, HONOUR_RANKS, POW, RANKS, suit_tables, unpack_wilds_needed
from handcore.tiles import STANDARD, WITH_HONOURS, TileSet

FORMS = ("quads", "distinct", None)


def tiles_for(counts: list[int]) -> TileSet:
    """The tile set of a count vector: the 136 tiles when it has an honour block."""
    return WITH_HONOURS if len(counts) > STANDARD.kinds else STANDARD


def choices(counts: list[int], size: int):
    """Every multiset of ``size`` tiles that the hand can take (at most four of a tile)."""
    for extra in combinations_with_replacement(tiles_for(counts).in_play, size):
        grown = list(counts)
        for tile in extra:
            grown[tile] += 1
        if max(grown) <= 4:
            yield extra, grown


def _values(counts: list[int]) -> dict:
    """The wild-free answers for one hand: shanten by form, winning by form."""
    keys = shapes.keys_of(counts)
    standard = shapes.shanten_standard(keys)
    seven = {form: shapes.shanten_seven_pairs(keys, form) for form in ("quads", "distinct")}
    shanten = {
        form: standard if form is None or seven[form] is None else min(standard, seven[form])
        for form in FORMS
    }
    return shanten


def brute_force(counts: list[int], wilds: int) -> dict:
    """Shanten and (with 14 tiles) complete choices, or (13) per tile drawn the shanten after."""
    best = {form: 99 for form in FORMS}
    completing = set()
    for extra, grown in choices(counts, wilds):
        shanten = _values(grown)
        for form in FORMS:
            best[form] = min(best[form], shanten[form])
        if shapes.is_complete(shapes.keys_of(grown)):
            completing.add(extra)
    after_draw: dict = {form: {} for form in FORMS}
    if (sum(counts) + wilds) % 3 == 1:
        for extra, grown in choices(counts, wilds + 1):
            shanten = _values(grown)
            for form in FORMS:
                for tile in set(extra):
                    if shanten[form] < after_draw[form].get(tile, 99):
                        after_draw[form][tile] = shanten[form]
    return {"shanten": best, "completing": completing, "after_draw": after_draw}


def disagreements(counts: list[int], wilds: int) -> list[str]:
    """Where the table-based answers differ from brute-force substitution (empty: agree)."""
    assert sum(counts) + wilds in (13, 14)
    keys = shapes.keys_of(counts)
    ref = brute_force(counts, wilds)
    found = []
    for form in FORMS:
        shanten = shapes.shanten(keys, 0, form, wilds)
        if shanten != ref["shanten"][form]:
            found.append(f"shanten {form}: {shanten} != {ref['shanten'][form]}")
        if (sum(counts) + wilds) % 3 == 2:
            if shapes.is_winning(keys, form, wilds) != (ref["shanten"][form] == -1):
                found.append(f"is_winning {form}")
            continue
        draws = ref["after_draw"][form]
        waits = sorted(t for t, s in draws.items() if s == -1)
        if shapes.waits(keys, form, wilds=wilds) != waits:
            found.append(f"waits {form}: {shapes.waits(keys, form, wilds=wilds)} != {waits}")
        accepted = sorted(t for t, s in draws.items() if s < ref["shanten"][form])
        shanten, masks = discards.accepted_tiles(keys, 0, form, wilds=wilds)
        got = [s * 9 + r for s, m in enumerate(masks) for r in range(9) if m >> r & 1]
        if (shanten, got) != (ref["shanten"][form], accepted):
            found.append(f"accepted {form}: {got} != {accepted}")
    if (sum(counts) + wilds) % 3 == 2:
        if shapes.is_complete_with_wilds(keys, wilds) != bool(ref["completing"]):
            found.append("is_complete_with_wilds")
        found += _split_disagreements(counts, wilds, keys, ref["completing"])
    return found


def _split_disagreements(counts, wilds, keys, completing) -> list[str]:
    """Each split's wilds complete the hand into that split, and every completing choice has one."""
    found = []
    seen = set()
    for split in shapes.decompositions(keys, wilds):
        grown = list(counts)
        for tile in split.wilds:
            grown[tile] += 1
        made = [0] * len(counts)
        made[split.pair] += 2
        for meld in split.melds:
            for tile in [meld.tile] * 3 if meld.kind == "pung" else range(meld.tile, meld.tile + 3):
                made[tile] += 1
        if made != grown:
            found.append(f"split {split} is not the hand with its wilds")
        seen.add(tuple(sorted(split.wilds)))
    if seen != completing:
        found.append(f"wild choices of the splits {sorted(seen)} != {sorted(completing)}")
    for form in ("quads", "distinct"):
        pairs = shapes.seven_pairs(keys, form, wilds)
        if pairs is not None:
            grown = list(counts)
            for tile in pairs.wilds:
                grown[tile] += 1
            if shapes.seven_pairs(shapes.keys_of(grown), form) != pairs._replace(wilds=()):
                found.append(f"seven pairs {form}: {pairs} is not the hand with its wilds")
        elif shapes.shanten_seven_pairs(keys, form, 0, wilds) == -1:
            found.append(f"seven pairs {form} missing")
    return found


@st.composite
def hands(
    draw, wilds: int, sizes: tuple[int, ...] = (13, 14), tileset: TileSet = STANDARD
) -> list[int]:
    """The other tiles of a random hand of one of ``sizes`` tiles holding ``wilds`` wilds."""
    wall = tileset.wall()
    size = draw(st.sampled_from(sizes)) - wilds
    picks = draw(st.lists(st.integers(0, len(wall) - 1), min_size=size, max_size=size,
                          unique=True))  # fmt: skip
    return tileset.counts(wall[i] for i in picks)


# Examples per wild count: the brute force grows as 27**w / w!.
@pytest.mark.parametrize(("wilds", "examples"), [(0, 25), (1, 40), (2, 25), (3, 8), (4, 3)])
def test_agrees_with_brute_force_substitution(wilds, examples):
    @settings(max_examples=examples, deadline=None)
    @given(hands(wilds))
    def check(counts):
        assert disagreements(counts, wilds) == []

    check()


# With honours the brute force grows as 34**w / w!: fewer examples.
@pytest.mark.parametrize(("wilds", "examples"), [(0, 10), (1, 20), (2, 10), (3, 2)])
def test_honour_hands_agree_with_brute_force_substitution(wilds, examples):
    @settings(max_examples=examples, deadline=None)
    @given(hands(wilds, tileset=WITH_HONOURS))
    def check(counts):
        assert disagreements(counts, wilds) == []

    check()


SCRIPTED = [
    ("1155m 2299p 1177s", 1),  # six pairs and a wild: any draw completes seven pairs
    ("1155m 2299p 11s 7s", 2),  # five pairs, a single, two wilds
    ("1111m 2299p 11s 7s", 2),  # a four-of-a-kind
    ("123m 456p 789s 1s", 3),  # three wilds as a fourth meld or beside the single
    ("19m 19p 19s 5m 5p 5s", 4),  # terminals and four wilds
    ("5555m 123s 456s", 4),  # a wild never stands for a fifth 5m
    ("123456789m", 4),
    ("2468m 2468p 2s", 4),
]


HONOUR_SCRIPTED = [
    ("111z 55z 123m 456p 78s", 1),  # an honour pung and pair, a wild for the chow
    ("1155m 2299p 11z 7z", 2),  # honour pairs and a single honour for seven pairs
    ("1234567z 19m 19p", 2),  # every honour once: no chow among them
    ("1111z 22z 33z 4z 11m", 2),  # a four-of-a-kind of honours
]


@pytest.mark.parametrize(("hand", "wilds"), SCRIPTED)
def test_scripted_hands_agree_with_brute_force(hand, wilds):
    counts = STANDARD.counts(STANDARD.parse(hand))
    assert disagreements(counts, wilds) == []


@pytest.mark.parametrize(("hand", "wilds"), HONOUR_SCRIPTED)
def test_scripted_honour_hands_agree_with_brute_force(hand, wilds):
    counts = WITH_HONOURS.counts(WITH_HONOURS.parse(hand))
    assert disagreements(counts, wilds) == []


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 4).flatmap(
        lambda w: st.tuples(
            st.just(w),
            st.sampled_from((STANDARD, WITH_HONOURS)).flatmap(lambda ts: hands(w, (14,), ts)),
        )
    )
)
def test_discard_rows_are_the_hands_after_each_discard(case):
    """Each row of the discard table is the hand less that tile, as accepted_tiles sees it."""
    wilds, counts = case
    keys = shapes.keys_of(counts)
    for form in FORMS:
        table = discards.discard_table(keys, 0, None, form, wilds=wilds)
        assert sorted(row.discard for row in table) == [t for t, n in enumerate(counts) if n]
        for row in table:
            shanten, masks = discards.accepted_tiles(shapes.add_tile(keys, row.discard, -1),
                                                     0, form, wilds=wilds)  # fmt: skip
            mask = sum(m << 9 * s for s, m in enumerate(masks))
            assert (row.shanten, row.mask) == (shanten, mask)
            assert row.shanten == shapes.shanten(shapes.add_tile(keys, row.discard, -1),
                                                 0, form, wilds)  # fmt: skip
        assert table == sorted(table, key=lambda r: (r.shanten, -r.live_total, -r.mask.bit_count()))


def fewest_wilds(counts: list[int], ranks: int, offset: int) -> tuple[int, int]:
    """(melds only, melds and a pair): the fewest tiles of the block's ``ranks`` ranks that
    complete it, by adding every multiset of up to six of them (31 for none; capped at 7)."""
    tables = suit_tables()
    fewest = {1: 31, 2: 31}  # completion 1: melds only, 2: melds and a pair
    for k in range(7):
        for extra in combinations_with_replacement(range(ranks), k):
            grown = list(counts)
            for rank in extra:
                grown[rank] += 1
            if max(grown) <= 4:
                done = tables.completion[
                    offset + sum(n * p for n, p in zip(grown, POW, strict=True))
                ]
                if done and fewest[done] == 31:
                    fewest[done] = k
    return min(fewest[1], 7), min(fewest[2], 7)


def ranks_drawn(ranks: int):
    """Up to 14 tiles of a block of ``ranks`` ranks, no rank more than four times."""
    return st.lists(st.integers(0, ranks - 1), max_size=14).filter(
        lambda r: max(map(r.count, r), default=0) <= 4
    )


@settings(max_examples=200, deadline=None)
@given(ranks_drawn(RANKS))
def test_wilds_needed_per_suit_is_the_fewest_tiles_that_complete_it(ranks):
    """The per-suit table against adding every multiset of up to six tiles to the suit."""
    counts = [ranks.count(rank) for rank in range(RANKS)]
    key = sum(n * p for n, p in zip(counts, POW, strict=True))
    c0, c1 = unpack_wilds_needed(suit_tables().wilds_needed[key])
    assert (min(c0, 7), min(c1, 7)) == fewest_wilds(counts, RANKS, 0)


@settings(max_examples=200, deadline=None)
@given(ranks_drawn(HONOUR_RANKS))
def test_wilds_needed_per_honour_block_is_the_fewest_honours_that_complete_it(ranks):
    """The honour block's entries: its wilds stand for honours, which make no chows."""
    counts = [ranks.count(rank) for rank in range(RANKS)]
    key = HONOUR + sum(n * p for n, p in zip(counts, POW, strict=True))
    c0, c1 = unpack_wilds_needed(suit_tables().wilds_needed[key])
    assert (min(c0, 7), min(c1, 7)) == fewest_wilds(counts, HONOUR_RANKS, HONOUR)
