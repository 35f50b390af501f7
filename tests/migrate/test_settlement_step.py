"""The settlement migration step (format 1 to 2): the shipped rulesets as they were in format
1 (tests/migrate/format1/), rewritten by every step of dsl/migrate.py, settle every worked
example exactly as the shipped rulesets rewritten by hand do, and keep their comments."""

from __future__ import annotations

import io
import shutil
from functools import cache
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from dsl.migrate import migrate_text
from dsl.migrations.settlement import migrate
from dsl.ruleset import load
from interpreter.scenario import read_scenario
from interpreter.settle import settle
from tests.migrate.record import SCENARIOS  # the worked examples format 1 can state

REPO = Path(__file__).resolve().parents[2]
FORMAT1 = Path(__file__).parent / "format1"


def rewrite(text: str, step=migrate) -> str:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    doc = yaml.load(text)
    step(doc)
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("format2")
    shutil.copytree(FORMAT1, root, dirs_exist_ok=True)
    for path in root.rglob("*.yaml"):
        path.write_text(migrate_text(path.read_text(encoding="utf-8")).text, encoding="utf-8")
    return root


@cache
def _load(rid: str, root: Path, settings: tuple[str, ...]):
    return load(rid, root=root, settings=list(settings))


def test_every_worked_example_settles_as_with_the_shipped_rulesets(migrated: Path) -> None:
    assert len(SCENARIOS) > 180
    for path in SCENARIOS:
        scenario = read_scenario(path)
        if not (FORMAT1 / f"{scenario.ruleset}.yaml").is_file():
            continue  # a ruleset first written in format 2 (rulesets/house/): no copy to compare
        settings = tuple(scenario.settings())
        ours = settle(_load(scenario.ruleset, migrated, settings), scenario.hand)
        shipped = settle(_load(scenario.ruleset, REPO / "rulesets", settings), scenario.hand)
        assert ours.to_json() == shipped.to_json(), path


@pytest.mark.parametrize("chajiao", ["max", "min"])
def test_the_drawn_end_settles_alike_under_each_ready_check(migrated: Path, chajiao: str) -> None:
    scenario = read_scenario(REPO / "docs" / "scenarios" / "blog5-drawn-end.yaml")
    for rid in ("sichuan/app", "sichuan/blog5", "sichuan/points"):
        settings = ("chajiao=" + chajiao, "refund=true") if rid != "sichuan/points" else ()
        ours = settle(_load(rid, migrated, settings), scenario.hand)
        shipped = settle(_load(rid, REPO / "rulesets", settings), scenario.hand)
        assert ours.to_json() == shipped.to_json()
        assert ours.payments  # the example pays: a flower pig, a ready check, refunds


def test_the_old_sections_are_gone_and_comments_stay(migrated: Path) -> None:
    text = (migrated / "sichuan" / "app.yaml").read_text(encoding="utf-8")
    assert "kong_payments:" not in text and "\nsettlement:" not in text
    assert "# 立刻收取引杠者1倍点数" in text  # a comment inside a kong payment entry


def test_a_file_without_payment_sections_is_left_alone() -> None:
    text = (FORMAT1 / "changsha" / "qq2014.yaml").read_text(encoding="utf-8")
    assert rewrite(text) == rewrite(text, step=lambda doc: None)
