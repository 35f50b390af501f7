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


FULL = TileSet(honours=tuple(range(1, 8)), flowers=tuple(range(1, 9)))


def test_honours_and_flowers_read_in_every_form():
    honours = FULL.parse("1234567z")
    assert FULL.parse("东南西北中发白") == honours
    assert FULL.parse("東南西北中發白") == honours
    assert FULL.parse("🀀🀁🀂🀃🀄🀅🀆") == honours
    assert [FULL.name(t) for t in honours] == ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert FULL.parse("12345678f") == FULL.parse("春夏秋冬梅兰竹菊")
    assert FULL.parse("🀦🀢") == FULL.parse("1f 5f")
    assert FULL.format(FULL.parse("中 1m 春 东 9s")) == "1m 9s 15z 1f"
    assert FULL.format_unicode(FULL.parse("东 中 春 梅")) == "🀀🀄🀦🀢"


def test_honour_and_flower_sets_count_their_tiles():
    assert FULL.kinds == 45 and FULL.total == 108 + 28 + 8
    assert TileSet(flowers=(1,)).parse("春") == FULL.parse("1f")  # the same ids without honours
    assert TileSet(honours=tuple(range(1, 8))).total == 136
    red = TileSet(honours=(5,))
    assert red.total == 112 and red.parse("中") == [31]
    with pytest.raises(TileError, match="1z is not in this tile set"):
        red.parse("1z")
    assert FULL.copies_of(FULL.parse("春")[0]) == 1
    with pytest.raises(TileError, match="copy 2 of 1f"):
        FULL.parse("春 1f")
    assert len(FULL.wall()) == FULL.total


def test_a_left_out_suit_keeps_its_ids_but_not_its_tiles():
    no_man = TileSet(missing=(0,))
    assert no_man.total == 72 and no_man.parse("1p") == STANDARD.parse("1p")
    with pytest.raises(TileError, match="1m is not in this tile set"):
        no_man.parse("123p 1m")


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("12z", 2, "honour tiles are not in this tile set"),
        ("东", 0, "honour tiles are not in this tile set"),
        ("3f", 1, "flowers are not in this tile set"),
        ("春", 0, "flowers are not in this tile set"),
    ],
)
def test_honours_and_flowers_outside_the_set_say_so(text, position, fragment):
    with pytest.raises(TileError) as error:
        STANDARD.parse(text)
    assert error.value.position == position
    assert fragment in str(error.value)


def test_honour_ranks_stop_at_seven():
    with pytest.raises(TileError, match="rank 8 does not exist"):
        FULL.parse("8z")


full_hands = st.lists(st.sampled_from(FULL.in_play), min_size=1, max_size=14).filter(
    lambda ts: all(ts.count(t) <= FULL.copies_of(t) for t in ts)
)


@given(full_hands)
def test_format_and_parse_round_trip_with_honours_and_flowers(tiles):
    assert FULL.parse(FULL.format(tiles)) == sorted(tiles)
    assert FULL.parse(FULL.format_unicode(tiles)) == sorted(tiles)
