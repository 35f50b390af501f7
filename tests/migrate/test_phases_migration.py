"""The table-phases migration step (dsl/migrations/phases.py) on the format-1 copies of the
Sichuan rulesets (tests/migrate/format1, as shipped before choices existed), with every
step of ``mjrules migrate``: the rewritten files keep their comments, load, declare the same
choices as the shipped rulesets, and play the same hands with 换三张 and 定缺 on, event for
event.  ``players.before_play`` becomes the order the choices are written in."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dsl.migrate import MigrationError, migrate_text
from dsl.migrations.phases import migrate
from dsl.ruleset import load
from interpreter.agents.efficiency import EfficiencyAgent
from interpreter.engine import Game
from interpreter.engine.game import run

FORMAT1 = Path(__file__).parent / "format1"
SETTINGS = {
    "sichuan/app": ["exchange=true", "dingque=true", "exchange_direction=dice"],
    "sichuan/blog5": ["dingque=true"],
    "sichuan/points": ["dingque=true"],
}


def rewrite(text: str) -> str:
    return migrate_text(text).text


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("migrated") / "rulesets"
    shutil.copytree(FORMAT1 / "sichuan", root / "sichuan")
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
    assert "choices:" not in (migrated / "sichuan" / "base.yaml").read_text(encoding="utf-8")


def test_a_second_run_changes_nothing(migrated: Path) -> None:
    from ruamel.yaml import YAML

    for path in migrated.rglob("*.yaml"):
        doc = YAML(typ="rt").load(path.read_text(encoding="utf-8"))
        before = json.dumps(doc, sort_keys=True, default=str)
        migrate(doc)
        assert json.dumps(doc, sort_keys=True, default=str) == before, path.name


BEFORE_PLAY = """\
extends: sichuan/app
players:
  exchange: {enabled: true, tiles: 3}
  before_play: ORDER
restrictions:
  declare_void: true
"""


def choices_of(order: str) -> dict[str, dict[str, object]]:
    from ruamel.yaml import YAML

    text = rewrite(BEFORE_PLAY.replace("ORDER", order))
    assert "before_play" not in text
    return YAML(typ="safe").load(text)["choices"]


def test_before_play_becomes_the_order_the_choices_are_written_in() -> None:
    assert list(choices_of("[void, exchange]")) == ["void", "exchange"]
    assert list(choices_of("[exchange, void]")) == ["exchange", "void"]
    left_out = choices_of("[void]")
    assert list(left_out) == ["void", "exchange"]
    assert left_out["exchange"]["enabled"] is False and left_out["void"]["enabled"] is True


def test_a_before_play_the_step_cannot_rewrite_is_refused_at_its_place() -> None:
    with pytest.raises(MigrationError, match="not a list") as error:
        rewrite(BEFORE_PLAY.replace("ORDER", "option.order"))
    assert (error.value.line, error.value.col) == (4, 16)
    only_void = BEFORE_PLAY.replace("  exchange: {enabled: true, tiles: 3}\n", "")
    with pytest.raises(MigrationError, match="orders exchange, set in another file"):
        rewrite(only_void.replace("ORDER", "[void, exchange]"))


def test_an_exchange_not_enabled_stays_off() -> None:
    """Format 1 played no exchange unless it said so; a file extending another leaves it to
    the file it extends."""
    alone = rewrite("ruleset: {id: x/y}\nplayers:\n  exchange: {tiles: 3}\n")
    assert "enabled: false" in alone
    fragment = rewrite("extends: sichuan/app\nplayers:\n  exchange: {tiles: 2}\n")
    assert "enabled" not in fragment


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
