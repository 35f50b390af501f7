"""The event log's schema (docs/EVENTS.md) as data, and the check every event read from a
file passes before replay trusts a field of it.

A log comes from anywhere: each event's fields are checked for presence, type and size, so
that a malformed event gets a message naming its line and field, never a traceback.  Fields
not listed are allowed (a new field may be added within a schema version); replay then finds
any difference from the events it plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from handcore.tiles import EVERY

MAX_INT = 2**63
MAX_TEXT = 4096
MAX_ITEMS = 1024
MAX_DEPTH = 8

Check = Callable[[Any], str]
"""A field check: '' if the value fits, else what was expected."""

_TILES = frozenset(EVERY.name(t) for t in range(EVERY.kinds))


def _int(value: Any) -> str:
    ok = isinstance(value, int) and not isinstance(value, bool) and -MAX_INT < value < MAX_INT
    return "" if ok else "a whole number"


def _seat(value: Any) -> str:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 16
    return "" if ok else "a seat number"


def _text(value: Any) -> str:
    return "" if isinstance(value, str) and len(value) <= MAX_TEXT else "a text"


def _tile(value: Any) -> str:
    return "" if isinstance(value, str) and value in _TILES else "a tile such as 5m"


def _bool(value: Any) -> str:
    return "" if isinstance(value, bool) else "true or false"


def _or_null(check: Check) -> Check:
    def checked(value: Any) -> str:
        expected = "" if value is None else check(value)
        return expected and expected + " or null"

    return checked


def _list(check: Check) -> Check:
    def checked(value: Any) -> str:
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            return "a list"
        bad = next((check(item) for item in value if check(item)), "")
        return f"a list of {bad}" if bad else ""

    return checked


def _object(value: Any) -> str:
    """A JSON object (the reasons and details of settlement, compared whole by replay)."""
    return "" if isinstance(value, dict) and len(value) <= MAX_ITEMS else "a JSON object"


def _scalar_map(value: Any) -> str:
    if not isinstance(value, dict) or len(value) > MAX_ITEMS:
        return "a JSON object"
    for key, item in value.items():
        if _text(key) or not (_int(item) == "" or _bool(item) == "" or _text(item) == ""):
            return "an object of names to numbers, true/false or text"
    return ""


def _scalar(value: Any) -> str:
    """A number, true/false or text (a chosen value)."""
    ok = _int(value) == "" or _bool(value) == "" or _text(value) == ""
    return "" if ok else "a number, true/false or text"


def _action(value: Any) -> str:
    if not isinstance(value, dict) or _text(value.get("kind")):
        return "an action {kind, tile?, option?}"
    if "tile" in value and _tile(value["tile"]):
        return "an action whose tile is a tile such as 5m"
    if "option" in value and _text(value["option"]) and _int(value["option"]):
        return "an action whose option is a text"
    return ""


def _payee(value: Any) -> str:
    return "" if value == "pot" or not _seat(value) else "a seat number or pot"


INT, SEAT, TEXT, TILE, BOOL = _int, _seat, _text, _tile, _bool
INTS, SEATS, TEXTS, TILES_ = _list(_int), _list(_seat), _list(_text), _list(_tile)

SCHEMA: dict[str, dict[str, Check]] = {
    "start": {
        "version": INT, "ruleset": TEXT, "options": _scalar_map, "seed": INT, "hand": INT,
        "dealer": SEAT, "players": SEAT, "ruleset_sha256?": TEXT, "ruleset_file?": TEXT,
        "dealers?": SEATS,
    },
    "deal": {"dice": INTS, "hands": TEXTS, "wall": INT, "wilds?": TEXTS, "indicator?": TEXT},
    "opening": {
        "seat": SEAT, "hands": _list(_object), "birds": TILES_, "dice": INTS, "hits": _object,
        "settle": TEXT,
    },
    "exchange": {"direction": TEXT, "dice": INTS, "gave": TEXTS, "received": TEXTS, "hands": TEXTS},
    "void": {"suits": TEXTS},
    "choice": {"name": TEXT, "values": _list(_or_null(_scalar))},
    "declaration": {"seat": SEAT, "name": TEXT, "tile": TILE},
    "phase": {"phase": TEXT, "seat": SEAT},
    "act": {"seat": SEAT, "action": _action},
    "draw": {"seat": SEAT, "tile": TILE, "source": TEXT, "last_tile?": BOOL},
    "discard": {"seat": SEAT, "tile": TILE, "claimable?": BOOL, "exposed?": BOOL},
    "claim": {"seat": SEAT, "kind": TEXT, "tile": TILE, "from": SEAT},
    "kong": {"seat": SEAT, "kind": TEXT, "tile": _or_null(TILE), "from?": SEAT},
    "replacement": {"seat": SEAT, "method": TEXT, "tiles": TILES_, "dice?": INTS},
    "flower": {"seat": SEAT, "tile": TILE, "replacement": _or_null(TILE)},
    "win": {
        "seats": SEATS, "tiles": TILES_, "from": _or_null(SEAT), "context": TEXTS,
        "hands": _list(_object),
    },
    "bird": {"tiles": TILES_, "hits": _object},
    "payment": {"from": SEAT, "to": _payee, "amount": INT, "reasons": TEXTS},
    "end": {
        "reason": TEXT, "deltas": INTS, "winners": SEATS, "next_dealer": SEAT, "hands": TEXTS,
        "wall": INT, "next_dealers?": SEATS,
    },
}  # fmt: skip


def event_problem(event: Any) -> str:
    """What is wrong with one event ('' if nothing): a missing field or a field's type."""
    kind = event.get("type") if isinstance(event, dict) else None
    fields = SCHEMA.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return "not an event (a JSON object with a known 'type')"
    for name, check in fields.items():
        key = name.removesuffix("?")
        if key not in event:
            if name.endswith("?"):
                continue
            return f"'{event['type']}' event without '{key}'"
        expected = check(event[key])
        if expected:
            return f"'{event['type']}' event: '{key}' should be {expected}"
    return ""


def depth(value: Any) -> int:
    """How deeply lists and objects nest in a JSON value (1 for a flat object)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                items = item.values() if isinstance(item, dict) else item
                stack.extend((child, level + 1) for child in items)
    return deepest
