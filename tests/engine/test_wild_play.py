"""Wild tiles in play (tiles.wilds): the engine's win tests, claims and kongs, the deal's
indicator, expressions over wilds, and the bots never throwing a wild."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.expressions import Scope, compile_expression
from dsl.ruleset import load
from dsl.situation import Situation
from handcore import shapes
from handcore.tiles import EVERY
from interpreter.agents import make_agent
from interpreter.engine import Action
from interpreter.engine.deal import next_in_order
from interpreter.engine.match import play
from interpreter.scenario import read_scenario_text
from interpreter.settle import SettlementError, settle
from tests.engine.helpers import rigged, tile, tiles

HONGZHONG = load("hunan/hongzhong")
ZHONG = tile("5z")


def situation(hand: str, **fields) -> Situation:
    ts = HONGZHONG.tileset
    return Situation(shapes.keys_of(ts.counts(tiles(hand)), ts), tileset=ts, **fields)


def test_the_ruleset_declares_red_dragons_wild() -> None:
    ts = HONGZHONG.tileset
    assert ts.wilds == (ZHONG,) and ts.total == 112
    keys = shapes.keys_of(ts.counts(tiles("123m 55z")), ts)
    bare, wilds = shapes.without_wilds(keys, ts)
    assert wilds == 2 and len(bare) == 3  # the honour block held only wilds: left out


def test_expressions_read_wilds() -> None:
    soft = situation("123m 999m 456p 55s 7s 9s 5z", win_tile=tile("9s"), self_draw=True)
    assert soft.wilds == 1
    assert soft.concealed_tiles == tuple(tiles("123m 999m 456p 55s 79s"))  # the wild left out
    assert any(s.melds[0:1] for s in soft.splits)
    hard = situation("123m 999m 456p 55s 789s", win_tile=tile("9s"))
    assert hard.wilds == 0 and hard.splits != ()


@pytest.mark.parametrize(
    ("condition", "hand", "expected"),
    [
        ("standard()", "123m 999m 456p 55s 7s 9s 5z", True),
        ("standard(substitutes: false)", "123m 999m 456p 55s 7s 9s 5z", False),
        ("standard(substitutes: false)", "123m 999m 456p 55s 789s", True),
        ("seven_pairs()", "11m 33m 55p 77p 99s 22s 4s 5z", True),
        ("seven_pairs(substitutes: false)", "11m 33m 55p 77p 99s 22s 4s 5z", False),
        ("wilds == 4", "1357m 2468p 13s 5555z", True),
        ("count(tiles) == 10", "1357m 2468p 13s 5555z", True),
    ],
)
def test_conditions_over_wilds(condition: str, hand: str, expected: bool) -> None:
    scope = Scope.for_section("hands", tileset=HONGZHONG.tileset)
    compiled = compile_expression(condition, scope, "bool")
    assert compiled(situation(hand, win_tile=tiles(hand)[-1])) is expected


def test_a_wild_completes_a_self_draw() -> None:
    # The dealer's 14th tile 9s: its 红中 stands for 8s (789s).
    game = rigged(HONGZHONG, {0: "123m 999m 456p 55s 7s 5z 9s"})
    assert Action("win", tile("9s")) in game.legal_actions(0)


def test_four_wilds_win_at_once() -> None:
    game = rigged(HONGZHONG, {0: "13579m 2468p 13579s", 1: "5z 5z 5z 5z 13579m 2468p"})
    to_seat_one(game)
    assert any(a.kind == "win" for a in game.legal_actions(1))  # 四红中, whatever it drew
    off = rigged(load("hunan/hongzhong", settings=["sihongzhong=false"]),
                 {0: "13579m 2468p 13579s", 1: "5z 5z 5z 5z 13579m 2468p"})  # fmt: skip
    to_seat_one(off)
    assert not any(a.kind == "win" for a in off.legal_actions(1))


def to_seat_one(game) -> None:
    """The dealer throws 1m, every claim on it is passed: seat 1 draws."""
    game.apply(Action("discard", tile("1m")), 0)
    while game.phase != "turn":
        game.apply(Action("pass"), game.to_move())
    assert game.to_move() == 1


def test_a_discarded_wild_is_not_claimed() -> None:
    hongzhong = load("hunan/hongzhong", settings=["dianpao=true"])
    # Seat 1 holds two 红中 and would pung, or win on a 红中 as any tile: neither is offered.
    game = rigged(hongzhong, {0: "5z 123456789m 1234p", 1: "5z 5z 123m 456m 789m 11p"})
    game.apply(Action("discard", ZHONG), 0)
    assert game.phase == "turn" and game.to_move() == 1  # no claim round for a wild


def test_wild_tiles_make_no_kong() -> None:
    game = rigged(HONGZHONG, {0: "5z 5z 5z 5z 123456789m 1p"})
    assert not any(a.kind == "kong" for a in game.legal_actions(0))


def test_the_deal_shows_the_wilds() -> None:
    _, events = play(HONGZHONG, 3, "efficiency", hands=1)
    deal = next(e for e in events if e["type"] == "deal")
    assert deal["wilds"] == ["5z"] and "indicator" not in deal
    _, plain = play(load("changsha/basic"), 3, "efficiency", hands=1)
    assert "wilds" not in next(e for e in plain if e["type"] == "deal")


def test_an_indicator_names_the_next_tile(tmp_path: Path) -> None:
    assert [EVERY.name(next_in_order(EVERY, tile(t))) for t in ("9m", "3p", "4z", "7z", "1z")] == [
        "1m", "4p", "1z", "5z", "2z",
    ]  # fmt: skip
    path = tmp_path / "indicator.yaml"
    path.write_text(
        "extends: hunan/hongzhong\n"
        "ruleset: {id: indicator}\n"
        "tiles: {honours: false, wilds: {tiles: [], indicator: next, stand_for: any}}\n"
        "birds: {count: '0'}\n",
        encoding="utf-8",
    )
    ruleset = load(str(path))
    _, events = play(ruleset, 5, "strategy", hands=2)
    for deal in (e for e in events if e["type"] == "deal"):
        indicator = tile(deal["indicator"])
        assert deal["wilds"] == [EVERY.name(next_in_order(EVERY, indicator))]
    wins = [e for e in events if e["type"] == "win"]
    assert wins  # the hands are played to a win with the chosen wild


@pytest.mark.parametrize("bot", ["efficiency", "defensive", "value", "strategy"])
def test_bots_never_throw_a_wild(bot: str) -> None:
    _, events = play(HONGZHONG, 11, bot, hands=6)
    assert not [e for e in events if e["type"] == "discard" and e["tile"] == "5z"]
    assert any(e["type"] == "win" for e in events)


def test_the_strategy_bot_keeps_its_wild_over_a_useful_tile() -> None:
    """A hand whose worst tile by shape alone is the isolated 红中 (an honour with nothing
    beside it): the strategy bot throws a suited tile instead."""
    game = rigged(HONGZHONG, {0: "5z 1m 4m 7m 1p 4p 7p 1s 4s 7s 9s 9p 9m 2m"})
    agent = make_agent("strategy", seed=0)
    action = agent.act(game.observation(0), game.legal_actions(0))
    assert action.kind == "discard" and action.tile != ZHONG


def test_pung_and_kong_from_anyone_but_no_chow() -> None:
    # The dealer throws 1m: seat 1 (next in turn) holds 23m but may not chow; seat 2 pungs.
    game = rigged(HONGZHONG, {0: "1m 23456789p 12345s", 1: "23m 456p", 2: "11m 789p"})
    game.apply(Action("discard", tile("1m")), 0)
    assert game.phase == "claim"
    assert not any(a.kind == "chow" for a in game.legal_actions(1))
    assert Action("pung", tile("1m")) in game.legal_actions(2)


@pytest.mark.parametrize(
    ("settings", "win"),
    [
        # 四红中胡 left out: four wilds do not complete 1357m 2468p 13s (more would be needed).
        ("options: {sihongzhong: false}", "hand: 1357m 2468p 13s 中中中中\n  win_tile: 1s"),
        # 只能自摸 (the default room): a seven-pairs hand won on a discard is refused.
        ("", "hand: 11m 33m 55p 77p 99s 22s 4s 中\n  win_tile: 4s\n  from: 2"),
    ],
)
def test_settlement_refuses_what_the_room_leaves_out(settings: str, win: str) -> None:
    text = f"ruleset: hunan/hongzhong\n{settings}\ndealer: 0\nwins:\n- seat: 3\n  {win}\n"
    scenario = read_scenario_text(text)
    with pytest.raises(SettlementError, match="does not win"):
        settle(load("hunan/hongzhong", settings=scenario.settings()), scenario.hand)


def test_a_scenario_names_the_wild_an_indicator_chose(tmp_path: Path) -> None:
    path = tmp_path / "indicator.yaml"
    path.write_text(
        "extends: hunan/hongzhong\nruleset: {id: indicator}\n"
        "tiles: {honours: false, wilds: {tiles: [], indicator: next, stand_for: any}}\n",
        encoding="utf-8",
    )
    ruleset = load(str(path))
    # 6m is wild: it stands for 8s (789s).  Without it named, the hand does not win.
    text = (
        f"ruleset: {path}\ndealer: 0\nwins:\n- seat: 1\n  hand: 123m 999m 456p 55s 7s 9s 6m\n"
        "  win_tile: 9s\nbirds: [2m, 3m, 4p, 6s, 7s]\n"
    )
    with pytest.raises(SettlementError, match="does not win"):
        settle(ruleset, read_scenario_text(text).hand)
    result = settle(ruleset, read_scenario_text(text + "wilds: [6m]\n").hand)
    assert result.deltas == [-2, 6, -2, -2]  # a plain self-draw, 2 from each, no bird hit


def test_a_ready_check_counts_a_hand_ready_through_its_wild(tmp_path: Path) -> None:
    """查叫-like payments at a drawn end read readiness with the wilds: 123m 456p 789s 11p 2s
    and a 红中 waits on every tile that makes 2s a meld (the wild stands for the rest)."""
    path = tmp_path / "ready.yaml"
    path.write_text(
        "extends: hunan/hongzhong\nruleset: {id: ready}\npayments:\n  chajiao:\n"
        "    at: wall_end\n    payers: seats_where(players_in_game, not ready(it))\n"
        "    payees: seats_where(players_in_game, ready(it))\n    amount: least_win(payee)\n"
        "    reason: ready check\n    source: house rule\n",
        encoding="utf-8",
    )
    ruleset = load(str(path), settings=["dianpao=true"])  # least_win: won on a discard
    text = (
        f"ruleset: {path}\ndealer: 0\nunfinished:\n"
        "- {seat: 0, hand: 123m 456p 789s 11p 2s 中}\n- {seat: 1, hand: 13579m 2468p 1357s}\n"
    )
    result = settle(ruleset, read_scenario_text(text).hand)
    # Seat 0 is ready: seat 1, not ready, pays its least win on a discard (平胡, 1).
    assert result.deltas == [1, -1, 0, 0]
