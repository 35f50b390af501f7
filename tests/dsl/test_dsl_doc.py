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
