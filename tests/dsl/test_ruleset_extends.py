"""extends: merge rules, list changes, removal, chains, and options/presets/--set."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.problems import RulesetError
from dsl.ruleset import MAX_EXTENDS_DEPTH, check_ruleset, load

BASE = """
ruleset:
  title: {zh: 基础, en: base}
  abstract: true
options:
  birds: {type: int, default: 2, allowed: [0, 1, 2, 4, 6], source: house rule}
  cap: {type: choice, default: none, allowed: [none, 4he, 6he], source: house rule}
  dingque: {type: bool, default: false, source: house rule}
presets:
  big: {set: {birds: 4, cap: 6he}}
claims:
  priority: [win, kong, pung, chow]
dealer:
  next: winner
payment:
  payers: "{discarder}"
  base: if option.cap == "none" then 1 else 2
birds:
  count: option.birds
hands:
  pinghu: {class: small, when: "standard(pair: rank in {2, 5, 8})", source: house rule}
  qidui: {class: big, when: seven_pairs(), source: house rule}
"""


def tree(tmp_path: Path, **files: str) -> Path:
    root = tmp_path / "rulesets"
    for name, text in files.items():
        path = root / f"{name}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_merge_rules(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        **{
            "t/base": BASE,
            "t/child": """
extends: t/base
ruleset: {title: child}
claims:
  priority: {remove: [chow]}
  multiple_winners: nearest
tiles:
  suits: {remove: [m]}
hands:
  qidui: ~
  qingyise: {class: big, when: standard() and count(suits) == 1, source: house rule}
kongs:
  rob_exposed: option.dingque
""",
        },
    )
    rs = load("t/child", root=root)
    assert rs.id == "t/child"
    assert rs.claims.priority == ("win", "kong", "pung")
    assert rs.claims.multiple_winners == "nearest"
    assert rs.tiles.suits == ("p", "s")
    assert set(rs.hands) == {"pinghu", "qingyise"}
    assert rs.ruleset.title == {"zh": "child", "en": "child"}
    assert rs.ruleset.abstract is False  # never inherited
    assert rs.kongs.rob_exposed is False
    assert len(rs.files) == 2
    with pytest.raises(AttributeError):
        rs.claims.priority = ()


def test_lists_replace(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        **{
            "t/base": BASE,
            "t/child": "extends: t/base\nruleset: {title: c}\nclaims: {priority: [win, pung]}\n",
        },
    )
    assert load("t/child", root=root).claims.priority == ("win", "pung")


def test_options_presets_and_set(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        **{
            "t/base": BASE,
            "t/child": "extends: t/base\nruleset: {title: c}\n"
            "kongs: {rob_exposed: option.dingque}\n",
        },
    )
    rs = load("t/child", root=root)
    assert rs.option_values == {"birds": 2, "cap": "none", "dingque": False}
    rs = load("t/child", root=root, preset="big")
    assert rs.option_values["birds"] == 4 and rs.option_values["cap"] == "6he"
    rs = load("t/child", root=root, preset="big", settings=["birds=6", "dingque=yes"])
    assert rs.option_values["birds"] == 6
    assert rs.kongs.rob_exposed is True
    assert rs.option_refs[("kongs", "rob_exposed")] == "dingque"


@pytest.mark.parametrize(
    ("settings", "preset", "message"),
    [
        (["bird=2"], None, "did you mean 'birds'?"),
        (["birds=3"], None, "expected: one of 0, 1, 2, 4, 6"),
        (["cap=6"], None, "did you mean '6he'?"),
        (["birds"], None, "expected: name=value"),
        ([], "bigg", "did you mean 'big'?"),
    ],
)
def test_bad_settings(
    tmp_path: Path, settings: list[str], preset: str | None, message: str
) -> None:
    root = tree(tmp_path, **{"t/base": BASE, "t/child": "extends: t/base\nruleset: {title: c}\n"})
    with pytest.raises(RulesetError) as info:
        load("t/child", root=root, settings=settings, preset=preset)
    text = info.value.format()
    assert message in text
    assert text.startswith("<command line>:1:")


def test_over_deep_chain(tmp_path: Path) -> None:
    files = {"t/r0": BASE}
    for i in range(1, MAX_EXTENDS_DEPTH + 3):
        files[f"t/r{i}"] = f"extends: t/r{i - 1}\n"
    root = tree(tmp_path, **files)
    loaded = check_ruleset(f"t/r{MAX_EXTENDS_DEPTH + 2}", root=root)
    assert not loaded.ok
    assert "chain longer than" in loaded.problems[0].message


def test_extends_by_relative_path(tmp_path: Path) -> None:
    root = tree(
        tmp_path, **{"t/base": BASE, "t/child": "extends: base.yaml\nruleset: {title: c}\n"}
    )
    assert load(root / "t" / "child.yaml").id == "t/child"


def test_unknown_id_suggests(tmp_path: Path) -> None:
    root = tree(tmp_path, **{"t/base": BASE})
    loaded = check_ruleset("t/bsae", root=root)
    assert loaded.problems[0].suggestion == "t/base"


def test_abstract_base_alone_is_valid(tmp_path: Path) -> None:
    root = tree(tmp_path, **{"t/base": "ruleset: {title: b, abstract: true}\n"})
    assert check_ruleset("t/base", root=root).ok
