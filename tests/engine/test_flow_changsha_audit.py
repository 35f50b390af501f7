"""The Changsha flow audit (docs/FLOW.md): the play-flow rules the engine already follows, each
shown on a scripted position.  Line numbers are those of ``cat -n`` of the seed files;
F0 = 000_825dba35fdb6fcc9.txt, F1 = 001_76942f0387627e0c.txt, F2 = 002_c4a44432eae6dd73.txt,
F3 = 003_ae78847060e89682.txt."""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from interpreter.engine import Action, Game
from interpreter.engine.wall import Wall
from tests.engine.helpers import next_dice, place_stack, rigged, tile, tsumogiri

PASS = Action("pass")
CHANGSHA = [
    "changsha/qq2014",
    "changsha/full2007",
    "changsha/basic",
    "changsha/points20",
    "changsha/hejs",
    "changsha/tutorial",
]
ONE_TILE_KAIGANG = ["changsha/full2007", "changsha/points20", "changsha/hejs"]
# What each version calls a hand (the ids differ between the files).
GANGSHANGHUA = {"changsha/hejs": "gangshanghua", "changsha/tutorial": "gangshanghua"}
QIANGGANG = {"changsha/basic": "qiangganghu", "changsha/points20": "qiangganghu",
             "changsha/hejs": "qiangganghu"}  # fmt: skip
KONG_DISCARD_WIN = {
    "changsha/qq2014": "qianggang", "changsha/full2007": "qianggang",
    "changsha/basic": "gangshangpao", "changsha/points20": "gangshangpao",
    "changsha/hejs": "qiangganghu", "changsha/tutorial": "gangshangpao",
}  # fmt: skip
ROBBED_LAST = {"changsha/full2007": "qianghaidi"}  # the others: haidipao
READY = "5555m 123p 456p 789s 2s"  # the dealer: a quad, ready on 2s with a 2/5/8 pair


def ruleset(rid, *settings):
    return load(rid, settings=list(settings))


def step(game, choose=None):
    """The seat to move acts: ``choose(game, seat, legal)`` may pick; else it passes, or
    discards its draw (any tile after a claim)."""
    seat = game.to_move()
    legal = game.legal_actions(seat)
    action = choose(game, seat, legal) if choose else None
    if action is None:
        if PASS in legal:
            action = PASS
        elif Action("discard", game.drawn) in legal:
            action = Action("discard", game.drawn)
        else:
            action = next(a for a in legal if a.kind == "discard")
    game.apply(action, seat)


def drive(game, until, choose=None):
    while not game.is_over() and not until(game):
        step(game, choose)


def hand_ids(win):
    return {h["id"] for w in win["hands"] for h in w["hands"]}


def last_event(game, kind):
    return [e for e in game.events if e["type"] == kind][-1]


def win_payments(game):
    """(payer, payee) of the settlement of the (last) win."""
    settlement = [s for s in game.settlements if s.wins][-1]
    return {(p.payer, p.payee) for p in settlement.payments}


def kong_options(game, seat):
    return {(a.tile, a.option) for a in game.legal_actions(seat) if a.kind == "kong"}


# --- the deal ------------------------------------------------------------------------------


@pytest.mark.parametrize("rid", CHANGSHA)
def test_the_dealer_gets_14_tiles_the_others_13_and_the_dealer_discards_first(rid):
    """F0 5 「共一百零八张」, F0 13 「庄家先摸牌，起张庄家14张牌，闲家13张牌」, F0 15 「庄家先出牌」,
    F0 17 「一百零八张牌允许全部摸完」, F1 79, F0 83, F0 293, F2 15, F3 7, F3 15."""
    game = Game(ruleset(rid), 7, dealer=2)
    assert len(game.rules.all_tiles) == 108 and len(set(game.rules.all_tiles)) == 27
    assert [len(p.hand()) for p in game.players] == [13, 13, 14, 13]
    assert game.phase == "turn" and game.to_move() == 2
    assert game.wall.drawable == 108 - 53  # no dead wall: every tile may be drawn


class _Dice:
    """A stand-in for the game's random source: no shuffle, and the dice it is given."""

    def __init__(self, *dice):
        self.dice = list(dice)

    def shuffle(self, order):
        pass

    def randint(self, low, high):
        return self.dice.pop(0)


