"""Opening hands (起手胡): rigged deals with a known opening hand, for every Changsha ruleset
that has it; the events and payments are checked against the ruleset's rule text."""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from interpreter.engine import replay
from interpreter.opening import find_opening
from interpreter.settle import settle_opening
from tests.engine.helpers import rigged, tiles, tsumogiri

# Hands with no opening hand under any Changsha version: every suit twice or more, 2/5/8
# tiles, no four alike, at most one triplet, no pair in three suits, no three pairs in a row.
PLAIN = {
    1: "457m 258p 369s 2m 5p 8s 3m",
    2: "234m 345p 456s 2s 5m 8p 9m",
    3: "567m 678p 789m 3p 5s 8m 1s",
}
# The dealer's 14 tiles, each with one opening hand (and no other).
OPENING = {
    "sixi": "1111m 9m 258p 36p 258s 4s",  # 四喜: four of a kind
    "banbanhu": "1346799m 136p 4679s",  # 板板胡: no 2, 5 or 8
    "queyise": "123456789m 12345p",  # 缺一色: no 索
    "liuliushun": "111m 357m 222p 46p 258s",  # 六六顺: two triplets
}
# The id each version gives the no-2-5-8 hand.
BANBAN = {"changsha/tutorial": "banbanhe"}
VERSIONS = {
    # ruleset: (payment when the dealer holds it, opening hands it has, settle)
    "changsha/basic": (2 + 1, ("sixi", "banbanhu", "queyise", "liuliushun"), "immediately"),
    "changsha/full2007": (2, ("sixi", "banbanhu", "queyise", "liuliushun"), "immediately"),
    "changsha/hejs": (2, ("sixi", "banbanhu", "queyise"), "immediately"),
    "changsha/points20": (20, ("sixi", "banbanhu", "queyise", "liuliushun"), "immediately"),
    "changsha/qq2014": (2, ("sixi", "banbanhu", "queyise", "liuliushun"), "immediately"),
    "changsha/tutorial": (3, ("sixi", "banbanhu", "queyise", "liuliushun"), "at_end"),
}
CASES = [(rid, hand) for rid, (_, hands, _) in VERSIONS.items() for hand in hands]


def opening_events(game):
    return [e for e in game.events if e["type"] == "opening"]


def deal_payments(game):
    """Payments made before the first decision (opening hands settled immediately)."""
    first_act = next(i for i, e in enumerate(game.events) if e["type"] == "phase")
    return [e for e in game.events[:first_act] if e["type"] == "payment"]


@pytest.mark.parametrize(("rid", "hand"), CASES)
def test_a_dealt_opening_hand_is_found_and_paid(rid, hand):
    ruleset = load(rid, settings=["birds=0"])  # birds apart: see the bird tests
    amount, _, when = VERSIONS[rid]
    game = rigged(ruleset, {0: OPENING[hand], **PLAIN})
    events = opening_events(game)
    assert len(events) == 1, "only the dealer holds an opening hand"
    (event,) = events
    assert event["seat"] == 0 and event["settle"] == when
    assert [h["id"] for h in event["hands"]] == [BANBAN.get(rid, "banbanhu") if
                                                 hand == "banbanhu" else hand]  # fmt: skip
    assert event["birds"] == [] and event["dice"] == [] and event["hits"] == {}
    # The dealer holds it: each 闲 pays the dealer's amount (算小胡/平胡自摸).
    expected = {(payer, 0, amount) for payer in (1, 2, 3)}
    if when == "immediately":
        paid = {(p["from"], p["to"], p["amount"]) for p in deal_payments(game)}
        assert paid == expected and game.deltas == [3 * amount, -amount, -amount, -amount]
    else:  # 倒牌后继续打，待此盘结束后一起结算
        assert deal_payments(game) == [] and game.deltas == [0, 0, 0, 0]
        tsumogiri(game)
        end = next(i for i, e in enumerate(game.events) if e["type"] == "end")
        before_end = [e for e in game.events[:end] if e["type"] == "payment"]
        opening = [p for p in before_end if p["reasons"][0].startswith("opening hand")]
        assert {(p["from"], p["to"], p["amount"]) for p in opening} == expected
    tsumogiri(game)
    assert game.census() == Counter(game.rules.all_tiles)
    assert sum(game.result().deltas) == 0


