"""Fields worked out from the options once, at load: ``enabled`` as any condition on options,
a list of named values (``tiles.suits``) as an expression on options."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.explain import explain
from dsl.ruleset import load
from interpreter.check.static import static_findings
from interpreter.engine.rules import Rules

RULESET = """\
ruleset:
  title: conditions on options
options:
  birds: {type: int, default: 2, allowed: [0, 2, 4]}
  strict: {type: bool, default: false}
  cap: {type: choice, default: none, allowed: [none, 6he]}
  wan: {type: bool, default: true}
presets:
  tough: {set: {strict: true, cap: 6he}}
tiles:
  suits: 'if option.wan then {"m", "p", "s"} else {"s", "p"}'
dealer:
  next: winner
payment:
  payers: "{discarder}"
  base: 1
scoring:
  classes: [small, bonus]
hands:
  pinghu: {class: small, when: standard(), source: house rule}
  relaxed: {class: small, when: standard(), enabled: not option.strict, source: house rule}
  capped:
    class: small
    when: standard()
    enabled: option.cap != "none" and option.birds >= 2
    source: house rule
modifiers:
  birdless: {value: 1, enabled: option.birds == 0 or option.strict, source: house rule}
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "cond.yaml").write_text(RULESET, encoding="utf-8")
    return tmp_path


def enabled(root: Path, **kwargs) -> tuple[bool, bool, bool]:
    ruleset = load("cond", root=root, **kwargs)
    return (
        ruleset.hands["relaxed"]["enabled"],
        ruleset.hands["capped"]["enabled"],
        ruleset.modifiers["birdless"]["enabled"],
    )


def test_conditions_follow_the_options(root: Path) -> None:
    assert enabled(root) == (True, False, False)
    assert enabled(root, settings=["strict=true"]) == (False, False, True)
    assert enabled(root, settings=["cap=6he"]) == (True, True, False)
    assert enabled(root, settings=["cap=6he", "birds=0"]) == (True, False, True)
    assert enabled(root, preset="tough") == (False, True, True)


def test_explain_names_the_options_a_condition_reads(root: Path) -> None:
    text = explain(load("cond", root=root, settings=["cap=6he"]))
    assert "enabled: yes (from option.cap, option.birds)" in text
    assert "enabled: yes (from option.strict)" in text


def test_options_read_by_a_condition_are_read(root: Path) -> None:
    unread = [f.message for f in static_findings(load("cond", root=root))]
    assert not [m for m in unread if "read by no rule" in m], unread


def test_suits_from_an_option(root: Path) -> None:
    """缺万子: the 万 suit left out by an option; the tiles follow (72 of them)."""
    with_wan = load("cond", root=root)
    without = load("cond", root=root, settings=["wan=false"])
    assert with_wan.tiles["suits"] == ("m", "p", "s")
    assert without.tiles["suits"] == ("p", "s")  # in the order of the field's values
    tiles = Rules(without).all_tiles
    assert len(tiles) == 72 and {t // 9 for t in tiles} == {1, 2}
    assert "suits 花色: p, s (from option.wan)" in explain(without)
