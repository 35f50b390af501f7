"""docs/FLOW.md: every test its tables name exists, every row says what the engine does, and
the counts add up."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "FLOW.md").read_text(encoding="utf-8")
WORDS = ("faithful", "fixed", "decided", "not implemented")
TEST_NAME = re.compile(r"`(test_\w+)`")
TEST_FILE = re.compile(r"`(tests/[\w/.-]+)`")
DEFINED = {
    name
    for path in (REPO / "tests").rglob("*.py")
    for name in re.findall(r"^\s*def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M)
}


def _sections() -> dict[str, str]:
    """The text under each heading (## or ###), by its title: a ruleset's id, Counts, ..."""
    parts = re.split(r"^#{2,3} ", DOC, flags=re.M)[1:]
    return {part.split("\n", 1)[0].strip(): part for part in parts}


def _rows(section: str) -> list[list[str]]:
    """The rows of the section's rule table: cells of lines starting with a row id."""
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if re.match(r"^\| [A-Z]+\d+ \|", line)
    ]


RULESETS = {title: _rows(text) for title, text in _sections().items() if "/" in title}


def test_every_shipped_ruleset_has_a_table() -> None:
    files = (REPO / "rulesets").glob("*/*.yaml")
    shipped = {
        f"{p.parent.name}/{p.stem}"
        for p in files
        if not re.search(r"^\s+abstract: true", p.read_text(encoding="utf-8"), re.M)
    }
    assert {"changsha/qq2014", "sichuan/blog5"} <= shipped
    assert shipped <= set(RULESETS), sorted(shipped - set(RULESETS))
    assert all(RULESETS[r] for r in shipped)


def test_every_test_named_exists() -> None:
    named = set(TEST_NAME.findall(DOC))
    assert named and not named - DEFINED, sorted(named - DEFINED)
    missing = [f for f in TEST_FILE.findall(DOC) if not (REPO / f).exists()]
    assert not missing


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_row_says_what_the_engine_does_and_what_shows_it(ruleset: str) -> None:
    for row in RULESETS[ruleset]:
        assert len(row) == 5, row
        ident, _, _, engine, test = row
        word = next((w for w in WORDS if engine.startswith(w)), None)
        assert word, f"{ruleset} {ident}: engine column must start with one of {WORDS}"
        shown = TEST_NAME.search(test) or TEST_FILE.search(test)
        assert shown or word in ("decided", "not implemented"), f"{ruleset} {ident}: no test"


@pytest.mark.parametrize("title", ["Counts", "Counts (Changsha)", "Counts (Hunan)"])
def test_the_counts_add_up(title: str) -> None:
    counts = _sections()[title]
    assert any(cells in RULESETS for cells in re.findall(r"^\| (\S+) \|", counts, re.M))
    for line in counts.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] not in RULESETS:
            continue
        rows = RULESETS[cells[0]]
        words = Counter(next(w for w in WORDS if r[3].startswith(w)) for r in rows)
        tested = sum(bool(TEST_NAME.search(r[4]) or TEST_FILE.search(r[4])) for r in rows)
        expected = [len(rows), *(words[w] for w in WORDS), tested]
        assert [int(c) for c in cells[1:]] == expected, cells[0]
