"""Every worked example of the rule documents, as a scenario under tests/scenarios/, settled.

Each file quotes its example and its source; `expect` holds what the document states: the
hand types by their Chinese names (``opening_zh``: the opening hands 起手胡 found, by seat,
all of them), the combined value, payments, the net per seat.  Where
the document's own arithmetic is wrong, the file says so and `expect` holds the reading
the ruleset chose.  A file marked `unsupported` names what the engine cannot yet do; it is
an expected failure, and a strict one: it is reported when it starts to pass.
"""

from pathlib import Path

import pytest

from dsl.ruleset import load
from interpreter.scenario import read_scenario
from interpreter.settle import payee_json, settle

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.rglob("*.yaml"))


def names(found):
    """Every name a found hand type answers to: 平胡 / 小胡 gives both."""
    return {part.strip() for h in found for part in h.name.split("/")}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_worked_example(path, request):
    scenario = read_scenario(path)
    if "unsupported" in scenario.raw:
        # Settled anyway: the day the engine can do it, the test says so (strict).
        request.applymarker(pytest.mark.xfail(reason=scenario.raw["unsupported"], strict=True))
    expect = scenario.raw.get("expect") or {}
    rules = load(scenario.ruleset, settings=scenario.settings())
    result = settle(rules, scenario.hand)
    by_seat = {}
    for win in result.wins:
        by_seat.setdefault(win.seat, []).append(win)
    for seat, hands in (expect.get("hands_zh") or {}).items():
        found = names(h for w in by_seat[int(seat)] for h in w.hands)
        assert set(hands) <= found, f"seat {seat}: expected {hands}, found {sorted(found)}"
    opening = {o.seat: names(o.hands) for o in result.opening}
    for seat, hands in (expect.get("opening_zh") or {}).items():
        found = opening.get(int(seat), set())
        assert set(hands) == found, f"seat {seat}: expected opening {hands}, found {found}"
    for seat, value in (expect.get("value") or {}).items():
        assert sum(w.total for w in by_seat[int(seat)]) == value, f"value of seat {seat}"
    made = {}
    for p in result.payments:
        key = (p.payer, payee_json(p.payee))
        made[key] = made.get(key, 0) + p.amount
    for p in expect.get("payments") or []:
        assert made.get((p["from"], p["to"]), 0) == p["amount"], f"payment {p}"
    if "deltas" in expect:
        assert result.deltas == expect["deltas"]
