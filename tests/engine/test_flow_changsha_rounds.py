"""Changsha 2014 claim rounds over several tiles: the two 开杠 tiles answered together, the
two 海底 tiles taken together.  F1 = 001_76942f0387627e0c.txt (line numbers as ``cat -n``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.ruleset import load
from interpreter.agents import make_agent
from interpreter.engine import Action, play, replay
from interpreter.scenario import read_scenario
from interpreter.settle import settle
from tests.engine.helpers import next_dice, place_stack, rigged, tile, tsumogiri

PASS = Action("pass")
QQ = load("changsha/qq2014")
WORKED = Path(__file__).parents[1] / "scenarios" / "changsha" / "qq2014"
DEALER = "9999p 123m 456m 55s 78s"  # after a kong of 9p ready on 6s/9s, whatever the kong tiles


def kaigang(hands: dict[int, str], stack: str, dealer: str = DEALER, kong: str = "9p"):
    """The dealer kongs with 开杠 and the dice-chosen stack holds ``stack`` (top, bottom)."""
    game = rigged(QQ, {0: dealer, **hands})
    place_stack(game, sum(next_dice(game)), stack)
    game.apply(Action("kong", tile(kong), "kaigang"), 0)
    return game


def answer(game, choices: dict[int, Action]) -> None:
    """Every seat asked in the current round gives its choice, or passes."""
    while game.phase == "claim":
        seat = game.to_move()
        game.apply(choices.get(seat, PASS), seat)


def events(game, kind: str) -> list[dict]:
    return [e for e in game.events if e["type"] == kind]


def worked_win(name: str) -> dict:
    """The first win of a worked example, settled as its scenario file gives it."""
    scenario = read_scenario(WORKED / name)
    return settle(QQ, scenario.hand).to_json()["wins"][0]


def same_hands(win: dict, example: dict) -> None:
    assert [(h["id"], h["value"]) for h in win["hands"]] == [
        (h["id"], h["value"]) for h in example["hands"]
    ]
    assert win["total"] == example["total"]


def test_two_players_rob_the_two_kong_tiles_and_the_kong_er_pays_both():
    """F1 91: 「允许2人同时抢相同的牌或不同的2张牌，算开杠者通炮」 — seat 1 waits on 3p,
    seat 2 on 7p; the 开杠 draws 3p and 7p: both win, the kong-er pays both, and (F1 83)
    the one who fed both wins (放炮者) deals next."""
    game = kaigang({1: "12p 123m 456m 789s 55s", 2: "56p 234m 567m 123s 88s"}, "3p 7p")
    assert game.phase == "kong_tiles" and game.legal_actions(0) == [PASS]
    game.apply(PASS, 0)
    assert game.round.tiles == (tile("3p"), tile("7p"))
    assert Action("win") in game.legal_actions(1)
    answer(game, {1: Action("win"), 2: Action("win")})
    (win,) = events(game, "win")
    assert win["seats"] == [1, 2] and win["from"] == 0 and win["context"] == ["kong_discard"]
    assert win["tiles"] == ["3p", "7p"] and win["seat_tiles"] == {"1": ["3p"], "2": ["7p"]}
    assert [w["win_tile"] for w in win["hands"]] == ["3p", "7p"]
    paid = {(e["from"], e["to"]) for e in events(game, "payment") if "抢杠" in e["reasons"][0]}
    assert paid == {(0, 1), (0, 2)}
    assert game.is_over() and game.result().winners == (1, 2) and game.result().next_dealer == 0


def test_one_robber_wins_on_both_kong_tiles_for_two_he_as_in_example_14():
    """F1 206–207: 「如果是抢杠上牌，别人开的杠中有1张可胡，算1合；2张均可胡，算2合」,
    例14 「万 4555索，别人开杠开出3索、4索 … 可胡牌，算2合」: the engine's win settles as the
    worked example he14 does."""
    game = kaigang({1: "111m 345m 789m 4555s"}, "3s 4s", dealer="9999p 123m 456m 22s 78s")
    game.apply(PASS, 0)
    assert game.round.win_tiles == {1: (tile("3s"), tile("4s"))}
    answer(game, {1: Action("win")})
    (win,) = events(game, "win")
    assert win["tiles"] == ["3s", "4s"] and "seat_tiles" not in win
    same_hands(win["hands"][0], worked_win("he14_rob_both_kong_tiles.yaml"))
    assert {(h["id"], h["value"]) for h in win["hands"][0]["hands"]} >= {("qianggang", 2)}


def test_both_kong_tiles_winning_for_the_kong_er_score_as_example_13():
    """F1 204–205: 「杠上开花的2张牌中有1张可胡，算1合；2张均可胡，算2合」, 例13 「1111万杠
    345789万 4555索，开杠开出3索、4索，算2合」: settled as the worked example he13."""
    game = rigged(QQ, {0: "1111m 345m 789m 4555s"})
    place_stack(game, sum(next_dice(game)), "3s 4s")
    game.apply(Action("kong", tile("1m"), "kaigang"), 0)
    assert game.legal_actions(0) == [Action("win"), PASS]
    game.apply(Action("win"), 0)
    (win,) = events(game, "win")
    assert win["tiles"] == ["3s", "4s"] and win["context"] == ["kong_draw"]
    same_hands(win["hands"][0], worked_win("he13_two_kong_tiles_win.yaml"))


# Seat 1 (next after the kong-er) may chow 3p with 45p; seat 2 may pung 7p with 77p.
RULE_C = {1: "45p 111m 999s 23s 66m 8m", 2: "77p 111s 333s 579m 24p"}


def test_a_pung_of_one_kong_tile_beats_a_chow_of_the_other():
    """F1 95: 「C.如果一家可碰杠，另外下家又可吃的话，无论哪张，碰杠方优先」 — the chow of the
    first tile (3p) loses to the pung of the second (7p), asked in the same round."""
    game = kaigang(RULE_C, "3p 7p")
    game.apply(PASS, 0)
    assert game.round.options == {
        1: [Action("chow", tile("3p"), "3p"), PASS],
        2: [Action("pung", tile("7p")), PASS],
    }
    answer(game, {1: Action("chow", tile("3p"), "3p"), 2: Action("pung", tile("7p"))})
    (claim,) = events(game, "claim")
    assert claim == {
        "type": "claim", "seat": 2, "kind": "pung", "tile": "7p", "from": 0, "taken": "7p"
    }  # fmt: skip
    assert game.phase == "turn" and game.to_move() == 2
    assert game.players[0].discards == [tile("3p")]  # the chow's tile stays discarded
    assert game.players[1].counts[tile("4p")] == 1


def test_a_chow_of_a_kong_tile_takes_that_tile():
    """F1 92: 「开杠打出的2张牌可 … 让其他三家吃、碰、杠」 and 「只能吃碰杠其中的一张」 — with no
    pung, seat 1's chow of the first tile is made; the second stays discarded."""
    game = kaigang(RULE_C, "3p 7p")
    game.apply(PASS, 0)
    answer(game, {1: Action("chow", tile("3p"), "3p")})
    (claim,) = events(game, "claim")
    assert (claim["seat"], claim["kind"], claim["tile"], claim["taken"]) == (1, "chow", "3p", "3p")
    assert game.players[0].discards == [tile("7p")]
    assert game.players[1].melds[-1].tile == tile("3p")


