"""The Changsha flow audit (docs/FLOW.md): the play-flow rules the engine already follows, each
shown on a scripted position.  Line numbers are those of ``cat -n`` of the seed files;
F0 = 000_825dba35fdb6fcc9.txt, F1 = 001_76942f0387627e0c.txt, F2 = 002_c4a44432eae6dd73.txt,
F3 = 003_ae78847060e89682.txt."""

from __future__ import annotations

from functools import cache
from random import Random

import pytest

from dsl.ruleset import load
from handcore.tiles import STANDARD
from interpreter.engine import Action, Game
from interpreter.engine.match import first_dealer
from interpreter.engine.rules import Rules
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


@cache
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
    """F0 5 「共一百零八张」, F0 13 「庄家先摸牌，起张庄家14张牌，闲家13张牌」,
    F0 15 「庄家先出牌」, F0 17 「一百零八张牌允许全部摸完」; F1 79, F0 83, F0 293, F2 15,
    F3 7, F3 15."""
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
    """F0 17 「其余的人都能碰和杠，但只有下家能吃」; F0 83 「庄家的下家 … 有权力吃或碰那张牌，
    其它两家则只可碰或杠」; F1 94 「如果是下家即可吃」; F3 17 「可以与上手打的牌组成连续递增的
    三张牌时，可以吃」."""
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
    """F0 17 「其余的人都能碰和杠 …“杠”、“碰”优先于“吃”」;
    F0 83 「“碰”比“吃”优先」; F1 95 「碰杠方优先」; F3 17 「“碰”优先于“吃”」.  The 上家 of
    the discarder (the farthest seat) pungs over the 下家's chow."""
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
    """F1 102 「玩家A手中有三张相同的牌，玩家B打出第四张，这时A补张，C宣布胡补张的牌，
    算B放炮；如果A想开杠，但C在A还未拿骰 … 就报和牌，也算B放炮，不算抢杠」; F0 327, F0 333."""
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


FIRST_DEALER_IS_SEAT_0 = {"changsha/basic", "changsha/hejs", "changsha/tutorial"}


@pytest.mark.parametrize("rid", CHANGSHA)
def test_the_first_hands_dealer(rid):
    """The room's creator (F0 7 「以创建者(最先进入房间的玩家)为庄家」), the first in the room
    (F2 15 A 「按先后入室即先入室人为开始庄家」), the first seated (F3 9 「第一盘，一般首先入座者为
    庄家」): seat 0.  A random seat (F0 85 A 「第一局由系统随机分配庄家」, F1 81 「网络麻将系统随机
    分配」) or whoever rolls first (F0 297 1 「第1盘由任一家开骰，开骰者即为第1盘庄家」): random."""
    rules = Rules(ruleset(rid))
    seats = {first_dealer(rules, Random(seed)) for seed in range(40)}
    assert seats == ({0} if rid in FIRST_DEALER_IS_SEAT_0 else {0, 1, 2, 3})


# Seat 1 discards the 8s it draws; seats 2 and 3 both wait on it.
SEVERAL = {
    0: "111p 333p 999s 123s 4m 9m",
    1: "11m 22m 44p 66p 88p 99m 2s",
    2: "123m 456m 789m 55p 67s",
    3: "234m 567m 789p 55s 67s",
}
# Who deals next after a win on seat 1's discard (the dealer is seat 0).
NEXT_AFTER_SEVERAL = {"changsha/hejs": 2}  # basic: by dice; the others: the discarder


@pytest.mark.parametrize("rid", CHANGSHA)
@pytest.mark.parametrize("winners", [(2,), (2, 3)])
def test_one_discard_may_make_several_winners_and_who_deals_next(rid, winners):
    """Several winners: F0 69 「通炮」, F0 137, F0 365 「一炮两响 … 一炮三响」, F1 130, F2 23, F3 23
    「放通炮」.  Next dealer: the winner (F0 9, F0 85 B, F0 297 2, F1 82, F2 15 B, F3 23); after
    several winners the discarder (F0 89 E, F0 297 3, F0 365, F1 83, F1 130, F3 23 「放炮者成为
    下一盘的庄家」).  basic (F0 11 「系统随机选择一个胡牌玩家」): two dice choose, the nearer
    winner on an even throw; hejs (silent): the winner nearest the discarder.  full2007 §十
    (F0 369 「放炮者和2个胡牌都是庄」): the winners deal too (通庄)."""
    game = rigged(ruleset(rid, "birds=0"), SEVERAL, draws="8s")
    game.apply(Action("discard", tile("9m")), 0)
    drive(game, lambda g: g.phase == "claim" and g.round.tile == tile("8s"))
    assert set(game.round.options) == {2, 3}
    dice = sum(next_dice(game))  # thrown at the end for basic; nothing else throws here
    for seat in (2, 3):
        game.apply(Action("win", tile("8s")) if seat in winners else PASS, seat)
    win = last_event(game, "win")
    assert win["seats"] == list(winners) and win["from"] == 1
    assert win_payments(game) == {(1, s) for s in winners}
    several = NEXT_AFTER_SEVERAL.get(rid, 1) if rid != "changsha/basic" else 2 + dice % 2
    expected = 2 if len(winners) == 1 else several
    assert game.is_over() and game.result().next_dealer == expected
    tongzhuang = rid == "changsha/full2007" and len(winners) > 1
    assert game.result().next_dealers == ({1, 2, 3} if tongzhuang else {expected})


