"""Mechanics in scripted games with rigged walls."""

from __future__ import annotations

from collections import Counter

import pytest

from dsl.ruleset import load
from interpreter.engine import Action, IllegalAction, play, replay
from interpreter.engine.narrate import narrate
from tests.engine.helpers import next_dice, place_stack, rigged, tile, tiles, tsumogiri


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
    # 补张胡牌算自摸 (001_76942f0387627e0c.txt line 90): a plain self-draw, not 杠上开花.
    assert win["context"] == [] and win["from"] is None
    assert {h["id"] for h in win["hands"][0]["hands"]} == {"pinghu"}
    assert game.is_over() and game.result().winners == (0,)
    win_payments = game.result().settlements[-1].payments
    assert {(pay.payer, pay.payee) for pay in win_payments} == {(1, 0), (2, 0), (3, 0)}
    assert sum(game.result().deltas) == 0


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
    # A robbed 补张 is a plain win paid by the kong-er, not 抢杠 (001_76942f0387627e0c.txt
    # line 103: 又摸到或将手牌中的第四张补张，C宣布胡补张的牌，算A放炮).
    assert win["context"] == [] and win["from"] == 1 and win["seats"] == [3]
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


def test_blood_battle_ends_at_the_wall_with_a_flower_pig_and_a_ready_check():
    # Seats 1 and 2 win on the dealer's first discard; seats 0 and 3 play on to the end of
    # the wall.  Seat 3 is ready on 3m, which it can never draw (seat 0 holds the others);
    # seat 0 holds every suit and is not ready: it pays 花猪 and 查叫 to seat 3.
    blog5 = load("sichuan/blog5")
    game = rigged(
        blog5,
        {
            0: "9p 333m 147p 258s 369s 1m",
            1: "123s 456s 789s 234s 9p",
            2: "111p 222p 333p 444p 9p",
            3: "555p 666p 777p 888p 3m",
        },
    )
    game.apply(Action("discard", tile("9p")))
    game.apply(Action("win", tile("9p")))
    game.apply(Action("win", tile("9p")))
    assert last_event(game, "win")["seats"] == [1, 2]
    wins_paid = sum(1 for e in game.events if e["type"] == "payment")
    tsumogiri(game)
    result = game.result()
    assert result.reason == "wall" and result.winners == (1, 2)
    end = [e for e in game.events if e["type"] == "payment"][wins_paid:]
    assert [(e["from"], e["to"], e["amount"], e["reasons"][0].split(":")[0]) for e in end] == [
        (0, 3, 10, "花猪"),  # 10× the stake, no cap (C-33)
        (0, 3, 2, "查叫"),  # the least seat 3 could win: 对对胡 2番 = 2 (C-32)
    ]
    assert sum(result.deltas) == 0


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


def _exchange_game(direction):
    app = load("sichuan/app", settings=["exchange=true", f"exchange_direction={direction}"])
    hands = {
        0: "111m 234p 567p 999s 12s",
        1: "222m 345p 678p 55s 34s",
        2: "333m 111p 999p 66s 78s",
        3: "444m 222p 888p 77s 89s",
    }
    return app, rigged(app, hands)


