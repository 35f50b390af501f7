"""The event log: one JSON object per line (JSON Lines), described in docs/EVENTS.md.

Every hand starts with a ``start`` event that carries the schema version, the ruleset id,
its option values, the seed and the dealer: enough to play the hand again.  Decisions are
``act`` events; what follows from them (draws, discards, claims, kongs, replacement
draws, wins, birds, payments, the end) are events of their own.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable
from typing import IO, Any

from dsl.ruleset import Ruleset

SCHEMA_VERSION = 1
TYPES = (
    "start", "deal", "opening", "exchange", "void", "phase", "act", "draw", "discard", "claim",
    "kong", "replacement", "win", "bird", "payment", "end",
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


def read_log(log: str | os.PathLike[str] | IO[str]) -> list[dict[str, Any]]:
    if isinstance(log, str | os.PathLike):
        with open(log, encoding="utf-8") as handle:
            text = handle.read()
    else:
        text = log.read() if not isinstance(log, io.StringIO) else log.getvalue()
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"line {number}: not JSON: {error.msg}") from None
        if not isinstance(event, dict) or event.get("type") not in TYPES:
            raise ValueError(f"line {number}: not an event (a JSON object with a known 'type')")
        events.append(event)
    return events