def test_an_opening_hand_does_not_make_its_holder_the_next_dealer():
    """F0 9 「如果进入房间的某个玩家在上一局胡牌（起手胡除外），则胡牌玩家成为庄家」 (basic): seat 1
    holds 缺一色 when the tiles are dealt; seat 2 alone wins later and deals next."""
    hands = {**SEVERAL, 1: "11m 22m 44p 66p 88p 99m 7p"}
    game = rigged(ruleset("changsha/basic", "birds=0"), hands, draws="8s")
    assert 1 in [e["seat"] for e in game.events if e["type"] == "opening"]
    game.apply(Action("discard", tile("9m")), 0)
    drive(game, lambda g: g.phase == "claim" and g.round.tile == tile("8s"))
    game.apply(Action("win", tile("8s")), 2)
    drive(game, lambda g: False)
    assert game.result().winners == (2,) and game.result().next_dealer == 2


@pytest.mark.parametrize("rid", CHANGSHA)
def test_a_hand_nobody_wins_ends_after_the_last_tile_roams_and_the_first_offered_deals(rid):
    """海底 roams in turn order (F0 45–47, F0 109, F0 145, F0 347, F1 108, F2 17–19 A,
    F3 47 「漫游到下手 … 如果都不摸，则这一盘黄庄」).  Nobody took it: the first player offered
    it deals next (F0 89 D 「由第一个可以选择海底牌的玩家当庄家」, F0 299 5, F1 85, F3 47
    「如果都不赌海底，则下一轮的庄家是第一个轮到海底的人」); basic: the room's creator, the
    match's first dealer (F0 7 「所有玩家都没有在上一局胡牌，以创建者…为庄家」); hejs is
    silent: the dealer stays."""
    game = Game(ruleset(rid), 3, dealer=1, first_dealer=2)
    drive(game, lambda g: False)
    offers = [e["seat"] for e in game.events if e["type"] == "phase" and e["phase"] == "last_offer"]
    assert offers[:4] == [(offers[0] + i) % 4 for i in range(4)]  # every seat, in turn
    result = game.result()
    assert result.reason == "wall" and result.winners == ()
    expected = {"changsha/basic": 2, "changsha/hejs": 1}.get(rid, offers[0])
    assert offers[0] != 1 and result.next_dealer == expected


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


# --- 补张 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rid", CHANGSHA)
def test_buzhang_draws_the_tail_top_then_bottom_and_may_follow_another(rid):
    """F0 73 「补张从最后一叠牌的上张拿起，再拿下张，一次一张」; F0 143 B, F2 25–27 C, F0 315 1
    「从牌墙尾部从上而下补上一张牌」, F1 90 「从杠头上补一张牌」, F3 45 「摸最后一垛牌的上面那张牌，
    如果已经有人补张，则摸下面那张牌」.  One after another: F1 99 「明补、暗补、明杠、暗杠均可」,
    F0 319 「也允许连续开杠或连续补张」."""
    game = rigged(ruleset(rid), {0: "5555m 9999p 123s 46s 8m"}, tail="2m 3p")
    game.apply(Action("kong", tile("5m"), "buzhang"), 0)
    assert last_event(game, "replacement")["tiles"] == ["2m"] and game.drawn == tile("2m")
    assert (tile("9p"), "buzhang") in kong_options(game, 0)
    game.apply(Action("kong", tile("9p"), "buzhang"), 0)
    assert last_event(game, "replacement")["tiles"] == ["3p"] and game.to_move() == 0


@pytest.mark.parametrize("rid", CHANGSHA)
def test_a_win_on_a_buzhang_draw_is_a_self_draw(rid):
    """F1 90 「补张胡牌算自摸」; F0 73 「补张可胡牌，算作自摸」; F0 143 A, F0 315 1, F2 25 A,
    F3 45 「补张和牌算平和自摸」: all three others pay.  (Its value: issue 18 item 1.)"""
    game = rigged(ruleset(rid, "birds=0"), {0: "9999p 123m 456m 55s 78s"}, tail="6s 1m")
    game.apply(Action("kong", tile("9p"), "buzhang"), 0)
    game.apply(Action("win", tile("6s")), 0)
    win = last_event(game, "win")
    assert win["seats"] == [0] and win["from"] is None
    assert win_payments(game) == {(1, 0), (2, 0), (3, 0)}


