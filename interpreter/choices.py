"""Choices every player makes at once (the ruleset's ``choices``), as the ruleset writes them.

A choice is either of a value (``values``: numbers, seats, suits, yes/no) or of ``tiles``
tiles of the concealed hand, optionally meeting a ``constraint``.  Each seat's value is
read in expressions as ``choice.NAME(seat)``; a seat not asked (``when``), or every seat
when the choice is not made (not enabled, or a scenario file that does not say), has the
``default``.  The engine runs the phase (``interpreter.engine.choices``) and the
declarations (``interpreter.engine.declarations``); bots and the observation read the
choices here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import Situation
from dsl.vocabulary import HAND_ONLY
from handcore import shapes
from handcore.tiles import EVERY, STANDARD, Tile
from interpreter.context import build_situation
from interpreter.ruleset_memo import ruleset_memo
from interpreter.settle import display_name

SUIT_LETTERS = tuple(s.letter for s in STANDARD.suits)


@dataclass(frozen=True)
class Choice:
    name: str
    title: str
    """The choice's display name."""
    at: str
    """``before_deal`` or ``after_deal``."""
    tiles: int
    values: Any
    constraint: Any
    when: Any
    default: Any
    effect: str
    direction: str


def _trivial(expression: Any) -> Any:
    """None for a condition that is always true, else the condition."""
    return None if expression is None or getattr(expression, "text", "") == "true" else expression


def declared(ruleset: Ruleset) -> tuple[tuple[Choice, bool], ...]:
    """Every choice of the ruleset, in the order written, with whether it is enabled."""
    memo = ruleset_memo(ruleset, "choices")
    if "all" not in memo:
        memo["all"] = tuple(
            (
                Choice(
                    name=name,
                    title=display_name(spec.get("name"), name),
                    at=spec.get("at") or "after_deal",
                    tiles=int(spec.get("tiles") or 0),
                    values=spec.get("values"),
                    constraint=_trivial(spec.get("constraint")),
                    when=_trivial(spec.get("when")),
                    default=spec.get("default"),
                    effect=spec.get("effect") or "none",
                    direction=str(spec.get("direction") or "clockwise"),
                ),
                bool(spec.get("enabled", True)),
            )
            for name, spec in (ruleset.get("choices") or {}).items()
        )
    return memo["all"]


def played(ruleset: Ruleset, at: str) -> tuple[Choice, ...]:
    """The enabled choices made at moment ``at``, in order."""
    return tuple(c for c, enabled in declared(ruleset) if enabled and c.at == at)


def declarations(ruleset: Ruleset) -> dict[str, list[tuple[str, Any]]]:
    """The enabled declarations (hands declared during play), by the moment each is looked
    for (``draw``, ``kong``); empty when there are none."""
    found: dict[str, list[tuple[str, Any]]] = {}
    for name, spec in (ruleset.get("declarations") or {}).items():
        if spec.get("enabled", True):
            for moment in spec.get("after") or ("draw",):
                found.setdefault(moment, []).append((name, spec))
    return found


def declaration_names(ruleset: Ruleset) -> dict[str, str]:
    """Each declaration's name as players read it, by id: the event log keeps the id, a
    narration shows the name."""
    entries = ruleset.get("declarations") or {}
    return {name: display_name(spec.get("name"), name) for name, spec in entries.items()}


def situation(
    ruleset: Ruleset,
    seat: int,
    dealer: int,
    players: int,
    keys: tuple[int, ...] | None = None,
    chosen: Mapping[str, tuple[Any, ...]] | None = None,
    **facts: Any,
) -> Situation:
    """What a choice's expressions see: the seat, its concealed tiles (``keys``; none
    before the deal), the game, the choices already made and other ``facts`` (after the
    deal, ``opening_winners``)."""
    return build_situation(
        keys=keys, seat=seat, dealer=dealer, players=players,
        options=ruleset.option_values, choices=chosen or {}, **facts,
    )  # fmt: skip


def default(choice: Choice, base: Situation) -> Any:
    """The value of a seat not asked (None: the choice has no default)."""
    if choice.default is None:
        return None
    value = choice.default(base)
    return tuple(sorted(value)) if isinstance(value, frozenset | tuple) else value


def text(choice: Choice, value: Any) -> str:
    """A value as an action's ``option`` and in the log: a suit by its letter, tiles in
    notation, yes/no as true/false, numbers and seats as digits."""
    if choice.tiles:
        return EVERY.format(list(value)) if value else ""
    if _is_suit(choice):
        return SUIT_LETTERS[value]
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _is_suit(choice: Choice) -> bool:
    element = getattr(getattr(choice.values, "type", None), "element", None)
    return getattr(element, "name", "") == "suit"


def json_value(choice: Choice, value: Any) -> Any:
    """A value in an event: numbers, seats and yes/no as themselves, others as text."""
    if value is None or (isinstance(value, int) and not choice.tiles and not _is_suit(choice)):
        return value
    return text(choice, value)


def options(
    choice: Choice, ruleset: Ruleset, base: Situation, hand: Sequence[Tile]
) -> dict[str, Any]:
    """The values a seat may choose, by their text, in order: the values sorted, or every
    distinct set of ``tiles`` tiles of ``hand`` (sorted) that meets the constraint — all of
    them when none does."""
    if not choice.tiles:
        return {text(choice, v): v for v in sorted(choice.values(base))}
    sets = sorted(set(combinations(hand, choice.tiles)))
    if choice.constraint is not None:
        kept = [c for c in sets if _meets(choice, ruleset, base, c)]
        sets = kept or sets
    return {text(choice, c): c for c in sets}


def _meets(choice: Choice, ruleset: Ruleset, base: Situation, tiles: tuple[Tile, ...]) -> bool:
    """The constraint on a set of tiles, judged on those tiles as a hand: kept per ruleset
    for each set of tiles (sorted), and for each seat, dealer and earlier choices only when
    the constraint reads more than the hand (a seat weighs every set its hand holds, some
    hundreds, at every deal)."""
    memo = ruleset_memo(ruleset, "choice constraint " + choice.name)
    key: tuple[Any, ...] = (tiles,)
    if not choice.constraint.names <= HAND_ONLY:
        key = (tiles, base.seat, base.dealer, tuple(sorted(base.choices.items())))
    found = memo.get(key)
    if found is None:
        tileset = ruleset.tileset
        keys = shapes.keys_of(tileset.counts(tiles), tileset)
        found = memo[key] = bool(choice.constraint(replace(base, keys=keys)))
    return found
