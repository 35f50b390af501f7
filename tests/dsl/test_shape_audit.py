"""Hand types and winning shapes: 全求人 needs its pair, and the check tells an intended
shape-free hand type (``shape: none``) from one that makes any hand win by accident."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from dsl.expressions import Scope, compile_expression
from dsl.ruleset import available_ids, check_ruleset, default_root, load
from dsl.shape_audit import needs_shape, witness
from interpreter.scenario import read_scenario_text
from interpreter.settle import SettlementError, settle

REPO = Path(__file__).resolve().parents[2]
SHIPPED = available_ids(default_root())
MELDS = "[pung 111m, chow 678m, chow 234s, pung 999s]"
# 全求人 seeds: four claimed melds and the one tile left, won on the same tile (单钓):
# 001_76942f0387627e0c.txt line 198 "吃碰明杠4副，最后只留1张牌胡牌"; 003_ae78847060e89682.txt
# line 49 "手上只剩任意的一张牌时，别人打出了相同的牌"; 000_825dba35fdb6fcc9.txt line 39 "乱将".
ALL_CLAIMED = {
    "changsha/qq2014": [],
    "changsha/basic": [],
    "changsha/full2007": ["quanqiuren=true"],
    "changsha/tutorial": [],
}


def scenario(ruleset: str, hand: str, win_tile: str) -> str:
    return (
        f"ruleset: {ruleset}\ndealer: 0\nwins:\n- seat: 1\n  hand: {hand}\n"
        f"  melds: {MELDS}\n  win_tile: {win_tile}\n  from: 2\n"
    )


@pytest.mark.parametrize(("ruleset", "settings"), ALL_CLAIMED.items())
def test_all_claimed_needs_its_pair(ruleset: str, settings: list[str]) -> None:
    rules = load(ruleset, settings=settings)
    # Two unrelated tiles and four melds: no hand at all (it settled as 全求人 for 14 before).
    with pytest.raises(SettlementError, match="does not win"):
        settle(rules, read_scenario_text(scenario(ruleset, "8m 3s", "3s")).hand)
    # qq2014 例13: "111万碰 678万吃 234索吃 999索碰 6砣，别人打出6砣胡牌".
    won = settle(rules, read_scenario_text(scenario(ruleset, "6p 6p", "6p")).hand)
    assert "quanqiuren" in [h.id for h in won.wins[0].hands]


def house(tmp_path: Path, hand: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(
        "extends: changsha/qq2014\nruleset:\n  title: house\nhands:\n"
        f"  menqing:\n    class: big\n    source: house rule\n{hand}",
        encoding="utf-8",
    )
    return path


def test_a_hand_type_without_a_shape_is_refused_with_a_hand_it_admits(tmp_path) -> None:
    # The condition 全求人 had: four claimed melds and two concealed tiles, any two.
    path = house(tmp_path, "    when: count(melds, not concealed) == 4 and count(concealed) == 2\n")
    started = time.process_time()
    loaded = check_ruleset(str(path))
    assert time.process_time() - started < 3
    (problem,) = loaded.problems
    assert problem.is_error and (problem.location.line, problem.location.col) == (8, 11)
    assert problem.location.file == os.path.relpath(path)
    assert problem.message.startswith(
        "hands.menqing holds on a hand with no winning shape, which it would make a win: "
    )
    assert " with " in problem.message and "shape: none" in problem.expected


def test_a_declared_shape_free_hand_type_is_accepted(tmp_path) -> None:
    text = "    when: count(melds, not concealed) == 4 and count(concealed) == 2\n    shape: none\n"
    assert check_ruleset(str(house(tmp_path, text))).problems == []


def test_a_shape_free_declaration_on_a_shaped_condition_is_a_warning(tmp_path) -> None:
    text = "    when: standard() and count(melds) == 0\n    shape: none\n"
    (problem,) = check_ruleset(str(house(tmp_path, text))).problems
    assert not problem.is_error and "requires standard() or seven_pairs()" in problem.message
    assert problem.location.line == 9


def test_a_shaped_condition_the_syntax_cannot_prove_passes_the_search(tmp_path) -> None:
    # Holds only on complete hands, though not in a form the syntax reads: no false alarm.
    when = compile_expression(
        "not (not standard(pair: rank in {2, 5, 8}))", Scope.for_section("hands")
    )
    assert not needs_shape(when.ast) and witness(when, {}) is None
    text = '    when: "not (not standard(pair: rank in {2, 5, 8}))"\n'
    assert check_ruleset(str(house(tmp_path, text))).problems == []


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_every_shipped_hand_type_needs_a_shape_or_says_it_needs_none(ruleset: str) -> None:
    """The audit of every hand type: a shape in its condition, or ``shape: none`` and a hand
    with no shape that it really admits (the declaration is not idle)."""
    rules = load(ruleset)
    options = {name: option.possible_values() for name, option in rules.options.items()}
    for name, hand in rules.hands.items():
        when = hand["when"]
        if hand["shape"] == "none":
            assert not needs_shape(when.ast), (ruleset, name)
            assert witness(when, options, tileset=rules.tileset) is not None, (ruleset, name)
        else:
            assert needs_shape(when.ast), (ruleset, name)