@pytest.mark.parametrize("rid", CHANGSHA)
def test_a_concealed_kong_cannot_be_robbed(rid):
    """F0 73 「如果是用手上四个九索补，那么其余的人不可胡九索」, F0 331 「手中抓了四张相同的牌补张，
    其他三家不能胡这张牌」, F0 57, F0 113, F0 335, F1 105 「如果A开暗杠，则不能被和牌，也不能被
    抢杠」, F1 191, F2 19 D, F2 25–27 B 「暗的不可胡」."""
    game = rigged(
        ruleset(rid),
        {0: "5555m 123s 456s 79p 11p", 1: "123p 456p 789s 22s 46m"},  # 1 waits on 5m
        tail="1m 9m",
    )
    game.apply(Action("kong", tile("5m"), "buzhang"), 0)
    assert game.phase == "turn" and game.to_move() == 0
    assert not [e for e in game.events if e["type"] == "phase" and e["phase"] == "claim"]
    assert last_event(game, "replacement")["tiles"] == ["1m"]


SHOWN = {"changsha/tutorial": False}  # F3 45 「背面朝上」; the others show it


@pytest.mark.parametrize("rid", CHANGSHA)
def test_a_concealed_kong_is_shown_or_face_down_as_the_ruleset_says(rid):
    """F1 98 「暗杠和补暗张均必须亮明，不能暗扣」, F0 317 「补张和杠，无论明暗都必须全部亮出」;
    the tutorial F3 45 「拿出四张牌放于自己牌的旁边，背面朝上，称为“暗杠”」.  basic, points20 and
    hejs are silent: shown (decided, the Changsha custom)."""
    game = rigged(ruleset(rid), {0: "5555m 123s 456s 79p 11p"}, tail="1m 9m")
    game.apply(Action("kong", tile("5m"), "buzhang"), 0)
    kong = last_event(game, "kong")
    assert kong["kind"] == "concealed"
    assert kong["tile"] == ("5m" if SHOWN.get(rid, True) else None)


# --- 开杠 ----------------------------------------------------------------------------------

NOT_READY = "5555m 1p 4p 7p 2s 5s 8s 3m 9m 9s 1s"
NEEDS_READY = {"changsha/tutorial": False}  # C-17: the tutorial states no such condition


@pytest.mark.parametrize("rid", CHANGSHA)
def test_kaigang_needs_a_ready_hand_and_buzhang_does_not(rid):
    """F1 91 「当玩家听牌后才能开杠」, F0 53 「听牌后 … 就可以选择掷骰子开杠」,
    F0 111 「即可选择开杠掷骰子（听牌的情况下）」, F0 149 「玩家的牌处于听牌状态（系统判断）
    才能掷骰子」, F0 315 2 「开杠要求听牌后才能开杠」, F2 19 C.  Decided for the tutorial
    (F3 45, no condition): 开杠 is offered to any hand."""
    for hand, ready in ((READY, True), (NOT_READY, False)):
        game = rigged(ruleset(rid), {0: hand})
        options = kong_options(game, 0)
        assert (tile("5m"), "buzhang") in options
        offered = ready or not NEEDS_READY.get(rid, True)
        assert ((tile("5m"), "kaigang") in options) == offered


def kaigang(rid, stack, hands=(), dealer=READY, kong="5m", draws="", birds=0):
    """The dealer kongs ``kong`` with 开杠; the stack the dice pick holds ``stack`` (top,
    bottom)."""
    game = rigged(ruleset(rid, f"birds={birds}"), {0: dealer, **dict(hands)}, draws=draws)
    dice = next_dice(game)
    place_stack(game, sum(dice), stack)
    game.apply(Action("kong", tile(kong), "kaigang"), 0)
    return game, dice


KAIGANG_TILES = {"changsha/qq2014": 2, "changsha/basic": 2, "changsha/tutorial": 2}


@pytest.mark.parametrize("rid", CHANGSHA)
def test_kaigang_takes_the_stack_the_dice_count_from_the_tail(rid):
    """Two tiles: F1 91 「由开骰的点数决定补杠的牌墩，且同时拿起该墩牌(共2张)」, F1 185, F0 53 「骰
    子开几点，即取倒数第几叠牌的连续2张牌」, F3 45 「两张牌都要开牌」.  The top tile only: F0 311 「
    由牌尾倒数墩数 … 拿牌墩上面的1张」, F0 437, F0 111 「取倒数第几叠牌的最上面一张」, F2 19 C. The
    kong-er decides first (F3 45 「只能优先开杠者和牌」, F1 93 A)."""
    game, dice = kaigang(rid, "8s 9s")
    replacement = last_event(game, "replacement")
    count = KAIGANG_TILES.get(rid, 1)
    assert replacement["dice"] == dice and len(dice) == 2
    assert replacement["tiles"] == ["8s", "9s"][:count]
    assert game.phase == "kong_tiles" and game.to_move() == 0


