"""Mechanics in scripted games with rigged walls."""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from interpreter.engine import Action, IllegalAction
from tests.engine.helpers import rigged, tile, tsumogiri


@pytest.fixture(scope="module")
def qq2014():
    return load("changsha/qq2014")


def last_event(game, kind):
    return [e for e in game.events if e["type"] == kind][-1]


def test_a_kong_replacement_draw_that_wins(qq2014):
    # The dealer holds four 5m and a hand that the 2s from the tail completes.
    game = rigged(qq2014, {0: "5555m 123p 456p 789s 2s"}, tail="2s 9m")
    assert game.to_move() == 0
    kong = Action("kong", tile("5m"), "buzhang")
    assert kong in game.legal_actions(0)
    game.apply(kong)
    assert last_event(game, "replacement")["tiles"] == ["2s"]  # the tail stack's top tile
    assert Action("win", tile("2s")) in game.legal_actions(0)
    game.apply(Action("win", tile("2s")))
    win = last_event(game, "win")
    assert win["context"] == ["kong_draw"] and win["from"] is None
    assert "gangshangkaihua" in {h["id"] for h in win["hands"][0]["hands"]}
    assert game.is_over() and game.result().winners == (0,)
    assert sum(game.result().deltas) == 0 and game.result().deltas[0] > 0


def test_the_last_tile_roams_and_is_robbed():
    basic = load("changsha/basic")
    # Seat 2 waits on 5s with a 2/5/8 pair; the only other 5s sit in seat 1's hand, and the
    # last tile of the wall is the fourth 5s.
    game = rigged(
        basic,
        {1: "55s 111m 222p 369m 47p", 2: "123m 456m 789m 234p 5s"},
        last="5s",
    )
    offers = []

    def at_offer(g):
        return g.phase == "last_offer"

    tsumogiri(game, at_offer)
    while game.phase == "last_offer":
        seat = game.to_move()
        offers.append(seat)
        if seat == 2 or (len(offers) == 1 and (seat + 1) % 4 != 2):
            game.apply(Action("pass"))
        else:
            game.apply(Action("take"))
    taker = offers[-1]
    assert len(offers) >= 2 and offers[1] == (offers[0] + 1) % 4  # it roamed
    assert taker != 2 and game.phase == "last_turn"
    assert game.legal_actions(taker) == [Action("pass")]  # the taker cannot win on it
    game.apply(Action("pass"))
    assert game.to_move() == 2
    game.apply(Action("win", tile("5s")))
    win = last_event(game, "win")
    assert win["context"] == ["last_tile"] and win["from"] == taker
    assert "haidipao" in {h["id"] for h in win["hands"][0]["hands"]}
    after_deal = game.events[next(i for i, e in enumerate(game.events) if e["type"] == "phase") :]
    assert {(e["from"], e["to"]) for e in after_deal if e["type"] == "payment"} == {(taker, 2)}


def test_a_robbed_added_kong(qq2014):
    # The dealer discards 7p; seat 1 pungs it, later draws the fourth 7p and adds it to the
    # pung; seat 3, waiting on 7p, robs the kong.
    game = rigged(
        qq2014,
        {
            0: "7p 222s 234p 567m 999s 4s",
            1: "77p 135m 468s 1p 3p 5p 9p 9m",
            3: "123m 456m 789m 55s 68p",
        },
        draws="1s 3s 5s 7p",
    )
    game.apply(Action("discard", tile("7p")))
    assert game.to_move() == 1
    game.apply(Action("pung", tile("7p")))
    if game.to_move() == 3:  # seat 3 could win on it and passes
        game.apply(Action("pass"))
    assert game.to_move() == 1 and game.phase == "turn"
    game.apply(Action("discard", tile("9p")))
    tsumogiri(game, lambda g: g.to_move() == 1 and g.phase == "turn")
    assert game.drawn == tile("7p")
    game.apply(Action("kong", tile("7p"), "buzhang"))
    assert game.phase == "claim" and game.to_move() == 3
    game.apply(Action("win", tile("7p")))
    win = last_event(game, "win")
    assert win["context"] == ["robbing_kong"] and win["from"] == 1 and win["seats"] == [3]
    assert [m.kind for m in game.players[1].melds] == ["pung"]  # the kong is undone
    assert not [e for e in game.events if e["type"] == "replacement"]
    assert game.census() == Counter(game.rules.all_tiles)


def test_blood_battle_goes_on_after_wins_on_one_discard():
    blog5 = load("sichuan/blog5")
    game = rigged(
        blog5,
        {
            0: "9p 111m 555m 666s 777s 8s",
            1: "123m 456m 789m 234m 9p",
            2: "111s 222s 333s 444s 9p",
            3: "555p 666p 777p 888p 3m",
        },
        draws="3m",
    )
    game.apply(Action("discard", tile("9p")))
    assert game.to_move() == 1
    game.apply(Action("win", tile("9p")))
    game.apply(Action("win", tile("9p")))
    first = last_event(game, "win")
    assert first["seats"] == [1, 2] and first["from"] == 0  # 一炮多响
    assert not game.is_over()  # the game goes on
    assert game.observation(0)["in_game"] == (True, False, False, True)
    assert game.to_move() == 3 and game.drawn == tile("3m")
    game.apply(Action("win", tile("3m")))
    assert game.is_over()
    result = game.result()
    assert result.reason == "one_left" and result.winners == (1, 2, 3)
    assert sum(result.deltas) == 0
    payers = {(e["from"], e["to"]) for e in game.events if e["type"] == "payment"}
    assert payers == {(0, 1), (0, 2), (0, 3)}  # seat 3's self-draw: only seat 0 is still in


def test_an_illegal_action_is_refused_and_changes_nothing(qq2014):
    game = rigged(qq2014, {0: "5555m 123p 456p 789s 2s"})
    before = (list(game.events), game.census())
    with pytest.raises(IllegalAction, match="cannot discard 9p"):
        game.apply(Action("discard", tile("9p")))
    with pytest.raises(IllegalAction, match="seat 0's decision"):
        game.apply(Action("discard", tile("5m")), seat=2)
    with pytest.raises(IllegalAction):
        game.apply(("discard", tile("5m"), ""))  # not an Action
    assert (game.events, game.census()) == before
