"""What validate accepts runs: names only where they have a value, constants worked out while
checking, and a rule that still fails in a game named by file, line, column and expression."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from dsl.expressions import EvaluationError
from dsl.ruleset import check_ruleset, load
from interpreter.check.static import static_findings
from interpreter.scenario import read_scenario
from interpreter.settle import settle

REPO = Path(__file__).resolve().parents[2]
MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]


def house(tmp_path: Path, body: str, parent: str = "changsha/qq2014") -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {parent}\nruleset:\n  title: house\n{body}", encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    return [p.format() for p in check_ruleset(str(path), root=REPO / "rulesets").problems]


@pytest.mark.parametrize(
    ("body", "line", "col", "message"),
    [
        # The multiplier is worked out per payer, after the bird tiles were counted.
        (
            "birds:\n  multiplier: 1 + tile.rank\n",
            5,
            19,
            "tile is not available in section bird_multiplier (only in claims, bird_seat, "
            "payments_declaration, payments_declaration_each, declarations, declaration_payment)",
        ),
        # The number of birds is known before the hand is looked at (its winning tile aside).
        (
            "birds:\n  count: count(concealed)\n",
            5,
            16,
            "concealed is not available in section bird_count",
        ),
        ("birds:\n  count: hits(winner)\n", 5, 10, "hits is not available in section bird_count"),
        ("birds:\n  seat: winner + count(tiles)\n", 5, 24, "tiles is not available"),
        # Who pays is decided before any one payer is.
        ('payment:\n  payers: "{payer}"\n', 5, 13, "payer is not available in section payers"),
        # An opening hand has no discard, and is found before its birds and payers.
        (
            "opening_hands:\n  hands:\n    sixi:\n      when: discarder == dealer\n",
            7,
            13,
            "discarder is not available in section opening_hands",
        ),
        # The next dealer is chosen from the first win alone: who is still in is not known.
        ("dealer:\n  next: min(others)\n", 5, 13, "others is not available in section dealer"),
        # A payment rule at a kong sees no win; its amount is per payer, its payers are not.
        (
            "payments:\n  rain:\n    at: kong\n    payers: '{winner}'\n    payees: '{kong_seat}'\n"
            "    amount: 2\n    source: house rule\n",
            7,
            15,
            "winner is not available in section payments_kong",
        ),
        (
            "payments:\n  rain:\n    at: kong\n    payers: '{payer}'\n    payees: '{kong_seat}'\n"
            "    amount: 2\n    source: house rule\n",
            7,
            15,
            "payer is not available in section payments_kong (only in",
        ),
        (
            "opening_hands:\n  hands:\n    sixi:\n      value: hits(winner)\n",
            7,
            14,
            "hits is not available in section opening_hands",
        ),
    ],
)
def test_names_only_where_they_have_a_value(tmp_path, body, line, col, message) -> None:
    found = problems(house(tmp_path, body))
    assert len(found) == 1, found
    shown = os.path.relpath(tmp_path / "house.yaml")
    assert found[0].startswith(f"{shown}:{line}:{col}: error: "), found[0]
    assert message in found[0]


@pytest.mark.parametrize(
    ("expression", "col", "message"),
    [
        ("1 // 0", 9, "division by zero"),
        ("2 ** 2 ** 64", 14, "number out of bounds (more than 2**62) in **"),
        ("if self_draw then 2 ** 65 else 1", 32, "exponent 65 is not 0..64"),
        ("count(1..1000000000)", 9, "evaluation took more than 100000 steps"),
    ],
)
def test_constants_are_worked_out_while_checking(tmp_path, expression, col, message) -> None:
    found = problems(house(tmp_path, f"payment:\n  base: {expression}\n"))
    assert len(found) == 1, found
    shown = os.path.relpath(tmp_path / "house.yaml")
    assert found[0].startswith(f"{shown}:5:{col}: error: payment.base: {message}"), found[0]


def test_shipped_birds_still_compile() -> None:
    rules = load("changsha/qq2014", settings=["birds=2"])
    assert rules.birds.multiplier.text.startswith("if option.bird_effect")


MENQING = (
    "scoring:\n  classes: [small, big, bonus]\n{value}modifiers:\n  menqing:\n"
    "    name: {{zh: 门清, en: concealed hand}}\n    when: count(melds, not concealed) == 0\n"
    "    value: 1\n    source: house rule\n"
)
UNREAD = "class 'bonus' of 门清 (menqing) is read by no expression: its hand types add nothing"


def test_a_modifier_of_a_class_nothing_reads_is_warned_of(tmp_path) -> None:
    """qq2014 pays by sum(big, value): a modifier of class bonus is listed but worth 0."""
    path = house(tmp_path, MENQING.format(value=""))
    shown = os.path.relpath(path)
    assert problems(path) == [
        f"{shown}:7:3: warning: {UNREAD}\n      menqing:\n      ^^^^^^^\n  expected: 'bonus' "
        "in scoring.value (e.g. sum(bonus, value)) or in a payment field that reads the classes"
    ]
    found = [f.format() for f in static_findings(load(str(path), root=REPO / "rulesets"))]
    assert f"{shown}:8:5: warning: [static] {UNREAD}" in found


@pytest.mark.parametrize(
    "value",
    [
        "  value: sum(big, value) + sum(bonus, value)\n",  # the class
        "  value: sum(hands, value)\n",  # every hand type, whatever its class
        "  value: sum(big, value) + (if menqing in hands then 1 else 0)\n",  # its name
    ],
)
def test_a_modifier_read_by_scoring_is_not_warned_of(tmp_path, value) -> None:
    path = house(tmp_path, MENQING.format(value=value))
    assert problems(path) == []
    found = [f.message for f in static_findings(load(str(path), root=REPO / "rulesets"))]
    assert UNREAD not in found


ZERO = "payment:\n  base: 1 // (winner - winner)\n"
WHERE = ":5:9: error: payment.base: division by zero\n      base: 1 // (winner - winner)\n"


def test_a_failing_rule_names_its_place_and_crosses_processes(tmp_path) -> None:
    rules = load(house(tmp_path, ZERO))
    scenario = read_scenario(str(REPO / "docs" / "scenarios" / "qq2014-birds.yaml"))
    with pytest.raises(EvaluationError) as caught:
        settle(rules, scenario.hand)
    error = caught.value
    assert error.problem is not None and error.problem.location.line == 5
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is EvaluationError and str(again) == str(error)
    assert str(error).endswith("^^^^^^^^^^^^^^^^^^^^^^\n  expression: 1 // (winner - winner)")


@pytest.mark.parametrize(
    "command",
    [
        ["settle", "docs/scenarios/qq2014-birds.yaml", "--ruleset", "{path}"],
        ["play", "{path}", "--seed", "3"],
        ["simulate", "{path}", "--games", "8", "--workers", "2", "--chunk", "2"],
    ],
)
def test_every_command_reports_the_rule_without_a_traceback(tmp_path, command) -> None:
    path = house(tmp_path, ZERO)
    args = [part.replace("{path}", str(path)) for part in command]
    result = subprocess.run(
        [*MJRULES, *args], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{os.path.relpath(path, REPO)}{WHERE}" in result.stderr


def test_every_example_of_an_expression_field_compiles_in_its_section() -> None:
    """The field tables of docs/DSL.md show these examples (`first(winners)` was one)."""
    from dsl.expressions import Scope, compile_expression
    from dsl.structure import Expr, walk

    examples = [(p, f) for p, f in walk() if isinstance(f.type, Expr) and f.example]
    assert len(examples) >= 8
    for path, spec in examples:
        scope = Scope.for_section(
            spec.type.scope,
            options={"birds": "int"},
            hands={"qidui": "big"},
            classes=("small", "bonus"),
        )
        compile_expression(spec.example, scope, expect=spec.type.result or None), path


def test_the_docs_call_only_functions_of_the_language() -> None:
    import re

    from dsl.vocabulary import SECTIONS

    functions = {f.name for section in SECTIONS.values() for f in section.functions}
    doc = (REPO / "docs" / "DSL.md").read_text(encoding="utf-8")
    doc = re.sub(r"```(?:python|sh)\n.*?```", "", doc, flags=re.S)  # Python and shell, not rules
    # `f(a, name: b)`, tile(s); choice.NAME(seat) calls a ruleset's choice
    called = set(re.findall(r"(?<!choice\.)\b([a-z_]+)\(", doc)) - {"f", "tile"}
    assert called <= functions, called - functions