def test_of_two_pungs_or_kongs_the_seat_nearer_the_kong_er_wins():
    """F1 96: 「D.如果一家可碰杠其中一张，另一家可碰杠其中另一张，按轮序与杠牌方近者优先」 — seat 2
    kongs the first tile (3p), nearer seat 1 pungs the second (7p): seat 1's pung is made
    (qq2014 ranks pung and kong together: ``priority: [win, [kong, pung], chow]``)."""
    game = kaigang({1: "77p 111m 999s 23s 66m 8m", 2: "333p 111s 33s 579m 24p"}, "3p 7p")
    game.apply(PASS, 0)
    assert Action("kong", tile("3p"), "buzhang") in game.round.options[2]
    answer(game, {1: Action("pung", tile("7p")), 2: Action("kong", tile("3p"), "buzhang")})
    (claim,) = events(game, "claim")
    assert (claim["seat"], claim["kind"], claim["taken"]) == (1, "pung", "7p")
    assert not events(game, "replacement")[1:]  # seat 2 made no kong
    assert game.players[0].discards == [tile("3p")]


def test_the_kong_er_kongs_again_with_a_kong_tile_before_others_claim():
    """F1 93: 「A.开杠者可用其中一张继续开杠，优先继续开杠 … 也可以补张」 — the kong-er holds
    333s and the 开杠 draws 3s 4s: asked first, he kongs the 3s (补张 here) although seat 1
    pungs the 4s."""
    game = kaigang({1: "44s 111m 777p 23m 66m 8m"}, "3s 4s", dealer="9999p 333s 456m 55s 78s")
    assert game.legal_actions(0) == [PASS]  # no win on 3s or 4s
    game.apply(PASS, 0)
    assert game.to_move() == 0
    assert game.legal_actions(0) == [
        Action("kong", tile("3s"), "buzhang"), Action("kong", tile("3s"), "kaigang"), PASS,
    ]  # fmt: skip
    answer(game, {0: Action("kong", tile("3s"), "buzhang"), 1: Action("pung", tile("4s"))})
    claim, kong = events(game, "claim")[-1], events(game, "kong")[-1]
    assert claim == {
        "type": "claim", "seat": 0, "kind": "kong", "tile": "3s", "from": 0, "taken": "3s"
    }  # fmt: skip
    assert kong == {"type": "kong", "seat": 0, "kind": "concealed", "tile": "3s"}
    assert events(game, "replacement")[-1]["method"] == "buzhang"
    assert game.players[0].discards == [tile("4s")] and game.players[1].counts[tile("4s")] == 2


