"""``mjrules check``: semantic findings about a ruleset, under every option value and preset.

The checker sits above the hand core and settlement: it builds hands (``samples``), asks the
ruleset what they are worth (``hands``), settles every role combination (``payments``) and
reads the rules themselves (``static``).  A ruleset is checked under its defaults, each
preset, and each value of each option with the others at their defaults; a finding seen
under several settings is reported once, with the first that showed it.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dsl.ruleset import Ruleset, check_ruleset
from interpreter.check.findings import (
    ERROR,
    INFO,
    WARNING,
    Finding,
    acceptances,
    apply_acceptances,
    merge,
)
from interpreter.check.hands import (
    Tried,
    always_true,
    entries,
    reach_findings,
    try_hand,
    value_findings,
    where,
)
from interpreter.check.payments import Row, representatives, settle_all
from interpreter.check.samples import deals, winning_hands
from interpreter.check.static import expressions, static_findings

HANDS = 700
"""Winning hands built under the given settings (the bound of the reachability check)..."""
OTHER_HANDS = 300
"""... and under each other setting, where most hands repeat what the defaults showed."""
DEALS = 600
"""Opening deals sampled per option setting."""


@dataclass
class Report:
    ruleset: str
    findings: list[Finding]
    settings: int
    """How many option settings were checked."""
    seconds: float
    hands: int = HANDS

    @property
    def errors(self) -> int:
        return sum(f.severity == ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity == WARNING for f in self.findings)

    @property
    def clean(self) -> bool:
        return not self.errors and not self.warnings

    def to_json(self) -> dict[str, object]:
        return {
            "ruleset": self.ruleset,
            "clean": self.clean,
            "errors": self.errors,
            "warnings": self.warnings,
            "settings_checked": self.settings,
            "hands_per_setting": self.hands,
            "seconds": round(self.seconds, 2),
            "findings": [f.to_json() for f in self.findings],
        }


def settings_of(ruleset: Ruleset) -> Iterator[tuple[tuple[str, ...], str | None]]:
    """The settings to check: the given ones, each preset, each other option value."""
    yield (), None
    for name in ruleset.presets:
        yield (), name
    for name, option in ruleset.options.items():
        for value in option.possible_values():
            if value != option.value:
                shown = str(value).lower() if isinstance(value, bool) else str(value)
                yield (f"{name}={shown}",), None


HAND_SECTIONS = (
    "hands",
    "modifiers",
    "scoring",
    "claims",
    "tiles",
    "players",
    "restrictions",
    "opening_hands",
)
"""What sampled hands and their values depend on; payments also read the sections below."""
PLAYED = "payments in play"
"""Where ``readers`` puts the payment rules the checker does not settle: at opening hands, at
the wall's end, at the hand's end, and those taking up earlier payments (over)."""
PAY_SECTIONS = (*HAND_SECTIONS, "payment", "birds", "payments", PLAYED, "adjustments")


SHOWN_SECTIONS = ("hands", "modifiers", "scoring", "payment", "birds", "payments", "adjustments")
"""The sections whose every effect shows in the built hands and the payments settled (claims,
restrictions, opening hands and the payment rules of PLAYED also act in play, which the
checker does not replay in full)."""


def readers(ruleset: Ruleset, option: str) -> set[str]:
    """The sections with a rule that reads ``option`` (in an expression or a literal field)."""
    word = re.compile(rf"\boption\.{re.escape(option)}\b")
    found = {_reader(ruleset, path) for path, name in ruleset.option_refs.items() if name == option}
    return found | {
        _reader(ruleset, p) for p, e in expressions(ruleset.data) if word.search(e.text)
    }


def _reader(ruleset: Ruleset, path: tuple[Any, ...]) -> str:
    """The section of a rule at ``path``; payment rules the checker does not settle: PLAYED."""
    if path[0] != "payments" or len(path) < 2:
        return str(path[0])
    rule = (ruleset.get("payments") or {}).get(path[1]) or {}
    shown = rule.get("at") == "kong" or (rule.get("at") == "win" and rule.get("over") == "none")
    return "payments" if shown else PLAYED


def check(
    ref: str,
    settings: Sequence[str] = (),
    preset: str | None = None,
    hands: tuple[int, int] = (HANDS, OTHER_HANDS),
) -> Report:
    """Every finding about ``ref`` (an id or a path).  A setting whose options no hand or
    payment rule reads has only its static checks run: the rest would repeat the defaults'.
    An entry is unreachable when no setting that enables it reaches it.  ``hands``: how
    many hands to build under the given settings and under each other one."""
    start = time.perf_counter()
    first = check_ruleset(ref, settings=settings, preset=preset)
    if first.ruleset is None:
        return Report(ref, merge(_from_load(first.problems, ())), 1, time.perf_counter() - start)
    base = first.ruleset
    found: list[Finding] = _from_load(first.problems, ())
    unreached: dict[tuple[str, ...], list[Finding]] = {}
    enabled: Counter[tuple[str, ...]] = Counter()
    count = 0
    paid: Sequence[Tried] = ()
    default = Outcome()
    idle: list[tuple[str, tuple[str, ...], Ruleset, int]] = []
    reached: set[str] = set()
    searched: set[tuple[Any, ...]] = set()
    for extra, named in settings_of(base):
        shown = (*settings, *extra) + ((f"preset {named}",) if named else ())
        loaded = check_ruleset(ref, settings=(*settings, *extra), preset=named or preset)
        count += 1
        if loaded.ruleset is None:
            found += _from_load(loaded.problems, shown)
            continue
        rules = loaded.ruleset
        changed = [k for k, v in rules.option_values.items() if v != base.option_values[k]]
        parts = {
            part
            for part, sections in (("hands", HAND_SECTIONS), ("payments", PAY_SECTIONS))
            if not changed or any(readers(base, o) & set(sections) for o in changed)
        }
        if "hands" in parts:
            enabled.update(reachable_entries(rules))
        if not parts:
            found += [_at(f, shown) for f in static_findings(rules)]
            continue
        made, chosen, outcome = findings(
            rules, parts, paid, hands[1] if changed else hands[0], reached, searched
        )
        if not changed:
            default, paid = outcome, chosen  # the defaults' hands, paid again under others
        elif (
            extra
            and not named
            and readers(base, changed[0]) <= set(SHOWN_SECTIONS)
            and same(rules, outcome, default, paid)
        ):
            idle.append((changed[0], extra, rules, len(outcome.hands)))
        for f in made:
            if f.kind == "reachability" and f.path[0] != "options":
                unreached.setdefault(f.path, []).append(_at(f, shown))
            else:
                found.append(_at(f, shown))
    for path, seen in unreached.items():
        if len(seen) == enabled[path]:  # reached under no setting that has it
            found += seen
    outcomes: dict[tuple[Any, ...], Outcome] = {}
    for option, extra, rules, built in idle:
        other = idle_everywhere(ref, settings, preset, base, option, extra, paid, outcomes)
        if other is not None:
            made = idle_finding(rules, option, built, len(default.rows), other)
            found.append(_at(made, (*settings, *extra)))
    accepted = acceptances(base.data)
    seconds = time.perf_counter() - start
    return Report(base.id, merge(apply_acceptances(found, accepted)), count, seconds, hands[0])


def reachable_entries(ruleset: Ruleset) -> list[tuple[str, ...]]:
    """The entries the reachability check asks about under this setting."""
    paths = [(section, name) for section, name, _ in entries(ruleset)]
    opening = ruleset.get("opening_hands") or {}
    if opening.get("allowed"):
        paths += [
            ("opening_hands", "hands", n)
            for n, spec in (opening.get("hands") or {}).items()
            if spec and spec.get("enabled", True)
        ]
    return paths


def payment_table(ruleset: Ruleset, hands: int = 4) -> list[Row]:
    """What each seat wins or loses for a few hands in every role (``explain --payments``):
    the cheapest hand of some hand types and the dearest hand sampled."""
    tried = tried_hands(ruleset, [], HANDS)
    return settle_all(ruleset, representatives(tried, ruleset, limit=hands), table=True)[0]


def tried_hands(ruleset: Ruleset, errors: list[Finding], count: int = HANDS) -> list[Tried]:
    return [try_hand(ruleset, s, w, errors) for s, w in winning_hands(ruleset, count)]


@dataclass(frozen=True)
class Outcome:
    """What one setting showed: each built hand's conditions met and value (empty when the
    hands were not built again), and each settled payment row."""

    hands: tuple[Any, ...] = ()
    rows: tuple[Any, ...] = ()


def findings(
    ruleset: Ruleset,
    parts: Iterable[str] = ("hands", "payments"),
    paid: Sequence[Tried] = (),
    hands: int = HANDS,
    reached: set[str] | None = None,
    searched: set[tuple[Any, ...]] | None = None,
) -> tuple[list[Finding], list[Tried], Outcome]:
    """The findings of one loaded ruleset under its current option values: static always,
    hand checks (values, reachability) and payments as ``parts`` asks; the hands paid; and
    what the hands and payments came to.  Without the hand checks, the hands ``paid`` under
    another setting are paid again."""
    found = static_findings(ruleset)
    reached = set() if reached is None else reached
    searched = set() if searched is None else searched
    errors: list[Finding] = []
    outcome = Outcome()
    if "hands" in parts or not paid:
        tried = tried_hands(ruleset, errors, hands)
        paid = representatives(tried, ruleset)
        outcome = Outcome(tuple(_outcome(t) for t in tried))
    else:
        paid = pay_again(ruleset, paid, errors)
    if "hands" in parts:
        found += value_findings(ruleset, tried, errors) + always_true(ruleset, tried)
        found += reach_findings(ruleset, tried, deals(ruleset, DEALS), errors, reached, searched)
    if "payments" in parts:
        rows, paying = payments(ruleset, paid)
        found += paying
        outcome = replace(outcome, rows=rows)
    return found + errors, paid, outcome


def pay_again(ruleset: Ruleset, paid: Sequence[Tried], errors: list[Finding]) -> list[Tried]:
    """The hands tried under another setting, tried under this one."""
    again = (replace(t.situation, options=ruleset.option_values) for t in paid)
    return [try_hand(ruleset, s, t.win, errors) for s, t in zip(again, paid, strict=True)]


def payments(ruleset: Ruleset, paid: Sequence[Tried]) -> tuple[tuple[Any, ...], list[Finding]]:
    """Every role settled for ``paid``: the rows as compared between settings, the findings."""
    if ruleset.get("ruleset.abstract"):  # a base leaves payments out
        return (), []
    rows, found = settle_all(ruleset, paid)
    return tuple((r.hand, r.role, r.birds, r.deltas, r.total) for r in rows), found


def _outcome(t: Tried) -> tuple[Any, ...]:
    counted = tuple((h.id, h.value) for h in t.result.hands) if t.result else ()
    return t.met, counted, t.result.total if t.result else None


def same(ruleset: Ruleset, outcome: Outcome, default: Outcome, paid: Sequence[Tried]) -> bool:
    """Whether ``outcome`` shows what the defaults showed: every built hand met, counted and
    worth the same (the hands come from the same seed, so the first ones are the same hands),
    every payment the same on the defaults' hands."""
    if outcome.hands != default.hands[: len(outcome.hands)]:
        return False
    rows = outcome.rows
    if outcome.hands and rows:  # settled on hands of its own: pay the defaults' again
        rows = payments(ruleset, pay_again(ruleset, paid, []))[0]
    return rows == default.rows


