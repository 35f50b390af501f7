"""docs/DSL.md §8 lists every literal key of the ruleset format, each with why it is a
generic mechanic rather than an expression: the table and the schema agree."""

from __future__ import annotations

import re
from pathlib import Path

from tests.dsl.census import expression_fields, literal_keys

DOC = (Path(__file__).resolve().parents[2] / "docs" / "DSL.md").read_text(encoding="utf-8")


def listed() -> dict[str, str]:
    section = DOC.split("\n## 8. Literal keys\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", section, re.M)
    return dict(rows)


def test_every_literal_key_is_listed_with_a_reason() -> None:
    rows = listed()
    assert list(rows) == literal_keys()
    assert all(len(reason) > 10 for reason in rows.values())


def test_the_region_rules_that_hid_in_names_are_expressions() -> None:
    expressions = set(expression_fields())
    assert {
        "kongs.replacement.<name>.dice",
        "restrictions.missed_win",
        "game_end.winners_leave",
        "game_end.ends",
        "birds.from_last_tiles",
        "birds.first_counts_all",
    } <= expressions
    gone = {"restrictions.void_suit", "game_end.mode", "birds.on_last_tile"}
    assert not gone & set(literal_keys())
