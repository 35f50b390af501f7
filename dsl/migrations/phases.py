"""Format 1 to 2, table phases: the exchange after the deal and the declared void suit become
choices (``choices:``), the generic phase every player chooses in at once.

    players.exchange: {enabled, tiles, same_suit, direction}
        -> choices.exchange: {enabled, tiles, constraint, effect: exchange, direction}
    restrictions.declare_void: X
        -> choices.void: {enabled: X, values: {the suits in play}, effect: void}

    players.before_play: [void, exchange]
        -> the choices written in that order (one left out: not enabled)

``same_suit`` becomes the constraint ``count(suits) == 1`` on the tiles chosen (under an
option: ``not option.NAME or count(suits) == 1``).  The suits in play are the file's
``tiles.suits``, else the three suits (a file inheriting fewer suits should check them).
Choices are made in the order written, so ``before_play`` is gone: it ordered the two phases
that were in different sections.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap

from dsl.migrations import MigrationError, at

_SUIT_TILE = {"m": "1m", "p": "1p", "s": "1s"}
_LATER = ("dealer", "claims", "kongs", "restrictions", "opening_hands", "wall_end", "hands")
"""Sections written after the deal: the choices go before the first of them."""


def migrate(doc: Any) -> None:
    """Rewrite a format-1 ruleset (a round-trip CommentedMap) in place."""
    if not isinstance(doc, dict):
        return
    made = CommentedMap()
    players = doc.get("players")
    if isinstance(players, dict) and "exchange" in players:
        exchange = _pop(players, "exchange")
        if isinstance(exchange, dict):
            made["exchange"] = _exchange(exchange, fragment="extends" in doc)
    restrictions = doc.get("restrictions")
    if isinstance(restrictions, dict) and "declare_void" in restrictions:
        enabled = _pop(restrictions, "declare_void")
        made["void"] = _void(enabled, doc.get("tiles"))
    if isinstance(players, dict) and "before_play" in players:
        made = _ordered(made, players)
    if not made:
        return
    choices = doc.get("choices")
    if not isinstance(choices, dict):
        choices = CommentedMap()
        keys = list(doc)
        before = next((k for k in _LATER if k in keys), None)
        place = keys.index(before) if before else len(keys)
        blank = place > 0 and _ends_with_blank(doc, keys[place - 1])
        doc.insert(place, "choices", choices)
        if not blank:
            doc.yaml_set_comment_before_after_key("choices", before="\n")
        elif before:  # the blank line now comes before the choices: one after them too
            doc.yaml_set_comment_before_after_key(before, before="\n")
    for name, entry in made.items():
        choices[name] = entry


def _ordered(made: CommentedMap, players: Any) -> CommentedMap:
    """The choices in the order ``players.before_play`` gave their phases (it goes); one it
    leaves out is not enabled."""
    order = players["before_play"]
    where = at(players, "before_play")
    if not isinstance(order, list) or not all(isinstance(n, str) for n in order):
        raise MigrationError(
            "players.before_play is not a list of phases: order the choices by hand (they are "
            "made in the order written, see docs/DSL.md)",
            *where,
        )
    missing = [n for n in order if n not in made]
    if missing and order != ["exchange", "void"]:  # not the order of format 1 by default
        raise MigrationError(
            f"players.before_play orders {', '.join(missing)}, set in another file: order the "
            "choices there (they are made in the order written)",
            *where,
        )
    _pop(players, "before_play")
    out = CommentedMap()
    for name in [*(n for n in order if n in made), *(n for n in made if n not in order)]:
        out[name] = made[name]
        if name not in order:
            out[name]["enabled"] = False
    return out


def _ends_with_blank(mapping: Any, key: str) -> bool:
    """Whether the value of ``key`` is written with a blank line after it (the blank line
    is kept on the last key written inside it)."""
    while True:
        comment = getattr(mapping, "ca", None)
        tokens = comment.items.get(key) if comment is not None else None
        if tokens and any("\n\n" in getattr(t, "value", "") for t in tokens if t):
            return True
        value = mapping[key]
        if not isinstance(value, dict) or not value:
            return False
        mapping, key = value, list(value)[-1]


def _pop(mapping: Any, key: str) -> Any:
    """Remove ``key``; the comment after its value (often the blank line ending a section)
    goes to the key before it."""
    keys = list(mapping)
    comments = getattr(mapping, "ca", None)
    after = comments.items.pop(key, None) if comments is not None else None
    place = keys.index(key)
    if after is not None and place > 0 and keys[place - 1] not in comments.items:
        comments.items[keys[place - 1]] = after
    return mapping.pop(key)


def _exchange(old: Any, fragment: bool) -> CommentedMap:
    """The exchange as a choice.  Not enabled unless it said so, as in format 1 (but in a
    file that extends another, which may have enabled it)."""
    new = CommentedMap()
    new["name"] = _flow({"zh": "换三张", "en": "exchange three"})
    if "enabled" in old or not fragment:
        new["enabled"] = old.get("enabled", False)
    new["tiles"] = old.get("tiles", 3)
    same = old.get("same_suit", True)
    if isinstance(same, str) and same.startswith("option."):
        new["constraint"] = f"not {same} or count(suits) == 1"
    elif same:
        new["constraint"] = "count(suits) == 1"
    new["effect"] = "exchange"
    if "direction" in old:
        new["direction"] = old["direction"]
    for key in ("source", "note"):
        if key in old:
            new[key] = old[key]
    return new


def _void(enabled: Any, tiles: Any) -> CommentedMap:
    suits = tiles.get("suits") if isinstance(tiles, dict) else None
    letters = [s for s in (suits or ("m", "p", "s")) if s in _SUIT_TILE]
    new = CommentedMap()
    new["name"] = _flow({"zh": "定缺", "en": "declare the void suit"})
    new["enabled"] = enabled
    new["values"] = "{" + ", ".join(f"{_SUIT_TILE[s]}.suit" for s in letters) + "}"
    new["effect"] = "void"
    return new


def _flow(values: dict[str, str]) -> CommentedMap:
    """A mapping written on one line, ``{zh: ..., en: ...}``."""
    out = CommentedMap(values)
    out.fa.set_flow_style()
    return out