@pytest.mark.parametrize("rid", CHANGSHA)
def test_a_kaigang_tile_the_kong_er_wins_on_is_gangshangkaihua(rid):
    """F1 91 「如果有1张可胡牌即算杠上花」, F1 185, F0 53, F0 111 「一旦补张的牌能被开杠者胡则算
    大胡」, F0 149, F0 315 2 「如果胡牌算杠上花」, F0 437, F2 19 C, F3 45 「如果开出的牌自己可以和，
    则叫做“杠上花”」."""
    game, _ = kaigang(rid, "2s 9s")
    legal = game.legal_actions(0)
    assert PASS in legal
    game.apply(next(a for a in legal if a.kind == "win"), 0)
    win = last_event(game, "win")
    assert win["seats"] == [0] and win["from"] is None and win["context"] == ["kong_draw"]
    assert GANGSHANGHUA.get(rid, "gangshangkaihua") in hand_ids(win)
    assert win_payments(game) == {(1, 0), (2, 0), (3, 0)}


@pytest.mark.parametrize("rid", CHANGSHA)
def test_an_unused_kaigang_tile_is_discarded_and_another_player_may_win_on_it(rid):
    """F1 91 「2张均不能胡则都必须打出，如果有1张点点炮了就算被抢杠」, F1 106 「杠抢两头」,
    F0 55 「杠上炮」, F0 117 11, F0 149 「如果有其他玩家胡了打出的该补张牌则算杠上炮」, F0 315 2
    「如果点炮算被抢杠」, F0 337, F0 447, F2 19–21 F, F3 45 「如果开出的牌只有别人才能和，则叫做
    “杠上炮”」.  The kong-er pays alone."""
    waiting = {1: "123m 789m 234p 678p 5s"}
    game, _ = kaigang(rid, "5s 9s", hands=waiting)
    assert game.legal_actions(0) == [PASS]
    game.apply(PASS, 0)

    def seat_1_wins(g, seat, legal):
        return next((a for a in legal if a.kind == "win"), None) if seat == 1 else None

    drive(game, lambda g: bool(g.win_events), seat_1_wins)
    win = last_event(game, "win")
    assert win["seats"] == [1] and win["from"] == 0 and "kong_discard" in win["context"]
    assert KONG_DISCARD_WIN[rid] in hand_ids(win)
    assert win_payments(game) == {(0, 1)}


CLAIMABLE = {"changsha/tutorial": False}  # F3 45 「如果开出的牌都没人和，也不能碰和吃」


@pytest.mark.parametrize("rid", CHANGSHA)
def test_others_may_claim_an_unused_kaigang_tile_as_the_ruleset_says(rid):
    """F1 92 「开杠打出的2张牌可继续开杠，或让其他三家吃、碰、杠」; the tutorial F3 45 「如果开出的
    牌都没人和，也不能碰和吃」.  full2007, basic, points20 and hejs are silent: claimable (C-13,
    decided)."""
    game, _ = kaigang(rid, "5s 9s", hands={2: "55s 123m 789m 234p 68p"})
    seen = set()

    def look(g, seat, legal):
        if g.phase == "claim" and seat == 2:
            seen.update(a.kind for a in legal)
        return None

    drive(game, lambda g: g.phase == "turn" and g.to_move() != 0, look)
    assert ("pung" in seen) == CLAIMABLE.get(rid, True)


LOCKED = {"changsha/hejs": False}  # silent: no lock


@pytest.mark.parametrize("rid", CHANGSHA)
def test_after_kaigang_the_kong_er_may_not_chow_or_pung_and_discards_what_he_draws(rid):
    """F1 92 「之后开杠方不能吃碰，只能开杠和摸牌，而且摸的牌不能并入手牌之内，不能胡就必须打出」,
    F0 315 2 (the same), F0 53 「开杠后允许再杠，但不能吃、和碰，开杠后不允许再换张」, F0 149
    「不能胡则必须打出，直到胡牌或放炮为止」, F3 45 「开杠后不能改张」.  hejs is silent: no lock."""
    dealer = "9999p 123m 456m 55s 78s"  # after the kong: ready on 6s/9s, holding 55s
    game, _ = kaigang(rid, "1s 9s", dealer=dealer, kong="9p", draws="5s 7p 7p 3p")
    drive(game, lambda g: g.phase == "turn" and g.drawn == tile("5s"))
    game.apply(Action("discard", tile("5s")), 1)
    asked = game.round.options.get(0, []) if game.phase == "claim" else []
    assert (Action("pung", tile("5s")) in asked) != LOCKED.get(rid, True)
    drive(game, lambda g: g.phase == "turn" and g.to_move() == 0)
    discards = [a for a in game.legal_actions(0) if a.kind == "discard"]
    assert game.drawn == tile("3p")
    assert (discards == [Action("discard", tile("3p"))]) == LOCKED.get(rid, True)


