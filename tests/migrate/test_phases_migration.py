"""The table-phases migration step (dsl/migrations/phases.py) on copies of the format-1
Sichuan rulesets (tests/migrate/phases_format1, as shipped before choices existed): the
rewritten files keep their comments, load, declare the same choices as the shipped
rulesets, and play the same hands, event for event."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from dsl.migrations.phases import migrate
from dsl.ruleset import load
from interpreter.agents.efficiency import EfficiencyAgent
from interpreter.engine import Game
from interpreter.engine.game import run

FORMAT1 = Path(__file__).parent / "phases_format1"
SETTINGS = {
    "sichuan/app": ["exchange=true", "dingque=true", "exchange_direction=dice"],
    "sichuan/blog5": ["dingque=true"],
    "sichuan/points": ["dingque=true"],
}


def rewrite(text: str) -> str:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)  # the rulesets' layout
    doc = yaml.load(text)
    migrate(doc)
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("migrated") / "rulesets"
    shutil.copytree(FORMAT1, root)
    for path in root.rglob("*.yaml"):
        path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    return root


def test_the_copies_are_format_1() -> None:
    app = (FORMAT1 / "sichuan" / "app.yaml").read_text(encoding="utf-8")
    assert "declare_void: option.dingque" in app and "same_suit: option.exchange_same_suit" in app


def test_the_old_keys_become_choices_and_comments_stay(migrated: Path) -> None:
    app = (migrated / "sichuan" / "app.yaml").read_text(encoding="utf-8")
    assert "declare_void" not in app and "same_suit: " not in app
    assert "constraint: not option.exchange_same_suit or count(suits) == 1" in app
    assert "# Inherited: 3 必须缺门可胡; 4 最后四张自动胡 (must_win_last 4, C-40)." in app
    for name in ("app", "blog5", "points"):  # a section of its own, between blank lines
        text = (migrated / "sichuan" / f"{name}.yaml").read_text(encoding="utf-8")
        assert "\n\nchoices:\n" in text and "\n\ndealer:\n" in text, name
        assert "\n\n\n" not in text, name
    base = (FORMAT1 / "sichuan" / "base.yaml").read_text(encoding="utf-8")
    assert (migrated / "sichuan" / "base.yaml").read_text(encoding="utf-8") == base


def test_a_second_run_changes_nothing(migrated: Path) -> None:
    for path in migrated.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert rewrite(text) == text, path.name


@pytest.mark.parametrize("ruleset_id", sorted(SETTINGS))
def test_the_migrated_ruleset_declares_the_shipped_choices(migrated: Path, ruleset_id: str) -> None:
    mine = load(ruleset_id, root=migrated, settings=SETTINGS[ruleset_id])
    shipped = load(ruleset_id, settings=SETTINGS[ruleset_id])
    keys = ("enabled", "tiles", "effect", "direction", "at")
    for name, spec in shipped.get("choices").items():
        ours = mine.get("choices")[name]
        assert {k: ours.get(k) for k in keys} == {k: spec.get(k) for k in keys}, name
        for field in ("values", "constraint", "when"):
            assert getattr(ours.get(field), "text", None) == getattr(spec.get(field), "text", None)
    assert set(mine.get("choices")) == set(shipped.get("choices"))


@pytest.mark.parametrize("ruleset_id", sorted(SETTINGS))
def test_the_migrated_ruleset_plays_the_same_hands(migrated: Path, ruleset_id: str) -> None:
    rulesets = [
        load(ruleset_id, root=root, settings=SETTINGS[ruleset_id]) for root in (migrated, None)
    ]
    for seed in range(3):
        logs = []
        for ruleset in rulesets:
            game = Game(ruleset, seed=seed, dealer=seed % 4)
            run(game, [EfficiencyAgent() for _ in range(4)])
            logs.append([e for e in game.events if e["type"] != "start"])
        assert logs[0] == logs[1]
        assert any(e["type"] in ("void", "exchange") for e in logs[0])
