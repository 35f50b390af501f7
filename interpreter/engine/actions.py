"""Actions a seat may take.  One small immutable value each, comparable and hashable.

``kind`` is one of ``discard``, ``win``, ``kong``, ``pung``, ``chow``, ``pass``, ``take``
(the last tile(s), 海底), ``void`` (declare a void suit, 定缺), ``exchange`` (the tiles
given in the exchange after the deal, as ``option`` in notation:
``Action("exchange", option="239m")``).  ``tile`` is the tile
concerned (for a chow its lowest tile; -1 when none), ``option`` names a choice the ruleset
offers (the replacement draw after a kong, the suit letter of a void, the exchanged tiles).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from handcore.tiles import STANDARD, Tile

KINDS = ("discard", "win", "kong", "pung", "chow", "pass", "take", "void", "exchange")


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
        if kind not in KINDS:
            raise ValueError(f"unknown action kind {kind!r}; expected one of {', '.join(KINDS)}")
        tile = STANDARD.parse(data["tile"])[0] if "tile" in data else -1
        return cls(kind, tile, str(data.get("option", "")))

    def __str__(self) -> str:
        text = self.kind
        if self.tile >= 0:
            text += " " + STANDARD.name(self.tile)
        if self.option:
            text += f" ({self.option})"
        return text


PASS = Action("pass")
_NAMES = tuple(STANDARD.name(t) for t in range(STANDARD.kinds))
DISCARDS = tuple(Action("discard", t) for t in range(STANDARD.kinds))
"""The discard of each tile (actions are values: one of each is enough)."""
