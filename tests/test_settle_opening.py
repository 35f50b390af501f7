"""Opening hands (起手胡) in scenario files: what is checked, and that they are paid first
and as the engine pays them on the deal (docs/SCENARIO.md, ``opening_hands``)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dsl.ruleset import load
from interpreter.engine.match import play
from interpreter.scenario import ScenarioError, read_scenario_text
from interpreter.settle import SettlementError, settle

REPO = Path(__file__).resolve().parents[1]
MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]
QQ = "ruleset: changsha/qq2014\ndealer: 0\n"
SIXI = "1111m 234m 567m 99s 1s"  # 四喜 and 缺一色, 13 tiles


def problems(text):
    with pytest.raises(ScenarioError) as error:
        read_scenario_text(text, "s.yaml")
    return error.value.format()


def refused(text, ruleset="changsha/qq2014", settings=()):
    scenario = read_scenario_text(text, "s.yaml")
    with pytest.raises(SettlementError) as error:
        settle(load(ruleset, settings=settings), scenario.hand)
    return str(error.value)


def settled(text, settings=()):
    scenario = read_scenario_text(text, "s.yaml")
    return settle(load(scenario.ruleset, settings=[*scenario.settings(), *settings]),
                  scenario.hand)  # fmt: skip


def test_a_seat_out_of_range_is_refused_at_its_place():
    shown = problems(QQ + f'opening_hands:\n  - {{seat: 4, hand: "{SIXI}"}}\n')
    assert "s.yaml:4:12: error: seat 4 is not a seat 0..3" in shown


def test_a_seat_given_twice_bad_notation_and_unknown_keys_are_refused():
    shown = problems(QQ + "opening_hands:\n"
                     f'  - {{seat: 1, hand: "{SIXI}"}}\n'
                     f'  - {{seat: 1, hand: "{SIXI}", win_tile: 1m}}\n'
                     '  - {seat: 2, hand: "123x"}\n'
                     "  - 3\n")  # fmt: skip
    assert "s.yaml:5:5: error: opening_hands: seat 1 is given twice" in shown
    assert "unknown key 'win_tile'" in shown
    assert "s.yaml:6:" in shown  # the tile 123x
    assert "s.yaml:7:5: error: an opening hand is {seat: N, hand: the tiles dealt}" in shown


def test_copies_count_the_deal_apart_from_the_end_of_the_hand():
    # Five 1m among the dealt hands: refused where the count goes over.
    shown = problems(QQ + "opening_hands:\n"
                     f'  - {{seat: 1, hand: "{SIXI}"}}\n'
                     '  - {seat: 2, hand: "1m 234p 567p 789p 369s"}\n')  # fmt: skip
    assert "s.yaml:5:21: error: copy 5 of 1m, counting the opening hands and opening birds" in (
        shown
    )
    one = QQ + f'opening_hands: [{{seat: 1, hand: "{SIXI}"}}]\n'
    assert "s.yaml:4:25: error: copy 5 of 9s" in problems(one + "opening_birds: [9s, 9s, 9s]\n")
    # The same tiles dealt and then won with: two moments of one hand, not five copies.
    read_scenario_text(one + "wins:\n  - {seat: 1, hand: 111m 123m 456m 789s 55s, win_tile: 5s}\n")


def test_opening_birds_need_opening_hands_and_dice_show_1_to_6():
    shown = problems(QQ + "wins:\n  - {seat: 1, hand: 123s 456s 789s 234s 55s, win_tile: 5s}\n"
                     "opening_bird_dice: [2]\nopening_birds: [5m]\n")  # fmt: skip
    assert "s.yaml:5:1: error: opening_bird_dice are the birds of opening hands" in shown
    assert "s.yaml:6:1: error: opening_birds are the birds of opening hands" in shown
    shown = problems(QQ + f'opening_hands: [{{seat: 1, hand: "{SIXI}"}}]\nopening_bird_dice: [7]\n')
    assert "s.yaml:4:21: error: a die shows 1 to 6" in shown


def test_the_number_of_tiles_dealt_is_the_rulesets():
    dealer = refused(QQ + f'opening_hands:\n  - {{seat: 0, hand: "{SIXI}"}}\n')
    assert "s.yaml:4:21: error: opening_hands: 13 tiles; the dealer is dealt 14" in dealer
    other = refused(QQ + f'opening_hands:\n  - {{seat: 1, hand: "{SIXI} 9m"}}\n')
    assert "opening_hands: 14 tiles; seat 1, not the dealer, is dealt 13" in other


def test_a_ruleset_without_opening_hands_or_not_allowing_them_is_refused():
    text = f'ruleset: sichuan/blog5\ndealer: 0\nopening_hands:\n  - {{seat: 1, hand: "{SIXI}"}}\n'
    assert "s.yaml:4:21: error: opening_hands: sichuan/blog5 has no opening hands" in refused(
        text, "sichuan/blog5"
    )
    text = QQ.replace("qq2014", "tutorial") + f'opening_hands: [{{seat: 1, hand: "{SIXI}"}}]\n'
    shown = refused(text, "changsha/tutorial", ["opening=false"])
    assert "opening_hands: changsha/tutorial allows none (opening_hands.allowed)" in shown


def test_a_hand_that_holds_no_opening_hand_is_refused():
    # 2/5/8 held, three suits, no four of a kind, one triplet: nothing under qq2014.
    shown = refused(QQ + 'opening_hands:\n  - {seat: 2, hand: "123m 456p 789s 258m 1p"}\n')
    assert "s.yaml:4:21: error: opening_hands: the hand of seat 2 is no opening hand under " in (
        shown
    )


def test_birds_of_the_other_kind_are_refused():
    text = QQ + f'opening_hands: [{{seat: 1, hand: "{SIXI}"}}]\nopening_birds: [7m]\n'
    shown = refused(text)
    assert "s.yaml:3:33: error: opening_birds: changsha/qq2014 rolls dice for opening" in shown
    assert "(opening_hands.birds: dice)" in shown
    text = text.replace("qq2014", "full2007").replace("birds: [7m]", "bird_dice: [1]")
    shown = refused(text, "changsha/full2007")
    assert "opening_bird_dice: changsha/full2007 turns wall tiles for opening hands" in shown


def test_stacking_follows_the_option():
    text = QQ + f'opening_hands: [{{seat: 1, hand: "{SIXI}"}}]\n'
    assert settled(text).deltas == [-4, 8, -2, -2]  # 庄 2, 闲 1, twice
    assert settled(text, ["opening_stack=false"]).deltas == [-2, 4, -1, -1]


def test_opening_payments_come_first_with_their_own_birds():
    """The win's birds and the opening dice are apart: each pays by its own."""
    text = (QQ + f'opening_hands: [{{seat: 1, hand: "{SIXI}"}}]\nopening_bird_dice: [3, 3]\n'
            "wins:\n  - {seat: 2, hand: 234m 567m 345p 678s 55s, win_tile: 5s, from: 0}\n"
            "birds: [4m, 8m]\n")  # fmt: skip
    result = settled(text)
    first = [(p.payer, p.payee, p.amount) for p in result.payments[:3]]
    # Two dice on 对家 C (seat 2): C pays ×4, the others ×1; stacked twice.
    assert first == [(0, 1, 4), (2, 1, 8), (3, 1, 2)]
    assert all(p.reasons[0].startswith("opening hand") for p in result.payments[:3])
    # The win: C (seat 2) on the dealer's discard, 平胡 2 (庄 1), birds 4 and 8 on D: no hit.
    assert [(p.payer, p.payee, p.amount) for p in result.payments[3:]] == [(0, 2, 2)]
    assert result.bird_hits == {3: 2}
    assert [(o.seat, o.bird_hits) for o in result.opening] == [(1, {2: 2})]


