"""Format-1 files keep working: copies of the shipped rulesets and of the docs' ruleset
examples as they were in format 1 (format1/, format1_docs/) are rewritten by the steps of
dsl/migrate.py, and settle every scenario and play every preset exactly as golden.json
recorded them in format 1; the shipped rulesets, now format 2, do the same.  Loading a
format-1 file applies the same steps in memory.  ``mjrules migrate`` end to end."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dsl.migrate import FORMAT, STEPS, migrate_text
from dsl.ruleset import SHIPPED, check_ruleset
from tests.migrate import record

GOLDEN = json.loads(record.GOLDEN.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The format-1 copies rewritten as they would be by ``mjrules migrate --write``."""
    out = tmp_path_factory.mktemp("migrated")
    record.write_migrated(out)
    return out


def plain(value: Any) -> Any:
    """A loaded ruleset's data as plain values, each expression as its text."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return getattr(value, "text", value)


def test_the_copies_are_all_format_1_and_the_shipped_rulesets_format_2() -> None:
    copies = [*record.FORMAT1.rglob("*.yaml"), *record.FORMAT1_DOCS.rglob("*.yaml")]
    assert len(copies) >= 24
    assert not any("\nformat:" in p.read_text(encoding="utf-8") for p in copies)
    assert STEPS
    for path in SHIPPED.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert re.search(f"^format: {FORMAT}$", text, re.M), path
        assert migrate_text(text).text == text  # nothing left to migrate


def test_migrated_copies_settle_and_play_as_format_1_did(migrated: Path) -> None:
    found = record.migrated_figures(migrated)
    assert found.keys() == GOLDEN.keys()
    for name, figures in GOLDEN.items():
        assert found[name] == figures, name


def test_shipped_rulesets_settle_and_play_as_format_1_did() -> None:
    for name, root, path, scenario_id in record.files():
        if name.startswith("format1/"):
            shipped = SHIPPED / path.relative_to(root)
            found = record.figures(record.loader_of(SHIPPED, shipped), scenario_id)
            assert found == GOLDEN[name], name


def test_a_format_1_file_loads_as_its_migrated_text(migrated: Path) -> None:
    """In memory, the same steps: the same rules, and a warning that names mjrules migrate
    where the steps changed something."""
    for name, root, path, _ in record.files():
        old = check_ruleset(str(path), root=root)
        new = check_ruleset(
            str(migrated / path.relative_to(record.HERE)),
            root=migrated / root.relative_to(record.HERE),
        )
        assert (old.ruleset is None) == (new.ruleset is None), name
        if old.ruleset is None or new.ruleset is None:
            continue
        assert plain(old.ruleset.data) == plain(new.ruleset.data), name
        assert not [p for p in new.problems if "mjrules migrate" in p.message]
        told = [
            p
            for p in old.problems
            if "mjrules migrate" in p.message and Path(p.location.file).resolve() == path
        ]
        changed = migrate_text(path.read_text(encoding="utf-8")).changed
        assert bool(told) == changed, name


def test_a_format_1_file_the_steps_leave_alone_loads_as_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = record.FORMAT1_DOCS / "dsl_tutorial5" / "house" / "ours.yaml"
    assert not migrate_text(path.read_text(encoding="utf-8")).changed
    monkeypatch.setenv("MJRULES_RULESETS", str(path.parents[1]))  # it extends a shipped one
    loaded = check_ruleset("house/ours")
    assert loaded.ok and not loaded.problems, [p.format() for p in loaded.problems]
    assert loaded.ruleset is not None and "(as format" not in loaded.ruleset.files[-1]


def test_a_format_1_file_in_memory_is_named_so_in_its_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("old.yaml")
    path.write_text(
        "extends: changsha/qq2014\nruleset: {title: old}\n"
        "wall_end: {taker_pays_if_robbed: true}\nhands: {xiaohu: {class: nosuch}}\n",
        encoding="utf-8",
    )
    loaded = check_ruleset(str(path))
    shown = [p.format() for p in loaded.problems]
    assert not loaded.ok
    assert any(
        p.startswith(f"{path}:1:1: warning: format 1: read as format 2 in memory")
        and f"'mjrules migrate {path} --write'" in p
        for p in shown
    ), shown
    assert any(
        p.startswith(f"{path} (as format 2):") and "class 'nosuch' is not declared" in p
        for p in shown
    ), shown


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("format: 3\nruleset: {title: x}\n", "1:9: error: format 3 is newer than this mjrules"),
        ("format: two\nruleset: {title: x}\n", "1:9: error: 'format' is a format version"),
        ("format: 0\nruleset: {title: x}\n", "1:9: error: 'format' is a format version"),
    ],
)
def test_a_format_not_known_is_an_error_with_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("new.yaml")
    path.write_text(text, encoding="utf-8")
    loaded = check_ruleset(str(path))
    assert not loaded.ok
    assert loaded.problems[0].format().startswith(f"{path}:{message}")


# --- mjrules migrate, end to end ---------------------------------------------------------------


def mjrules(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from interpreter.cli import main; main()", *args],
        cwd=cwd,
        env={"PYTHONPATH": str(record.REPO), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_migrate_shows_a_diff_and_writes_only_when_told(tmp_path: Path) -> None:
    original = record.FORMAT1 / "changsha" / "qq2014.yaml"
    path = tmp_path / "qq2014.yaml"
    shutil.copy(original, path)
    text = original.read_text(encoding="utf-8")

    shown = mjrules("migrate", str(path), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"--- {path} (format 1)\n+++ {path} (format 2)\n@@ ")
    assert "\n+format: 2\n" in shown.stdout
    assert "\n-  taker_pays_if_robbed: true\n" in shown.stdout
    assert path.read_text(encoding="utf-8") == text  # not written

    written = mjrules("migrate", str(path), "--write", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert written.stdout == shown.stdout
    assert f"{path}: rewritten as format 2" in written.stderr
    new = path.read_text(encoding="utf-8")
    assert new == migrate_text(text).text
    comments = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
    kept = [line.split("#", 1)[1] for line in new.splitlines() if "#" in line]
    lost = [c for c in comments if c not in kept]
    assert lost == [] or all("taker_pays" in line for line in lost), lost

    again = mjrules("migrate", str(path), cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == ""
    assert f"{path}: already format 2" in again.stderr


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("ruleset: [\n", ":2:1: error: YAML syntax"),
        ("format: 9\nruleset: {title: x}\n", ":1:9: error: format 9 is newer"),
        ("- a list\n", ":1:1: error: a ruleset is a mapping of sections"),
        (
            "extends: x\nrestrictions: {missed_win: option.lock}\n",
            ":2:28: error: missed_win reads option.lock, whose values are not declared",
        ),
        ("game_end:\n  mode: sometimes\n", ":2:9: error: mode: 'sometimes' is not one of"),
    ],
)
def test_migrate_refuses_bad_input_with_its_place(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = mjrules("migrate", str(path), "--write", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}{where}"), result.stderr
    assert "Traceback" not in result.stderr
    assert path.read_text(encoding="utf-8") == text


def test_migrate_missing_file_and_help(tmp_path: Path) -> None:
    missing = mjrules("migrate", "nosuch.yaml", cwd=tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.startswith("nosuch.yaml:1:1: error: cannot read file")
    helped = mjrules("migrate", "--help", cwd=tmp_path)
    assert helped.returncode == 0
    assert "Usage:" in helped.stdout and "--write" in helped.stdout
