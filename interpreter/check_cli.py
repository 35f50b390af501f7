"""``mjrules check`` and ``mjrules diff``: the consistency checker on the command line.

The checker (``interpreter.check``) is imported when a command runs, so ``mjrules --help``
stays quick.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from dsl.problems import Problem, RulesetError
from interpreter.ruleset_cli import ruleset_options

if TYPE_CHECKING:
    from dsl.ruleset import Ruleset
    from interpreter.check import Report


@click.command("check")
@click.argument("rulesets", nargs=-1, required=True, metavar="PATH_OR_ID...")
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON on stdout.")
def check(
    rulesets: tuple[str, ...], settings: tuple[str, ...], preset: str | None, as_json: bool
) -> None:
    """Find what is wrong in the rules themselves, under every option value and preset.

    Each finding has a place (file:line:col), a severity, a kind (shape, values, payments,
    static, reachability, load; see docs/CHECK.md) and, where one exists, a witness: a hand
    or a payment scenario that shows it.  Exit code 1 if any finding is an error.

    \b
    Examples:
      mjrules check REGION/VERSION
      mjrules check my-house.yaml --json
    """
    reports = run(rulesets, settings, preset)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in reports], ensure_ascii=False, indent=2))
    else:
        for report in reports:
            for finding in report.findings:
                click.echo(finding.format())
            click.echo(summary(report))
    sys.exit(1 if any(r.errors for r in reports) else 0)


def run(rulesets: tuple[str, ...], settings: tuple[str, ...], preset: str | None) -> list[Report]:
    """The reports of every ruleset named (a directory stands for its .yaml files)."""
    from interpreter.check import check as check_one
    from interpreter.ruleset_cli import targets

    return [check_one(target, settings, preset) for target in targets(rulesets)]


def summary(r: Report) -> str:
    """One line: the ruleset, its counts, the settings and hands tried, the time taken."""
    status = "clean" if r.clean else ("errors" if r.errors else "warnings")
    return (
        f"{status}: {r.ruleset} ({r.errors} errors, {r.warnings} warnings; "
        f"{r.settings} option settings, {r.seconds:.1f} s)"
    )


@click.command("diff")
@click.argument("first", metavar="A")
@click.argument("second", metavar="[B]", required=False)
@click.option(
    "--set-a",
    "settings_a",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set an option of A (repeatable).",
)
@click.option(
    "--set-b",
    "settings_b",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set an option of B (repeatable; B is A when not given).",
)
@click.option(
    "--each-option",
    is_flag=True,
    help="Compare A with itself under each other value of each option (the readings an "
    "option decides between).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the differences as JSON.")
def diff(
    first: str,
    second: str | None,
    settings_a: tuple[str, ...],
    settings_b: tuple[str, ...],
    each_option: bool,
    as_json: bool,
) -> None:
    """What two rulesets (or one under two option sets) disagree on, with witnesses.

    Hand types added, removed or changed in condition or value, each with a hand that shows
    it; hands that win under one only; payment tables per role; mechanics (claims, kongs,
    wall end, birds), with the seed contradictions (C-nn) the rulesets cite.

    \b
    Examples:
      mjrules diff REGION/OLD REGION/NEW
      mjrules diff REGION/VERSION --set-b birds=4
      mjrules diff REGION/VERSION --each-option
    """
    from dsl.ruleset import load
    from interpreter.check.diff import diff_text, option_diffs, semantic_diff

    # Each side's problems are told with its side and its flag (--set-b; diff takes no
    # preset); a problem of the ruleset itself, shared by both sides when B is A, is told once.
    loaded: list[Ruleset] = []
    told: set[Problem] = set()
    for side, ref, settings in (("a", first, settings_a), ("b", second or first, settings_b)):
        try:
            loaded.append(load(ref, settings=settings, flags=(f"--set-{side}", "")))
        except RulesetError as exc:
            for problem in exc.problems:
                if problem not in told:
                    told.add(problem)
                    click.echo(f"{side.upper()} ({ref}): {problem.format()}", err=True)
    if len(loaded) < 2:
        sys.exit(1)
    a, b = loaded
    found = option_diffs(a) if each_option else [semantic_diff(a, b)]
    if as_json:
        data = [d.to_json() for d in found]
        click.echo(json.dumps(data if each_option else data[0], ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(diff_text(d) for d in found), nl=False)


COMMANDS = (check, diff)
