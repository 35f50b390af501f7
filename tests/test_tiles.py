"""Tile notation: the forms the rule documents use, and errors that point at the problem."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handcore.tiles import MAN, SOU, STANDARD, TileError, TileSet


def names(tiles):
    return [STANDARD.name(t) for t in tiles]


def test_letters_chinese_and_unicode_read_the_same():
    expected = STANDARD.parse("123m 456p 789s")
    assert STANDARD.parse("123万 456筒 789条") == expected
    assert STANDARD.parse("123萬456饼789索") == expected
    assert STANDARD.parse("🀇🀈🀉🀜🀝🀞🀖🀗🀘") == expected
    assert STANDARD.parse("1m2m3m 4p5p6p,7s8s9s") == expected
    assert STANDARD.parse("456砣") == STANDARD.parse("456p")


def test_seed_notation_with_spaces_inside_a_group_is_read_per_group():
    # "234 条" in the blog is a typo for "234条": digits need their suit right after them.
    with pytest.raises(TileError) as error:
        STANDARD.parse("123条 234 条")
    assert error.value.position == 8
    assert "no suit" in str(error.value)


def test_tile_numbers_follow_suit_order():
    assert names(STANDARD.parse("9s1m5p")) == ["9s", "1m", "5p"]
    assert STANDARD.parse("1m5p9s") == [0, 13, 26]
    assert STANDARD.kinds == 27 and STANDARD.total == 108


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("123x", 3, "digits '123' have no suit"),
        ("123m 0p", 5, "rank 0 does not exist"),
        ("11111m", 4, "copy 5 of 1m"),
        ("", 0, "no tiles"),
        ("   ", 0, "no tiles"),
        ("123m hello", 5, "unexpected 'h'"),
        ("123", 3, "at the end have no suit"),
        ("12m 东", 4, "unexpected '东'"),
    ],
)
def test_bad_notation_says_where_and_what(text, position, fragment):
    with pytest.raises(TileError) as error:
        STANDARD.parse(text)
    assert error.value.position == position
    assert fragment in str(error.value)
    assert f"column {position + 1}" in str(error.value)
    assert error.value.expected
    assert error.value.pointer().splitlines()[1].endswith("^")


def test_copies_are_checked_only_when_asked():
    assert len(STANDARD.parse("11111m", check_copies=False)) == 5


def test_pointer_accounts_for_wide_characters():
    with pytest.raises(TileError) as error:
        STANDARD.parse("123万 x")
    _, caret = error.value.pointer().splitlines()
    assert caret.index("^") == len("  123万 ") + 1  # 万 takes two columns


def test_two_suit_tile_set_for_three_players():
    two = TileSet(suits=(MAN, SOU))
    assert two.total == 72
    assert two.parse("19m 19s") == [0, 8, 9, 17]
    with pytest.raises(TileError):
        two.parse("5p")


def test_tile_set_rejects_impossible_settings():
    with pytest.raises(ValueError):
        TileSet(suits=())
    with pytest.raises(ValueError):
        TileSet(copies=5)
    with pytest.raises(ValueError):
        TileSet(suits=(MAN, MAN))


hands = st.lists(st.integers(0, 26), min_size=1, max_size=14).filter(
    lambda ts: all(ts.count(t) <= 4 for t in ts)
)


@given(hands)
def test_format_and_parse_round_trip(tiles):
    assert STANDARD.parse(STANDARD.format(tiles)) == sorted(tiles)
    assert STANDARD.parse(STANDARD.format_unicode(tiles)) == sorted(tiles)
    assert STANDARD.tiles_of(STANDARD.counts(tiles)) == sorted(tiles)


@given(st.text(max_size=40))
def test_any_text_parses_or_raises_tile_error_inside_the_text(text):
    try:
        STANDARD.parse(text)
    except TileError as error:
        assert 0 <= error.position <= len(text)