def take_haidi(game, taker: int) -> None:
    """Play on, discarding draws, to the 海底; every seat but ``taker`` declines it."""
    tsumogiri(game, lambda g: g.phase == "last_offer")
    while game.phase == "last_offer":
        seat = game.to_move()
        game.apply(Action("take") if seat == taker else PASS, seat)


def test_the_haidi_taker_takes_both_tiles_and_wins_on_both_as_in_example_21():
    """F1 107: 「长沙麻将以牌墙上的最后两张牌为海底牌 … 才能摸海底牌，两牌牌不能并入手牌，
    必须亮出」, F1 208 「海底，一张可胡算1合，两张都可胡算2合」, 例21 (F1 218) 「222255万
    225588索 2砣，海底赌中两张2砣」: both 2p go to the taker, 2合 of 海底, settled as he21."""
    game = rigged(QQ, {1: "2222m 55m 22s 55s 88s 2p"}, last="2p 2p")
    take_haidi(game, 1)
    assert [(e["seat"], e["tile"]) for e in events(game, "draw")[-2:]] == [(1, "2p"), (1, "2p")]
    assert game.phase == "last_turn" and game.kong_tiles == [tile("2p"), tile("2p")]
    assert game.legal_actions(1) == [Action("win"), PASS]
    game.apply(Action("win"), 1)
    (win,) = events(game, "win")
    assert win["tiles"] == ["2p", "2p"] and win["from"] is None and win["context"] == ["last_tile"]
    same_hands(win["hands"][0], worked_win("he21_longqidui_jjh_two_haidi.yaml"))
    assert events(game, "bird")[0]["tiles"] == ["2p", "2p"]  # F1 112: the 海底 tiles are the birds


def test_both_exposed_haidi_tiles_are_robbed_together_for_two_he():
    """F1 107: 「如果A不能胡，但其他三家有人可以胡，被A被抢海底」, F1 208 「抢海底也一样」: the
    taker (seat 1) cannot win and shows both tiles; seat 2 wins on both (2合), the taker pays."""
    hands = {1: "1m 9m 1p 9p 1s 9s 2m 8m 2s 8s 4m 7m 4s", 2: "45p 123m 456m 789s 55s"}
    game = rigged(QQ, hands, last="3p 6p")
    take_haidi(game, 1)
    assert game.legal_actions(1) == [PASS]
    game.apply(PASS, 1)
    exposed = [e for e in game.events[-2:] if e["type"] == "discard"]
    assert [(e["tile"], e.get("exposed")) for e in exposed] == [("3p", True), ("6p", True)]
    assert game.round.tiles == (tile("3p"), tile("6p")) and game.to_move() == 2
    answer(game, {2: Action("win")})
    (win,) = events(game, "win")
    assert (win["seats"], win["tiles"], win["from"]) == ([2], ["3p", "6p"], 1)
    assert ("haidi", 2) in {(h["id"], h["value"]) for h in win["hands"][0]["hands"]}
    paid = {(e["from"], e["to"]) for e in events(game, "payment") if "海底" in e["reasons"][0]}
    assert paid == {(1, 2)}