@pytest.mark.parametrize("rid", list(VERSIONS))
def test_games_with_opening_hands_replay(rid):
    from interpreter.engine import play

    _, events = play(load(rid), 11, "random", hands=12)
    assert any(e["type"] == "opening" for e in events) or rid == "changsha/tutorial"
    assert replay(events).hands == 12


def test_a_player_other_than_the_dealer():
    # qq2014: "算平胡自摸": the dealer pays 2, the other 闲 1 each.
    ruleset = load("changsha/qq2014", settings=["birds=0"])
    plain_dealer = "123m 456p 789s 2m 5p 8s 1p 4m"
    game = rigged(ruleset, {0: plain_dealer, 1: "123456789m 1234p", 2: PLAIN[2],
                            3: PLAIN[3]})  # fmt: skip
    (event,) = opening_events(game)
    assert event["seat"] == 1 and [h["id"] for h in event["hands"]] == ["queyise"]
    paid = {(p["from"], p["to"], p["amount"]) for p in deal_payments(game)}
    assert paid == {(0, 1, 2), (2, 1, 1), (3, 1, 1)}


@pytest.mark.parametrize(("stack", "times"), [("true", 2), ("false", 1)])
def test_several_opening_hands_stack_or_count_once(stack, times):
    # 四喜 and 板板胡 at once: qq2014 stacks them (option opening_stack), or pays once.
    ruleset = load("changsha/qq2014", settings=["birds=0", f"opening_stack={stack}"])
    game = rigged(ruleset, {0: "1111m 3679m 13p 4679s", **PLAIN})
    (event,) = opening_events(game)
    assert [h["id"] for h in event["hands"]] == ["banbanhu", "sixi"]
    paid = {(p["from"], p["to"], p["amount"]) for p in deal_payments(game)}
    assert paid == {(payer, 0, 2 * times) for payer in (1, 2, 3)}


def test_wall_birds_multiply_the_payment():
    # full2007: one bird, the next wall tile (跟鸟); a 1 points at the dealer (1/5/9 庄), so
    # every payer pays the dealer double (×2 per hit on the winner).
    ruleset = load("changsha/full2007")
    game = rigged(ruleset, {0: OPENING["sixi"], **PLAIN}, draws="1s")
    (event,) = opening_events(game)
    assert event["birds"] == ["1s"] and event["hits"] == {"0": 1}
    paid = {(p["from"], p["to"], p["amount"]) for p in deal_payments(game)}
    assert paid == {(payer, 0, 4) for payer in (1, 2, 3)}
    assert game.wall.drawable == 55  # the bird is looked at, not taken
    # A 3 points at the 对家 (seat 2): only seat 2 pays double.
    game = rigged(ruleset, {0: OPENING["sixi"], **PLAIN}, draws="3s")
    paid = {(p["from"], p["to"], p["amount"]) for p in deal_payments(game)}
    assert paid == {(1, 0, 2), (2, 0, 4), (3, 0, 2)}


def test_dice_birds():
    # qq2014: 开骰定鸟 — as many dice as birds; a die of value v counts like a tile of rank v.
    ruleset = load("changsha/qq2014")
    game = rigged(ruleset, {0: OPENING["sixi"], **PLAIN})
    (event,) = opening_events(game)
    assert event["birds"] == [] and len(event["dice"]) == 2
    hits = Counter((0 + d - 1) % 4 for d in event["dice"])
    assert event["hits"] == {str(s): n for s, n in sorted(hits.items())}
    for p in deal_payments(game):
        assert p["amount"] == 2 * 2 ** (hits[0] + hits[p["from"]])