@pytest.mark.parametrize("rid", CHANGSHA)
def test_an_added_kong_made_by_kaigang_may_be_robbed(rid):
    """F1 105 「玩家A手中碰了一副牌，又摸到或将手牌中的第四张开杠，当骰子落下后，C宣布胡开杠的牌，
    算A被抢杠」, F0 335, F0 57, F0 113 「只有明杠可以抢胡」, F2 19 E, F3 45 「若杠的人选择开杠打色，
    那么算作大番子放炮」.  Choosing 开杠 stands for the dice having landed: no tile is drawn
    before the robbing round."""
    game = rigged(
        ruleset(rid, "birds=0"),
        {
            0: "7p 222s 234p 567m 999s 4s",
            1: "77p 123m 456m 789s 5s 9m",
            3: "123m 456m 789m 55s 68p",
        },
        draws="1s 3s 6m 7p",
    )
    game.apply(Action("discard", tile("7p")), 0)
    game.apply(Action("pung", tile("7p")), 1)
    if game.to_move() == 3:  # 地胡 on the 7p, passed
        game.apply(PASS, 3)
    game.apply(Action("discard", tile("9m")), 1)
    drive(game, lambda g: g.phase == "turn" and g.to_move() == 1)
    assert game.drawn == tile("7p")
    game.apply(Action("kong", tile("7p"), "kaigang"), 1)
    assert game.phase == "claim" and game.to_move() == 3
    assert not [e for e in game.events if e["type"] == "replacement"]
    game.apply(Action("win", tile("7p")), 3)
    win = last_event(game, "win")
    assert win["seats"] == [3] and win["from"] == 1 and win["context"] == ["robbing_kong"]
    assert QIANGGANG.get(rid, "qianggang") in hand_ids(win)
    assert win_payments(game) == {(1, 3)}
    assert [m.kind for m in game.players[1].melds] == ["pung"]  # the kong is undone


def test_no_kaigang_at_three_tiles_left_and_no_buzhang_at_two():
    """F1 225 「如果牌墙上只有三张牌时，就不能再开杠 … 牌墙只剩两张牌时，就不能再补张。只能打出一张
    牌」 (qq2014)."""
    game = rigged(
        ruleset("changsha/qq2014"),
        {0: "555m 123p 456p 789s 2s 9m", 1: "555s 123m 678m 46p 7s 9s"},
        last="5m 5s 9p 9p",
    )
    tsumogiri(game, lambda g: g.phase == "turn" and g.wall.drawable == 3)
    assert game.to_move() == 0 and game.drawn == tile("5m")
    assert kong_options(game, 0) == {(tile("5m"), "buzhang")}  # ready, yet no 开杠
    tsumogiri(game, lambda g: g.phase == "turn" and g.wall.drawable == 2)
    assert game.to_move() == 1 and game.drawn == tile("5s")
    assert kong_options(game, 1) == set()


@pytest.mark.parametrize("rid", ["changsha/qq2014", "changsha/full2007"])
def test_kaigang_rolls_one_die_below_twelve_stacks(rid):
    """F1 88 「如果牌墙上的牌墩少于十二墩，允许用一粒骰开杠，如果少于六墩时，必须用一粒骰开杠」,
    F0 311 「如果牌墙上的牌墩少于十二墩，允许用一粒骰开杠」.  Decided: below twelve stacks one die
    is always used (allowed there, required below six); two dice above (see
    test_kaigang_takes_the_stack_the_dice_count_from_the_tail)."""
    game = rigged(ruleset(rid), {0: READY})
    while len(game.wall.stacks_from_tail()) >= 12:
        game.wall.draw_front()  # the wall as it is late in a hand
    game.apply(Action("kong", tile("5m"), "kaigang"), 0)
    assert len(last_event(game, "replacement")["dice"]) == 1


def test_points20_kaigang_takes_the_lower_tile_when_the_top_one_is_gone():
    """F0 111 「取倒数第几叠牌的最上面一张（如最上一张没有则取下方一张）」, F0 151 「如果一墩牌的
    上面一张不存在则取下面一张」 (points20)."""
    game = rigged(ruleset("changsha/points20"), {0: READY})
    dice = next_dice(game)
    place_stack(game, sum(dice), "3s 4s")
    stack = game.wall.stacks_from_tail()[sum(dice) - 1]
    game.wall._take(2 * stack)  # its top tile (3s) is already gone
    game.apply(Action("kong", tile("5m"), "kaigang"), 0)
    assert last_event(game, "replacement")["tiles"] == ["4s"]