@pytest.mark.parametrize(("dice", "wall", "left"), [((3, 5), 3, 3), ((1, 1), 1, 1)])
def test_the_opening_dice_pick_the_wall_by_their_total_and_the_stack_by_the_smaller_die(
    dice, wall, left
):
    """F0 303 「两粒骰的点数相加总数决定取牌的方位，点数较小的骰的数字决定开牌的墩数」; F0 305 例<1>
    「骰子为3、5 … 庄家从上家的牌墙处开牌。小点数为3，即留3墩，庄家从第4墩起开始拿牌」; F0 309 例<2>
    「骰子为1、1 … 从下家的牌墙处开牌 … 留1墩」; F1 87 「开小骰」; F3 13–15."""
    built = Wall.built(list(range(108)), _Dice(*dice), 4)  # tile k marks position k
    per_wall = 54 // 4  # stacks in front of each player, counted from the dealer
    first_stack = wall * per_wall + left
    assert built.dice == dice and built.tiles[0] == 2 * first_stack


# --- claims --------------------------------------------------------------------------------


@pytest.mark.parametrize("rid", CHANGSHA)
def test_only_the_discarders_next_player_may_chow(rid):
    """F0 17 「其余的人都能碰和杠，但只有下家能吃」; F0 83 「庄家的下家 … 有权力吃或碰那张牌，其它两家
    则只可碰或杠」; F1 94 「如果是下家即可吃」; F3 17 「可以与上手打的牌组成连续递增的三张牌时，可以吃」."""
    game = rigged(
        ruleset(rid),
        {
            0: "3p 111m 999m 456s 789s 5m",
            1: "12p 234m 567m 88s 369s",
            2: "45p 12p 345m 678m 99s 1s",
            3: "24p 678s 234s 66m 5s 7s 9m",
        },
    )
    game.apply(Action("discard", tile("3p")), 0)
    assert game.phase == "claim" and set(game.round.options) == {1}
    assert {a.kind for a in game.round.options[1]} == {"chow", "pass"}


@pytest.mark.parametrize("rid", CHANGSHA)
def test_any_seat_may_pung_or_kong_and_a_pung_beats_a_chow(rid):
    """F0 17 「其余的人都能碰和杠 …“杠”、“碰”优先于“吃”」; F0 83 「“碰”比“吃”优先」; F1 95 「碰杠方优先」;
    F3 17 「“碰”优先于“吃”」.  The 上家 of the discarder (the farthest seat) pungs over the
    下家's chow."""
    game = rigged(
        ruleset(rid),
        {
            0: "3p 111m 999m 456s 789s 5m",
            1: "12p 234m 567m 88s 369s",
            3: "333p 678s 234s 66m 5s 9m",
        },
    )
    game.apply(Action("discard", tile("3p")), 0)
    assert {a.kind for a in game.round.options[3]} >= {"pung", "kong"}
    game.apply(next(a for a in game.legal_actions(1) if a.kind == "chow"), 1)
    game.apply(Action("pung", tile("3p")), 3)
    claim = last_event(game, "claim")
    assert (claim["seat"], claim["kind"], claim["from"]) == (3, "pung", 0)
    assert game.phase == "turn" and game.to_move() == 3


@pytest.mark.parametrize("rid", CHANGSHA)
def test_a_win_beats_a_kong_on_the_same_discard_and_the_discarder_pays(rid):
    """F1 102 「玩家A手中有三张相同的牌，玩家B打出第四张，这时A补张，C宣布胡补张的牌，算B放炮；如果A想
    开杠，但C在A还未拿骰 … 就报和牌，也算B放炮，不算抢杠」; F0 327, F0 333 (the same)."""
    game = rigged(
        ruleset(rid, "birds=0"),
        {
            0: "8s 111m 999m 456p 789p 4m",
            1: "888s 234m 567m 23p 9s 7s",
            2: "123m 456m 789m 55p 67s",
        },
    )
    game.apply(Action("discard", tile("8s")), 0)
    assert (tile("8s"), "buzhang") in {(a.tile, a.option) for a in game.round.options[1]}
    game.apply(Action("kong", tile("8s"), "buzhang"), 1)
    game.apply(Action("win", tile("8s")), 2)
    win = last_event(game, "win")
    assert win["seats"] == [2] and win["from"] == 0 and "robbing_kong" not in win["context"]
    assert not [e for e in game.events if e["type"] == "kong"]
    assert win_payments(game) == {(0, 2)}


