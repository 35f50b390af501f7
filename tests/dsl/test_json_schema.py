"""The JSON Schema `mjrules schema` emits, checked by a real validator against every shipped
ruleset file, every YAML block of docs/DSL.md (the tutorial's files among them) and the
language's own forms (`~` removes, `{add:, remove:}` changes a list)."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from dsl.structure import json_schema

REPO = Path(__file__).resolve().parents[2]
VALIDATOR = jsonschema.Draft7Validator(json_schema())
FILES = sorted((REPO / "rulesets").rglob("*.yaml"))
BLOCKS = re.findall(
    r"```yaml\n(.*?)```", (REPO / "docs" / "DSL.md").read_text(encoding="utf-8"), re.S
)


def errors(document: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in VALIDATOR.iter_errors(document)
    ]


def test_the_schema_is_valid_draft_7() -> None:
    jsonschema.Draft7Validator.check_schema(json_schema())


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_shipped_ruleset_file_fits_the_schema(path: Path) -> None:
    assert errors(yaml.safe_load(path.read_text(encoding="utf-8"))) == []


def test_the_docs_have_yaml_blocks() -> None:
    assert len(BLOCKS) >= 8 and sum(b.startswith("# file: ") for b in BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_every_yaml_block_of_the_docs_fits_the_schema(index: int) -> None:
    assert errors(yaml.safe_load(BLOCKS[index])) == []


def test_removal_and_list_changes_fit_the_schema() -> None:
    house = """
extends: changsha/qq2014
ruleset: {title: house}
options:
  yizhihua: ~
hands:
  quanqiuren: ~
payment: {cap: ~}
birds: ~
tiles: {suits: {remove: [s]}}
"""
    assert errors(yaml.safe_load(house)) == []


@pytest.mark.parametrize(
    ("text", "where"),
    [
        # A comma cuts a flow-map title: the rest becomes a key of its own.
        ("ruleset: {title: {zh: 家, en: ours, the house rules}}", "ruleset/title"),
        ("ruleset: {title: ~}", "ruleset/title"),
        ("hands: {pinghu: {class: small, when: standard(), shape: maybe}}", "hands/pinghu"),
        ("payment: {caps: 6}", "payment"),
    ],
)
def test_the_schema_refuses_what_the_language_refuses(text: str, where: str) -> None:
    found = errors(yaml.safe_load(text))
    assert found and all(e.startswith(where) for e in found), found
