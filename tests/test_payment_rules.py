"""Payment rules and adjustments written by an author: each moment fires, stakes and caps
change every payment, kong money is taken up once (moved on, or returned on 杠上炮)."""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from dsl.ruleset import load
from interpreter.engine import play
from interpreter.hand_record import Kong
from interpreter.opening import find_opening
from interpreter.scenario import read_scenario, read_scenario_text
from interpreter.settle import settle, settle_opening

REPO = Path(__file__).resolve().parents[1]
HEAD = "ruleset: {id: house/x, title: x, region: house, source: house rule}\n"


@pytest.fixture
def house(tmp_path: Path):
    root = tmp_path / "rulesets"
    shutil.copytree(REPO / "rulesets", root)

    def write(parent: str, body: str, *settings: str):
        (root / "house").mkdir(exist_ok=True)
        (root / "house" / "x.yaml").write_text(f"extends: {parent}\n{HEAD}{body}", "utf-8")
        return load("house/x", root=root, settings=list(settings))

    return write


STAKE = """\
adjustments:
  zuopiao:
    name: {zh: 坐飘, en: dealer stake}
    amount: amount + (if dealer in {payer, payee} then 2 else 0)
    source: house rule
"""

# Seat 2 wins on seat 1's discard right after seat 1's direct kong on seat 3's tile.
KONG_DISCARD = """\
ruleset: sichuan/blog5
dealer: 0
wins:
  - seat: 2
    hand: "123m 456m 789m 234p 55p"
    win_tile: 5p
    from: 1
    context: [kong_discard]
"""


def triples(payments):
    return [(p.payer, p.payee, p.amount, p.reasons[-1]) for p in payments]


def test_a_stake_is_added_to_every_payment_the_dealer_makes_or_receives(house) -> None:
    drawn = read_scenario(REPO / "docs" / "scenarios" / "blog5-drawn-end.yaml").hand
    plain = settle(load("sichuan/blog5"), drawn)
    staked = settle(house("sichuan/blog5", STAKE), drawn)
    assert len(plain.payments) == len(staked.payments)
    for a, b in zip(plain.payments, staked.payments, strict=True):
        dealer = 0 in (a.payer, a.payee)
        moved = a.reasons[0].startswith("退税")  # returned money was staked when paid
        assert b.amount == a.amount + (2 if dealer else 0), b
        assert (b.reasons[-1] == "坐飘 +2") == (dealer and not moved)
    # Seat 0, the dealer, paid 2 for each of two 下雨 and gets 2 + 2 back: the refund of
    # seat 3's kong returns what seat 0 paid, stake included.
    assert ((0, 3, 4, "坐飘 +2") in triples(staked.payments)) and (
        (3, 0, 4, "退税: kong money returned") in triples(staked.payments)
    )


def test_a_cap_on_win_payments_only(house) -> None:
    cap = "adjustments:\n  cap:\n    at: [win]\n    amount: 'if amount > 3 then 3 else amount'\n"
    rules = house("sichuan/blog5", cap + "    source: house rule\n", "zimo=jiadi")
    text = """\
ruleset: sichuan/blog5
dealer: 0
wins: [{seat: 1, hand: "111m 222m 333m 444m 55m", win_tile: 5m}]
kongs: [{seat: 1, kind: concealed}]
"""
    result = settle(rules, read_scenario_text(text).hand)
    wins = [p for p in result.payments if "(concealed kong)" not in p.reasons[0]]
    kongs = [p for p in result.payments if "(concealed kong)" in p.reasons[0]]
    assert wins and all(p.amount == 3 and p.reasons[-1].startswith("cap -") for p in wins)
    assert [p.amount for p in kongs] == [2, 2, 2]  # kong money is not capped


def test_kong_money_goes_back_to_its_payers_on_a_win_on_the_kong_discard(house) -> None:
    refund = """\
payments:
  gangshangpao_refund:
    name: {zh: 杠上炮退杠钱, en: kong money returned on a win on the kong's discard}
    at: win
    over: kong
    when: kong_discard and not self_draw and paid_to == discarder
    payers: "{paid_to}"
    payees: "{paid_by}"
    amount: paid_amount
    source: house rule
"""
    scenario = read_scenario_text(KONG_DISCARD).hand
    scenario = replace(scenario, paid_kongs=(Kong(1, "concealed", None),))
    result = settle(house("sichuan/blog5", refund, "transfer=false"), scenario)
    back = [(p.payer, p.payee, p.amount) for p in result.payments if p.reasons[0][0] == "杠"]
    assert back == [(1, 0, 2), (1, 2, 2), (1, 3, 2)]  # each 下雨 payer gets its 2 back
    assert result.taken == 3
    # With 呼叫转移 on, the rule before it takes the money first: nothing is left to return.
    result = settle(house("sichuan/blog5", refund, "transfer=true"), scenario)
    assert triples(result.payments)[-1] == (1, 2, 6, "kong money transferred")
    assert not [p for p in result.payments if p.reasons[0][0] == "杠"]


