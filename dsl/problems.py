"""Problems found in a ruleset, told the way a compiler tells them.

Every problem has a place (``file:line:col``, 1-based), a severity (error or warning), a message,
and where it helps, the offending line with a caret under it, what was expected and the nearest
valid name.  ``RulesetError`` carries all the problems of one run, so an author fixes a file in
one pass instead of one error at a time.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from handcore.tiles import display_width

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Location:
    """A place in a source file: 1-based line and column, and how many characters it spans.
    Line 0 is the file (or name) as a whole, with no place in it: one that does not exist."""

    file: str
    line: int
    col: int
    length: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.line else self.file


@dataclass(frozen=True)
class Problem:
    """One error or warning, with everything a person needs to fix it."""

    severity: str
    message: str
    location: Location
    source_line: str = ""
    expected: str = ""
    suggestion: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def format(self) -> str:
        """``file:line:col: error: message``, then the line with a caret, then hints."""
        text = f"{self.location}: {self.severity}: {self.message}"
        if self.source_line:
            line = self.source_line.rstrip("\n")
            before = line[: self.location.col - 1]
            span = line[self.location.col - 1 : self.location.col - 1 + self.location.length]
            pad = " " * display_width(before.expandtabs(1))
            marks = "^" * max(1, display_width(span))
            text += f"\n    {line}\n    {pad}{marks}"
        if self.expected:
            text += f"\n  expected: {self.expected}"
        if self.suggestion:
            text += f"\n  did you mean '{self.suggestion}'?"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.location.file,
            "line": self.location.line,
            "col": self.location.col,
            "length": self.location.length,
            "severity": self.severity,
            "message": self.message,
            "expected": self.expected or None,
            "suggestion": self.suggestion or None,
        }


class RulesetError(Exception):
    """The ruleset cannot be used; ``problems`` lists everything found (errors and warnings)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(self.format())

    def __reduce__(self) -> tuple[type[RulesetError], tuple[tuple[Problem, ...]]]:
        """Rebuilt from its problems (not its message) when sent to or from another process."""
        return type(self), (self.problems,)

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.is_error)

    def format(self) -> str:
        return "\n".join(p.format() for p in self.problems)


@dataclass
class Problems:
    """Collects the problems of one run; ``raise_if_errors`` ends the run if any is an error."""

    items: list[Problem] = field(default_factory=list)
    limit: int = 200

    def add(self, problem: Problem) -> None:
        if len(self.items) < self.limit:
            self.items.append(problem)

    def error(self, message: str, location: Location, **hints: str) -> None:
        self.add(make(ERROR, message, location, **hints))

    def warning(self, message: str, location: Location, **hints: str) -> None:
        self.add(make(WARNING, message, location, **hints))

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.add(problem)

    @property
    def has_errors(self) -> bool:
        return any(p.is_error for p in self.items)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise RulesetError(sorted_problems(self.items))


def sorted_problems(problems: Iterable[Problem]) -> list[Problem]:
    """In file order, so a reader goes down the file once."""
    return sorted(problems, key=lambda p: (p.location.file, p.location.line, p.location.col))


_SOURCE_LINES: dict[str, list[str]] = {}


def remember_source(file: str, text: str) -> None:
    """Keep a file's lines so problems can quote the offending one."""
    _SOURCE_LINES[file] = text.splitlines()


def source_line(location: Location) -> str:
    lines = _SOURCE_LINES.get(location.file)
    if lines and 1 <= location.line <= len(lines):
        return lines[location.line - 1]
    return ""


def make(severity: str, message: str, location: Location, **hints: str) -> Problem:
    return Problem(
        severity,
        message,
        location,
        source_line=source_line(location),
        expected=hints.get("expected", ""),
        suggestion=hints.get("suggestion", ""),
    )


def nearest(name: str, candidates: Iterable[str]) -> str:
    """The valid name closest to ``name``, or '' if none is close enough to be a likely typo."""
    pool = [str(c) for c in candidates]
    lowered = {c.lower(): c for c in pool}
    if name.lower() in lowered and lowered[name.lower()] != name:
        return lowered[name.lower()]
    found = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if found:
        return found[0]
    prefixed = [c for c in pool if name and (c.startswith(name) or name.startswith(c)) and c]
    return min(prefixed, key=len) if len(prefixed) == 1 else ""
