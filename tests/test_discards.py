"""The discard table against a brute-force search over every discard and draw.

The brute force asks `shapes.shanten` (itself checked against the plain reference in
test_shapes) about every hand, so it tests the table's shortcuts: suits combined once,
helpful ranks read per suit, seven pairs folded in.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from handcore import discards, shapes
from handcore.tiles import MAN, PIN, STANDARD, TileSet


def reference_shanten(counts, melds, form):
    return shapes.shanten(shapes.keys_of(counts), melds, form)


def brute_force_table(counts, melds, form, visible, copies=4):
    rows = {}
    for discard in range(len(counts)):
        if not counts[discard]:
            continue
        after = list(counts)
        after[discard] -= 1
        shanten = reference_shanten(after, melds, form)
        accepted = []
        for tile in range(len(counts)):
            if after[tile] >= copies:
                continue
            grown = list(after)
            grown[tile] += 1
            if reference_shanten(grown, melds, form) < shanten:
                accepted.append((tile, max(0, copies - counts[tile] - visible[tile])))
        rows[discard] = (shanten, accepted)
    return rows


hand_cases = st.tuples(st.integers(0, 2), st.sampled_from([4, 4, 3])).flatmap(
    lambda case: st.tuples(
        st.just(case[0]),
        st.lists(st.integers(0, 26), min_size=14 - 3 * case[0], max_size=14 - 3 * case[0]).filter(
            lambda ts: all(ts.count(t) <= case[1] for t in ts)
        ),
        st.sampled_from(["quads", "distinct", None]),
        st.lists(st.integers(0, 26), max_size=12),
        st.just(case[1]),
    )
)


@settings(max_examples=400, deadline=None)
@given(hand_cases)
def test_discard_table_matches_brute_force(case):
    melds, hand, form, seen, copies = case
    counts = STANDARD.counts(hand)
    visible = [min(n, copies - c) for n, c in zip(STANDARD.counts(seen), counts, strict=True)]
    table = discards.discard_table(shapes.keys_of(counts), melds, visible, form, copies)
    expected = brute_force_table(counts, melds, form, visible, copies)
    got = {o.discard: (o.shanten, list(zip(o.accepted, o.live, strict=True))) for o in table}
    assert got == expected
    for option in table:
        assert option.live_total == sum(option.live)


TWO_SUITS = TileSet(suits=(MAN, PIN))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 17), min_size=14, max_size=14).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    ),
    st.sampled_from(["quads", "distinct", None]),
)
def test_two_suit_tables_match_brute_force(hand, form):
    counts = TWO_SUITS.counts(hand)
    table = discards.discard_table(shapes.keys_of(counts), 0, None, form)
    expected = brute_force_table(counts, 0, form, [0] * len(counts))
    got = {o.discard: (o.shanten, list(zip(o.accepted, o.live, strict=True))) for o in table}
    assert got == expected


@settings(max_examples=100, deadline=None)
@given(hand_cases)
def test_nothing_visible_is_no_visible_list(case):
    melds, hand, form, _, copies = case
    keys = shapes.keys_of(STANDARD.counts(hand))
    assert discards.discard_table(keys, melds, None, form, copies) == discards.discard_table(
        keys, melds, [0] * 27, form, copies
    )


def test_table_is_ranked_best_first():
    hand = STANDARD.parse("1122m 3345p 67789s 9s")
    table = discards.discard_table(shapes.keys_of(STANDARD.counts(hand)))
    ranks = [(o.shanten, -o.live_total, -len(o.accepted)) for o in table]
    assert ranks == sorted(ranks)
    assert STANDARD.name(table[0].discard) == "3p"


def test_a_complete_hand_lists_the_ready_discards():
    table = discards.discard_table(
        shapes.keys_of(STANDARD.counts(STANDARD.parse("123456789m 234p 55p")))
    )
    assert {o.shanten for o in table} == {0}


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 2).flatmap(
        lambda melds: st.tuples(
            st.just(melds),
            st.lists(st.integers(0, 26), min_size=13 - 3 * melds, max_size=13 - 3 * melds).filter(
                lambda ts: all(ts.count(t) <= 4 for t in ts)
            ),
        )
    ),
    st.sampled_from(["quads", "distinct", None]),
    st.lists(st.integers(0, 26), max_size=12),
)
def test_live_accepted_counts_the_live_copies_of_helpful_draws(case, form, seen):
    melds, hand = case
    counts = STANDARD.counts(hand)
    visible = [min(n, 4 - c) for n, c in zip(STANDARD.counts(seen), counts, strict=True)]
    shanten = reference_shanten(counts, melds, form)
    live = 0
    for tile in range(27):
        if counts[tile] < 4:
            grown = list(counts)
            grown[tile] += 1
            if reference_shanten(grown, melds, form) < shanten:
                live += 4 - counts[tile] - visible[tile]
    got = discards.live_accepted(shapes.keys_of(counts), melds, form, visible)
    assert got == (shanten, live)


@settings(max_examples=100, deadline=None)
@given(hand_cases, st.integers(0, 2))
def test_one_suits_rows_are_the_whole_tables_rows_of_that_suit(case, suit):
    melds, hand, form, seen, copies = case
    counts = STANDARD.counts(hand)
    keys = shapes.keys_of(counts)
    visible = [min(n, copies - c) for n, c in zip(STANDARD.counts(seen), counts, strict=True)]
    whole = discards.discard_table(keys, melds, visible, form, copies)
    alone = discards.discard_table(keys, melds, visible, form, copies, only=suit)
    assert alone == [row for row in whole if row.discard // 9 == suit]
