"""What the engine learns from the expressions that replaced named values: whether the
winners leave and the hand ends after a win (game_end), whether a win must lack a suit
(win_requires, for the bots), all as the rulesets write them."""

from __future__ import annotations

from pathlib import Path

from dsl.ruleset import load
from dsl.situation import Situation
from interpreter.engine.rules import Rules


def after(rules: Rules, winners: set[int], in_game: set[int]) -> tuple[bool, bool]:
    situation = Situation(
        keys=(0, 0, 0), winner=min(winners), winners=frozenset(winners),
        players_in_game=frozenset(in_game), options=rules.options,
    )  # fmt: skip
    return rules.after_win(situation)


def test_game_end_as_each_play_mode_says() -> None:
    # sichuan/blog5: 血战到底 by default (001_76942f0387627e0c.txt 第5版 line 14), the blog's
    # 普通版 as preset putong, 血流成河 as until_wall_empty.
    bloody = Rules(load("sichuan/blog5"))
    assert after(bloody, {1}, {0, 1, 2, 3}) == (True, False)
    assert after(bloody, {1, 2}, {0, 1, 2, 3}) == (True, False)
    assert after(bloody, {1}, {0, 1}) == (True, True)  # one player left
    assert not bloody.first_win
    plain = Rules(load("sichuan/blog5", preset="putong"))
    assert after(plain, {1}, {0, 1, 2, 3}) == (False, True) and plain.first_win
    flowing = Rules(load("sichuan/blog5", settings=["play_mode=until_wall_empty"]))
    assert after(flowing, {1}, {0, 1}) == (False, False) and not flowing.first_win
    assert Rules(load("changsha/qq2014")).first_win


def test_bots_learn_the_void_suit_rule_from_win_requires(tmp_path: Path) -> None:
    assert Rules(load("sichuan/blog5")).void_suit  # count(suits) < 3
    assert not Rules(load("changsha/qq2014")).void_suit
    house = tmp_path / "house.yaml"
    house.write_text(
        "format: 2\nextends: changsha/qq2014\nruleset: {title: house}\n"
        "restrictions: {win_requires: count(suits) <= 2 or self_draw}\n",
        encoding="utf-8",
    )
    assert Rules(load(str(house))).void_suit
    house.write_text(house.read_text().replace("<= 2 or self_draw", "<= 3"), encoding="utf-8")
    assert not Rules(load(str(house))).void_suit
