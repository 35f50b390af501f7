"""House rules written with the table facts of docs/DSL.md §6, settled from scenarios in the
tests/scenarios format (docs/SCENARIO.md): 胡几奖几 and 159中鸟 (the winning tile at bird
time, a bird on ``nobody``), 一鸟全中 (``bird_tiles``), 卡二条 (``wait_shapes``), 绝张
(``visible``), 点杠花算点炮 (``kong_provider``), a payment to ready seats only
(``ready_seats``), kong money only for 摸杠 (``kong_from_draw``).  Each rule is a house rule
over a shipped ruleset, as an author would write it."""

from __future__ import annotations

import pytest

from dsl.ruleset import load
from interpreter.scenario import read_scenario_text
from interpreter.settle import settle


def house(tmp_path, parent: str, body: str, *settings: str):
    path = tmp_path / "house.yaml"
    path.write_text(
        f"extends: {parent}\nruleset: {{id: t/house, title: {{zh: 家规, en: house}}}}\n{body}",
        encoding="utf-8",
    )
    return load(str(path), settings=settings)


def settled(ruleset, text: str):
    return settle(ruleset, read_scenario_text(f"ruleset: t/house\n{text}").hand)


def paid(result) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in result.payments]


def found(result) -> set[str]:
    return {h.id for w in result.wins for h in w.hands}


WIN_ON_3P = """dealer: 0
wins:
- {seat: 1, hand: 123m 456m 789m 345p 55s, win_tile: 3p, from: 2}
"""
"""A small win (2/5/8 pair) of seat 1 on seat 2's 3p: changsha/basic pays 1 (闲 to 闲)."""


def test_as_many_birds_as_the_winning_tile_and_only_1_5_9_hit(tmp_path):
    """胡几奖几: the winning tile's rank is the number of birds (``win_tile`` in
    ``birds.count``); 159中鸟: a bird of rank 1, 5 or 9 hits the winner, any other no one
    (``nobody``); each hit adds one to the payment's multiplier."""
    body = """birds:
  count: win_tile.rank
  seat: if tile.rank in {1, 5, 9} then winner else nobody
  multiplier: 1 + hits(winner)
"""
    rules = house(tmp_path, "changsha/basic", body)
    result = settled(rules, WIN_ON_3P + "birds: [1m, 6p, 9s, 5m]\n")
    assert dict(result.bird_hits) == {1: 2}  # 1m and 9s of the first three; 5m is not drawn
    assert paid(result) == [(2, 1, 3)]
    none = settled(rules, WIN_ON_3P + "birds: [2m, 6p, 8s]\n")
    assert dict(none.bird_hits) == {} and paid(none) == [(2, 1, 1)]


def test_one_bird_counts_as_many_as_its_rank(tmp_path):
    """一鸟全中: one bird, worth its rank (``bird_tiles`` in ``birds.multiplier``)."""
    body = "birds:\n  count: 1\n  multiplier: 1 + sum(bird_tiles, rank)\n"
    rules = house(tmp_path, "changsha/basic", body)
    assert paid(settled(rules, WIN_ON_3P + "birds: [7s, 9s]\n")) == [(2, 1, 8)]


KA_ER_TIAO = """hands:
  kaertiao:
    name: {zh: 卡二条, en: closed wait on 2s}
    class: big
    when: win_tile == 2s and closed in wait_shapes
    source: house rule
  juezhang:
    name: {zh: 绝张, en: the last copy}
    class: big
    when: visible(win_tile) == 3 and standard()
    source: house rule
"""


@pytest.mark.parametrize(
    ("hand", "visible", "expected"),
    [
        ("123m 456m 789m 13s 55p", "", {"pinghu", "kaertiao"}),
        ("123m 456m 789m 13s 55p", "visible: [2s, 2s, 2s]\n", {"pinghu", "kaertiao", "juezhang"}),
        ("123m 456m 789m 34s 55p", "visible: [2s, 2s]\n", {"pinghu"}),  # 34s: two-sided
        ("123m 456m 789m 34s 55p", "visible: [2s, 2s, 2s]\n", {"pinghu", "juezhang"}),
    ],
)
def test_ka_er_tiao_and_jue_zhang(tmp_path, hand, visible, expected):
    """卡二条: won on 2s as a closed wait (``wait_shapes``); 绝张: won on the last copy, the other
    three face up on the table (``visible``).  Two big hands add up under changsha/basic."""
    rules = house(tmp_path, "changsha/basic", KA_ER_TIAO)
    text = f"dealer: 0\nwins:\n- {{seat: 1, hand: {hand} 2s, win_tile: 2s, from: 2}}\n{visible}"
    result = settled(rules, text)
    assert found(result) == expected
    big = len(expected) - 1
    assert paid(result) == [(2, 1, 6 * big if big else 1)]


