"""Steps of the ruleset format (see dsl/migrate.py): one module per change, each exposing
``migrate(doc) -> None`` that edits a ruamel.yaml round-trip document in place, and raising
``MigrationError`` (with the place, from ``at``) for what it cannot rewrite."""

from __future__ import annotations

from typing import Any


class MigrationError(ValueError):
    """A file that cannot be migrated: its line and column (1-based) say where."""

    def __init__(self, message: str, line: int = 1, col: int = 1, expected: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.expected = expected


def at(node: Any, key: Any) -> tuple[int, int]:
    """The 1-based line and column of ``node[key]``'s value in the file (1, 1 if unknown)."""
    try:
        line, col = node.lc.value(key)
    except (AttributeError, KeyError, TypeError):
        return 1, 1
    return line + 1, col + 1
