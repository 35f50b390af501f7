"""Format 2: keys that did nothing are gone, and rules that hid in named values are
expressions.

- ``wall_end.taker_pays_if_robbed``: gone.  The taker of an exposed last tile is always its
  discarder, so ``payment.payers`` decides who pays (``{discarder}``).
- ``kong_payments.NAME.paid``: gone.  Kong money is paid when the kong is made.
- ``kongs.replacement.NAME.when_missing: lower_tile``: ``last_stack``, which it always did (the
  lower tile of a stack is ``order``'s business).
"""

from __future__ import annotations

from typing import Any


def _section(doc: Any, *path: str) -> Any:
    """The mapping at ``path``, or None."""
    node = doc
    for key in path:
        node = node.get(key) if hasattr(node, "get") else None
        if node is None:
            return None
    return node if hasattr(node, "get") else None


def _entries(doc: Any, *path: str) -> list[Any]:
    """The named entries (mappings) at ``path``."""
    section = _section(doc, *path)
    return [] if section is None else [e for e in section.values() if hasattr(e, "get")]


def migrate(doc: Any) -> None:
    wall_end = _section(doc, "wall_end")
    if wall_end is not None:
        wall_end.pop("taker_pays_if_robbed", None)
    for payment in _entries(doc, "kong_payments"):
        payment.pop("paid", None)
    for replacement in _entries(doc, "kongs", "replacement"):
        if replacement.get("when_missing") == "lower_tile":
            replacement["when_missing"] = "last_stack"
