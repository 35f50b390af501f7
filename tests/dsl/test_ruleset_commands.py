"""mjrules validate / schema / explain: exit codes, stderr, --json, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from dsl.structure import SECTIONS, json_schema
from interpreter.ruleset_cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"


@click.group()
def cli() -> None:
    """Stands in for the mjrules group."""


for command in COMMANDS:
    cli.add_command(command)


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_help_everywhere() -> None:
    for name in ("validate", "schema", "explain"):
        result = run(name, "--help")
        assert result.exit_code == 0 and "Usage" in result.output


def test_validate_shipped_by_id_and_path() -> None:
    result = run("validate", "changsha/qq2014", str(ROOT / "rulesets" / "sichuan" / "blog5.yaml"))
    assert result.exit_code == 0, result.stderr
    assert "ok: changsha/qq2014" in result.output


def test_validate_invalid_reports_on_stderr() -> None:
    result = run("validate", str(GOLDEN / "unknown_key.yaml"))
    assert result.exit_code == 1
    assert "error: unknown key 'frist'" in result.stderr
    assert "Traceback" not in result.stderr + result.output


def test_validate_json() -> None:
    result = run("validate", "--json", "changsha/qq2014", str(GOLDEN / "bad_values.yaml"))
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["valid"] is False
    first, second = data["rulesets"]
    assert first["valid"] and first["id"] == "changsha/qq2014"
    assert not second["valid"]
    problem = second["problems"][0]
    assert {"file", "line", "col", "severity", "message", "expected", "suggestion"} <= set(problem)


def test_validate_set_and_preset() -> None:
    assert (
        run("validate", "changsha/qq2014", "--set", "birds=4", "--preset", "capped").exit_code == 0
    )
    result = run("validate", "changsha/qq2014", "--set", "bird=4")
    assert result.exit_code == 1 and "did you mean 'birds'?" in result.stderr


def test_validate_missing_file_and_garbage(tmp_path: Path) -> None:
    assert run("validate", "nowhere/none").exit_code == 1
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"\x00\xff[[[")
    result = run("validate", str(bad))
    assert result.exit_code == 1 and "Traceback" not in result.stderr


def test_schema_is_json_schema_of_every_section() -> None:
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema == json.loads(json.dumps(json_schema()))
    assert list(schema["properties"]) == list(SECTIONS)
    assert schema["$schema"].startswith("http://json-schema.org/draft-07")


def test_schema_markdown() -> None:
    result = run("schema", "--markdown")
    assert result.exit_code == 0 and "### `payment`" in result.output


def test_explain() -> None:
    result = run("explain", "sichuan/blog5", "--set", "cap_fan=4")
    assert result.exit_code == 0, result.stderr
    text = result.output
    assert "血战到底" in text and "source: 001_76942f0387627e0c.txt" in text
    assert "cap_fan (封顶 / cap) = 4" in text
    assert "enabled: no (option.dingque)" in text  # a literal field read from an option (定缺)
    assert run("explain", "sichuan/blog5", "--json").exit_code == 0
    assert run("explain", "sichuan/nothing").exit_code == 1


def test_explain_prints_no_empty_section(tmp_path: Path) -> None:
    """The format version is read at load and kept nowhere: it is no section of rules."""
    house = tmp_path / "v.yaml"
    house.write_text(
        "format: 2\nextends: changsha/qq2014\nruleset: {title: ours}\n"
        "options: {birds: {default: 4}}\n",
        encoding="utf-8",
    )
    for ruleset in ("changsha/qq2014", str(house)):
        result = run("explain", ruleset)
        assert result.exit_code == 0, result.output
        sections = result.output.split("\n## ")[1:]
        assert sections and "format" not in [s.split("\n")[0] for s in sections]
        for section in sections:
            heading, _, body = section.partition("\n")
            assert body.strip() not in ("", "—"), heading


def test_explain_shows_claim_kinds_of_equal_rank() -> None:
    result = run("explain", "changsha/qq2014")
    assert "priority 优先: win, [kong, pung], chow —" in result.output
