"""The event log: one JSON object per line (JSON Lines), described in docs/EVENTS.md.

Every hand starts with a ``start`` event that carries the schema version, the ruleset id,
its option values, the seed and the dealer: enough to play the hand again.  Decisions are
``act`` events; what follows from them (draws, discards, claims, kongs, replacement
draws, wins, birds, payments, the end) are events of their own.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import IO, Any

from dsl.ruleset import Ruleset

SCHEMA_VERSION = 1
TYPES = (
    "start", "deal", "opening", "exchange", "void", "choice", "phase", "act", "draw",
    "declaration", "discard", "claim", "kong", "replacement", "win", "bird", "payment", "end",
)  # fmt: skip


def option_settings(ruleset: Ruleset) -> dict[str, Any]:
    """The ruleset's option values, by name, as JSON values."""
    values = ruleset.option_values  # built on each read
    return {name: values[name] for name in sorted(values)}


def settings_of(options: dict[str, Any]) -> list[str]:
    """``name=value`` settings that load a ruleset with these option values."""
    return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()]


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def to_jsonl(events: Iterable[dict[str, Any]]) -> str:
    return "".join(dumps(e) + "\n" for e in events)


def write_log(events: Iterable[dict[str, Any]], log: str | os.PathLike[str] | IO[str]) -> None:
    text = to_jsonl(events)
    if isinstance(log, str | os.PathLike):
        with open(log, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        log.write(text)


MAX_LINE = 1 << 20
"""Bytes in one line of a log at most: the longest event is a few kilobytes."""


def read_log(log: str | os.PathLike[str] | IO[str]) -> list[dict[str, Any]]:
    """The events of a log, each checked against the schema (log_schema); a line too long,
    too deeply nested or not an event raises ValueError naming the line, before more is read."""
    if isinstance(log, str | os.PathLike):
        with open(log, "rb") as handle:
            return _events(handle)
    return _events(log)


def _events(handle: IO[Any]) -> list[dict[str, Any]]:
    from interpreter.engine.log_schema import MAX_DEPTH, depth, event_problem

    events = []
    number = 0
    while line := handle.readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE and line[-1:] not in ("\n", b"\n"):
            raise ValueError(f"line {number}: longer than {MAX_LINE:,} bytes")
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"line {number}: not UTF-8 text") from None
        if not line.strip():
            continue
        try:
            event = json.loads(line)
            too_deep = depth(event) > MAX_DEPTH
        except json.JSONDecodeError as error:
            raise ValueError(f"line {number}: not JSON: {error.msg}") from None
        except RecursionError:
            too_deep = True
        if too_deep:
            raise ValueError(f"line {number}: nested deeper than {MAX_DEPTH} levels")
        problem = event_problem(event)
        if problem:
            raise ValueError(f"line {number}: {problem}")
        events.append(event)
    return events
