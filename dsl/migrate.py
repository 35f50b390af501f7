"""The ruleset format's versions, and the steps that bring an older file up to date.

A file says its format at the top: ``format: 2``.  A file without the key is format 1 (the
format before versions).  Each change of the format is a *step*: a function that edits a
round-trip YAML document (ruamel.yaml's ``CommentedMap``, a dict that keeps comments and
layout) in place.  ``STEPS`` lists them in order; together they take a format-1 file to
``FORMAT``.  A step sees one file, possibly a fragment that extends another, and changes only
what it finds there.

``mjrules migrate FILE`` shows the rewritten file as a diff (``--write`` saves it); the loader
applies the same steps in memory to a format-1 file (dsl/ruleset.py), so old files keep
working.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dsl.migrations import MigrationError, at, literal_keys, phases

FORMAT = 2
"""The format this version of mjrules writes and reads natively."""

Step = Callable[[Any], None]

STEPS: list[Step] = [
    literal_keys.migrate,
    phases.migrate,
]
"""Format 1 to FORMAT, in order.  A new step is a module under dsl/migrations/ exposing
``migrate(doc) -> None``, appended here."""


def _yaml() -> Any:
    from ruamel.yaml import YAML  # only a format-1 file needs it

    yaml = YAML(typ="rt", pure=True)
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long line the author wrote
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.representer.add_representer(type(None), _null)
    return yaml


def _null(representer: Any, data: None) -> Any:
    """``~``, as the docs write a removal, rather than nothing."""
    return representer.represent_scalar("tag:yaml.org,2002:null", "~")


def version(value: Any, line: int = 1, col: int = 1) -> int:
    """The format a ``format:`` value names (None: 1); MigrationError if it names none known."""
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MigrationError(
            f"'format' is a format version, not {value!r}", line, col, f"format: {FORMAT}"
        )
    if value > FORMAT:
        raise MigrationError(
            f"format {value} is newer than this mjrules reads (format {FORMAT} at most): "
            "update mjrules",
            line,
            col,
            f"format: 1 to {FORMAT}",
        )
    return value


@dataclass(frozen=True)
class Migrated:
    """A file brought to FORMAT: its new text, and whether its rules' text changed (not only
    the ``format`` line)."""

    text: str
    changed: bool


def migrate_text(text: str) -> Migrated:
    """The text of a format-1 (or current) file rewritten to FORMAT, comments kept.

    Raises MigrationError for text that is not YAML, or a format this mjrules does not know.
    """
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = _yaml()
    try:
        doc = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise MigrationError(f"YAML syntax: {exc.problem or exc.context}", line, col) from None
    except YAMLError as exc:
        raise MigrationError(f"YAML: {exc}") from None
    if not _is_map(doc):
        raise MigrationError("a ruleset is a mapping of sections", expected="ruleset:, hands: ...")
    found = version(doc.get("format"), *at(doc, "format"))
    if found == FORMAT:
        return Migrated(text, False)
    before = _dump(yaml, doc)
    for step in STEPS:
        step(doc)
    changed = _dump(yaml, doc) != before
    if "format" in doc:
        doc["format"] = FORMAT
    else:
        doc.insert(0, "format", FORMAT)
    return Migrated(_dump(yaml, doc), changed)


def _is_map(doc: Any) -> bool:
    from ruamel.yaml.comments import CommentedMap

    return isinstance(doc, CommentedMap)


def _dump(yaml: Any, doc: Any) -> str:
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


def unified_diff(old: str, new: str, name: str) -> str:
    import difflib

    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        f"{name} (format 1)",
        f"{name} (format {FORMAT})",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