def test_a_win_on_one_discard_by_two_moves_the_money_to_each(house) -> None:
    text = KONG_DISCARD + '  - {seat: 3, hand: "123s 456s 789s 234p 55p", win_tile: 5p, from: 1}\n'
    text = text.replace("win_tile: 5p, from: 1}", "win_tile: 5p, from: 1, context: [kong_discard]}")
    scenario = replace(read_scenario_text(text).hand, paid_kongs=(Kong(1, "direct", 0),))
    result = settle(load("sichuan/blog5", settings=["transfer=true"]), scenario)
    moved = [(p.payer, p.payee, p.amount) for p in result.payments if "transferred" in p.reasons[0]]
    assert moved == [(1, 2, 2), (1, 3, 2)]  # as before payment rules: each winner sees it


def test_only_the_money_of_the_last_kong_moves_to_the_winner() -> None:
    """The engine passes earlier kongs as paid, the kong of the discard last: 刚才所杠牌所得."""
    earlier, just_made = Kong(1, "direct", 3), Kong(1, "concealed", None)
    scenario = replace(read_scenario_text(KONG_DISCARD).hand, paid_kongs=(earlier, just_made))
    result = settle(load("sichuan/blog5", settings=["transfer=true"]), scenario)
    moved = [(p.payer, p.payee, p.amount) for p in result.payments if "transferred" in p.reasons[0]]
    assert moved == [(1, 2, 6)]  # 下雨 2 from each of the three, not the 直杠's 2 from seat 3
    assert result.taken_kongs == (just_made,)


def test_a_rule_at_the_end_of_the_hand_fires_in_play(house) -> None:
    fee = """\
payments:
  fee:
    name: {zh: 台费, en: table fee}
    at: hand_end
    payers: seats_where(players_in_game, it not in winners)
    payees: winners
    amount: 1
    source: house rule
"""
    rules = house("sichuan/points", fee)
    _, events = play(rules, 3, "simple", hands=6)
    ends = [i for i, e in enumerate(events) if e["type"] == "end"]
    fees = [e for e in events if e["type"] == "payment" and e["reasons"] == ["台费"]]
    assert fees
    for i in ends:  # the fees come right before the hand's end, one per loser and winner
        end = events[i]
        paid = []
        j = i - 1
        while events[j]["type"] == "payment" and events[j]["reasons"] == ["台费"]:
            paid.append((events[j]["from"], events[j]["to"]))
            j -= 1
        losers = {0, 1, 2, 3} - set(end["winners"])
        assert sorted(paid) == sorted((a, b) for a in losers for b in set(end["winners"]))


def test_a_rule_at_an_opening_hand_pays_with_it(house) -> None:
    extra = """\
payments:
  bonus:
    name: {zh: 起手奖, en: opening bonus}
    at: opening_hand
    payers: "{dealer}"
    payees: "{winner}"
    amount: 5
    source: house rule
"""
    rules = house("changsha/qq2014", extra)
    wall = [t for t in range(27) for _ in range(4) if t != 0]
    random.Random(1).shuffle(wall)
    hands = [wall[:14], [0, 0, 0, 0, *wall[14:23]], wall[23:36], wall[36:49]]  # seat 1: 四喜
    found = find_opening(rules, 0, 4, hands)
    paid = settle_opening(rules, 0, 4, hands, found=found)
    bonus = [(p.payer, p.payee, p.amount) for p in paid if p.reasons == ("起手奖",)]
    assert (0, 1, 5) in bonus
    assert bonus == [(0, seat, 5) for seat in range(1, 4) if found[seat]]


def test_an_opening_hand_payment_is_adjusted_like_every_payment(house) -> None:
    rules = house("changsha/qq2014", STAKE)
    plain = load("changsha/qq2014")
    wall = [t for t in range(27) for _ in range(4) if t != 0]
    random.Random(1).shuffle(wall)
    hands = [wall[:14], [0, 0, 0, 0, *wall[14:23]], wall[23:36], wall[36:49]]  # seat 1: 四喜
    before = settle_opening(plain, 0, 4, hands)
    after = settle_opening(rules, 0, 4, hands)
    assert before and len(before) == len(after)
    for a, b in zip(before, after, strict=True):
        dealer = 0 in (a.payer, a.payee)
        assert b.amount == a.amount + (2 if dealer else 0)
        assert (b.reasons[-1] == "坐飘 +2") == dealer
    assert any(0 in (p.payer, p.payee) for p in after)


def test_the_kongs_whose_money_is_taken_are_listed_in_the_order_made() -> None:
    """退税 returns every kong of a seat not ready; the settlement lists them as they were made
    (not in the order of their payments' ids, which is the memory's: a played hand's result
    would differ from run to run)."""
    drawn = read_scenario(REPO / "docs" / "scenarios" / "blog5-drawn-end.yaml").hand
    made = tuple(
        Kong(3, kind, provider)
        for kind, provider in [("direct", 0), ("concealed", None), ("direct", 1), ("added", None),
                               ("direct", 2), ("concealed", None)]
    )  # fmt: skip
    result = settle(load("sichuan/blog5"), replace(drawn, kongs=(), paid_kongs=made))
    assert result.taken == 3 * 1 + 3 * 3  # a direct kong's provider pays; three pay the others
    assert [id(k) for k in result.taken_kongs] == [id(k) for k in made]
