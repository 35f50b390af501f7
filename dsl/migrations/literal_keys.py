"""Format 2: keys that did nothing are gone, and rules that hid in named values are
expressions.

- ``wall_end.taker_pays_if_robbed``: gone.  The taker of an exposed last tile is always its
  discarder, so ``payment.payers`` decides who pays (``{discarder}``).
- ``kong_payments.NAME.paid``: gone.  Kong money is paid when the kong is made.
- ``kongs.replacement.NAME.when_missing: lower_tile``: ``last_stack``, which it always did (the
  lower tile of a stack is ``order``'s business).
- ``kongs.replacement.NAME.dice``: how many dice, an expression over ``stacks``.
- ``restrictions.missed_win``: whether a passed win locks this discard, an expression over
  ``missed_tiles`` and ``missed_value``.
- ``restrictions.void_suit``: part of ``restrictions.win_requires`` (``count(suits) < N``, N the
  suits of ``tiles.suits`` in the same file, else 3).  A parent's ``win_requires`` is not
  seen from the file that set ``void_suit``: the rewritten file's own replaces it.
- ``game_end.mode``: ``game_end.winners_leave`` and ``game_end.ends``, expressions over
  ``winners`` and ``players_in_game``.
- ``birds.on_last_tile``: ``birds.from_last_tiles`` and ``birds.first_counts_all``,
  expressions over ``last_tile``.

A value read from an option (``option.NAME``) becomes an ``if`` over the values the option
allows, which must then be declared in the same file.
"""

from __future__ import annotations

from typing import Any

from dsl.migrations import MigrationError, at

DICE = {"total": 2, "one_die": 1, "one_die_below_12_stacks": "if stacks < 12 then 1 else 2"}
MISSED_WIN = {
    "none": False,
    "same_tile": "win_tile in missed_tiles",
    "any_tile": True,
    "not_lower_value": "value <= missed_value",
}
WINNERS_LEAVE = {"first_win": False, "until_one_left": True, "until_wall_empty": False}
FROM_LAST_TILES = {"next_tiles": False, "last_tiles": True, "last_tile_counts_all": True}
FIRST_COUNTS_ALL = {"next_tiles": False, "last_tiles": False, "last_tile_counts_all": "last_tile"}
ENDS = {"first_win": True, "until_one_left": "count(players_in_game) <= 1",
        "until_wall_empty": False}  # fmt: skip


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


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return str(value) if isinstance(value, int) or " " not in str(value) else f"({value})"


def _expression(doc: Any, node: Any, key: str, table: dict[str, Any]) -> Any:
    """The expression that says what ``node[key]``, a named value of ``table`` or an option
    naming them, said."""
    value = node[key]
    if isinstance(value, str) and value in table:
        return table[value]
    if not (isinstance(value, str) and value.startswith("option.")):
        raise MigrationError(f"{key}: {value!r} is not one of {', '.join(table)}", *at(node, key))
    name = value.removeprefix("option.")
    allowed = (_section(doc, "options", name) or {}).get("allowed")
    if not allowed:
        raise MigrationError(
            f"{key} reads option.{name}, whose values are not declared in this file: write the "
            f"{key} expression by hand (see docs/DSL.md)",
            *at(node, key),
        )
    *first, last = [v for v in allowed if v in table]
    out = _text(table[last])
    for choice in reversed(first):
        out = f'if option.{name} == "{choice}" then {_text(table[choice])} else {out}'
    return out


def _replace(node: Any, old: str, pairs: list[tuple[str, Any]]) -> None:
    """``old`` gives way to ``pairs`` at its place; its comment goes with the last."""
    position = list(node).index(old)
    comment = node.ca.items.pop(old, None)
    del node[old]
    for i, (key, value) in enumerate(pairs):
        node.insert(position + i, key, value)
    if comment is not None and pairs:
        node.ca.items[pairs[-1][0]] = comment


def _void_suit(doc: Any, restrictions: Any) -> None:
    value = restrictions["void_suit"]
    suits = _section(doc, "tiles")
    listed = suits.get("suits") if suits is not None else None
    lacking = f"count(suits) < {len(listed) if isinstance(listed, list) else 3}"
    if value is True:
        rule: str | None = lacking
    elif isinstance(value, str) and value.startswith("option."):
        rule = f"not {value} or {lacking}"
    elif value is False:
        rule = None
    else:
        raise MigrationError(f"void_suit: {value!r} is not true or false", *at(restrictions,
                             "void_suit"))  # fmt: skip
    existing = restrictions.get("win_requires")
    if rule is None:
        _replace(restrictions, "void_suit", [])
    elif existing is None:
        _replace(restrictions, "void_suit", [("win_requires", rule)])
    else:
        restrictions["win_requires"] = f"({existing}) and {rule}"
        _replace(restrictions, "void_suit", [])


def migrate(doc: Any) -> None:
    wall_end = _section(doc, "wall_end")
    if wall_end is not None and "taker_pays_if_robbed" in wall_end:
        _replace(wall_end, "taker_pays_if_robbed", [])
    for payment in _entries(doc, "kong_payments"):
        if "paid" in payment:
            _replace(payment, "paid", [])
    for replacement in _entries(doc, "kongs", "replacement"):
        if replacement.get("when_missing") == "lower_tile":
            replacement["when_missing"] = "last_stack"
        if replacement.get("dice") is not None:
            replacement["dice"] = _expression(doc, replacement, "dice", DICE)
    restrictions = _section(doc, "restrictions")
    if restrictions is not None:
        if restrictions.get("missed_win") is not None:
            restrictions["missed_win"] = _expression(doc, restrictions, "missed_win", MISSED_WIN)
        if restrictions.get("void_suit") is not None:
            _void_suit(doc, restrictions)
    birds = _section(doc, "birds")
    if birds is not None and birds.get("on_last_tile") is not None:
        from_last = _expression(doc, birds, "on_last_tile", FROM_LAST_TILES)
        first = _expression(doc, birds, "on_last_tile", FIRST_COUNTS_ALL)
        pairs = [("from_last_tiles", from_last), ("first_counts_all", first)]
        _replace(birds, "on_last_tile", pairs)
    game_end = _section(doc, "game_end")
    if game_end is not None and game_end.get("mode") is not None:
        leave = _expression(doc, game_end, "mode", WINNERS_LEAVE)
        ends = _expression(doc, game_end, "mode", ENDS)
        _replace(game_end, "mode", [("winners_leave", leave), ("ends", ends)])