@pytest.mark.parametrize("rid", ["changsha/full2007", "changsha/points20"])
def test_a_buzhang_may_take_the_last_tile_and_then_there_is_no_last_tile(rid):
    """F0 143 C 「如果补张时只剩下海底，则补海底牌，此局则无海底牌」, F0 151 (points20); F0 349
    「如果牌墙上只有海底牌时，这时某一家补张或开杠，可以将海底牌进行补牌，但必须从手牌中打出一张牌」
    (full2007).  The full2007 抢海底 on that discard (F0 349) and the next dealer (F0 299 6,
    F0 91 F): ``tests/engine/test_table_facts.py``."""
    game = rigged(ruleset(rid), {2: "555s 123m 678m 46p 7s 9s"}, last="5s 7p")
    tsumogiri(game, lambda g: g.phase == "turn" and g.wall.drawable == 1)
    assert game.to_move() == 2 and game.drawn == tile("5s")
    game.apply(Action("kong", tile("5s"), "buzhang"), 2)
    assert last_event(game, "replacement")["tiles"] == ["7p"] and game.wall.drawable == 0
    tsumogiri(game)
    assert not [e for e in game.events if e["type"] == "phase" and e["phase"] == "last_offer"]
    assert game.result().reason == "wall"


@pytest.mark.parametrize("rid", ["changsha/full2007", "changsha/qq2014", "changsha/points20"])
def test_after_kaigang_only_a_newly_drawn_fourth_tile_may_be_konged(rid):
    """F0 319 「已经开杠后，手牌中再有4张相同的牌则不能开杠与补张」 with 例<1> F0 321 「摸到4条后则
    不能杠1条 … 摸到7万后可以杠7万」 and 例<2> F0 323 (C-19): a quad held when the 开杠 was made is
    frozen, a fourth tile drawn later may be konged; F1 92 「只能开杠和摸牌」, F0 53 「开杠后允许再
    杠」."""
    dealer = "9999p 1111s 23s 777m 5m"  # after the kong: ready on 5m
    game, _ = kaigang(rid, "8s 9s", dealer=dealer, kong="9p", draws="3p 3p 3p 7m")
    drive(game, lambda g: g.phase == "turn" and g.to_move() == 0)
    assert game.drawn == tile("7m")
    konged = {t for t, _ in kong_options(game, 0)}
    assert konged == {tile("7m")}  # not the 1s held since the 开杠


def test_the_discard_before_the_last_tile_may_still_be_claimed():
    """F0 343 「当牌墙上只有海底牌时，上一轮打牌的下一家可以吃碰杠」 (full2007)."""
    game = rigged(ruleset("changsha/full2007"), {3: "55p 123m 678m 46s 7s 9s 1p"}, last="5p 9p")
    tsumogiri(game, lambda g: g.phase == "turn" and g.wall.drawable == 1)
    game.apply(Action("discard", tile("5p")), game.to_move())
    assert game.phase == "claim" and Action("pung", tile("5p")) in game.legal_actions(3)


# --- 海底 (one tile) ------------------------------------------------------------------------

ONE_LAST_TILE = [rid for rid in CHANGSHA if rid != "changsha/qq2014"]


@pytest.mark.parametrize("rid", ONE_LAST_TILE)
@pytest.mark.parametrize("taker", [0, 3])
def test_the_last_tile_is_offered_in_turn_shown_and_won_or_robbed(rid, taker):
    """The last tile (F0 45, F0 109 6, F0 343, F2 17 6, F3 47) is offered in turn to every player,
    ready or not (F0 45–47 「第一个玩家不要，第二个玩家可要」, F0 145, F0 347 3 「没有听牌也可以要
    海底牌，但不能胡牌」, F3 47).  Its taker wins 海底捞月 (F0 45, F0 345 1, F3 47); one who cannot
    shows it (F0 345 「该牌不能并入手牌，必须亮出」, F0 461) and pays the player who wins on it (F0
    47 「为甲玩家点乙玩家大胡炮」, F0 109 7, F0 345, F2 19 B, F3 47 「海底炮」).  The bird on a 海底
    win is the 海底 tile (F0 71, F0 141 B, F0 355 2, F2 25 B)."""
    game = rigged(
        ruleset(rid, "birds=1"), {0: "123m 456m 789m 234p 5s 9s"}, last="5s"
    )  # the dealer waits on 5s, the last tile
    tsumogiri(game, lambda g: g.phase == "last_offer")
    assert game.to_move() == 3  # the next player after the last discard (seat 2)
    if taker == 0:
        game.apply(PASS, 3)
    game.apply(Action("take"), taker)
    assert game.phase == "last_turn" and game.to_move() == taker
    if taker == 0:
        game.apply(Action("win", tile("5s")), 0)
        win = last_event(game, "win")
        assert win["from"] is None and "haidilaoyue" in hand_ids(win)
        assert last_event(game, "bird")["tiles"] == ["5s"]
        assert win_payments(game) == {(1, 0), (2, 0), (3, 0)}
        return
    assert game.legal_actions(3) == [PASS]  # not ready: he cannot win on it
    game.apply(PASS, 3)
    assert last_event(game, "discard") == {
        "type": "discard", "seat": 3, "tile": "5s", "exposed": True,
    }  # fmt: skip
    game.apply(Action("win", tile("5s")), 0)
    win = last_event(game, "win")
    assert win["from"] == 3 and win["context"] == ["last_tile"]
    assert ROBBED_LAST.get(rid, "haidipao") in hand_ids(win)
    assert win_payments(game) == {(3, 0)}


