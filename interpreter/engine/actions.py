"""Actions a seat may take.  One small immutable value each, comparable and hashable.

``kind`` is one of ``discard``, ``win``, ``kong``, ``pung``, ``chow``, ``pass``, ``take``
(the last tile(s)), ``escape`` and ``false_win`` (never legal actions: a person leaving
the hand, or claiming a win the hand does not make), or the name of one of the ruleset's
``choices`` (``void``, ``exchange``, ``piao`` ...), whose ``option`` is the value chosen as
text: a suit letter, tiles in notation (``Action("exchange", option="239m")``), a number.
``tile`` is the tile concerned (for a chow its lowest tile; -1 when none), ``option`` names
a choice the ruleset offers (the replacement draw after a kong, a chosen value).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from handcore.tiles import EVERY, Tile

KINDS = ("discard", "win", "kong", "pung", "chow", "pass", "take", "escape", "false_win")
_CHOICE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
"""A choice's action is named after the ruleset's choice (``void``, ``exchange``, ``piao``)."""


class Action(NamedTuple):
    kind: str
    tile: Tile = -1
    option: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.tile >= 0:
            out["tile"] = _NAMES[self.tile]
        if self.option:
            out["option"] = self.option
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        kind = data.get("kind")
        if not isinstance(kind, str) or not (kind in KINDS or _CHOICE_NAME.match(kind)):
            raise ValueError(
                f"unknown action kind {kind!r}; expected one of {', '.join(KINDS)} or the "
                "name of a ruleset's choice"
            )
        tile = EVERY.parse(data["tile"])[0] if "tile" in data else -1
        return cls(kind, tile, str(data.get("option", "")))

    def __str__(self) -> str:
        text = self.kind
        if self.tile >= 0:
            text += " " + EVERY.name(self.tile)
        if self.option:
            text += f" ({self.option})"
        return text


PASS = Action("pass")
_NAMES = tuple(EVERY.name(t) for t in range(EVERY.kinds))
DISCARDS = tuple(Action("discard", t) for t in range(EVERY.kinds))
"""The discard of each tile (actions are values: one of each is enough)."""
