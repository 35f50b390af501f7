"""The bots' light win valuation gives exactly what the full settlement path gives.

For random complete hands (declared melds, seven pairs, and some hands that do not win)
and random facts of the win (self-draw or a discard, seats, the seats still in, a void
suit, a kong draw, the last tile), under every shipped ruleset:
``Valuer.total`` equals ``settle.worth(...).total`` and ``Valuer.win_value`` equals the
sum of the payments to the winner when the record of that one win is settled.  One valuer
per ruleset answers every example, so its caches (by hand types found and by the facts
the ruleset reads, not by the exact hand) are asked with many hands.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl.ruleset import Ruleset, load
from dsl.situation import HandMeld
from handcore import shapes
from handcore.tiles import RANKS, STANDARD
from interpreter.context import build_situation
from interpreter.engine.rules import Rules
from interpreter.hand_record import HandRecord, Win
from interpreter.settle import _NOWHERE, SettlementError, settle, worth
from interpreter.valuation import Valuer, WinFacts, valuer
from tests.agents.test_bots_play import playable

RULESETS = playable()


@cache
def _loaded(rid: str) -> tuple[Ruleset, Valuer, int]:
    ruleset = load(rid)
    return ruleset, valuer(ruleset), Rules(ruleset).players


@st.composite
def wins(draw: st.DrawFn, players: int) -> dict:
    counts = [0] * STANDARD.kinds
    melds: list[HandMeld] = []
    shape = draw(st.sampled_from(("standard", "standard", "standard", "pairs", "any")))
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True))

    def tile() -> int:
        return draw(st.sampled_from(suits)) * RANKS + draw(st.integers(0, RANKS - 1))

    if shape == "pairs":
        for _ in range(7):
            counts[tile()] += 2
    elif shape == "any":
        for _ in range(14):
            counts[tile()] += 1
    else:
        declared = draw(st.integers(0, 4))
        for i in range(4):
            t = tile()
            kind = draw(
                st.sampled_from(("chow", "pung", "kong") if i < declared else ("chow", "pung"))
            )
            if kind == "chow":
                t -= max(0, t % RANKS - (RANKS - 3))
            meld = HandMeld(kind, t, kind == "kong" and draw(st.booleans()))
            for x in meld.tiles:
                counts[x] += 1
            if i < declared:
                melds.append(meld)
        counts[tile()] += 2
    concealed = [t for t in range(STANDARD.kinds) for _ in range(counts[t])]
    for meld in melds:
        for x in meld.tiles:
            concealed.remove(x)
    if max(counts) > 4 or not concealed:
        return draw(st.nothing())
    winner = draw(st.integers(0, players - 1))
    self_draw = draw(st.booleans())
    others = [s for s in range(players) if s != winner]
    discarder = None if self_draw else draw(st.sampled_from(others))
    still = draw(st.lists(st.sampled_from(others), unique=True)) if others else []
    in_game = frozenset({winner, *still, *(() if discarder is None else (discarder,))})
    context = set()
    if draw(st.booleans()):
        context.add(
            "kong_draw" if self_draw else draw(st.sampled_from(("robbing_kong", "kong_discard")))
        )
    if draw(st.booleans()):
        context.add("last_tile")
    if draw(st.integers(0, 3)) == 0:
        context.add("first_turn")
    return {
        "keys": shapes.keys_of(STANDARD.counts(concealed)),
        "melds": tuple(melds),
        "tile": draw(st.sampled_from(concealed)),
        "self_draw": self_draw,
        "winner": winner,
        "discarder": discarder,
        "dealer": draw(st.integers(0, players - 1)),
        "players": players,
        "in_game": in_game,
        "void": draw(st.sampled_from((None, 0, 1, 2))),
        "context": frozenset(context),
    }


def full_path(ruleset: Ruleset, w: dict) -> tuple[int | None, float]:
    """``settle.worth``'s total, and the payments to the winner from settling the win."""
    situation = build_situation(
        keys=w["keys"], melds=w["melds"], win_tile=w["tile"], self_draw=w["self_draw"],
        context=w["context"], winner=w["winner"], discarder=w["discarder"], dealer=w["dealer"],
        players=w["players"], players_in_game=w["in_game"], options=ruleset.option_values,
    )  # fmt: skip
    found = worth(ruleset, situation, w["void"])
    if found is None:
        return None, 0.0
    rest = shapes.counts_of(shapes.add_tile(w["keys"], w["tile"], -1))
    win = Win(w["winner"], tuple(STANDARD.tiles_of(rest)), w["melds"], (w["tile"],),
              w["discarder"], w["context"], _NOWHERE)  # fmt: skip
    record = HandRecord(w["players"], w["dealer"], w["in_game"], wins=(win,))
    try:
        payments = settle(ruleset, record).payments
    except (SettlementError, ValueError):
        return found.total, 0.0
    return found.total, float(sum(p.amount for p in payments if p.payee == w["winner"]))


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_light_value_is_the_settlement_value(rid: str, data: st.DataObject) -> None:
    ruleset, light, players = _loaded(rid)
    w = data.draw(wins(players))
    total, paid = full_path(ruleset, w)
    facts = WinFacts(**{k: w[k] for k in w if k not in ("keys", "melds", "tile")})
    assert light.total(w["keys"], w["melds"], w["tile"], facts) == total
    assert light.win_value(w["keys"], w["melds"], w["tile"], facts) == paid