# Seat 1 discards the 8s it draws; seats 2 and 3 both wait on it.
SEVERAL = {
    0: "111p 333p 999s 123s 4m 9m",
    1: "11m 22m 44p 66p 88p 99m 2s",
    2: "123m 456m 789m 55p 67s",
    3: "234m 567m 789p 55s 67s",
}
# Who deals next after a win on seat 1's discard (the dealer is seat 0).
NEXT_AFTER_SEVERAL = {"changsha/basic": 2, "changsha/hejs": 2}  # the others: the discarder


@pytest.mark.parametrize("rid", CHANGSHA)
@pytest.mark.parametrize("winners", [(2,), (2, 3)])
def test_one_discard_may_make_several_winners_and_who_deals_next(rid, winners):
    """Several winners: F0 69 「通炮」, F0 137, F0 365 「一炮两响 … 一炮三响」, F1 130, F2 23, F3 23
    「放通炮」.  Next dealer: the winner (F0 9, F0 85 B, F0 297 2, F1 82, F2 15 B, F3 23); after
    several winners the discarder (F0 89 E, F0 297 3, F0 365, F1 83, F1 130, F3 23 「放炮者成为
    下一盘的庄家」).  basic (F0 11 「系统随机选择一个胡牌玩家」) and hejs (silent): the winner
    nearest the discarder, a decided stand-in for the random choice."""
    game = rigged(ruleset(rid, "birds=0"), SEVERAL, draws="8s")
    game.apply(Action("discard", tile("9m")), 0)
    drive(game, lambda g: g.phase == "claim" and g.round.tile == tile("8s"))
    assert set(game.round.options) == {2, 3}
    for seat in (2, 3):
        game.apply(Action("win", tile("8s")) if seat in winners else PASS, seat)
    win = last_event(game, "win")
    assert win["seats"] == list(winners) and win["from"] == 1
    assert win_payments(game) == {(1, s) for s in winners}
    expected = 2 if len(winners) == 1 else NEXT_AFTER_SEVERAL.get(rid, 1)
    assert game.is_over() and game.result().next_dealer == expected


@pytest.mark.parametrize("rid", CHANGSHA)
def test_a_hand_nobody_wins_ends_after_the_last_tile_roams_and_the_dealer_stays(rid):
    """海底 roams in turn order (F0 45–47, F0 109, F0 145, F0 347, F1 108, F2 17–19 A, F3 47
    「漫游到下手 … 如果都不摸，则这一盘黄庄」).  Decided: the next dealer after a drawn hand (F0 87–91
    C/D/F, F0 297–299 4–6, F1 84–85 升官庄, F3 47; basic F0 7: the room creator) is a seat the
    ruleset language cannot name, so the dealer stays."""
    game = Game(ruleset(rid), 3, dealer=1)
    drive(game, lambda g: False)
    offers = [e["seat"] for e in game.events if e["type"] == "phase" and e["phase"] == "last_offer"]
    assert len(offers) >= 4 and set(offers[:4]) == {0, 1, 2, 3}
    assert all(b == (a + 1) % 4 for a, b in zip(offers, offers[1:4], strict=False))
    result = game.result()
    assert result.reason == "wall" and result.winners == () and result.next_dealer == 1


# --- first turns -----------------------------------------------------------------------------

DIHU = {"changsha/tutorial": "dihe"}
TIANHU = {"changsha/tutorial": "tianhe"}


@pytest.mark.parametrize("rid", CHANGSHA)
def test_the_dealers_dealt_hand_wins_as_tianhu_and_a_win_on_his_first_discard_is_dihu(rid):
    """F0 43 「天胡：单指庄家。庄家起手配牌后，立即胡牌」, F0 45 「地胡 … 由庄家打出第一张牌就给闲家
    点炮」; F0 105, F0 421–423, F1 172–174, F2 17, F3 31–33."""
    game = rigged(ruleset(rid, "birds=0"), {0: "123m 456m 789m 234p 55s"})
    game.apply(Action("win", tile("5s")), 0)
    assert TIANHU.get(rid, "tianhu") in hand_ids(last_event(game, "win"))
    game = rigged(ruleset(rid, "birds=0"), {0: "8s 111p 333p 999s 123s 4m", 2: SEVERAL[2]})
    game.apply(Action("discard", tile("8s")), 0)
    drive(game, lambda g: g.to_move() == 2 and g.phase == "claim")
    game.apply(Action("win", tile("8s")), 2)
    assert DIHU.get(rid, "dihu") in hand_ids(last_event(game, "win"))