def outcome_of(ruleset: Ruleset, paid: Sequence[Tried], hands: bool) -> Outcome:
    """The payments of ``paid`` under ``ruleset``, and the built hands (``OTHER_HANDS``) if
    ``hands``: an option no hand rule reads changes payments only."""
    tried = tried_hands(ruleset, [], OTHER_HANDS) if hands else []
    rows = payments(ruleset, pay_again(ruleset, paid, []))[0]
    return Outcome(tuple(_outcome(t) for t in tried), rows)


def idle_everywhere(
    ref: str,
    settings: Sequence[str],
    preset: str | None,
    base: Ruleset,
    option: str,
    extra: tuple[str, ...],
    paid: Sequence[Tried],
    outcomes: dict[tuple[Any, ...], Outcome],
) -> int | None:
    """An option value that changed nothing against the defaults, tried again on top of
    each preset and each value of the other options: how many settings it changed nothing
    under, or None when it changes something under one (a cap that only bites with more
    birds).  ``outcomes`` keeps each setting's outcome for the next option value."""

    hands = bool(readers(base, option) & set(HAND_SECTIONS))

    def outcome(more: tuple[str, ...], named: str | None) -> Outcome | None:
        key = (more, named, hands)
        if key not in outcomes:
            loaded = check_ruleset(ref, settings=(*settings, *more), preset=named or preset)
            if loaded.ruleset is None:
                return None
            outcomes[key] = outcome_of(loaded.ruleset, paid, hands)
        return outcomes[key]

    count = 0
    for other, named in settings_of(base):
        if not (other or named) or any(s.startswith(f"{option}=") for s in other):
            continue
        without, with_it = outcome(other, named), outcome((*other, *extra), named)
        if without is None or with_it is None:
            continue
        if without != with_it:
            return None
        count += 1
    return count