@pytest.mark.parametrize("rid", ["changsha/qq2014", "sichuan/blog5", "changsha/full2007"])
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_one_hand_won_in_several_ways(rid: str, data: st.DataObject) -> None:
    """The same hand asked with other seats, flags and ways of winning: a key that leaves
    out a fact some hand type reads (天胡 reads the seats on the first turn) would answer
    one of them from another's entry."""
    ruleset, light, players = _loaded(rid)
    w = data.draw(wins(players))
    for _ in range(4):
        other = data.draw(wins(players))
        asked = {**other, "keys": w["keys"], "melds": w["melds"], "tile": w["tile"]}
        total, paid = full_path(ruleset, asked)
        facts = WinFacts(**{k: asked[k] for k in asked if k not in ("keys", "melds", "tile")})
        assert light.total(w["keys"], w["melds"], w["tile"], facts) == total
        assert light.win_value(w["keys"], w["melds"], w["tile"], facts) == paid


def test_keys_leave_out_what_a_flagged_hand_type_alone_reads() -> None:
    """天胡 and 地胡 need ``first_turn``: without it no hand type of qq2014 reads the seats,
    so a hand's types are kept once for every seat; on the first turn, per seat."""
    _, light, _ = _loaded("changsha/qq2014")
    plain = WinFacts(self_draw=False, winner=1, discarder=0, dealer=0)
    moved = plain._replace(winner=2, discarder=3, dealer=3)
    assert light._type_read(plain) == light._type_read(moved)
    first = frozenset({"first_turn"})
    assert light._type_read(plain._replace(context=first)) != light._type_read(
        moved._replace(context=first)
    )


def test_keys_hold_what_the_rules_read() -> None:
    """The caches are keyed by the facts each ruleset's expressions read, found in their
    checked trees: Changsha's hand types read the seats (天胡, 地胡) and how the hand was
    won; one shipped payment reads the hand beyond its hand types: 红中麻将's birds.count
    reads the winner's wilds (无红中加码), so its payments are kept per hand."""
    _, light, _ = _loaded("changsha/qq2014")
    assert {"hand", "self_draw", "winner", "dealer", "discarder", "context"} <= light.type_facts
    assert "in_game" not in light.type_facts  # no hand type of qq2014 asks who is still in
    reading = {rid for rid in RULESETS if _loaded(rid)[1].paid_read_hand}
    assert reading == {"hunan/hongzhong"}
    # What a win pays is kept by the values found in each class unless a payment reads
    # which hand types were found: full2007's does (``hands``), qq2014's and blog5's do not.
    assert _loaded("changsha/full2007")[1].paid_read_ids
    assert not _loaded("changsha/qq2014")[1].paid_read_ids
    assert not _loaded("sichuan/blog5")[1].paid_read_ids
