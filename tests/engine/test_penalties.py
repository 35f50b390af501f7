"""A seat leaving the hand (escape) and a false win claim: actions no bot takes, carried out
by the engine, paid as the ruleset's payment rules at ``escape`` and ``false_win`` say."""

from __future__ import annotations

import io

import pytest

from dsl.ruleset import load
from interpreter.agents import make_agent
from interpreter.engine import Action, Game, IllegalAction, play, replay
from interpreter.engine.match import play as play_match
from interpreter.human import HumanAgent
from tests.engine.helpers import rigged, tsumogiri

APP = load("sichuan/app")
BLOG = load("sichuan/blog5")


def until_turn(game: Game, turns: int) -> None:
    """Play on (everyone throws what it draws) until ``turns`` discards were made."""
    tsumogiri(game, until=lambda g: sum(e["type"] == "discard" for e in g.events) >= turns
              and g.phase == "turn")  # fmt: skip


def test_a_seat_that_leaves_ends_the_hand_and_pays_into_the_pot():
    # 002_c4a44432eae6dd73.txt line 35: 未胡者逃跑，游戏结束 … 扣掉16倍点数*未胡人数.
    game = Game(APP, seed=4)
    tsumogiri(game, until=lambda g: g.phase == "turn" and g.choosing is None)
    until_turn(game, 8)
    seat = game.to_move()
    left = game.wall.drawable
    assert left > 4
    game.apply(Action("escape"), seat)
    assert game.is_over() and game.result().reason == "escape"
    paid = [e for e in game.events if e["type"] == "payment"]
    reasons = ["逃跑: 16倍点数 × 未胡人数"]
    assert paid[-1] == {"type": "payment", "amount": 16 * 6 * 3, "reasons": reasons,
                        "from": seat, "to": "pot"}  # fmt: skip
    assert game.events[-1]["type"] == "end" and game.events[-1]["reason"] == "escape"
    assert sum(game.deltas) == -16 * 6 * 3  # the pot took it from the table
    replay(game.events)  # the log plays again to the same end


def test_a_seat_that_leaves_in_the_last_tiles_pays_the_ready_hands():
    # 「而在最后4张牌的情况下，他人查大叫（不管逃跑者听牌否，赔给他人）… 按高分的一种扣」
    ready = "123m 789m 111p 789p 9p"  # 6p 平胡 6, 9p 带幺九 24: paid the higher
    game = rigged(APP, {1: ready}, last="5s 5s 6s 6s")
    tsumogiri(game, until=lambda g: g.phase == "turn" and g.wall.drawable <= 3
              and g.to_move() != 1)  # fmt: skip
    seat = game.to_move()
    game.apply(Action("escape"), seat)
    paid = {(e["from"], e["to"]): e["amount"] for e in game.events if e["type"] == "payment"
            and e["reasons"][0].startswith("逃跑: 查大叫")}  # fmt: skip
    assert paid.get((seat, 1)) == 24


def test_escape_is_never_a_legal_action_and_bots_never_take_it():
    _, events = play(APP, 2, "simple", hands=2)
    kinds = {e["action"]["kind"] for e in events if e["type"] == "act"}
    assert not kinds & {"escape", "false_win"}
    assert not any(e["type"] == "end" and e["reason"] == "escape" for e in events)


class Leaver:
    """Leaves at its first decision after the deal."""

    def act(self, obs, legal):
        return Action("escape") if any(a.kind == "discard" for a in legal) else legal[0]


def test_the_match_ends_when_a_player_leaves():
    agents = [Leaver(), *(make_agent("random", s) for s in (1, 2, 3))]
    result, events = play_match(load("changsha/points20"), 5, agents, hands=4)
    assert [h.reason for h in result.hands] == ["escape"]
    # 000_825dba35fdb6fcc9.txt line 227: 玩家逃跑、断线、强退扣除 70 分 … 不予以分配给其他玩家
    reasons = ["逃跑、断线、强退扣除 70 分 (escape)"]
    assert events[-2] == {"type": "payment", "amount": 70, "reasons": reasons, "from": 0,
                          "to": "pot"}  # fmt: skip
    assert sum(result.scores) == -70


def test_a_false_win_is_paid_and_the_seat_decides_again():
    # 001_76942f0387627e0c.txt line 31: 麻胡 … 赔场上所有人的1番，并不再计算其刮风下雨收益.
    game = rigged(BLOG, {1: "5555m 1239p 12345s"}, draws="9s")
    tsumogiri(game, until=lambda g: g.phase == "turn" and g.to_move() == 1)
    legal = game.legal_actions(1)
    kong = next(a for a in legal if a.kind == "kong")
    game.apply(kong, 1)  # 下雨: 2 from each other seat still in
    assert game.deltas[1] == 6
    seat = game.to_move()
    assert seat == 1 and not any(a.kind == "win" for a in game.legal_actions(1))
    before = list(game.legal_actions(1))
    game.apply(Action("false_win"), 1)
    # Its 下雨 given back (2 to each) and 1番 (底分 1) to each of the three others.
    assert game.deltas == [1, -3, 1, 1]
    assert game.to_move() == 1 and game.legal_actions(1) == before


def test_a_log_with_a_false_win_replays():
    game = Game(BLOG, seed=3)
    tsumogiri(game, until=lambda g: g.phase == "turn" and g.to_move() == 2
              and not any(a.kind == "win" for a in g.legal_actions(2)))  # fmt: skip
    game.apply(Action("false_win"), 2)
    assert game.deltas == [1, 1, -3, 1]  # 1番 (底分 1) to each player still in
    tsumogiri(game)
    replay(game.events)


def test_a_false_win_is_refused_when_the_hand_wins_or_while_choosing():
    game = rigged(BLOG, {0: "111222333m 456s 77s"})
    assert any(a.kind == "win" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction, match="its hand wins"):
        game.apply(Action("false_win"), 0)
    choosing = Game(load("sichuan/app", settings=["exchange=true"]), seed=1)
    assert choosing.choosing is not None
    with pytest.raises(IllegalAction, match="while choosing"):
        choosing.apply(Action("false_win"))
    with pytest.raises(IllegalAction, match="takes no tile"):
        choosing.apply(Action("escape", 3))


def test_a_person_leaves_or_claims_a_win_by_typing_it():
    answers = iter(["hu\n", "escape\n"])
    out = io.StringIO()
    person = HumanAgent(0, read=lambda: next(answers), out=out, unicode=False)
    game = Game(BLOG, seed=3)
    tsumogiri(game, until=lambda g: g.phase == "turn" and g.to_move() == 0
              and not any(a.kind == "win" for a in g.legal_actions(0)))  # fmt: skip
    person.watch(game)
    obs, legal = game.observation(0), game.legal_actions(0)
    claim = person.act(obs, legal)
    assert claim == Action("false_win")
    assert person.act(obs, legal) == Action("escape")
