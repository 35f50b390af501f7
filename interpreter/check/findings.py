"""A finding of ``mjrules check``: what is wrong with a rule, where, and a case that shows it.

Findings differ from load problems (``dsl.problems``): a ruleset that loads may still pay a
bigger hand less than a smaller one, or never reach a hand type.  Each finding has a kind
(the family of checks that made it), a severity, a place in the file, an explanation and,
where one exists, a witness: a hand or a payment scenario on which the rule misbehaves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from dsl.problems import Location

ERROR, WARNING, INFO = "error", "warning", "info"
KINDS = ("load", "shape", "values", "payments", "static", "reachability")
"""Every kind a finding has; ``docs/CHECK.md`` explains each with an example."""


@dataclass(frozen=True)
class Finding:
    kind: str
    severity: str
    message: str
    location: Location
    path: tuple[str, ...] = ()
    """The rule it is about, as a path into the ruleset (``hands.NAME.value``)."""
    witness: str = ""
    settings: tuple[str, ...] = ()
    """The option settings under which it shows (empty: the defaults)."""
    because: str = ""
    """The ruleset's own justification, when it accepts this finding (see ``ignored``)."""
    expected: str = ""
    suggestion: str = ""
    """A load problem's hints (what was expected, the name meant), as ``validate`` shows."""

    @property
    def key(self) -> tuple[Any, ...]:
        """Findings under several option settings that say the same thing are one."""
        return (self.kind, self.severity, self.message, self.path)

    def format(self) -> str:
        text = f"{self.location}: {self.severity}: [{self.kind}] {self.message}"
        if self.witness:
            text += f"\n  witness: {self.witness}"
        if self.expected:
            text += f"\n  expected: {self.expected}"
        if self.suggestion:
            text += f"\n  did you mean '{self.suggestion}'?"
        if self.settings:
            text += f"\n  with: {', '.join(self.settings)}"
        if self.because:
            text += f"\n  accepted by the ruleset: {self.because}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "message": self.message,
            "file": self.location.file,
            "line": self.location.line,
            "col": self.location.col,
            "path": ".".join(self.path),
            "witness": self.witness or None,
            "settings": list(self.settings),
            "accepted_because": self.because or None,
            "expected": self.expected or None,
            "suggestion": self.suggestion or None,
        }


def merge(found: Iterable[Finding]) -> list[Finding]:
    """One finding per key, keeping the first settings that showed it."""
    out: dict[tuple[Any, ...], Finding] = {}
    for f in found:
        out.setdefault(f.key, f)
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    return sorted(
        out.values(),
        key=lambda f: (
            order[f.severity],
            f.location.file,
            f.location.line,
            f.location.col,
            f.message,
        ),
    )


_ACCEPT = re.compile(r"check:\s*accept\s+([a-z]+)\s*(?:—|-|:)\s*(.+?)(?:\.\s|$)", re.S)


def acceptances(data: Mapping[str, Any]) -> dict[tuple[str, ...], dict[str, str]]:
    """The findings a ruleset accepts, read from the ``note:`` of the entry they are about:
    ``check: accept KIND — why``.  A note is prose every reader sees, so the reason is in
    front of people as well as of the checker."""
    found: dict[tuple[str, ...], dict[str, str]] = {}

    def walk(value: Any, path: tuple[str, ...]) -> None:
        if not isinstance(value, Mapping):  # an option keeps its note as an attribute
            accept(getattr(value, "note", None), path)
            return
        accept(value.get("note"), path)
        for key, item in value.items():
            if key not in ("note", "source"):
                walk(item, (*path, str(key)))

    def accept(note: Any, path: tuple[str, ...]) -> None:
        if isinstance(note, str):
            for kind, why in _ACCEPT.findall(note):
                found.setdefault(path, {})[kind] = " ".join(why.split())

    walk(data, ())
    return found


def apply_acceptances(
    findings: Iterable[Finding], accepted: Mapping[tuple[str, ...], Mapping[str, str]]
) -> list[Finding]:
    """Findings the ruleset accepts become ``info`` and carry its reason."""
    out = []
    for f in findings:
        why = next(
            (
                accepted[f.path[:i]][f.kind]
                for i in range(len(f.path), -1, -1)
                if f.kind in accepted.get(f.path[:i], {})
            ),
            "",
        )
        out.append(replace(f, severity=INFO, because=why) if why and f.severity != INFO else f)
    return out
