"""The types of expression values: what a name, an attribute or a function's result may be.

Types are compared by equality and printed for people (``int``, ``collection of tile``).
A collection holds values of one type; its runtime value is a tuple (tiles may repeat)
or a frozenset.  An option with named values has its own type, whose ``values`` are the
names allowed; a quoted text in an expression only ever stands for one of those.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    """A value type: a base ``name``, the ``element`` type of a collection, enum ``values``."""

    name: str
    element: Type | None = None
    values: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.element is not None:
            return f"collection of {self.element}"
        if self.values:
            return f"{self.name} (one of {', '.join(repr(v) for v in self.values)})"
        return self.name

    @property
    def is_collection(self) -> bool:
        return self.name == "collection"


INT = Type("int")
BOOL = Type("bool")
SEAT = Type("seat")
TILE = Type("tile")
SUIT = Type("suit")
MELD = Type("meld")
KIND = Type("kind")
HAND = Type("hand")
TEXT = Type("text")
"""A quoted text; only allowed where it is compared with an option that has named values or
kong_kind."""
NOTHING = Type("nothing")
"""The element type of the empty collection ``{}``: it fits a collection of anything."""

BASIC = {t.name: t for t in (INT, BOOL, SEAT, TILE, SUIT, MELD, KIND, HAND)}


def collection(element: Type) -> Type:
    return Type("collection", element)


def enum(name: str, values: tuple[str, ...]) -> Type:
    """The type of option ``name`` whose value is one of ``values``."""
    return Type(f"option {name}", values=tuple(values))


def parse_type(text: str) -> Type:
    """``"int"``, ``"bool"``, ``"collection of seat"`` ... as a :class:`Type`."""
    words = text.split()
    if len(words) == 1 and words[0] in BASIC:
        return BASIC[words[0]]
    if len(words) > 2 and words[:2] == ["collection", "of"]:
        return collection(parse_type(" ".join(words[2:])))
    raise ValueError(f"unknown type {text!r}; types are {', '.join(BASIC)}, collection of <type>")


def fits(found: Type, wanted: Type) -> bool:
    """Whether a value of type ``found`` may stand where ``wanted`` is required."""
    if found == wanted:
        return True
    if found.is_collection and wanted.is_collection:
        assert found.element is not None and wanted.element is not None
        return found.element == NOTHING or fits(found.element, wanted.element)
    return False


def join(a: Type, b: Type) -> Type | None:
    """The common type of two branches (``if``), or None when they have none."""
    if fits(a, b):
        return b
    if fits(b, a):
        return a
    return None