def test_the_kong_feeder_pays_alone(tmp_path):
    """点杠花算点炮: a 杠上花 after a kong on seat 3's discard (``kong_provider: 3``) is paid by
    seat 3 alone, still scored as a self-draw."""
    body = (
        "payment:\n  payers: |\n    if kong_draw and kong_provider != nobody then {kong_provider}\n"
        "    else if self_draw then others else {discarder}\n"
    )
    rules = house(tmp_path, "sichuan/app", body)
    text = """dealer: 0
wins:
- {seat: 1, hand: 123s 456s 789s 2s 2s, melds: [kong 5555m], win_tile: 2s, context: [kong_draw]}
kong_provider: 3
"""
    result = settled(rules, text)
    assert [payer for payer, _, _ in paid(result)] == [3]
    everyone = settled(rules, text.replace("kong_provider: 3\n", ""))
    assert [payer for payer, _, _ in paid(everyone)] == [0, 2, 3]


def test_a_flower_pig_pays_ready_seats_double(tmp_path):
    """``ready_seats`` at the end of the wall: a 花猪 pays a ready player twice what it pays
    one who is not ready (a house rule)."""
    body = "format: 2\npayments:\n  flower_pig: {amount: if payee in ready_seats then 2 else 1}\n"
    rules = house(tmp_path, "sichuan/blog5", body, "huazhu=true")
    text = """dealer: 0
unfinished:
- {seat: 0, hand: 123p 456p 789s 11p 5m 4s}
- {seat: 1, hand: 123m 456m 789m 234s 5s}
- {seat: 2, hand: 113m 456m 789m 147s 9s}
"""
    result = settled(rules, text)
    pig = [(p.payer, p.payee, p.amount) for p in result.payments if p.reasons[0].startswith("花猪")]
    assert pig == [(0, 1, 2), (0, 2, 1)]


@pytest.mark.parametrize("drawn", [True, False])
def test_kong_money_only_for_a_kong_of_the_tile_just_drawn(tmp_path, drawn):
    """``kong_from_draw``: 面下杠 with the tile just drawn pays, 回头杠 does not (``drawn`` in a
    scenario's kong)."""
    body = "format: 2\npayments:\n  mianxiagang: {amount: if kong_from_draw then 1 else 0}\n"
    rules = house(tmp_path, "sichuan/blog5", body)
    text = f"""dealer: 0
wins:
- {{seat: 2, hand: 123p 456p 789p 11s 222s, win_tile: 2s, from: 3}}
kongs:
- {{seat: 1, kind: added, drawn: {str(drawn).lower()}}}
"""
    kong_money = [p for p in paid(settled(rules, text)) if p[1] == 1]
    assert kong_money == ([(0, 1, 1), (2, 1, 1), (3, 1, 1)] if drawn else [])


def test_the_check_settles_birds_read_from_the_winning_tile(tmp_path):
    """``mjrules check`` works out payments with birds counted from the winning tile, and
    kong money with no win (no birds), without failing."""
    from interpreter.check import check

    body = """birds:
  count: win_tile.rank
  seat: if tile.rank in {1, 5, 9} then winner else nobody
  multiplier: 1 + hits(winner)
"""
    house(tmp_path, "changsha/basic", body)
    report = check(str(tmp_path / "house.yaml"), hands=(100, 40))
    assert not [f.format() for f in report.findings if f.severity == "error"]


def test_a_combined_value_reading_how_the_hand_was_won_is_worked_out_for_each_win(tmp_path):
    """``scoring.value`` is remembered by the hand types found when it reads nothing else;
    one that reads ``self_draw`` must still give the same hand types two values."""
    body = """scoring:
  value: >-
    (if count(big) > 0 then sum(big, value) else max(small, value))
    + (if self_draw then 10 else 0)
"""
    rules = house(tmp_path, "changsha/basic", body)
    hand = "dealer: 0\nwins:\n- {seat: 1, hand: 123m 456m 789m 345p 55s, win_tile: 3p%s}\n"
    on_discard = settled(rules, hand % ", from: 2")
    drawn = settled(rules, hand % "")
    assert [w.total for w in on_discard.wins] == [1]
    assert [w.total for w in drawn.wins] == [11]
    assert settled(rules, hand % ", from: 3").wins[0].total == 1  # and again on a discard
