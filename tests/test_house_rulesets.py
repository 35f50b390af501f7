"""Every house ruleset under rulesets/house/ (variants written in YAML on a shipped ruleset,
rulesets/house/README.md) is valid without a warning, declares where each of its rules comes
from, and plays: a short match with random bots (every choice made at random, so a stake or
a bet is not always the default) and with efficiency bots, payments balancing, the log
replaying.  Kept small: the full runs are in the README."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.ruleset import check_ruleset, load
from interpreter.engine import replay
from interpreter.engine.match import play

HOUSE = Path(__file__).resolve().parents[1] / "rulesets" / "house"
FILES = sorted(HOUSE.glob("*.yaml"))


def test_there_are_house_rulesets():
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_house_ruleset_is_valid_and_sourced(path: Path):
    checked = check_ruleset(str(path))
    assert checked.ok and not checked.problems, "\n".join(p.format() for p in checked.problems)
    ruleset = load(f"house/{path.stem}")
    assert ruleset.get("ruleset")["region"] == "house"
    assert ruleset.get("ruleset").get("source"), "say where the rules come from"


@pytest.mark.parametrize("agents", ["random", "efficiency"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_house_ruleset_plays(path: Path, agents: str):
    ruleset = load(f"house/{path.stem}")
    result, events = play(ruleset, 5, agents, hands=3)
    assert len(result.hands) == 3
    for hand in result.hands:
        assert sum(hand.deltas) == 0
    assert replay(events, ruleset).hands == 3