def test_not_allowed_means_nothing_happens():
    ruleset = load("changsha/tutorial", settings=["opening=false"])
    game = rigged(ruleset, {0: OPENING["sixi"], **PLAIN})
    assert opening_events(game) == [] and game.deltas == [0, 0, 0, 0]


def test_settle_opening_is_usable_without_the_engine():
    ruleset = load("changsha/hejs", settings=["birds=0"])
    hands = [tiles(OPENING["banbanhu"]), *(tiles(PLAIN[s]) for s in (1, 2, 3))]
    found = find_opening(ruleset, 0, 4, hands)
    assert [[h.id for h in seat] for seat in found] == [["banbanhu"], [], [], []]
    payments = settle_opening(ruleset, 0, 4, hands)
    assert [(p.payer, p.payee, p.amount) for p in payments] == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    # Birds given as tiles: a 5 points at the dealer.
    with_birds = load("changsha/hejs")
    payments = settle_opening(with_birds, 0, 4, hands, birds=tiles("5p"))
    assert [p.amount for p in payments] == [4, 4, 4]


@pytest.mark.parametrize("rid", ["changsha/qq2014", "changsha/full2007"])
def test_the_cheap_tests_change_no_answer(rid):
    from random import Random

    from dsl.situation import Situation
    from handcore import shapes
    from handcore.tiles import STANDARD

    settings = ["yizhihua=true"] if rid == "changsha/full2007" else []
    ruleset = load(rid, settings=settings)
    types = (ruleset.get("opening_hands") or {})["hands"]
    rng = Random(3)
    wall = [t for t in range(27) for _ in range(4)]
    seen = Counter()
    for deal in range(400):
        rng.shuffle(wall)
        pool = wall if deal % 2 else [t for t in wall if t % 9 + 1 not in (2, 5, 8)]
        hands = [pool[:14], pool[14:27], pool[27:40], pool[40:53]]
        found = find_opening(ruleset, 0, 4, hands)
        for seat, tiles_ in enumerate(hands):
            situation = Situation(keys=shapes.keys_of(STANDARD.counts(tiles_)), opening=True,
                                  winner=seat, options=ruleset.option_values)  # fmt: skip
            direct = [h for h, spec in types.items() if spec["enabled"] and spec["when"](situation)]
            assert [h.id for h in found[seat]] == direct
            seen.update(direct)
    assert len(seen) >= 4


DECLARE = """\
extends: changsha/qq2014
ruleset: {id: house/declare, title: opening hands declared by choice, source: house rule}
choices:
  qishou:
    name: {zh: 起手胡, en: declare the opening hand}
    values: "{true, false}"
    when: seat in opening_winners
    default: true
    source: house rule
opening_hands:
  declared: choice.qishou(winner)
"""


@pytest.mark.parametrize("answer", ["true", "false"])
def test_a_seat_decides_whether_to_declare_its_opening_hand(tmp_path, answer):
    from interpreter.engine import Action

    path = tmp_path / "declare.yaml"
    path.write_text(DECLARE, encoding="utf-8")
    ruleset = load(str(path), settings=["birds=0"])
    game = rigged(ruleset, {0: OPENING["sixi"], **PLAIN})
    # Only the dealer holds one: only the dealer is asked, after the deal, before any payment.
    assert game.phase == "qishou" and game.to_move() == 0 and not opening_events(game)
    game.apply(Action("qishou", option=answer), 0)
    choice = next(e for e in game.events if e["type"] == "choice")
    assert choice == {"type": "choice", "name": "qishou", "values": [answer == "true", True,
                                                                      True, True]}  # fmt: skip
    if answer == "true":
        (event,) = opening_events(game)
        assert event["seat"] == 0 and [h["id"] for h in event["hands"]] == ["sixi"]
        assert game.deltas == [6, -2, -2, -2]  # as when declared at the deal
        assert game.events.index(choice) < game.events.index(event)
    else:
        assert not opening_events(game) and game.deltas == [0, 0, 0, 0]
    assert game.phase == "turn" and game.to_move() == 0
