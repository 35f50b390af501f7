"""``mjrules check``: each broken ruleset of the corpus gives its finding; the shipped
rulesets are clean (or accept a finding in a note); the CLI reports, exits and prints JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dsl.ruleset import available_ids
from interpreter.check import check
from interpreter.check.findings import KINDS
from interpreter.cli import cli

CORPUS = Path(__file__).parent / "corpus"
SMALL = (300, 100)
"""Hands per setting in these tests (the command builds more); enough for every finding."""


def run_cli(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _expected(path: Path) -> list[str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name} says what it must produce"
    return first.removeprefix("# expect: ").split()


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.yaml")), ids=lambda p: p.stem)
def test_corpus_file_gives_its_finding(path: Path) -> None:
    expected = _expected(path)
    report = check(str(path), hands=SMALL)
    if expected == ["clean"]:
        assert report.clean, [f.format() for f in report.findings]
        assert any(f.because for f in report.findings), "the accepted finding is still shown"
        return
    severity, kind, about, *settings = expected
    assert kind in KINDS
    hits = [
        f
        for f in report.findings
        if (f.severity, f.kind) == (severity, kind) and ".".join(f.path).startswith(about)
    ]
    assert hits, [f.format() for f in report.findings]
    hit = hits[0]
    assert hit.location.file.endswith(path.name) or kind == "reachability" or kind == "static"
    assert hit.location.line >= 1 and hit.location.col >= 1
    assert tuple(settings) == hit.settings[: len(settings)]
    if kind in ("values", "payments", "shape"):
        assert hit.witness or "no winning shape" in hit.message  # a hand that shows it


@pytest.mark.parametrize("ruleset", available_ids())
def test_shipped_ruleset_is_clean(ruleset: str) -> None:
    report = check(ruleset, hands=SMALL)
    assert report.clean, "\n".join(f.format() for f in report.findings)


def test_every_kind_is_documented() -> None:
    text = (Path(__file__).parents[2] / "docs" / "CHECK.md").read_text(encoding="utf-8")
    for kind in KINDS:
        assert f"### {kind}" in text


def test_cli_check_json_and_exit_code() -> None:
    broken = str(CORPUS / "payments_negative.yaml")
    result = run_cli("check", broken, "--json")
    assert result.exit_code == 1
    [report] = json.loads(result.stdout)
    finding = next(f for f in report["findings"] if f["kind"] == "payments")
    assert finding["severity"] == "error"
    assert finding["file"].endswith("payments_negative.yaml") and finding["line"] == 5
    assert "dealer bonus -8" in finding["witness"]


def test_cli_validate_check_runs_both() -> None:
    broken = str(CORPUS / "static_replaces_cycle.yaml")
    assert run_cli("validate", broken).exit_code == 0
    result = run_cli("validate", "--check", broken)
    assert result.exit_code == 1
    assert "replaces makes a cycle: pengpenghu -> qingyise -> pengpenghu" in result.stderr


def test_cli_explain_payments_balances() -> None:
    result = run_cli("explain", "changsha/qq2014", "--payments", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    roles = {r["role"] for r in rows}
    assert {"dealer wins, self-drawn", "another wins on another's discard"} <= roles
    assert all(sum(r["deltas"]) == 0 for r in rows)
    # 001_76942f0387627e0c.txt lines 136, 139: 平胡 self-drawn pays 2 from each player when the
    # dealer (seat 0) wins, else 2 from the dealer and 1 from each other; 中鸟者另外加倍: the
    # two birds (qq2014's default) both point at seat 2 here, ×2 per bird.
    plain = [r for r in rows if r["value"] == 0 and r["birds"] == "birds on seat 2 ×2"]
    by_role = {r["role"]: r["deltas"] for r in plain}
    assert by_role["dealer wins, self-drawn"] == [12, -2, -8, -2]
    assert by_role["another wins, self-drawn"] == [-2, 7, -4, -1]


def test_load_error_keeps_its_hints() -> None:
    broken = str(CORPUS / "load_did_you_mean.yaml")
    [finding] = check(broken).findings
    assert finding.kind == "load" and "unknown function 'cout'" in finding.message
    assert finding.suggestion == "count" and "count" in finding.expected
    assert "did you mean 'count'?" in finding.format()
    result = run_cli("check", broken, "--json")
    [report] = json.loads(result.stdout)
    [shown] = report["findings"]
    assert shown["suggestion"] == "count" and shown["expected"].startswith("one of all, any")


@pytest.mark.parametrize(
    ("name", "about", "kind"),
    [
        ("static_always_false", "hands.tianhu", "static"),
        ("reach_always_false_sampled", "hands.wugang", "reachability"),
    ],
)
def test_always_false_is_one_finding(name: str, about: str, kind: str) -> None:
    report = check(str(CORPUS / f"{name}.yaml"), hands=SMALL)
    [hit] = [f for f in report.findings if ".".join(f.path).startswith(about)]
    assert (hit.kind, hit.severity) == (kind, "warning")


def test_always_true_states_its_sample() -> None:
    report = check(str(CORPUS / "static_always_true_sampled.yaml"), hands=SMALL)
    [hit] = [f for f in report.findings if f.path == ("modifiers", "menqing", "when")]
    assert "always true" in hit.message
    assert hit.witness.startswith("all ") and "winning hands built" in hit.witness
    assert int(hit.witness.split()[1]) >= 50  # the bound below which nothing is said


def test_overlap_is_info_once_the_ruleset_says_values_stack(tmp_path: Path) -> None:
    stacked = tmp_path / "stacked.yaml"
    broken = (CORPUS / "values_overlap_no_combine_rule.yaml").read_text(encoding="utf-8")
    stacked.write_text(broken + "scoring:\n  value: sum(hands, value)\n", encoding="utf-8")
    [hit] = [f for f in check(str(stacked), hands=SMALL).findings if "haohuaqidui" in f.message]
    assert hit.severity == "info" and hit.path == ("hands", "haohuaqidui", "replaces")


def test_built_hands_keep_to_the_suits_in_play() -> None:
    # 三人两房 without 万: hands of 筒 and 条 only, one suit as often as the palette gives it
    # (清一色 families must be reachable), and deals from its 72 tiles.
    from dsl.ruleset import load
    from interpreter.check.samples import deals, winning_hands

    ruleset = load("house/sichuan_sanren_liangfang")
    suits = [set(s.suits) for s, _ in winning_hands(ruleset, 300)]
    assert set().union(*suits) == {1, 2}
    assert sum(len(found) == 1 for found in suits) > 50
    assert set().union(*(d.suits for d in deals(ruleset, 50))) == {1, 2}


def test_a_payment_rule_at_a_win_may_pay_a_seat_that_did_not_win(tmp_path: Path) -> None:
    tip = tmp_path / "tip.yaml"  # the winner tips the others: a payee that is no winner
    tip.write_text(
        "extends: sichuan/blog5\npayments:\n  tip:\n    at: win\n"
        '    payers: "{winner}"\n    payees: others\n    amount: 1\n    source: house rule\n',
        encoding="utf-8",
    )
    report = check(str(tip), hands=SMALL)
    assert report.clean, [f.format() for f in report.findings]


def test_a_payment_rule_that_cannot_be_evaluated_is_found_at_its_expression(
    tmp_path: Path,
) -> None:
    gift = tmp_path / "gift.yaml"  # no discarder when the win is self-drawn
    gift.write_text(
        "extends: sichuan/blog5\npayments:\n  gift:\n    at: win\n"
        '    payers: "{discarder}"\n    payees: "{winner}"\n    amount: 1\n'
        "    source: house rule\n",
        encoding="utf-8",
    )
    report = check(str(gift), hands=SMALL)
    static = [f for f in report.findings if f.kind == "static" and f.severity == "error"]
    assert static, [f.format() for f in report.findings]
    where = static[0].location
    assert Path(where.file).resolve() == gift.resolve() and (where.line, where.col) == (5, 15)
    assert static[0].message.startswith("payment cannot be evaluated: payments.gift.payers:")
