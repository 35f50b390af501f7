"""Named elements (``c as NAME``) with tile arithmetic: hands that relate two tiles or two
melds, written in one line and checked on hands of the seeds and against the written-out
forms the shipped rulesets use."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.expressions import ExpressionError, Scope, Situation, compile_expression
from dsl.ruleset import load
from dsl.syntax import Name
from handcore.tiles import STANDARD

# 三同 (001_76942f0387627e0c.txt line 164): "三色同序数相同的牌各有一对。如：2万、2索、2筒各2张".
SANTONG = (
    "any(distinct_tiles as t, held(t) >= 2 and "
    "count(distinct_tiles, rank == t.rank and held(it) >= 2) == 3)"
)
SANTONG_UNGUARDED = (
    "any(distinct_tiles as t, count(distinct_tiles, rank == t.rank and held(it) >= 2) == 3)"
)
# 姊妹对 / 步步高 (same file, line 165): "同花色序数依次加一的牌各有一对。如234万各2张".
JIEMEIDUI = "any(distinct_tiles as t, held(t) >= 2 and held(t + 1) >= 2 and held(t + 2) >= 2)"
JIEMEIDUI_NESTED = "any(distinct_tiles as t, all(0..2 as k, held(t + k) >= 2))"
# The same relations on pungs, as hand types of a win (三同刻, 一色三节高).
SANTONGKE = (
    "standard() and any(distinct_tiles as t, held(t) >= 3 and "
    "count(distinct_tiles, rank == t.rank and held(it) >= 3) == 3)"
)
JIEJIEGAO = "standard() and any(distinct_tiles as t, all(0..2 as k, held(t + k) >= 3))"
# Declared melds relate the same way: three exposed chows of one rank in three suits.
SANTONGSHUN_EXPOSED = "any(melds as m, count(melds, kind == chow and rank == m.rank) == 3)"


def check(text: str, section: str, situation: Situation):
    return compile_expression(text, Scope.for_section(section), expect="bool")(situation)


@pytest.mark.parametrize(
    ("dealt", "santong", "jiemeidui"),
    [
        ("22m 22p 22s 13579m 468p", True, False),  # the example of line 164
        ("223344m 1357p 2468s", False, True),  # the example of line 165
        ("22m 22p 23s 13579m 468p", False, False),  # a single 2s: no pair in the third suit
        ("2233m 55m 1357p 2468s", False, False),  # 2, 3 and 5: not consecutive
        ("778899s 22m 22p 22s 1m", True, True),  # both
        ("8899m 1357p 2468s 9s", False, False),  # 8 and 9 run out of the suit: 10m is no tile
    ],
)
def test_opening_hands_of_the_seed(dealt: str, santong: bool, jiemeidui: bool) -> None:
    hand = Situation.from_notation(dealt, opening=True)
    assert check(SANTONG, "opening_hands", hand) is santong
    assert check(JIEMEIDUI, "opening_hands", hand) is jiemeidui


@pytest.mark.parametrize(
    ("concealed", "melds", "win", "santongke", "jiejiegao"),
    [
        ("222m 222p 222s 789m 55s", [], "5s", True, False),
        ("222m 222p 333s 789m 55s", [], "5s", False, False),
        ("111m 222m 333m 456p 99s", [], "9s", False, True),
        ("777p 888p 999p 123s 5s 5s", [], "5s", False, True),
        ("888p 999p 123s 456s 5s 5s", ["pung 777s"], "5s", False, False),
        ("222p 678s 5s 5s", ["pung 222m", "kong 2222s"], "5s", True, False),
        ("222m 222p 222s 78m 55s", [], None, False, False),  # 13 tiles: no standard shape
    ],
)
def test_pung_forms_on_won_hands(concealed, melds, win, santongke, jiejiegao) -> None:
    hand = Situation.from_notation(concealed, melds=melds, win_tile=win)
    assert check(SANTONGKE, "hands", hand) is santongke
    assert check(JIEJIEGAO, "hands", hand) is jiejiegao


def test_declared_melds_reach_the_outer_meld() -> None:
    three = Situation.from_notation(
        "99s 5p", melds=["chow 345m", "chow 345p", "chow 345s", "pung 777m"], win_tile="5p"
    )
    two = Situation.from_notation(
        "99s 5p", melds=["chow 345m", "chow 456p", "chow 345s", "pung 777m"], win_tile="5p"
    )
    assert check(SANTONGSHUN_EXPOSED, "hands", three) is True
    assert check(SANTONGSHUN_EXPOSED, "hands", two) is False


SHIPPED = load("changsha/qq2014").get("opening_hands.hands")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 26), min_size=13, max_size=14))
def test_one_line_forms_equal_the_written_out_ones(tiles: list[int]) -> None:
    """qq2014 writes 三同 and 姊妹对 out tile by tile (9 and 21 lines); one line each agrees."""
    counts = {t: tiles.count(t) for t in tiles}
    kept = [t for t, n in counts.items() for _ in range(min(n, 4))]
    hand = Situation.from_notation(STANDARD.format(kept), opening=True)
    santong, jiemeidui = SHIPPED["santong"]["when"](hand), SHIPPED["jiemeidui"]["when"](hand)
    assert check(SANTONG, "opening_hands", hand) == santong
    assert check(SANTONG_UNGUARDED, "opening_hands", hand) == santong
    assert check(JIEMEIDUI, "opening_hands", hand) == jiemeidui
    assert check(JIEMEIDUI_NESTED, "opening_hands", hand) == jiemeidui


def test_the_checked_tree_says_what_each_name_stands_for() -> None:
    compiled = compile_expression(JIEMEIDUI_NESTED, Scope.for_section("hands"))
    names = {}

    def walk(node) -> None:
        if isinstance(node, Name):
            names[node.name] = node.binding
        for child in getattr(node, "__dict__", {}).values():
            for item in child if isinstance(child, tuple) else (child,):
                if hasattr(item, "start"):
                    walk(item)

    walk(compiled.ast)
    assert names == {"distinct_tiles": "hands", "t": "the element t", "k": "it"}


# Errors: golden (text, message, expected, offset, length).
ERRORS = [
    (
        "any(tiles as rank, true)",
        "rank is an attribute of a tile or meld; name the element otherwise",
        "a name not used yet",
        13,
        4,
    ),
    (
        "any(tiles as t, any(melds as t, true))",
        "t is the name of an outer element; name the element otherwise",
        "a name not used yet",
        29,
        1,
    ),
    (
        "count(tiles as tiles)",
        "tiles is a name of section hands; name the element otherwise",
        "a name not used yet",
        15,
        5,
    ),
    (
        "any(tiles as it, true)",
        "it is the element's own name; name the element otherwise",
        "a name not used yet",
        13,
        2,
    ),
    (
        "any(tiles as sum, true)",
        "sum is a function; name the element otherwise",
        "a name not used yet",
        13,
        3,
    ),
    (
        "any(tiles as true, true)",
        "true is a word of the language; name the element otherwise",
        "a name not used yet",
        13,
        4,
    ),
    (
        "held(5m as t) > 0",
        "argument tile of held has no elements to name",
        "c as NAME on the collection of all, any, count, sum, product, min, max",
        11,
        1,
    ),
    (
        "standard(pair: rank == 2 as p)",
        "argument pair of standard has no elements to name",
        "c as NAME on the collection of all, any, count, sum, product, min, max",
        28,
        1,
    ),
    (
        "any(tiles as t, t.rnak == 2)",
        "tile has no attribute 'rnak'",
        "one of honour, rank, suit",
        18,
        4,
    ),
    ("any(tiles as t, t)", "argument test of any is tile", "bool", 16, 1),
    ("any(tiles as t, true) and t == 5m", "unknown name 't'", "a name of section hands", 26, 1),
    ("any(melds as m, m + 1 == 5m)", "the left side of + is meld", None, 16, 1),
]


@pytest.mark.parametrize(("text", "message", "expected", "offset", "length"), ERRORS)
def test_errors(text: str, message: str, expected, offset: int, length: int) -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, Scope.for_section("hands"))
    error = caught.value
    assert error.message == message
    if expected is not None:
        assert error.expected == expected
    assert (error.offset, error.length) == (offset, length)
    assert error.text == text


def test_a_misspelt_element_name_is_suggested() -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression("any(melds as meld, mld.rank == 2)", Scope.for_section("hands"))
    assert caught.value.suggestion == "meld"
