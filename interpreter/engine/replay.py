"""Replay an event log: play every hand again from its ``start`` event with the logged
decisions, check each decision was legal, and that the events (draws, payments, the end)
come out identical."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dsl.ruleset import Ruleset, load
from interpreter.engine.actions import Action
from interpreter.engine.events import SCHEMA_VERSION, dumps, option_settings, settings_of
from interpreter.engine.game import Game, IllegalAction
from interpreter.engine.rules import Rules


class ReplayError(ValueError):
    """The log does not replay: an illegal decision, or an event that differs."""


@dataclass(frozen=True)
class ReplayReport:
    hands: int
    events: int
    decisions: int
    deltas: tuple[tuple[int, ...], ...]


def _hands(events: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    hands: list[list[dict[str, Any]]] = []
    for event in events:
        if event.get("type") == "start":
            hands.append([])
        elif not hands:
            raise ReplayError("the log does not begin with a 'start' event")
        hands[-1].append(event)
    return hands


def replay(events: Sequence[dict[str, Any]], ruleset: Ruleset | None = None) -> ReplayReport:
    """Replay ``events``; the ruleset is loaded from the first ``start`` event unless given."""
    hands = _hands(events)
    if not hands:
        raise ReplayError("the log has no hands")
    rules = None
    decisions = 0
    deltas = []
    for number, hand in enumerate(hands):
        start = hand[0]
        if start.get("version") != SCHEMA_VERSION:
            raise ReplayError(
                f"hand {number}: schema version {start.get('version')!r}, expected {SCHEMA_VERSION}"
            )
        if ruleset is None:
            ruleset = load(start["ruleset"], settings=settings_of(start.get("options", {})))
        if ruleset.id != start["ruleset"] or option_settings(ruleset) != start.get("options", {}):
            raise ReplayError(
                f"hand {number}: logged with {start['ruleset']} {start.get('options')}, "
                f"replayed with {ruleset.id} {option_settings(ruleset)}"
            )
        rules = rules or Rules(ruleset)
        game = Game(ruleset, start["seed"], start["dealer"], rules=rules, hand=start.get("hand", 0))
        for index, event in enumerate(hand):
            if event["type"] != "act":
                continue
            try:
                game.apply(Action.from_json(event["action"]), event["seat"])
            except (IllegalAction, ValueError) as error:
                raise ReplayError(f"hand {number}, event {index}: {error}") from None
            decisions += 1
        if not game.is_over():
            raise ReplayError(f"hand {number}: the log ends before the hand does")
        made = game.events
        if not any(e["type"] == "void" for e in hand):  # logged before voids were revealed at once
            made = [e for e in made if e["type"] != "void"]
        for index, (mine, theirs) in enumerate(zip(made, hand, strict=False)):
            if mine != theirs:
                raise ReplayError(
                    f"hand {number}, event {index} differs:\n"
                    f"  log:    {dumps(theirs)}\n  replay: {dumps(mine)}"
                )
        if len(made) != len(hand):
            raise ReplayError(f"hand {number}: {len(hand)} events logged, {len(made)} replayed")
        deltas.append(tuple(game.deltas))
    return ReplayReport(len(hands), len(events), decisions, tuple(deltas))
