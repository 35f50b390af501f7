"""Part 4, the exact check: opening-hand (起手胡) rates over engine deals agree with their
exact combinatorial probabilities within 3 standard errors.

The deals come from the engine's dealing code (the same walls a simulation plays); the
conditions are the ruleset's own ``opening_hands`` expressions; the exact values are
counted over the 108-tile multiset in ``exact.py``, without the engine.
``bench/opening_hands.py`` runs the same comparison over a million deals.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from bench.opening_hands import compare, count_opening_hands, opening_conditions
from dsl.ruleset import load
from interpreter.engine import Game
from interpreter.engine.rules import Rules
from interpreter.simulate import dealt_hands
from tests.simulate.exact import EXACT, four_of_a_kind, missing_suit, no_258

RULESET, SETTINGS = "changsha/full2007", ["yizhihua=true"]
DEALS = 20_000


def test_dealt_hands_are_the_engines_deal():
    ruleset = load(RULESET, settings=SETTINGS)
    rules = Rules(ruleset)
    for seed in range(20):
        game = Game(ruleset, seed, seed % 4, rules=rules)
        dealt = [sorted(hand) for hand in dealt_hands(rules, seed, seed % 4)]
        assert dealt == [p.hand() for p in game.players]


def test_the_engines_opening_hands_are_the_ruleset_conditions():
    """interpreter.opening (what the engine pays at the deal) finds what the bench counts."""
    opening = pytest.importorskip("interpreter.opening")
    from dsl.situation import Situation
    from handcore import shapes
    from handcore.tiles import STANDARD

    ruleset = load(RULESET, settings=SETTINGS)
    rules = Rules(ruleset)
    conditions = opening_conditions(ruleset)
    for seed in range(300):
        hands = dealt_hands(rules, seed, seed % 4)
        found = opening.find_opening(ruleset, seed % 4, 4, hands)
        for seat, tiles in enumerate(hands):
            situation = Situation(
                keys=shapes.keys_of(STANDARD.counts(tiles)),
                opening=True,
                winner=seat,
                dealer=seed % 4,
                options=ruleset.option_values,
            )
            mine = {name for name, when in conditions.items() if when(situation)}
            assert {h.id for h in found[seat]} == mine


@pytest.mark.parametrize("n", [13, 14])
def test_counting_agrees_with_closed_forms(n):
    total = comb(108, n)
    assert no_258(n) == Fraction(comb(72, n), total)
    assert missing_suit(n) == Fraction(3 * comb(72, n) - 3 * comb(36, n), total)
    no_quad = sum((-1) ** j * comb(27, j) * comb(108 - 4 * j, n - 4 * j) for j in range(n // 4 + 1))
    assert four_of_a_kind(n) == 1 - Fraction(no_quad, total)


def test_every_opening_hand_of_the_ruleset_has_an_exact_value():
    names = opening_conditions(load(RULESET, settings=SETTINGS))
    assert len(names) >= 4
    assert set(names) <= set(EXACT)


def test_opening_hand_rates_within_three_standard_errors():
    names = list(opening_conditions(load(RULESET, settings=SETTINGS)))
    hits, sizes = count_opening_hands(RULESET, SETTINGS, 1, 0, DEALS)
    assert sizes == {13: DEALS, 14: DEALS}
    rows = compare(hits, sizes, names)
    assert len(rows) == 2 * len(names)
    for size, name, k, n, rate, p, z in rows:
        assert abs(z) < 3, f"{name} ({size} tiles): {k}/{n} = {rate:.5f}, exact {p:.5f}, z={z:.2f}"