# --- birds ---------------------------------------------------------------------------------

BIRDS = {"changsha/qq2014": 2, "changsha/basic": 2, "changsha/tutorial": 2}  # the others: 1


@pytest.mark.parametrize("rid", CHANGSHA)
def test_the_birds_are_the_next_wall_tiles_counted_from_the_dealer(rid):
    """F1 111 「公鸟在胡牌后，以牌墙上按轮序的第1张和第2张牌为鸟牌。鸟牌以**为第1序位，当鸟牌的序数
    为159时，为**A的鸟牌，26为**的下家B的鸟牌，37为**的对家C的鸟牌，48为**的上家D的鸟牌」;
    F0 71 「玩家胡牌后，再摸紧跟着的两张牌即为鸟 … 一表示庄家，二表示下家」, F0 139 A, F0 353 1
    「以牌墙上按轮序的第一张牌为鸟牌」, F2 23–25 A, F3 63 「和牌后看鸟，即继续开两张牌」.  Seat 1
    deals: a 6 points at seat 2 (the winner), a 3 at seat 3."""
    hands = {1: "8s 111p 333p 999s 123s 4m", 2: SEVERAL[2]}
    game = rigged(ruleset(rid), hands, draws="6p 3s", dealer=1)
    game.apply(Action("discard", tile("8s")), 1)
    drive(game, lambda g: g.to_move() == 2 and g.phase == "claim")
    game.apply(Action("win", tile("8s")), 2)
    bird = last_event(game, "bird")
    count = BIRDS.get(rid, 1)
    assert bird["tiles"] == ["6p", "3s"][:count]
    assert {int(s) for s in bird["hits"]} == {2, 3}.intersection([2, 3][:count])


# --- missed wins ----------------------------------------------------------------------------

# Whether seat 2, having passed a win on seat 3's 2p, may win before its own draw on seat 1's
# next discard: another winning tile (5p), the same tile (2p).
MISSED = {
    "changsha/qq2014": (False, False),  # not stated: the tutorial's lock (decided)
    "changsha/full2007": (False, False),  # 禁胡, every tile
    "changsha/basic": (False, False),  # 跟胡: only a bigger hand
    "changsha/points20": (True, False),  # 漏胡: that tile only
    "changsha/hejs": (True, True),  # silent: no lock (decided)
    "changsha/tutorial": (False, False),  # until your own draw
}


@pytest.mark.parametrize("rid", CHANGSHA)
@pytest.mark.parametrize("second", ["5p", "2p"])
def test_a_passed_win_locks_until_the_players_own_draw_as_the_ruleset_says(rid, second):
    """F0 467 「B打出一张牌，上家A可以胡但没有胡，接着 … 在同一轮之内再打出一张牌，这张牌即使A能够胡
    牌，也不准宣布胡牌。但A吃碰杠摸牌后，自动解除」 (full2007 禁胡); F0 147 「在玩家摸牌前禁止炮胡
    ，摸牌后一切正常，只对该玩家漏胡的那张牌有效」 (points20 漏胡); F0 75 「过手前不能弃先胡后；当
    胡前者为小胡，胡后者为大胡时可以胡牌」 (basic 跟胡); F3 23 「在自己摸牌前就不能再和别人的放炮」
    (tutorial).  qq2014 and hejs are silent: decided, the tutorial's lock for qq2014 and none for
    hejs."""
    game = rigged(
        ruleset(rid),
        {0: "111p 666p 888s 123s 4m 9m", 2: "123m 456m 789m 55s 34p"},  # 2 waits on 2p, 5p
        draws=f"9s 9s 2p 1s {second} 7s 5p",
    )
    asked = []

    def record(g, seat, legal):
        if seat == 2 and g.phase == "claim":
            asked.append((g.round.discarder, Action("win", g.round.tile) in legal))
        return None

    drive(game, lambda g: g.wall.drawable == 55 - 7, record)
    drive(game, lambda g: g.phase == "turn" and g.to_move() == 0, record)
    allowed, same_allowed = MISSED[rid]
    assert asked[0] == (3, True)  # the win passed on seat 3's 2p
    at_seat_1 = [win for discarder, win in asked if discarder == 1]
    assert any(at_seat_1) == (allowed if second == "5p" else same_allowed)
    assert asked[-1] == (3, True)  # after its own draw the lock is gone: seat 3's 5p


