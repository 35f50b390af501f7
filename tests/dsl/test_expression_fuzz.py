"""Fuzzing: whatever the text, compiling raises only ExpressionError, placed inside the text,
and evaluating what compiles raises only EvaluationError — quickly."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl.expressions import (
    SECTIONS,
    EvaluationError,
    ExpressionError,
    Scope,
    Situation,
    compile_expression,
)
from handcore.suit_tables import suit_tables

suit_tables()  # built once per machine (seconds on a fresh one): not an expression's cost

SCOPES = {
    name: Scope.for_section(
        name,
        options={"birds": "int", "cap": ("4he", "6he")},
        hands={"xiaohu": "small", "qingyise": "big"},
    )
    for name in SECTIONS
}
SITUATION = Situation.from_notation(
    "123s 567s 234s 888s 99s",
    win_tile="9s",
    winner=1,
    discarder=2,
    payer=2,
    payee=1,
    claimer=0,
    kong_seat=3,
    provider=0,
    tile=5,
    hands={"qingyise": 3},
    bird_hits={2: 1},
    options={"birds": 2, "cap": "6he"},
)

TOKENS = [
    "1",
    "2",
    "0",
    "64",
    "99999999999",
    "true",
    "false",
    "5m",
    "9s",
    "0x",
    '"6he"',
    '"x"',
    "tiles",
    "melds",
    "suits",
    "rank",
    "kind",
    "it",
    "winner",
    "payer",
    "dealer",
    "discarder",
    "players_in_game",
    "win_tile",
    "tile",
    "option",
    "hands",
    "big",
    "value",
    "roots",
    "standard",
    "seven_pairs",
    "all",
    "count",
    "sum",
    "product",
    "min",
    "max",
    "held",
    "hits",
    "pair",
    "quads",
    "+",
    "-",
    "*",
    "//",
    "%",
    "**",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "and",
    "or",
    "not",
    "in",
    "if",
    "then",
    "else",
    "..",
    ".",
    ",",
    ":",
    "(",
    ")",
    "{",
    "}",
    "chow",
    "kong",
    "as",
    "t",
]


def check(text: str, section: str) -> None:
    started = time.perf_counter()
    try:
        compiled = compile_expression(text, SCOPES[section])
    except ExpressionError as error:
        assert type(error) is ExpressionError
        assert 0 <= error.offset <= len(text), (text, error.offset)
        assert error.length >= 0 and error.offset + error.length <= len(text) + 1
        assert error.message
    else:
        try:
            compiled(SITUATION)
        except EvaluationError as error:
            assert 0 <= error.offset <= len(text)
    assert time.perf_counter() - started < 2.0, text


sections = st.sampled_from(sorted(SECTIONS))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80), sections)
def test_random_text(text: str, section: str) -> None:
    check(text, section)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=25), sections)
def test_token_sequences(tokens: list[str], section: str) -> None:
    check(" ".join(tokens), section)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1990, max_value=2100), st.sampled_from(["(", "-", "not ", "{"]))
def test_long_and_deep_inputs(length: int, prefix: str) -> None:
    check((prefix * length)[:length], "hands")


ATOMS = [
    "1",
    "3",
    "0",
    "-2",
    "64",
    "true",
    "false",
    "5m",
    "win_tile",
    "winner",
    "dealer",
    "payer",
    "tiles",
    "melds",
    "suits",
    "hands",
    "big",
    "value",
    "players",
    "option.birds",
    "option.cap",
    '"6he"',
    "{}",
    "{1, 2}",
    "1..9",
    "it",
    "rank",
    "kind",
    "chow",
]
BINARY = ["+", "-", "*", "//", "%", "**", "==", "!=", "<", ">=", "and", "or", "in", "not in", ".."]


def _expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(BINARY), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            inner.map(lambda e: f"not {e}"),
            st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
            st.tuples(
                st.sampled_from(["all", "any", "count", "sum", "product", "min", "max"]),
                inner,
                inner,
            ).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"any({t[0]} as t, {t[1]})"),
            inner.map(lambda e: f"count(tiles as t, held(t + 1) > {e})"),
            inner.map(lambda e: f"standard(pair: {e})"),
            inner.map(lambda e: f"standard(melds: {e})"),
            inner.map(lambda e: f"{{{e}, 1}}"),
            inner.map(lambda e: f"{e}.rank"),
            inner.map(lambda e: f"hits({e})"),
        )

    return st.recursive(st.sampled_from(ATOMS), extend, max_leaves=12)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expressions(), sections)
def test_well_formed_expressions(text: str, section: str) -> None:
    check(text, section)


def _typed_expressions() -> st.SearchStrategy[str]:
    """Mostly well-typed int and bool expressions, so that evaluation is exercised too."""
    ints = st.recursive(
        st.sampled_from(
            [
                "0",
                "1",
                "7",
                "-3",
                "64",
                "count(tiles)",
                "option.birds",
                "value",
                "hits(payer)",
                "win_tile.rank",
                "payer - dealer",
                "sum(hands, value)",
                "held(win_tile + 1)",
                "(win_tile - 2).rank",
                "count({win_tile + 8, 9s - 1})",
            ]
        ),
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%", "**"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            st.tuples(st.sampled_from(["count", "sum", "product", "max"]), inner).map(
                lambda t: f"{t[0]}(tiles, {t[1].replace('count(tiles)', 'rank')})"
            ),
            st.tuples(inner, inner).map(lambda t: f"sum({t[0]}..{t[1]})"),
        ),
        max_leaves=10,
    )
    bools = st.one_of(
        st.tuples(ints, st.sampled_from(["==", "<", ">=", "in"]), ints).map(
            lambda t: f"{t[0]} {t[1]} {t[2]}" if t[1] != "in" else f"{t[0]} in 1..{t[2]}"
        ),
        ints.map(lambda e: f"all(tiles, rank * {e} >= 0)"),
        ints.map(lambda e: f"standard(pair: rank == {e})"),
    )
    return st.one_of(
        ints,
        bools,
        st.tuples(bools, ints, ints).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
    )


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_typed_expressions())
def test_typed_expressions_evaluate_or_fail_cleanly(text: str) -> None:
    check(text, "payment")
