"""``mjrules diff A B``: what two rulesets (or one under two option sets) disagree on.

Not a diff of the text (``explain --diff`` is that) but of what the rules do: the same
built hands are scored under both, so a hand type that changed its condition or value is
shown with a hand that one accepts and the other does not, or that they value differently;
the same payment scenarios are settled under both; and the mechanics (claims, kongs, wall
end, birds ...) are compared field by field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dsl.explain import diff as text_diff
from dsl.ruleset import Ruleset
from dsl.shape_audit import describe
from interpreter.check.findings import Finding
from interpreter.check.hands import Tried, entries, try_hand
from interpreter.check.payments import representatives, settle_all
from interpreter.check.samples import winning_hands

HANDS = 1500
"""Hands built from each ruleset's tiles and claims, all scored under both."""
RULE_SECTIONS = ("hands", "modifiers", "scoring", "payment")
PAY_SECTIONS = ("scoring", "payment", "birds")
CODE = re.compile(r"\bC-\d\d\b")
"""Compared by their effect; every other section is compared field by field."""


@dataclass
class Difference:
    """One thing the rulesets disagree on, with a case that shows it."""

    area: str
    what: str
    witness: str = ""
    a: Any = None
    b: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "area": self.area,
            "what": self.what,
            "witness": self.witness or None,
            "a": self.a,
            "b": self.b,
        }


@dataclass
class Diff:
    a: str
    b: str
    hands: int
    differences: list[Difference] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "hands_compared": self.hands,
            "differences": [d.to_json() for d in self.differences],
        }


def semantic_diff(a: Ruleset, b: Ruleset, hands: int = HANDS) -> Diff:
    errors: list[Finding] = []
    pairs = []
    for seed, source in enumerate((a, b)):
        for situation, win in winning_hands(source, hands, seed=seed):
            pairs.append(
                (
                    try_hand(a, replace(situation, options=a.option_values), win, errors),
                    try_hand(b, replace(situation, options=b.option_values), win, errors),
                )
            )
    out = Diff(a.id, b.id, len(pairs))
    out.differences += _hand_types(a, b, pairs)
    out.differences += _wins(pairs)
    out.differences += _payments(a, b, pairs)
    out.differences += _mechanics(a, b)
    return out


OPTION_HANDS = 400
"""Hands built per ruleset when every option value is compared (``option_diffs``)."""


def option_diffs(ruleset: Ruleset, hands: int = OPTION_HANDS) -> list[Diff]:
    """The ruleset under its option values against each other value of each option: where
    an option decides between two readings of the sources, what the choice changes."""
    from dsl.ruleset import load

    found = []
    for name, option in ruleset.options.items():
        for value in option.possible_values():
            if value == option.value:
                continue
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            other = load(ruleset.path, settings=[f"{name}={shown}"])
            one = semantic_diff(ruleset, other, hands)
            one.b = f"{ruleset.id} with {name}={shown}"
            found.append(one)
    return found


def _name(ruleset: Ruleset, section: str, name: str) -> str:
    shown = ((ruleset.get(section) or {}).get(name) or {}).get("name") or {}
    zh = shown.get("zh") if isinstance(shown, Mapping) else shown
    return f"{zh} {name}" if zh else name


def _hand_types(a: Ruleset, b: Ruleset, pairs: Sequence[tuple[Tried, Tried]]) -> list[Difference]:
    found = []
    in_a = {name: section for section, name, _ in entries(a)}
    in_b = {name: section for section, name, _ in entries(b)}
    for name in dict.fromkeys([*in_a, *in_b]):
        section = in_a.get(name) or in_b[name]
        label = _name(a if name in in_a else b, section, name)
        codes = sorted(_codes(a, (section, name)) | _codes(b, (section, name)))
        label += f" ({', '.join(codes)})" if codes else ""
        if name not in in_b or name not in in_a:
            only = "a" if name in in_a else "b"
            example = next(
                (
                    ta if only == "a" else tb
                    for ta, tb in pairs
                    if name in (ta if only == "a" else tb).met
                ),
                None,
            )
            shown = _hand(example) if example else "no sampled hand has it"
            found.append(
                Difference(section, f"{label} only in {(a if only == 'a' else b).id}", shown)
            )
            continue
        only_a = next((ta for ta, tb in pairs if name in ta.met and name not in tb.met), None)
        only_b = next((tb for ta, tb in pairs if name in tb.met and name not in ta.met), None)
        if only_a or only_b:
            cases = [f"{who} only: {_hand(t)}" for who, t in ((a.id, only_a), (b.id, only_b)) if t]
            found.append(Difference(section, f"{label}: the condition differs", "; ".join(cases)))
        for ta, tb in pairs:
            va, vb = _value(ta, name), _value(tb, name)
            if va is not None and vb is not None and va != vb:
                found.append(Difference(section, f"{label}: the value differs", _hand(ta), va, vb))
                break
    return found


def _value(t: Tried, name: str) -> int | None:
    if t.result is None:
        return None
    return next((h.value for h in t.result.hands if h.id == name), None)


