"""Checks read from the rules themselves, without playing a hand: conditions folded to a
constant, options no rule reads, presets that change nothing, modifiers of a class nothing
reads, ``replaces`` cycles, ties in claim priority."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from dsl import syntax
from dsl.ruleset import Ruleset, unread_class_message, unread_classes
from interpreter.check.findings import ERROR, INFO, WARNING, Finding
from interpreter.check.hands import entries, where


def expressions(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every compiled expression of the ruleset with its path."""
    if hasattr(value, "ast") and hasattr(value, "text"):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if key not in ("options", "presets"):
                yield from expressions(item, (*path, str(key)))
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from expressions(item, (*path, str(i)))


def static_findings(ruleset: Ruleset) -> list[Finding]:
    """The checks of this module on one loaded ruleset.  An option read by a literal field
    (``enabled: option.NAME``), which the loader resolves, is known by ``option_refs``."""
    found = []
    for section, name, spec in entries(ruleset):
        node = spec["when"].ast
        written = (section, name, "when") in ruleset.locations  # not the default 'true'
        if written and isinstance(node, syntax.Literal):
            what = "always true" if node.value else "always false"
            found.append(
                Finding(
                    "static",
                    ERROR if node.value else WARNING,
                    f"{section}.{name}: its condition is {what}",
                    where(ruleset, section, name, "when"),
                    (section, name, "when"),
                )
            )
    texts = [e.text for _, e in expressions(ruleset.data)]
    read = set(ruleset.option_refs.values())
    for name in ruleset.options:
        word = re.compile(rf"\boption\.{re.escape(name)}\b")
        if name not in read and not any(word.search(t) for t in texts):
            found.append(
                Finding(
                    "static",
                    WARNING,
                    f"option {name} is read by no rule",
                    where(ruleset, "options", name),
                    ("options", name),
                )
            )
    for name, values in ruleset.presets.items():
        changed = {k: v for k, v in values.items() if ruleset.options[k].default != v}
        if not changed:
            found.append(
                Finding(
                    "static",
                    WARNING if not values else INFO,
                    f"preset {name} sets nothing"
                    if not values
                    else f"preset {name} sets only the defaults ({', '.join(values)})",
                    where(ruleset, "presets", name),
                    ("presets", name),
                )
            )
    modifiers = ruleset.get("modifiers") or {}
    for kind, names in unread_classes(modifiers, expressions(ruleset.data)).items():
        at = ("modifiers", names[0], "class")
        found.append(
            Finding(
                "static",
                WARNING,
                unread_class_message(kind, modifiers, names),
                where(ruleset, *at),
                at[:2],
            )
        )
    found += _cycles(ruleset)
    for level in (ruleset.get("claims") or {}).get("priority") or ():
        if isinstance(level, tuple) and len(level) > 1:
            found.append(
                Finding(
                    "static",
                    INFO,
                    f"claims {' and '.join(level)} rank equal in "
                    "claims.priority: the seat nearer the discarder takes it",
                    where(ruleset, "claims", "priority"),
                    ("claims", "priority"),
                )
            )
    return found


def _cycles(ruleset: Ruleset) -> list[Finding]:
    found = []
    for section in ("hands", "modifiers"):
        found += _cycles_in(ruleset, section)
    return found


def _cycles_in(ruleset: Ruleset, section: str) -> list[Finding]:
    entries = ruleset.get(section) or {}
    edges = {n: set((h or {}).get("replaces") or ()) for n, h in entries.items()}
    found = []
    for start in edges:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, trail = stack.pop()
            for nxt in edges.get(node, ()):
                if nxt == start:
                    found.append(
                        Finding(
                            "static",
                            ERROR,
                            "replaces makes a cycle: " + " -> ".join((*trail, nxt)),
                            where(ruleset, section, start, "replaces"),
                            (section, start, "replaces"),
                        )
                    )
                    stack = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*trail, nxt)))
    return found[:1] if found else []