@pytest.mark.parametrize(
    "direction, to", [("clockwise", -1), ("counterclockwise", 1), ("across", 2)]
)
def test_the_exchange_passes_known_tiles(direction, to):
    game = _exchange_game(direction)[1]
    assert game.phase == "exchange" and game.to_move() == 0
    given = {0: "111m", 1: "222m", 2: "333m", 3: "444m"}
    legal = game.legal_actions(0)
    assert all(a.kind == "exchange" for a in legal)
    assert Action("exchange", option="12s") not in legal  # three tiles, one suit
    for seat in range(4):
        assert game.to_move() == seat
        game.apply(Action("exchange", option=given[seat]))
        seen = game.observation(seat)["exchange"]
        assert seen["gave"] == tuple(tiles(given[seat]))
        assert seat == 3 or seen["received"] == ()  # nothing received before all have chosen
    event = last_event(game, "exchange")
    received = {(s + to) % 4: given[s] for s in range(4)}
    assert event["direction"] == direction and event["dice"] == []
    assert event["gave"] == [given[s] for s in range(4)]
    assert event["received"] == [received[s] for s in range(4)]
    for seat in range(4):
        assert Counter(tiles(received[seat])) <= Counter(game.players[seat].hand())
        assert game.observation(seat)["exchange"]["received"] == tuple(tiles(received[seat]))
    assert game.phase == "turn" and game.to_move() == 0 and game.drawn in game.players[0].hand()
    assert game.census() == Counter(game.rules.all_tiles)
    tsumogiri(game)
    # the same decisions on the same wall give the same log
    again = _exchange_game(direction)[1]
    for e in game.events:
        if e["type"] == "act":
            again.apply(Action.from_json(e["action"]), e["seat"])
    assert again.events == game.events
    assert "exchange" in narrate(game.events)


def test_the_exchange_by_dice_replays_and_repeats():
    app = load("sichuan/app", settings=["exchange=true", "exchange_direction=dice"])
    agents = ["random", "simple", "efficiency", "value"]
    result, events = play(app, 5, agents, hands=2)
    again, events_again = play(app, 5, agents, hands=2)
    assert events == events_again and result == again
    found = [e for e in events if e["type"] == "exchange"]
    assert len(found) == 2 and all(len(e["dice"]) == 1 for e in found)
    assert replay(events, app).hands == 2


def test_an_open_kong_tile_wins_for_another_player():
    # 开杠 (two tiles from a dice-chosen stack): the dealer kongs 5555m while ready on 2s; the
    # stack holds 8s (no use to anyone) then 5s, which seat 1 is waiting on: 杠上炮.
    qq = load("changsha/qq2014", settings=["birds=0"])
    game = rigged(qq, {0: "5555m 123p 456p 789s 2s", 1: "123m 789m 234p 678p 5s"})
    kong = Action("kong", tile("5m"), "kaigang")
    assert kong in game.legal_actions(0)
    dice = next_dice(game)
    place_stack(game, sum(dice), "8s 5s")
    mark = len(game.events)
    game.apply(kong)
    assert last_event(game, "replacement") == {
        "type": "replacement", "seat": 0, "method": "kaigang", "tiles": ["8s", "5s"],
        "dice": dice,
    }  # fmt: skip
    assert game.phase == "kong_tiles" and game.legal_actions(0) == [Action("pass")]
    game.apply(Action("pass"))
    # Both tiles are answered in one round (unused_round: joint); seat 1 wins on the 5s.
    assert game.round.tiles == (tile("8s"), tile("5s"))
    assert game.round.win_tiles == {1: (tile("5s"),)}
    assert game.to_move() == 1 and Action("win") in game.legal_actions(1)
    game.apply(Action("win"))
    while not game.is_over() and Action("pass") in game.legal_actions(game.to_move()):
        game.apply(Action("pass"))
    after = [e for e in game.events[mark:] if e["type"] != "act"]
    assert [e["type"] for e in after][:6] == [
        "kong", "replacement", "discard", "discard", "win", "payment",
    ]  # fmt: skip
    win = last_event(game, "win")
    assert win["seats"] == [1] and win["from"] == 0 and win["context"] == ["kong_discard"]
    hands = {h["id"]: h["value"] for h in win["hands"][0]["hands"]}
    assert hands["qianggang"] == 1  # 抢杠上牌: one 合 per winning kong tile
    total = win["hands"][0]["total"]
    payments = [(e["from"], e["to"], e["amount"]) for e in after if e["type"] == "payment"]
    # the discarder alone pays 6 per 合, plus 1 per 合 as the dealer
    assert payments == [(0, 1, 7 * total)]
    assert game.result().winners == (1,) and sum(game.result().deltas) == 0
