"""Replay an event log: play every hand again from its ``start`` event with the logged
decisions, check each decision was legal, and that the events (draws, payments, the end)
come out identical."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dsl.problems import RulesetError
from dsl.ruleset import Ruleset, load
from interpreter.engine.actions import Action
from interpreter.engine.events import SCHEMA_VERSION, dumps, option_settings, settings_of
from interpreter.engine.game import Game, IllegalAction
from interpreter.engine.log_schema import event_problem
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


def load_logged(ref: str, options: dict[str, Any]) -> Ruleset:
    """``ref`` with the option values of a log's ``start`` event; raises ReplayError naming
    an option it does not declare or a value it does not allow (as the log's, where the
    ruleset's loader would point at a ``--set`` never typed), RulesetError when ``ref``
    itself does not load."""
    declared = load(ref).options
    for setting in settings_of(options):
        name, _, text = setting.partition("=")
        if name not in declared:
            raise ReplayError(f"the log's options: {ref} has no option {name!r} (its options: "
                              f"{', '.join(declared) or 'none'})")  # fmt: skip
        try:
            declared[name].parse(text)
        except ValueError:
            raise ReplayError(f"the log's options: {name}={text} is not allowed by {ref}: "
                              f"expected {declared[name].expected()}") from None  # fmt: skip
    return load(ref, settings=settings_of(options))


def find_ruleset(start: dict[str, Any]) -> Ruleset:
    """The ruleset a hand was played with: its id on the search path, else the file the log
    names.  A file named by the log is used only if its content hash is the logged one, and
    nothing of it is shown if it does not load."""
    settings = settings_of(start["options"])
    logged = start.get("ruleset_sha256")
    path = start.get("ruleset_file")
    try:
        found = load_logged(start["ruleset"], start["options"])
    except RulesetError as error:
        if not path:
            raise ReplayError(f"the log's ruleset does not load:\n{error.format()}") from None
        found = None
    except ReplayError:
        if not path:
            raise
        found = None
    if found is not None and (not path or found.sha256 == logged):
        return found
    try:
        named = load(path, settings=settings)
    except RulesetError:
        raise ReplayError(
            f"the log was played from {path}, which does not load here; "
            "give the ruleset with --ruleset PATH"
        ) from None
    if named.sha256 != logged:
        raise ReplayError(
            f"{path} has changed since the log was written (logged {logged}, "
            f"now {named.sha256}); give the file it was played with: --ruleset PATH"
        )
    return named


def _check_same(number: int, start: dict[str, Any], ruleset: Ruleset) -> None:
    """The ruleset and options are the logged ones: by content hash when the log has one."""
    logged = start.get("ruleset_sha256")
    if logged is not None and ruleset.sha256 != logged:
        raise ReplayError(
            f"hand {number}: the log was played with ruleset content {logged}; "
            f"{ruleset.id} ({ruleset.path}) is {ruleset.sha256}: another version of the rules"
        )
    if logged is None and ruleset.id != start["ruleset"]:
        raise ReplayError(f"hand {number}: logged with {start['ruleset']}, given {ruleset.id}")
    if option_settings(ruleset) != start["options"]:
        raise ReplayError(
            f"hand {number}: logged with options {start['options']}, "
            f"replayed with {option_settings(ruleset)}"
        )


def _comparable(event: dict[str, Any], logged: dict[str, Any]) -> dict[str, Any]:
    """An event as compared: where the log has a content hash, the rules are known by it,
    and the ruleset's name and file are left out (a copy elsewhere replays the same)."""
    if event["type"] != "start" or "ruleset_sha256" not in logged:
        return event
    return {k: v for k, v in event.items() if k not in ("ruleset", "ruleset_file")}


def replay(events: Sequence[dict[str, Any]], ruleset: Ruleset | None = None) -> ReplayReport:
    """Replay ``events``; the ruleset is found from the first ``start`` event unless given."""
    for index, event in enumerate(events):
        problem = event_problem(event)
        if problem:
            raise ReplayError(f"event {index}: {problem}")
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
            ruleset = find_ruleset(start)
        _check_same(number, start, ruleset)
        rules = rules or Rules(ruleset)
        if start["dealer"] >= rules.players:
            raise ReplayError(f"hand {number}: dealer seat {start['dealer']} of {rules.players}")
        first = hands[0][0]["dealer"]  # the match's first dealer (dealer.next may read it)
        game = Game(ruleset, start["seed"], start["dealer"], rules=rules, hand=start.get("hand", 0),
                    first_dealer=first, dealers=start.get("dealers", ()))  # fmt: skip
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
            if _comparable(mine, theirs) != _comparable(theirs, theirs):
                raise ReplayError(
                    f"hand {number}, event {index} differs:\n"
                    f"  log:    {dumps(theirs)}\n  replay: {dumps(mine)}"
                )
        if len(made) != len(hand):
            raise ReplayError(f"hand {number}: {len(hand)} events logged, {len(made)} replayed")
        deltas.append(tuple(game.deltas))
    return ReplayReport(len(hands), len(events), decisions, tuple(deltas))
