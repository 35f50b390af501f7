"""docs/DSL.md: the tutorial's files are valid rulesets, and the field tables are current."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from dsl.ruleset import check_ruleset
from dsl.structure import SECTIONS, markdown_tables

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "DSL.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC, flags=re.S)
FILES = [b for b in BLOCKS if b.startswith("# file: ")]


def test_the_tutorial_has_files() -> None:
    assert len(FILES) >= 4


@pytest.mark.parametrize("index", range(len(FILES)))
def test_tutorial_file_is_valid(index: int, tmp_path: Path) -> None:
    root = tmp_path / "rulesets"
    shutil.copytree(REPO / "rulesets", root)
    block = FILES[index]
    name = block.split("\n", 1)[0].removeprefix("# file: ").strip()
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(block, encoding="utf-8")
    loaded = check_ruleset(name.removesuffix(".yaml"), root=root)
    assert loaded.ok and not loaded.problems, "\n".join(p.format() for p in loaded.problems)


def test_field_tables_are_current() -> None:
    begin, end = "<!-- fields:begin -->\n", "<!-- fields:end -->"
    tables = DOC[DOC.index(begin) + len(begin) : DOC.index(end)]
    assert tables == markdown_tables(), "run: mjrules schema --markdown and paste it into DSL.md"


def test_every_section_is_described() -> None:
    for section in SECTIONS:
        assert f"### `{section}`" in DOC, section


def test_every_field_says_what_it_takes() -> None:
    """The type column is never blank or half written (a choice's values and default are
    typed after compiling), and a field taking a list says so."""
    rows = [r.split(" | ") for r in markdown_tables().splitlines() if r.startswith("| `")]
    assert len(rows) > 100
    for row in rows:
        kind = row[2]
        assert kind.strip() and "  " not in kind and "giving (" not in kind, row[0]
    types = {(r[0].removeprefix("| "), r[2]) for r in rows}
    assert ("`<name>.allowed`", "a list of numbers, true/false or names") in types
    assert (
        "`<name>.values`",
        "an expression giving a collection of int, bool, seat, suit or tile (names of 'choices')",
    ) in types