@pytest.mark.parametrize("seed", [2, 3])
def test_no_haidi_is_split_between_two_takers(seed):
    """F1 107–108 (the roaming 海底, both tiles to one taker): the game of issue 18's
    reproduction (``mjrules play changsha/qq2014 --seed 2 --hands 4``) and another; every
    take draws the two tiles to the taker, and the log replays."""
    _, log = play(QQ, seed=seed, agents="simple", hands=4)
    takes = [i for i, e in enumerate(log) if e["type"] == "act" and e["action"]["kind"] == "take"]
    assert takes
    for i in takes:
        draws = [e for e in log[i + 1 : i + 3] if e["type"] == "draw"]
        assert [e["seat"] for e in draws] == [log[i]["seat"]] * 2
        assert all(e["last_tile"] for e in draws)
    assert replay(log).hands == 4


@pytest.mark.parametrize("bot", ["efficiency", "value", "defensive"])
def test_the_bots_answer_a_joint_round_with_the_tile_each_claim_takes(bot):
    """F1 92–93 (the joint round's claims name their tile; 继续开杠): the kong-er, locked and
    ready, kongs again with its 3s since the hand stays ready; a claim on the second tile is
    judged with that tile (a pung of 7p by a seat holding 77p leaves a valid hand)."""
    game = kaigang({1: "44s 111m 777p 23m 66m 8m"}, "3s 4s", dealer="9999p 333s 456m 55s 78s")
    game.apply(PASS, 0)
    agent = make_agent(bot, 0)
    choice = agent.act(game.observation(0), game.legal_actions(0))
    assert choice.kind == "kong" and choice.tile == tile("3s")
    game = kaigang(RULE_C, "3p 7p")
    game.apply(PASS, 0)
    for seat in (1, 2):
        legal = game.legal_actions(seat)
        assert agent.act(game.observation(seat), legal) in legal
        game.apply(PASS, seat)


@pytest.mark.parametrize(("seed", "shown"), [(280, "taken"), (187, "seat_tiles")])
def test_logs_with_joint_rounds_replay(seed, shown):
    """A pung of one 开杠 tile (the claim names the tile ``taken``) and two players robbing
    the two exposed 海底 tiles (each winner's ``seat_tiles``), played by bots, replay."""
    _, log = play(QQ, seed=seed, agents="efficiency:kong_policy=always;kong_option=1")
    assert any(shown in e for e in log)
    assert replay(log).hands == 1


def test_the_kong_er_kongs_again_by_kaigang_only_while_ready():
    """F1 91 「开杠，当玩家听牌后才能开杠」 holds for 继续开杠 too (F1 93 「也可以补张」): the
    kong-er waits on 5m with 123s 234s 345s; konging its 3s leaves 1s 22s 44s 5s 5m, ready
    for nothing, so only a 补张 is offered."""
    game = kaigang({}, "3s 4s", dealer="9999p 1s 22s 333s 44s 5s 5m")
    game.apply(PASS, 0)
    assert game.to_move() == 0
    assert game.legal_actions(0) == [Action("kong", tile("3s"), "buzhang"), PASS]


def test_a_kaigang_of_a_kong_tile_claimed_in_the_joint_round():
    """F1 92 「开杠打出的2张牌可 … 让其他三家吃、碰、杠」 and F1 104 (a kong on a discard is
    robbable once the dice land): seat 2, ready, kongs the 3p by 开杠; nobody may rob it,
    so the kong is made on seat 0's tile and seat 2 rolls for its own two tiles."""
    game = kaigang({2: "333p 123s 789m 45m 88s"}, "3p 7p")
    game.apply(PASS, 0)
    assert Action("kong", tile("3p"), "kaigang") in game.round.options[2]
    answer(game, {2: Action("kong", tile("3p"), "kaigang")})
    claim, kong = events(game, "claim")[-1], events(game, "kong")[-1]
    assert (claim["seat"], claim["kind"], claim["from"], claim["taken"]) == (2, "kong", 0, "3p")
    assert kong == {"type": "kong", "seat": 2, "kind": "direct", "tile": "3p", "from": 0}
    replacement = events(game, "replacement")[-1]
    assert replacement["seat"] == 2 and replacement["method"] == "kaigang"
    assert len(replacement["tiles"]) == 2 and replacement["dice"]
    assert (game.kongs[-1].seat, game.kongs[-1].kind, game.kongs[-1].provider) == (2, "direct", 0)
    assert game.players[0].discards == [tile("7p")]