def test_settle_prints_and_writes_json_for_them(tmp_path):
    path = tmp_path / "open.yaml"
    path.write_text(QQ + f'opening_hands: [{{seat: 1, hand: "{SIXI}"}}]\nopening_bird_dice: [2]\n',
                    encoding="utf-8")  # fmt: skip
    text = subprocess.run([*MJRULES, "settle", str(path)], capture_output=True, text=True,
                          timeout=60, cwd=REPO)  # fmt: skip
    assert text.returncode == 0, text.stderr
    assert "opening   南1: 四喜 1, 缺一色 1; birds 南1 ×1\n" in text.stdout
    data = json.loads(subprocess.run([*MJRULES, "settle", str(path), "--json"],
                                     capture_output=True, text=True, timeout=60,
                                     cwd=REPO).stdout)  # fmt: skip
    assert data["opening_hands"] == [{
        "seat": 1,
        "hands": [{"id": "sixi", "name": "四喜", "value": 1},
                  {"id": "queyise", "name": "缺一色", "value": 1}],
        "birds": {"1": 1},
    }]  # fmt: skip
    assert data["deltas"] == [-8, 16, -4, -4]
    path.write_text(QQ + "opening_hands: [{seat: 0, hand: 123m}]\n", encoding="utf-8")
    bad = subprocess.run([*MJRULES, "settle", str(path)], capture_output=True, text=True,
                         timeout=60, cwd=REPO)  # fmt: skip
    assert bad.returncode == 1
    assert f"{path}:3:33: error: opening_hands: 3 tiles; the dealer is dealt 14" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_scenario_pays_what_the_engine_paid_on_the_deal():
    """The opening hands of a dealt hand, written as a scenario, settle to the payments the
    engine made at the deal."""
    rules = load("changsha/qq2014")
    for seed in range(1, 40):
        _, events = play(rules, seed, "efficiency", hands=1)
        kinds = [e["type"] for e in events]
        if "opening" in kinds:
            break
    else:
        pytest.fail("no opening hand in 39 deals")
    start = events[0]
    dealt = next(e for e in events if e["type"] == "deal")["hands"]
    opened = [e for e in events if e["type"] == "opening"]
    at = kinds.index("opening") + len(opened)
    paid = []
    while events[at]["type"] == "payment" and events[at]["reasons"][0].startswith("opening"):
        paid.append((events[at]["from"], events[at]["to"], events[at]["amount"]))
        at += 1
    hands = "".join(f'  - {{seat: {e["seat"]}, hand: "{dealt[e["seat"]]}"}}\n' for e in opened)
    text = (f"ruleset: changsha/qq2014\ndealer: {start['dealer']}\nopening_hands:\n{hands}"
            f"opening_bird_dice: {opened[0]['dice']}\n")  # fmt: skip
    result = settled(text)
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == paid
    assert [[h.id for h in o.hands] for o in result.opening] == [
        [h["id"] for h in e["hands"]] for e in opened
    ]
