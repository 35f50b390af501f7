"""转转麻将 (rulesets/hunan/zhuanzhuan.yaml) in play: the flow rules of docs/FLOW.md's
hunan/zhuanzhuan table that only play shows.  What a finished hand pays is settled in
tests/scenarios/hunan/zhuanzhuan/.

GF = github.com/guogeer/gofishing-game games/migrate/mahjong/zhuanzhuan.go, HJ = 黄金岛转转麻将规则
(www.80166.com/guide/rule/zzmj.html), as the ruleset cites them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from interpreter.engine import Action
from interpreter.engine.actions import PASS
from interpreter.scenario import read_scenario_text
from interpreter.settle import SettlementError, settle
from tests.engine.helpers import rigged, tile
from tests.engine.test_flow_sichuan import added_kong, drive, payments, when, wins

RID = "hunan/zhuanzhuan"
WAITS_1M = {0: "1m 1p 4p 7p 2p 5p 8p 9p 6p 3p 6p 9p 3p 5s", 1: "123p 456p 789s 11s 23m"}
"""Seat 1 waits on 1m/4m; the dealer discards 1m first."""


def test_zhuanzhuan_108_tiles_and_no_chow():
    # HJ §1 108 张牌, §2 庄家 14 张, §3 吃 ❌ 碰 ✅; GF OnCreateRoom 默认没有字牌.
    hands = {0: "5m 1p 4p 7p 2p 5p 8p 9p 1m 4m 7m 2m 8m 9m", 1: "46m 55m 123p 789p 11s 2s"}
    game = rigged(load(RID), hands)
    assert len(game.rules.all_tiles) == 108
    assert [len(p.hand()) for p in game.players] == [14, 13, 13, 13]
    game.apply(Action("discard", tile("5m")))
    assert {a.kind for a in game.legal_actions(1)} == {"pung", "pass"}  # the 下家: no chow
    game.apply(Action("pung", tile("5m")), 1)
    assert game.census() == Counter(game.rules.all_tiles)


@pytest.mark.parametrize("settings, offered", [([], False), (["dianpao=true"], True)])
def test_zhuanzhuan_discard_wins_only_in_a_dianpao_room(settings, offered):
    # GF NewRoom: SetNoPlay(OptBoom): 自摸 only unless the room allows 点炮.
    game = rigged(load(RID, settings=settings), WAITS_1M)
    game.apply(Action("discard", tile("1m")))
    legal = game.legal_actions(1) if game.phase == "claim" else []
    assert (Action("win", tile("1m")) in legal) is offered


ON_A_DISCARD = """\
ruleset: hunan/zhuanzhuan
dealer: 0
wins:
  - seat: 1
    hand: "123m 456m 789m 234p 55s"
    win_tile: 5s
    from: 2
birds: [6m, 8p]
"""


def test_zhuanzhuan_settles_a_discard_win_only_in_a_dianpao_room():
    # The same refusal when a finished hand is settled: 自摸 only, then 1 from the discarder.
    hand = read_scenario_text(ON_A_DISCARD).hand
    with pytest.raises(SettlementError, match=r"win_requires is false"):
        settle(load(RID), hand)
    assert settle(load(RID, settings=["dianpao=true"]), hand).deltas == [0, 1, -1, 0]


@pytest.mark.parametrize("settings, offered", [([], False), (["qidui=true"], True)])
def test_zhuanzhuan_seven_pairs_win_only_with_the_option(settings, offered):
    # GF OptSevenPairs (可胡七对), off by default.
    game = rigged(load(RID, settings=settings), {0: "11m 33m 55p 77p 99s 22s 44s"})
    assert (Action("win", game.drawn) in game.legal_actions(0)) is offered


@pytest.mark.parametrize("settings, rob", [([], True), (["qianggang=false"], False)])
def test_zhuanzhuan_an_added_kong_is_robbed_in_a_self_draw_room(settings, rob):
    # HJ §3 抢杠胡; GF NewRoom SetPlay(OptAbleRobKong); a robbed kong wins although discard wins
    # are off (自摸 only), is paid by the kong's maker as a discard and pays no kong money.
    def no_discard_win(game, seat):  # seat 3 waits on 7p but may not win on a discard here
        assert Action("win", tile("7p")) not in game.legal_actions(seat)

    game, mark = added_kong(load(RID, settings=[*settings, "birds=0"]), no_discard_win)
    if not rob:  # 补杠: 1 from each other player
        assert [p[:3] for p in payments(game, mark)] == [(0, 1, 1), (2, 1, 1), (3, 1, 1)]
        return
    assert game.phase == "claim" and game.to_move() == 3
    game.apply(Action("win", tile("7p")), 3)
    assert wins(game)[0]["context"] == ["robbing_kong"]
    assert [p[:3] for p in payments(game, mark)] == [(1, 3, 1)]


FAR = {
    0: "1m 4m 7m 1p 4p 9s 1s 4s 7s 2m 5m 8m 2p 5p",
    1: "7777p 135m 468s 2s 5s 9m",
    2: "3m 6m 9m 3p 6p 9p 3s 6s 9s 2m 5m 8s 8p",
    3: "1m 4m 7m 1p 4p 1s 4s 7s 2s 5s 8s 3m 6m",
}


@pytest.mark.parametrize("settings, kept", [([], False), (["liuju_gang=true"], True)])
def test_zhuanzhuan_a_drawn_hand_returns_the_kong_money_and_keeps_the_dealer(settings, kept):
    # GF Award: kong money only 有人胡牌 (荒庄荒杠); the room option 流局算杠分 keeps it.
    game = rigged(load(RID, settings=settings), FAR)
    drive(game, choose=when(1, "kong", "7p"))
    result = game.result()
    assert result.reason == "wall" and result.winners == ()
    paid = payments(game)
    assert [p[:3] for p in paid[:3]] == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]
    returned = [p[:3] for p in paid[3:]]
    assert returned == ([] if kept else [(1, 0, 2), (1, 2, 2), (1, 3, 2)])
    assert result.next_dealer == 0  # decided: 荒庄连庄


@pytest.mark.parametrize("winners, next_dealer", [([1], 1), ([1, 2], 0)])
def test_zhuanzhuan_the_winner_deals_next_or_after_several_the_discarder(winners, next_dealer):
    hands = {0: "9p", 1: "123m 456m 789m 234s 9p", 2: "123p 456p 78p 345s 55m"}
    game = rigged(load(RID, settings=["dianpao=true"]), hands)
    game.apply(Action("discard", tile("9p")))
    for seat in (1, 2):
        game.apply(Action("win", tile("9p")) if seat in winners else PASS, seat)
    assert wins(game)[0]["seats"] == winners
    assert game.is_over() and game.result().next_dealer == next_dealer