def idle_finding(ruleset: Ruleset, option: str, hands: int, rows: int, settings: int) -> Finding:
    value = ruleset.option_values[option]
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    return Finding(
        "reachability",
        WARNING,
        f"option {option}={shown} changes nothing: the rules that read it never fire, or "
        "give what the default value gives",
        where(ruleset, "options", option),
        ("options", option),
        (f"{hands} built hands met, counted and worth the same, and " if hands else "")
        + f"{rows} payment scenarios settled the same, as with the default value; and the "
        f"same {'hands and ' if hands else ''}payments under {settings} other settings (each "
        "preset, each other option value)",
    )


def _at(finding: Finding, settings: tuple[str, ...]) -> Finding:
    return replace(finding, settings=settings)


def _from_load(problems: Iterable[object], settings: tuple[str, ...]) -> list[Finding]:
    out = []
    for p in problems:
        kind = "shape" if "no winning shape" in p.message else "load"  # type: ignore[attr-defined]
        severity = ERROR if p.is_error else WARNING  # type: ignore[attr-defined]
        if kind == "load" and severity == WARNING:
            continue  # warnings are validate's: check reports what only it can see
        about = re.match(r"[a-z_]+(?:\.[A-Za-z0-9_]+)+", p.message)
        path = tuple(about.group().split(".")) if about else ()
        message, _, witness = (
            p.message.partition(" a win: ") if kind == "shape" else (p.message, "", "")
        )
        message += " a win" if witness else ""
        out.append(
            Finding(
                kind,
                severity,
                message,
                p.location,  # type: ignore[attr-defined]
                path,
                witness,
                settings,
                expected=p.expected,  # type: ignore[attr-defined]
                suggestion=p.suggestion,  # type: ignore[attr-defined]
            )
        )
    return out


__all__ = ["ERROR", "INFO", "WARNING", "Finding", "Report", "check"]
