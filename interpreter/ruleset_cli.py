"""The ruleset commands of ``mjrules``: ``list``, ``validate``, ``schema``, ``explain`` and
``migrate``.

Each is a plain ``click.Command`` that the ``mjrules`` group registers.  They print results on
stdout and problems on stderr, exit 0 on success and 1 on invalid input, and never show a
Python traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from dsl.problems import Problem, RulesetError

if TYPE_CHECKING:  # the compiler is imported by the commands that run, so that
    from dsl.ruleset import Loaded  # `mjrules hand` and `--help` do not pay for it

_SET_HELP = "Set an option for this run, e.g. --set birds=4 (repeatable)."
_PRESET_HELP = "Use a preset declared by the ruleset."

F = TypeVar("F", bound=Callable[..., Any])


def ruleset_options(command: F) -> F:
    """``--set NAME=VALUE`` and ``--preset NAME``: every command that takes a ruleset has them."""
    command = click.option("--preset", default=None, help=_PRESET_HELP)(command)
    return click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help=_SET_HELP)(
        command
    )


def targets(refs: Iterable[str]) -> Iterator[str]:
    """Ids and files as given; a directory stands for every .yaml file under it."""
    for ref in refs:
        path = Path(ref)
        try:
            folder = path.is_dir()
        except OSError:  # a name too long: the loader says so
            folder = False
        if folder:
            yield from (str(p) for p in sorted(path.rglob("*.yaml")))
        else:
            yield ref


def _report(problems: Iterable[Problem]) -> None:
    for problem in problems:
        click.echo(problem.format(), err=True)


@click.command("validate")
@click.argument("rulesets", nargs=-1, required=True, metavar="PATH_OR_ID...")
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON on stdout.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--check", "semantic", is_flag=True, help="Also run mjrules check (its errors invalidate)."
)
def validate(
    rulesets: tuple[str, ...],
    settings: tuple[str, ...],
    preset: str | None,
    as_json: bool,
    strict: bool,
    semantic: bool,
) -> None:
    """Check rulesets (ids such as region/version, files or directories).

    Every problem is reported as file:line:col with the offending text. Exit code 0 if all
    are valid, 1 otherwise.  With --check, the semantic findings of ``mjrules check`` too.
    """
    results: list[dict[str, Any]] = []
    all_ok = True
    for target in targets(rulesets):
        loaded = _safely(target, settings, preset)
        ok = loaded.ok and not (strict and loaded.problems)
        findings = _semantic(target, settings, preset) if semantic and loaded.ok else []
        ok &= not any(f.severity == "error" for f in findings)
        all_ok &= ok
        if as_json:
            results.append(
                {
                    "ruleset": target,
                    "id": loaded.ruleset.id if loaded.ruleset else None,
                    "valid": ok,
                    "problems": [p.to_json() for p in loaded.problems],
                    **({"findings": [f.to_json() for f in findings]} if semantic else {}),
                }
            )
            continue
        _report(loaded.problems)
        for finding in findings:
            click.echo(finding.format(), err=True)
        errors = sum(p.is_error for p in loaded.problems)
        warnings = len(loaded.problems) - errors
        status = "ok" if ok else "invalid"
        counts = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
        click.echo(f"{status}: {target} ({counts})", err=not ok)
    if as_json:
        click.echo(json.dumps({"valid": all_ok, "rulesets": results}, ensure_ascii=False, indent=2))
    sys.exit(0 if all_ok else 1)


def _semantic(target: str, settings: Iterable[str], preset: str | None) -> list[Any]:
    """The findings of ``mjrules check`` (the checker sits above settlement: loaded late)."""
    from interpreter.check import check

    return check(target, tuple(settings), preset).findings


def _safely(target: str, settings: Iterable[str], preset: str | None) -> Loaded:
    from dsl.ruleset import Loaded, check_ruleset

    try:
        return check_ruleset(target, settings=settings, preset=preset)
    except RulesetError as exc:  # pragma: no cover - check_ruleset returns problems
        return Loaded(None, list(exc.problems))


@click.command("schema")
@click.option("--markdown", is_flag=True, help="Print the field tables of docs/DSL.md instead.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write to this file instead of stdout.",
)
def schema(markdown: bool, output: str | None) -> None:
    """Print the JSON Schema of the ruleset format.

    Point your editor's YAML language server at it for completion and checking, e.g. a first
    line '# yaml-language-server: $schema=ruleset.schema.json'.
    """
    from dsl.structure import json_schema, markdown_tables

    text = (
        markdown_tables() if markdown else json.dumps(json_schema(), ensure_ascii=False, indent=2)
    )
    if output:
        try:
            Path(output).write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
        except OSError as exc:
            click.echo(f"{output}: error: cannot write: {exc.strerror}", err=True)
            sys.exit(1)
    else:
        click.echo(text)


@click.command("explain")
@click.argument("ruleset", metavar="PATH_OR_ID")
@ruleset_options
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the resolved ruleset (options applied, expressions as text) as JSON.",
)
@click.option(
    "--diff",
    "parent",
    default=None,
    metavar="PARENT",
    help="Show only what the ruleset changes compared with PARENT (an id or path); with "
    "--json, as a list of changes.",
)
@click.option(
    "--payments",
    is_flag=True,
    help="Show the payment table instead: what each seat wins or loses, per role, for a few "
    "hands (settled as play settles them).",
)
def explain(
    ruleset: str,
    settings: tuple[str, ...],
    preset: str | None,
    as_json: bool,
    parent: str | None,
    payments: bool,
) -> None:
    """Show a ruleset as readable rules text, with the source of each rule.

    \b
    Examples:
      mjrules explain REGION/VERSION --set birds=4
      mjrules explain my-house.yaml --diff REGION/VERSION
      mjrules explain REGION/VERSION --payments
    """
    from dsl.explain import diff_json, explain_diff
    from dsl.explain import explain as render
    from dsl.ruleset import load

    try:
        loaded = load(ruleset, settings=settings, preset=preset)
        base = None if parent is None else load(parent)
    except RulesetError as exc:
        _report(exc.problems)
        sys.exit(1)
    if payments:
        _payments(loaded, as_json)
    elif base is not None and as_json:
        click.echo(json.dumps(diff_json(loaded, base), ensure_ascii=False, indent=2))
    elif base is not None:
        click.echo(explain_diff(loaded, base), nl=False)
    elif as_json:
        click.echo(json.dumps(_plain(loaded.data), ensure_ascii=False, indent=2))
    else:
        click.echo(render(loaded), nl=False)


def _payments(loaded: Any, as_json: bool) -> None:
    """The payment table (the checker settles it: loaded late, as it sits above settlement)."""
    from interpreter.check import payment_table
    from interpreter.check.payments import table_text

    if loaded.get("ruleset.abstract"):
        click.echo(
            f"{loaded.id} is abstract: it leaves payments to the rulesets extending it", err=True
        )
        sys.exit(1)
    rows = payment_table(loaded)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in rows], ensure_ascii=False, indent=2))
    else:
        click.echo(table_text(rows, int(loaded.get("players.count") or 4)), nl=False)


def _plain(value: Any) -> Any:
    from collections.abc import Mapping

    from dsl.options import Option

    if isinstance(value, Option):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "text") and not isinstance(value, str):
        return value.text
    return value


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the rulesets as JSON.")
def list_rulesets(as_json: bool) -> None:
    """List the rulesets found: id, title and the folder each is read from.

    Ids are looked up in ./rulesets, then in each folder of $MJRULES_RULESETS, then among
    the shipped rulesets; the first folder holding an id wins.
    """
    from collections.abc import Mapping

    from dsl.ruleset import check_ruleset, found_rulesets

    rows = []
    for the_id, folder in found_rulesets():
        loaded = check_ruleset(the_id, compile=False)
        meta = loaded.ruleset.get("ruleset", {}) if loaded.ruleset else {}
        title = meta.get("title") or {}
        rows.append(
            {
                "id": the_id,
                "title": dict(title) if isinstance(title, Mapping) else {"en": str(title)},
                "from": folder.label,
                "path": str(folder.path / f"{the_id}.yaml"),
                "abstract": bool(meta.get("abstract")),
                "valid": loaded.ok,
            }
        )
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    width = max((len(r["id"]) for r in rows), default=0)
    for row in rows:
        title = " / ".join(v for v in (row["title"].get("zh"), row["title"].get("en")) if v)
        notes = [("abstract", row["abstract"]), ("invalid", not row["valid"])]
        extra = "".join(f" ({name})" for name, on in notes if on)
        click.echo(f"{row['id']:<{width}}  {title}{extra}  [{row['from']}]")


@click.command("migrate")
@click.argument("file", metavar="FILE")
@click.option("--write", is_flag=True, help="Save the rewritten file in place of FILE.")
def migrate(file: str, write: bool) -> None:
    """Rewrite a ruleset FILE of an older format in the current one, comments and layout kept.

    Shows the changes as a unified diff on stdout; with --write saves them to FILE.  A file
    already in the current format is left alone.  Exit code 0 on success, 1 on a file that
    cannot be read or rewritten (the message says where).

    \b
    Examples:
      mjrules migrate rulesets/house/ours.yaml            # see what changes
      mjrules migrate rulesets/house/ours.yaml --write    # and save it
    """
    from dsl.migrate import FORMAT, MigrationError, migrate_text, unified_diff
    from dsl.problems import ERROR, Location, make
    from dsl.yaml_source import load_file

    try:
        text = load_file(file).source.text
        migrated = migrate_text(text)
    except RulesetError as exc:
        _report(exc.problems)
        sys.exit(1)
    except MigrationError as exc:
        where = Location(file, exc.line, exc.col)
        _report([make(ERROR, exc.message, where, expected=exc.expected)])
        sys.exit(1)
    if migrated.text == text:
        click.echo(f"{file}: already format {FORMAT}", err=True)
        return
    click.echo(unified_diff(text, migrated.text, file), nl=False)
    if write:
        try:
            Path(file).write_text(migrated.text, encoding="utf-8")
        except OSError as exc:
            click.echo(f"{file}: cannot write: {exc.strerror}", err=True)
            sys.exit(1)
        click.echo(f"{file}: rewritten as format {FORMAT}", err=True)


COMMANDS = (list_rulesets, validate, schema, explain, migrate)