def _hand(t: Tried) -> str:
    counted = ", ".join(f"{h.name} {h.value}" for h in t.result.hands) if t.result else "no win"
    return f"{describe(t.situation)} → {counted}" + (f" = {t.result.total}" if t.result else "")


def _wins(pairs: Sequence[tuple[Tried, Tried]]) -> list[Difference]:
    found = []
    one = [(ta, tb) for ta, tb in pairs if (ta.result is None) != (tb.result is None)]
    if one:
        ta, tb = one[0]
        found.append(
            Difference(
                "wins",
                f"{len(one)} of {len(pairs)} hands win under one only",
                f"{_hand(ta)} | {_hand(tb)}",
            )
        )
    both = [(ta, tb) for ta, tb in pairs if ta.result and tb.result]
    worth = [(ta, tb) for ta, tb in both if ta.result.total != tb.result.total]  # type: ignore[union-attr]
    if worth:
        ta, tb = worth[0]
        found.append(
            Difference(
                "values",
                f"{len(worth)} of {len(both)} hands that win under both are worth differently",
                f"{_hand(ta)} | {_hand(tb)}",
                ta.result.total,
                tb.result.total,
            )
        )  # type: ignore[union-attr]
    return found


def _payments(a: Ruleset, b: Ruleset, pairs: Sequence[tuple[Tried, Tried]]) -> list[Difference]:
    """The payment tables of both on the same hands (those that win under both)."""
    found: list[Difference] = []
    for hand in representatives([ta for ta, tb in pairs if ta.result and tb.result], a, limit=4):
        again = try_hand(b, replace(hand.situation, options=b.option_values), hand.win, [])
        rows_b = {(r.role, r.spread): r for r in settle_all(b, [again], table=True)[0]}
        for row in settle_all(a, [hand], table=True)[0]:
            other = rows_b.get((row.role, row.spread))
            if other is not None and other.deltas != row.deltas:
                names = row.hand if row.hand == other.hand else f"{row.hand} / {other.hand}"
                birds = row.birds if row.birds == other.birds else f"{row.birds} / {other.birds}"
                what = f"{names}: {row.role}, {birds}"
                found.append(Difference("payments", what, "", list(row.deltas), list(other.deltas)))
    if found:
        codes = set().union(*(_codes(r, (s,)) for r in (a, b) for s in PAY_SECTIONS))
        cited = f": the rules cite {', '.join(sorted(codes))}" if codes else ""
        found.insert(0, Difference("payments", f"{len(found)} payments differ{cited}"))
    return found


def _mechanics(a: Ruleset, b: Ruleset) -> list[Difference]:
    found = []
    for change in text_diff(b, a):
        if change.path[0] in RULE_SECTIONS or change.path[0] == "ruleset":
            continue
        if change.kind not in ("added", "removed", "changed", "set"):
            continue
        what = ".".join(change.path)
        codes = sorted(_codes(a, change.path) | _codes(b, change.path))
        found.append(
            Difference(
                "mechanics",
                f"{what} {change.kind}" + (f" ({', '.join(codes)})" if codes else ""),
                "",
                _plain(change.old),
                _plain(change.new),
            )
        )
    return found


def _codes(ruleset: Ruleset, path: tuple[str, ...]) -> set[str]:
    """The seed contradictions (C-nn of RULES.md) the ruleset's text cites at a rule: in the
    comment lines just above it, in its lines (an entry's whole block) or in its note."""
    found: set[str] = set()
    for i in range(len(path), 0 if len(path) == 1 else 1, -1):  # not a whole section's
        where = ruleset.locations.get(tuple(path[:i]))
        if where is None:
            continue
        try:
            lines = Path(where.file).read_text(encoding="utf-8").splitlines()
        except OSError:
            break
        end = where.line
        while end < len(lines) and (
            not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) >= where.col - 1
        ):
            end += 1
        found.update(CODE.findall("\n".join(lines[max(0, where.line - 4) : end])))
        note = ruleset.get(".".join(path[:i]) + ".note")
        found.update(CODE.findall(note if isinstance(note, str) else ""))
        break
    return found


def _plain(value: Any) -> Any:
    if hasattr(value, "text") and not isinstance(value, str):
        text = " ".join(str(value.text).split())
        return text if len(text) <= 90 else text[:87] + "..."
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items() if k not in ("source", "note")}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def diff_text(d: Diff) -> str:
    lines = [
        f"# {d.a} → {d.b}",
        "",
        f"{d.hands} built hands scored under both; payments settled on the same hands.",
        "A is " + d.a + ", B is " + d.b + ".",
    ]
    area = ""
    for item in d.differences:
        if item.area != area:
            area = item.area
            lines += ["", f"## {area}"]
        text = f"- {item.what}"
        if item.a is not None or item.b is not None:
            text += f": A {_show(item.a)}, B {_show(item.b)}"
        lines.append(text)
        if item.witness:
            lines.append(f"    e.g. {item.witness}")
    if not d.differences:
        lines += ["", "No difference found."]
    return "\n".join(lines) + "\n"


def _show(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    return str(value)
