"""What a ruleset makes of a hand: the conditions it meets, its value, and the hand-type
checks built on them — values and reachability.

A "condition met" is a hand type or modifier whose ``when`` holds (before ``replaces``).
The values check asks, for every sampled hand and every hand type it meets, what the hand
would be worth if that hand type did not exist: meeting one condition more must not make a
hand worth less (a one-suit seven pairs is worth at least a seven pairs).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dsl import syntax
from dsl.errors import EvaluationError
from dsl.problems import Location
from dsl.ruleset import Frozen, Ruleset
from dsl.shape_audit import describe
from dsl.situation import Situation
from interpreter.check.findings import ERROR, INFO, WARNING, Finding
from interpreter.check.samples import claims_allowed, winning_hands
from interpreter.hand_record import Win
from interpreter.settle import SettlementError, WinResult, hand_types

SECTIONS = ("hands", "modifiers")
OPTION = re.compile(r"\boption\.(\w+)")
SEARCH = 4000
"""Hands built to look for an entry that the common sample did not reach."""


@dataclass(frozen=True)
class Tried:
    """One sampled hand under one ruleset: the conditions met and the win they make."""

    situation: Situation
    win: Win
    met: frozenset[str]
    result: WinResult | None


def where(ruleset: Ruleset, *path: str) -> Location:
    """The closest located place of ``path`` in the ruleset's files."""
    for i in range(len(path), 0, -1):
        found = ruleset.locations.get(tuple(path[:i]))
        if found is not None:
            return found
    return Location(ruleset.path, 1, 1)


def entries(ruleset: Ruleset) -> Iterable[tuple[str, str, Mapping[str, Any]]]:
    """Every enabled hand type and modifier: section, name, spec."""
    for section in SECTIONS:
        for name, spec in (ruleset.get(section) or {}).items():
            if spec and spec.get("enabled", True):
                yield section, name, spec


def try_hand(ruleset: Ruleset, situation: Situation, win: Win, errors: list[Finding]) -> Tried:
    """The conditions ``situation`` meets and what it wins; a rule that fails to evaluate
    is a finding (a name without a value at that moment)."""
    met = set()
    for section, name, spec in entries(ruleset):
        try:
            if spec["when"](situation):
                met.add(name)
        except EvaluationError as exc:
            errors.append(_failed(ruleset, (section, name, "when"), exc, situation))
    return Tried(situation, win, frozenset(met), score(ruleset, situation, win, errors))


def score(
    ruleset: Ruleset, situation: Situation, win: Win, errors: list[Finding]
) -> WinResult | None:
    try:
        return hand_types(ruleset, [situation], win)
    except SettlementError:
        return None
    except EvaluationError as exc:
        errors.append(_failed(ruleset, ("scoring", "value"), exc, situation))
        return None


def _failed(ruleset: Ruleset, path: tuple[str, ...], exc: Exception, s: Situation) -> Finding:
    return Finding(
        "static",
        ERROR,
        f"{'.'.join(path)} cannot be evaluated: {exc}",
        where(ruleset, *path),
        path,
        describe(s),
    )


def without(ruleset: Ruleset, section: str, name: str) -> Ruleset:
    """The ruleset as if ``name`` were not in ``section``."""
    kept = {k: v for k, v in (ruleset.get(section) or {}).items() if k != name}
    return replace(ruleset, data=Frozen({**ruleset.data, section: Frozen(kept)}))


def value_findings(
    ruleset: Ruleset, tried: Iterable[Tried], errors: list[Finding]
) -> list[Finding]:
    """A condition met more lowers the value; negative values; overlaps."""
    tried = list(tried)
    found = overlaps(ruleset, tried)
    lesser: dict[str, Ruleset] = {}
    reported: set[tuple[str, str]] = set()
    for t in tried:
        if t.result is None:
            continue
        for h in t.result.hands:
            if h.value < 0 and ("negative", h.id) not in reported:
                reported.add(("negative", h.id))
                section = "hands" if h.id in (ruleset.get("hands") or {}) else "modifiers"
                found.append(
                    Finding(
                        "values",
                        ERROR,
                        f"{section}.{h.id} is worth {h.value}: a value below zero",
                        where(ruleset, section, h.id, "value"),
                        (section, h.id, "value"),
                        _shown(t),
                    )
                )
        for section, name, _ in entries(ruleset):
            if name not in t.met or ("less", name) in reported:
                continue
            if name not in lesser:
                lesser[name] = without(ruleset, section, name)
            other = score(lesser[name], t.situation, t.win, errors)
            if other is not None and other.total > t.result.total:
                reported.add(("less", name))
                found.append(
                    Finding(
                        "values",
                        ERROR,
                        f"{section}.{name} lowers the value of a hand that meets it: "
                        f"{t.result.total} with it, {other.total} without it (a hand that meets "
                        "more conditions must not be worth less)",
                        where(ruleset, section, name),
                        (section, name),
                        _shown(t),
                    )
                )
    return found


OVERLAP_SAMPLES = 5
"""Hands a hand type must be met on before the checker says another always comes with it."""


