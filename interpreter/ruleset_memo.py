"""Answers that are pure functions of a ruleset, remembered per ruleset object.

Settlement, opening hands, choices and the engine's table facts each keep theirs here, under a
name of their own; the ruleset is kept beside its answers, so that a new ruleset given the
memory address of one gone is never answered from the old one's.
"""

from __future__ import annotations

from typing import Any

from dsl.ruleset import Ruleset

_MEMOS: dict[tuple[int, str], tuple[Ruleset, dict[Any, Any]]] = {}


def ruleset_memo(ruleset: Ruleset, name: str) -> dict[Any, Any]:
    """Where the answers of ``name``, a pure function of ``ruleset``, are remembered."""
    found = _MEMOS.get((id(ruleset), name))
    if found is None or found[0] is not ruleset:
        found = _MEMOS[(id(ruleset), name)] = (ruleset, {})
    return found[1]
