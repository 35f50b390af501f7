"""The Sichuan house rulesets under rulesets/house/ in play: 血流成河, where a winner keeps
playing and wins again (sichuan_xueliu), and three players on two suits (三人两房,
sichuan_sanren_liangfang).  Their payments are settled in tests/scenarios/house/."""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from interpreter.engine import Game
from interpreter.engine.rules import Rules
from interpreter.scenario import read_scenario_text
from interpreter.settle import SettlementError, settle
from tests.engine.helpers import rigged, tiles
from tests.engine.test_flow_sichuan import drive, hand_ids, payments, when, wins
from tests.engine.test_invariants import checked_game

# Seat 1 waits on 2p and 5p (123m 456m 789m 2345p); the others hold all three suits, which
# 缺一门 never lets win, and discard what they draw.  Seat 1 draws 9m (no win), then 5p, then
# 2p four draws later.
XUELIU_HANDS = {
    0: "1s 4s 7s 2s 5s 8s 3s 6s 9s 1p 4p 7p 1m 4m",
    1: "123m 456m 789m 234p 5p",
    2: "1s 4s 7s 2s 5s 8s 3s 6s 9s 1p 4p 7p 1m",
    3: "1s 4s 7s 2s 5s 8s 3s 6s 9s 2p 8p 7p 1m",
}


def test_a_winner_keeps_playing_and_wins_again_in_xueliu():
    # 血流成河 (RULES.md §4 Sichuan, play mode: winners keep playing): seat 1 self-draws 5p,
    # stays in, and self-draws 2p on the same hand.  Each win is 平胡 1 + 自摸加番 1 + 门清 1 =
    # 3番 (1m, 9m: no 中张) = 6 × 2^2 = 24 from each of the three others.  换三张 and 定缺 are
    # switched off so that the dealt hands stay as rigged.
    ruleset = load("house/sichuan_xueliu", settings=["exchange=false", "dingque=false"])
    game = rigged(ruleset, XUELIU_HANDS, draws="9m 6m 6m 6m 5p 3m 3m 3m 2p", dealer=0)
    drive(game, when(1, "win"), until=lambda g: len(wins(g)) == 1)
    assert not game.is_over() and game.players[1].in_game
    first = len(game.events)
    drive(game, when(1, "win"), until=lambda g: len(wins(g)) == 2)
    one, two = wins(game)
    assert [w["seats"] for w in (one, two)] == [[1], [1]]
    assert one.get("from") is None and two.get("from") is None
    for win in (one, two):
        assert {"pinghu", "zimo", "menqing"} <= hand_ids(win)
    every = [(0, 1, 24), (2, 1, 24), (3, 1, 24)]
    assert [p[:3] for p in payments(game)[:3]] == every
    assert [p[:3] for p in payments(game, first)] == every
    assert not game.is_over() and all(p.in_game for p in game.players)
    drive(game)  # only the end of the wall ends it
    assert game.result().reason == "wall"
    assert sum(game.result().deltas) == 0


def test_xueliu_begins_with_the_exchange_by_a_die_then_the_void_suit():
    # 换三张 (three tiles of one suit, the direction by a die) and then 定缺, both on by
    # default (RULES.md §4 Sichuan: 换三张 … by dice; 定缺 on).
    game = Game(load("house/sichuan_xueliu"), 3, 0)
    assert game.phase == "exchange"
    for seat in range(4):
        legal = game.legal_actions(seat)
        assert legal and all(len({t // 9 for t in tiles(a.option)}) == 1 for a in legal)
        game.apply(legal[0], seat)
    exchange = next(e for e in game.events if e["type"] == "exchange")
    die = exchange["dice"][0]
    assert exchange["direction"] == ("clockwise", "across", "counterclockwise")[(die - 1) // 2]
    assert game.phase == "void"


@pytest.mark.parametrize("removed, kept", [("m", {1, 2}), ("p", {0, 2}), ("s", {0, 1})])
def test_three_players_on_the_two_suits_left(removed, kept):
    # 三人两房 (RULES.md §4 Sichuan: 3 players, two suits, 72 tiles): 14 tiles to the dealer,
    # 13 to each other player, 72 − 40 = 32 left to draw.
    ruleset = load("house/sichuan_sanren_liangfang", settings=[f"removed_suit={removed}"])
    rules = Rules(ruleset)
    assert rules.players == 3 and len(rules.all_tiles) == 72
    assert {t // 9 for t in rules.all_tiles} == kept
    game = Game(ruleset, 5, 2, rules=rules)
    assert sorted(len(p.hand()) for p in game.players) == [13, 13, 14]
    assert game.wall.drawable == 32
    game = checked_game(ruleset, 5, "efficiency")
    assert len(game.result().deltas) == 3
    assert {t // 9 for t in game.census().elements()} == kept


SCENARIO = """
ruleset: house/sichuan_sanren_liangfang
dealer: 0
wins:
- {seat: 1, hand: 123p 456p 789p 234p 55p, win_tile: 5p}
"""


def test_a_hand_for_another_table_is_refused():
    # A scenario written for four seats, or holding a tile of the suit taken out, is not a
    # 三人两房 hand: refused with what is wrong, not settled with a seat that is not there.
    ruleset = load("house/sichuan_sanren_liangfang")
    with pytest.raises(SettlementError, match=r"4 players.*played by 3"):
        settle(ruleset, read_scenario_text(SCENARIO).hand)
    three = read_scenario_text("players: 3\n" + SCENARIO).hand
    assert settle(ruleset, three).deltas == [-24, 48, -24]
    wan = read_scenario_text("players: 3\n" + SCENARIO.replace("123p", "123m")).hand
    with pytest.raises(SettlementError, match=r"6:3: error: the hand of seat 1 holds 1m, 2m, 3m"):
        settle(ruleset, wan)
    assert Counter(settle(load("sichuan/app"), read_scenario_text(SCENARIO).hand).deltas)[-24] == 3
