"""Golden tests: each kind of ruleset error, with its exact message text.

Each ``golden/NAME.yaml`` has its expected report in ``golden/NAME.expected``.  To accept
new output after a deliberate change, run this file with ``MJRULES_UPDATE_GOLDEN=1``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dsl.ruleset import check_ruleset

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.yaml") if p.stem not in ("list_base", "cycle_b"))


def report(name: str) -> str:
    loaded = check_ruleset(f"{name}.yaml", root=GOLDEN)
    return "\n".join(p.format() for p in loaded.problems) + "\n"


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    got = report(name)
    expected_file = GOLDEN / f"{name}.expected"
    if os.environ.get("MJRULES_UPDATE_GOLDEN"):
        expected_file.write_text(got, encoding="utf-8")
    assert got == expected_file.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CASES)
def test_every_golden_case_is_invalid_or_warned(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    loaded = check_ruleset(f"{name}.yaml", root=GOLDEN)
    assert loaded.problems
    for problem in loaded.problems:
        assert problem.location.line >= 1 and problem.location.col >= 1
        assert problem.format().startswith(f"{problem.location.file}:{problem.location.line}:")