def overlaps(ruleset: Ruleset, tried: Sequence[Tried]) -> list[Finding]:
    """Hand types met only together with another that they do not replace, both counted.
    When the ruleset writes how values combine (``scoring.value``), stacking is its rule and
    this is told (info); when it leaves that to the default sum, it is a warning."""
    hands = ruleset.get("hands") or {}
    declared = ("scoring", "value") in ruleset.locations
    found = []
    for name in hands:
        seen = [t for t in tried if name in t.met and t.result is not None]
        if len(seen) < OVERLAP_SAMPLES:
            continue
        always = set.intersection(*(set(t.met) for t in seen)) & set(hands) - {name}
        for other in sorted(always):
            counted = all(
                {name, other} <= {h.id for h in t.result.hands}  # type: ignore[union-attr]
                for t in seen
            )
            if counted:
                found.append(
                    Finding(
                        "values",
                        INFO if declared else WARNING,
                        f"hands.{name} came with hands.{other} on every sampled hand it holds "
                        "on, and does not replace it: both count (add `replaces` if it should "
                        "count alone" + (")" if declared else ", or scoring.value if they stack)"),
                        where(ruleset, "hands", name),
                        ("hands", name, "replaces"),
                        f"{len(seen)} sampled hands, e.g. {_shown(seen[0])}",
                    )
                )
    return found


ALWAYS_SAMPLES = 50
"""Winning hands an entry must be tried on before its condition is called always true."""


def always_true(ruleset: Ruleset, tried: Sequence[Tried]) -> list[Finding]:
    """Hand types and modifiers whose condition held on every sampled winning hand.  Judged
    over wins only: every win has a shape, so ``standard()`` alone is not constant unless the
    ruleset has no other.  A hand type that is on some win the only one met makes those hands
    wins: the ruleset's base hand (平胡 as it defines wins), told as info; any other entry met
    everywhere, such as a one-suit hand that every hand meets, is a warning.  (A condition
    false everywhere is the reachability finding.)"""
    wins = [t for t in tried if t.result is not None]
    if len(wins) < ALWAYS_SAMPLES:
        return []
    hands = set(ruleset.get("hands") or {})
    found = []
    for section, name, spec in entries(ruleset):
        if isinstance(spec["when"].ast, syntax.Literal) or not all(name in t.met for t in wins):
            continue  # a constant written out is the static check's
        base = section == "hands" and any(t.met & hands == {name} for t in wins)
        found.append(
            Finding(
                "static",
                INFO if base else WARNING,
                f"{section}.{name} holds on every sampled winning hand: "
                + (
                    "the base hand, which alone makes some of them wins"
                    if base
                    else "its condition looks always true"
                ),
                where(ruleset, section, name, "when"),
                (section, name, "when"),
                f"all {len(wins)} winning hands built under the tile set and the claims allowed, "
                f"e.g. {_shown(wins[0])}",
            )
        )
    return found


def _shown(t: Tried) -> str:
    hands = ", ".join(f"{h.name} {h.value}" for h in t.result.hands) if t.result else "no win"
    return f"{describe(t.situation)}; counts {hands}"


def reach_findings(
    ruleset: Ruleset,
    tried: Iterable[Tried],
    deals: Iterable[Situation],
    errors: list[Finding],
    reached: set[str],
    searched: set[tuple[Any, ...]],
) -> list[Finding]:
    """Hand types, modifiers and opening hands that no sampled hand reaches.  An entry the
    common sample misses is looked for again in ``SEARCH`` more hands, on its own, unless
    it is in ``reached`` (under another option setting) or was searched for in vain under
    the same claims and values of the options it reads (``searched``).  Both grow."""
    tried = list(tried)
    met = {name for t in tried for name in t.met} | reached
    missed = [
        (s, n, spec)
        for s, n, spec in entries(ruleset)
        if n not in met and not isinstance(spec["when"].ast, syntax.Literal)  # static's
    ]
    claims = tuple(sorted(claims_allowed(ruleset).items()))
    keys = {
        name: (
            name,
            claims,
            tuple(
                (o, ruleset.option_values.get(o))
                for o in sorted(set(OPTION.findall(spec["when"].text)))
            ),
        )
        for _, name, spec in missed
    }
    look = [(s, n, spec) for s, n, spec in missed if keys[n] not in searched]
    if look:
        for situation, _ in winning_hands(ruleset, SEARCH, seed=1):
            for section, name, spec in look:
                if name not in met and _holds(
                    ruleset, (section, name, "when"), spec["when"], situation, errors
                ):
                    met.add(name)
            if all(n in met for _, n, _ in look):
                break
    searched.update(keys[n] for _, n, _ in look if n not in met)
    reached |= met
    found = []
    for section, name, _ in missed:
        if name not in met:
            found.append(
                Finding(
                    "reachability",
                    WARNING,
                    f"{section}.{name} holds on no sampled winning hand",
                    where(ruleset, section, name, "when"),
                    (section, name),
                    f"none of {len(tried) + SEARCH} winning hands built under the tile set "
                    "and the claims allowed",
                )
            )
    opening = ruleset.get("opening_hands") or {}
    if opening.get("allowed"):
        deals = list(deals)
        for name, spec in (opening.get("hands") or {}).items():
            if not spec or not spec.get("enabled", True):
                continue
            path = ("opening_hands", "hands", name)
            seen = set()
            for deal in deals:  # until it has held on one deal and failed on another
                seen.add(_holds(ruleset, path, spec["when"], deal, errors))
                if len(seen) == 2:
                    break
            if len(seen) == 1:
                held = seen == {True}
                found.append(
                    Finding(
                        "static" if held else "reachability",
                        WARNING,
                        f"opening_hands.hands.{name} holds on "
                        + (
                            "every sampled deal: its condition looks always true"
                            if held
                            else "no sampled deal"
                        ),
                        where(ruleset, *path),
                        path,
                        f"{'all' if held else 'none'} of {len(deals)} deals of 13 or 14 tiles",
                    )
                )
    return found


def _holds(
    ruleset: Ruleset,
    path: tuple[str, ...],
    when: Callable[[Situation], Any],
    s: Situation,
    errors: list[Finding],
) -> bool:
    try:
        return bool(when(s))
    except EvaluationError as exc:
        errors.append(_failed(ruleset, path, exc, s))
        return False
