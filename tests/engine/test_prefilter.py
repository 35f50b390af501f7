"""The cheap necessary conditions of shape-free hand types never rule out a hand that wins."""

from __future__ import annotations

from random import Random

import pytest

from dsl.ruleset import load
from dsl.situation import HandMeld, Situation
from handcore import shapes
from handcore.tiles import STANDARD
from interpreter import prefilter
from interpreter.engine.rules import Rules

RULESETS = ["changsha/basic", "changsha/points20", "changsha/qq2014", "changsha/tutorial"]
CONTEXTS = [(), ("kong_draw",), ("kong_discard",), ("robbing_kong",), ("last_tile",)]


def random_hand(rng: Random):
    """Concealed keys and melds, often drawn from few tiles so that rare hands turn up."""
    pool = list(range(27))
    if rng.random() < 0.5:
        pool = [t for t in pool if t % 9 + 1 in (2, 5, 8)]
    melds: list[HandMeld] = []
    held = [0] * 27
    for _ in range(rng.choice([0, 0, 1, 2, 4])):
        t = rng.choice(pool)
        if held[t] == 0:
            kind = rng.choice(["pung", "kong"])
            held[t] = 3 if kind == "pung" else 4
            melds.append(HandMeld(kind, t, rng.random() < 0.3))
    size = 14 - 3 * len(melds)
    tiles = []
    while len(tiles) < size:
        t = rng.choice(pool)
        if held[t] < 4:
            held[t] += 1
            tiles.append(t)
    return shapes.keys_of(STANDARD.counts(tiles)), tuple(melds), tiles[-1]


@pytest.mark.parametrize("rid", RULESETS)
def test_necessary_conditions_hold_whenever_the_condition_does(rid):
    rules = Rules(load(rid))
    assert rules.unshaped_need is not None
    rng = Random(5)
    holds = 0
    for _ in range(3000):
        keys, melds, tile = random_hand(rng)
        if rules.shape_ok(keys, len(melds)):
            continue
        context = rng.choice(CONTEXTS)
        discarder = None if rng.random() < 0.5 else 1
        situation = Situation(
            keys=keys, melds=melds, win_tile=tile, self_draw=discarder is None,
            discarder=discarder, winner=0, options=rules.options,
            **{c: True for c in context},
        )  # fmt: skip
        may = rules.unshaped_need(prefilter.probe_of_situation(situation))
        for when in rules.shape_free:
            if when(situation):
                holds += 1
                assert may, f"{when.text} holds but its necessary condition fails"
    assert holds > 20  # the test met hands that win without a shape


def test_unknown_parts_are_taken_as_may_hold():
    from dsl.syntax import Call, Literal

    assert prefilter.necessary(Literal(0, 4, "true", True)) is None
    assert prefilter.necessary(Literal(0, 5, "false", False)) == []
    assert prefilter.necessary(Call(0, 4, "held", ())) is None


@pytest.mark.parametrize("rid", [*RULESETS, "changsha/full2007", "sichuan/blog5"])
def test_hand_type_conditions_never_rule_out_a_hand_type_that_holds(rid):
    """Settlement skips a hand type whose cheap necessary condition fails (shaped or not)."""
    from interpreter.settle import _hand_types_of

    ruleset = load(rid)
    conditions = _hand_types_of(ruleset)
    rng = Random(7)
    checked = 0
    for _ in range(1500):
        keys, melds, tile = random_hand(rng)
        context = rng.choice(CONTEXTS)
        discarder = None if rng.random() < 0.5 else 1
        situation = Situation(
            keys=keys, melds=melds, win_tile=tile, self_draw=discarder is None,
            discarder=discarder, winner=0, first_turn=rng.random() < 0.1,
            options=ruleset.option_values, **{c: True for c in context},
        )  # fmt: skip
        probe = prefilter.probe_of_situation(situation)
        shaped = prefilter.has_shape(keys, len(melds))
        for kind in conditions:
            need = kind.shaped_need if shaped else kind.unshaped_need
            if kind.when(situation):
                checked += 1
                assert need is None or need(probe), f"{kind.id} holds but its test fails"
    assert checked > 100


@pytest.mark.parametrize("rid", RULESETS)
def test_a_hand_no_tile_can_make_win_is_one_no_tile_makes_win(rid):
    """``may_win_with_one_more`` false: whatever tile joins the hand, however it is won, no
    shape and no shape-free hand type."""
    rules = Rules(load(rid))
    rng = Random(11)
    ruled_out = 0
    for _ in range(400):
        keys, melds, last = random_hand(rng)
        before = shapes.add_tile(keys, last, -1)
        if rules.may_win_with_one_more(before, melds):
            continue
        ruled_out += 1
        for tile in range(27):
            if shapes.tile_count(before, tile) == 4:
                continue
            after = shapes.add_tile(before, tile)
            assert not rules.shape_ok(after, len(melds))
            for context in CONTEXTS:
                for discarder in (None, 1):
                    situation = Situation(
                        keys=after, melds=melds, win_tile=tile, self_draw=discarder is None,
                        discarder=discarder, winner=0, options=rules.options,
                        **{c: True for c in context},
                    )  # fmt: skip
                    assert not any(when(situation) for when in rules.shape_free)
    assert ruled_out > 50


@pytest.mark.parametrize(
    "rid", ["changsha/qq2014", "sichuan/blog5", "hunan/hongzhong", "house/sichuan_sanren_liangfang"]
)
def test_chances_name_the_tiles_a_shape_wins_on(rid):
    """``Rules.chances``, which the engine asks instead of valuing every discard for every
    hand: its waits are the tiles that make the hand complete or seven pairs (wilds, a
    missing suit and seven pairs included), and when it says no shape-free hand type may
    hold, none does on any other tile."""
    rules = Rules(load(rid))
    ts = rules.tileset
    rng = Random(13)
    ready = 0
    for _ in range(400):
        suit = rng.choice(rules.suits)
        pool = [t for t in rules.hand_tiles if t // 9 == suit or t in rules.wilds]
        if rng.random() < 0.3:  # else mostly one suit, often ready
            pool = list(rules.hand_tiles)
        melds = tuple(
            HandMeld("pung", t, False)
            for t in rng.sample(rules.hand_tiles, rng.choice([0, 0, 1, 2]))
        )
        counts = [0] * ts.kinds
        for m in melds:
            counts[m.tile] = 3
        size = 13 - 3 * len(melds)
        while size:
            t = rng.choice(pool)
            if counts[t] < 4:
                counts[t] += 1
                size -= 1
        for m in melds:
            counts[m.tile] -= 3
        keys = shapes.keys_of(counts, ts)
        waits, unshaped = rules.chances(keys, melds)
        tried = sum(
            1 << t
            for t in rules.hand_tiles
            if counts[t] < 4 and rules.shape_ok(shapes.add_tile(keys, t), len(melds))
        )
        assert waits == tried
        ready += waits != 0
        if unshaped:
            continue
        for t in rules.hand_tiles:
            if counts[t] < 4 and not waits >> t & 1:
                situation = Situation(
                    keys=shapes.add_tile(keys, t), melds=melds, win_tile=t, self_draw=True,
                    winner=0, options=rules.options, tileset=ts,
                )  # fmt: skip
                assert not any(when(situation) for when in rules.shape_free)
    assert ready > 40