@pytest.mark.parametrize("rid", ["changsha/full2007", "changsha/points20"])
def test_kaigang_dice_beyond_the_stacks(rid):
    """full2007 F0 311 「如用两粒骰子打出点数之和超出牌墩总数时，允许重新打骰或改用一粒骰子；
    再次超出时仍可重新打骰，直至总点数小于等于牌墩总数为止」: rolled again.  points20 F0 151
    「如果投掷骰子出来的数目大于牌局上墩数，则在最后一墩牌上取牌补张」: the last stack counted
    (the farthest from the tail)."""
    game = rigged(ruleset(rid), {0: READY})
    while len(game.wall.stacks_from_tail()) > 4:
        game.wall.draw_front()  # four stacks left
    dice = 1 if rid == "changsha/full2007" else 2  # full2007: one die below 12 stacks
    while sum(next_dice(game, dice)) <= 4:
        game.rng.randint(1, 6)  # until the first roll overshoots
    first = next_dice(game, dice)
    last_stack = game.wall.stacks_from_tail()[-1]
    w = game.wall
    left = next(w.tiles[i] for i in (2 * last_stack, 2 * last_stack + 1) if not w.taken[i])
    game.apply(Action("kong", tile("5m"), "kaigang"), 0)
    replacement = last_event(game, "replacement")
    if rid == "changsha/full2007":
        assert len(replacement["dice"]) == 1 and sum(replacement["dice"]) <= 4
    else:
        assert replacement["dice"] == first
        assert replacement["tiles"] == [STANDARD.name(left)]


def test_tutorial_kaigang_opens_nothing_when_the_tiles_run_short():
    """F3 45 「如果牌数不够，则不开牌，继续打牌」 (tutorial): with one tile left, 开杠 opens nothing
    and play goes on (the last tile is offered to the next player)."""
    game = rigged(ruleset("changsha/tutorial"), {2: "555s 123m 678m 46p 7s 9s"}, last="5s 7p")
    tsumogiri(game, lambda g: g.phase == "turn" and g.wall.drawable == 1)
    assert game.to_move() == 2 and (tile("5s"), "kaigang") in kong_options(game, 2)
    game.apply(Action("kong", tile("5s"), "kaigang"), 2)
    assert last_event(game, "replacement")["tiles"] == [] and game.wall.drawable == 1
    assert game.phase == "last_offer" and game.to_move() == 3


def test_a_win_with_only_the_last_two_tiles_left_takes_them_as_birds():
    """F1 127 「如果胡牌时，牌墙上只剩两张海底牌，则这两张牌即为2个鸟牌」 (qq2014): seat 3 wins
    on the discard made just before the 海底."""
    game = rigged(ruleset("changsha/qq2014"), {3: "123m 456m 789m 234p 8s"}, last="8s 3s 6p")
    tsumogiri(game, lambda g: g.phase == "claim" and g.wall.drawable == 2)
    assert game.round.tile == tile("8s")
    game.apply(Action("win", tile("8s")), 3)
    assert last_event(game, "bird")["tiles"] == ["3s", "6p"]


# --- decisions ------------------------------------------------------------------------------


def test_a_fourth_tile_drawn_mid_hand_is_only_konged():
    """F1 129 「中途四喜。如果中途自摸4张相同 … 玩家可选择是否算中途四喜 … 打一次骰，按起手胡的
    规则获得喜钱。然后再决定是开杠还是补张」 (qq2014): decided, not played — the fourth tile may
    be konged or discarded, nothing is declared or paid."""
    game = rigged(ruleset("changsha/qq2014"), {1: "555m 123p 46p 789s 11s"}, draws="5m")
    game.apply(Action("discard", game.drawn), 0)
    drive(game, lambda g: g.phase == "turn" and g.to_move() == 1)
    assert game.drawn == tile("5m")
    kinds = {a.kind for a in game.legal_actions(1)}
    assert kinds == {"kong", "discard"}
    paid_before = len([e for e in game.events if e["type"] == "payment"])
    game.apply(Action("kong", tile("5m"), "buzhang"), 1)
    assert len([e for e in game.events if e["type"] == "payment"]) == paid_before


def test_an_opening_hand_is_named_to_the_others_not_shown():
    """F1 160–166 (qq2014): 「胡牌时须亮出全手牌」 / 「只须亮出该4张牌即可」 — decided, not shown:
    the public ``opening`` event names the hands found and the tiles stay hidden."""
    game = rigged(ruleset("changsha/qq2014"), {1: "1111m 234p 567p 89s 3s"})
    (event,) = [e for e in game.events if e["type"] == "opening" and e["seat"] == 1]
    assert [h["id"] for h in event["hands"]] == ["sixi"]
    assert set(event) == {"type", "seat", "hands", "birds", "dice", "hits", "settle"}
