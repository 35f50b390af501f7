"""Could a hand that is neither complete nor seven pairs still win?  A cheap answer first.

A ruleset may have hand types whose condition needs no shape (``rules.needs_shape`` is
false for them).  Evaluating such a condition means building a
:class:`~dsl.situation.Situation` and running the compiled expression: far too slow to do
for every discard every player might claim.  So each such condition is read once, at
load, from its checked syntax tree into a *necessary condition* over a :class:`Probe` —
a few integers about the hand (which tiles it holds as bit masks, how many melds and
tiles, how it would be won).  When the necessary condition fails the condition cannot
hold and nothing is evaluated; when it passes, the real condition decides.  Parts of a
condition that are not understood here are taken as "may hold", so the answer is never
wrong, only sometimes not cheap.

The test is asked only about hands that are neither complete nor seven pairs, so there
``standard()`` and ``seven_pairs()`` are false.  Understood: ``and``, ``or``, ``not``,
``if``, ``standard()`` and ``seven_pairs()``, the
flags of how a hand is won (``self_draw``, ``kong_draw``, ...), ``all(C, test)`` and
``any(C, test)`` over the hand's tiles when the test reads only the element (its rank,
suit, literals), and ``count(C[, test])`` compared with a number for the collections whose
size the probe knows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from dsl import syntax
from dsl.situation import HandMeld
from interpreter import shapes
from interpreter.suit_tables import POW
from interpreter.tiles import RANKS, STANDARD, Tile

Need = Callable[["Probe"], bool]
FLAGS = (
    "self_draw", "kong_draw", "kong_discard", "robbing_kong", "last_tile", "first_turn", "opening",
)  # fmt: skip
_TILE_COLLECTIONS = {"tiles": "every", "distinct_tiles": "every", "concealed": "concealed"}
_SUIT_MASK = (1 << RANKS) - 1
_SUITS = range(len(STANDARD.suits))


class Probe(NamedTuple):
    """What the necessary conditions read: cheap facts about one hand being judged."""

    every: int
    """Bit t set when the hand holds tile t (concealed or in a declared meld)."""
    concealed: int
    """Bit t set when tile t is among the concealed tiles."""
    melds: int
    concealed_tiles: int
    tiles: int
    quads: int
    """Tiles held four times among the concealed tiles."""
    self_draw: bool
    kong_draw: bool
    kong_discard: bool
    robbing_kong: bool
    last_tile: bool
    first_turn: bool
    opening: bool


_RANK_MASK: dict[int, int] = {}
_MELD_FACTS: dict[tuple[HandMeld, ...], tuple[int, int]] = {}


def _rank_mask(key: int) -> int:
    found = _RANK_MASK.get(key)
    if found is None:
        found = 0
        for rank, power in enumerate(POW):
            if key // power % 5:
                found |= 1 << rank
        _RANK_MASK[key] = found
    return found


def concealed_mask(keys: tuple[int, ...]) -> int:
    mask = 0
    for suit, key in enumerate(keys):
        if key:
            mask |= _rank_mask(key) << (suit * RANKS)
    return mask


def meld_facts(melds: tuple[HandMeld, ...]) -> tuple[int, int]:
    """(mask of the melds' tiles, how many tiles they hold)."""
    found = _MELD_FACTS.get(melds)
    if found is None:
        mask = size = 0
        for m in melds:
            for t in m.tiles:
                mask |= 1 << t
                size += 1
        found = _MELD_FACTS[melds] = (mask, size)
    return found


_FLAGS_OF: dict[frozenset[str], tuple[bool, bool, bool, bool]] = {}


def context_flags(context: frozenset[str]) -> tuple[bool, bool, bool, bool]:
    """(kong_draw, kong_discard, robbing_kong, last_tile) of a win context."""
    found = _FLAGS_OF.get(context)
    if found is None:
        found = _FLAGS_OF[context] = (
            "kong_draw" in context, "kong_discard" in context, "robbing_kong" in context,
            "last_tile" in context,
        )  # fmt: skip
    return found


def probe_of_situation(situation: Any) -> Probe:
    s = situation
    concealed = concealed_mask(s.keys)
    meld_mask, meld_tiles = meld_facts(tuple(s.melds))
    size, pairs, distinct, _ = shapes._tally(s.keys)
    return Probe(
        concealed | meld_mask, concealed, len(s.melds), size, size + meld_tiles,
        pairs - distinct, s.self_draw, s.kong_draw, s.kong_discard, s.robbing_kong, s.last_tile,
        s.first_turn, s.opening,
    )  # fmt: skip


# --- reading a condition -----------------------------------------------------------------
#
# A condition is read into a disjunction of conjunctions of *atoms* (a list of frozensets):
# ``[]`` cannot hold, None may always hold.  An atom is a hashable description of one cheap
# test: ("flag", index, wanted), ("none_of", index, mask), ("some_of", index, mask),
# ("size", collection, op, k).  Conjunctions that include another are dropped, so that
# ``kong_draw and all(tiles, ...)`` adds nothing to a plain ``all(tiles, ...)``.

Atom = tuple[Any, ...]
Form = list[frozenset[Atom]] | None
MAX_TERMS = 32


class _Unknown(Exception):
    """The part of the condition is not understood here: it may hold."""


def necessary(node: syntax.Node, unshaped: bool = True) -> Form:
    """The condition's necessary form (None: no cheap test; ``[]``: it cannot hold).

    ``unshaped``: the test is asked only of hands that are neither complete nor seven
    pairs, so ``standard()`` and ``seven_pairs()`` are false; otherwise they may hold."""
    global _UNSHAPED
    _UNSHAPED = unshaped
    try:
        return _form(node)
    except _Unknown:
        return None
    finally:
        _UNSHAPED = True


_UNSHAPED = True


def test_of(form: Form) -> Need | None:
    """The test of one condition's form (None: it may always hold)."""
    return None if form is None else _compile(form)


def uses(forms: list[Form], collection: str) -> bool:
    """Whether a test of ``forms`` reads the size of ``collection``."""
    return any(
        atom[0] == "size" and atom[1] == collection
        for form in forms
        if form
        for term in form
        for atom in term
    )


def any_of(forms: list[Form]) -> Need | None:
    """One test that passes when any of ``forms`` may hold; None when one always may."""
    terms: list[frozenset[Atom]] = []
    for form in forms:
        if form is None:
            return None
        terms.extend(form)
    return _compile(_absorb(terms))


def _absorb(terms: list[frozenset[Atom]]) -> list[frozenset[Atom]]:
    kept: list[frozenset[Atom]] = []
    for term in sorted(set(terms), key=lambda t: (len(t), sorted(map(repr, t)))):
        if not any(other <= term for other in kept):
            kept.append(term)
    return kept


def _and(a: Form, b: Form) -> Form:
    if a is None:
        return b
    if b is None:
        return a
    product = _absorb([x | y for x in a for y in b])
    if len(product) > MAX_TERMS:  # either side alone is still necessary
        return min(a, b, key=len)
    return product


def _or(a: Form, b: Form) -> Form:
    if a is None or b is None:
        return None
    return _absorb(a + b)


def _atom(atom: Atom) -> Form:
    return [frozenset((atom,))]


def _form(node: syntax.Node) -> Form:
    if isinstance(node, syntax.Literal):
        return [] if node.value is False else None
    if isinstance(node, syntax.Name):
        if _is_flag(node):
            return _atom(("flag", Probe._fields.index(node.name), True))
        return None
    if isinstance(node, syntax.Unary) and node.op == "not_":
        inner = node.operand
        if isinstance(inner, syntax.Name) and _is_flag(inner):
            return _atom(("flag", Probe._fields.index(inner.name), False))
        return None
    if isinstance(node, syntax.Binary):
        if node.op == "and_":
            return _and(_form(node.left), _form(node.right))
        if node.op == "or_":
            return _or(_form(node.left), _form(node.right))
        return _comparison(node)
    if isinstance(node, syntax.If):
        return _or(_form(node.then), _form(node.otherwise))
    if isinstance(node, syntax.Call):
        if node.function in ("standard", "seven_pairs"):
            return [] if _UNSHAPED else None  # neither complete nor seven pairs
        if node.function in ("all", "any"):
            return _all_any(node)
    return None


def _is_flag(node: syntax.Name) -> bool:
    return node.name in FLAGS and node.binding not in ("it", "") and " of " not in node.binding


def _arguments(node: syntax.Call) -> list[syntax.Node]:
    return [a.value for a in node.arguments]


def _all_any(node: syntax.Call) -> Form:
    args = _arguments(node)
    if len(args) != 2 or not isinstance(args[0], syntax.Name):
        return None
    field = _TILE_COLLECTIONS.get(args[0].name)
    if field is None or args[0].binding in ("it", ""):
        return None
    allowed = 0
    try:
        for t in range(len(STANDARD.suits) * RANKS):
            if _element(args[1], t) is True:
                allowed |= 1 << t
    except _Unknown:
        return None
    index = Probe._fields.index(field)
    if node.function == "all":
        forbidden = ((1 << (len(STANDARD.suits) * RANKS)) - 1) & ~allowed
        return _atom(("none_of", index, forbidden))
    return _atom(("some_of", index, allowed))


_SIZES: Mapping[str, Callable[[Probe], int]] = {
    "melds": lambda p: p.melds,
    "concealed": lambda p: p.concealed_tiles,
    "tiles": lambda p: p.tiles,
    "distinct_tiles": lambda p: p.every.bit_count(),
    "roots": lambda p: p.quads + p.melds,  # at most: each meld may be one
    "suits": lambda p: sum(1 for s in _SUITS if p.every >> (s * RANKS) & _SUIT_MASK),
}
_FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
_COMPARE: Mapping[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}  # fmt: skip


def _comparison(node: syntax.Binary) -> Form:
    """``count(C[, test]) OP k`` (either way round) for a collection of known size."""
    op, left, right = node.op, node.left, node.right
    if op not in _FLIP:
        return None
    if isinstance(left, syntax.Literal) and isinstance(right, syntax.Call):
        op, left, right = _FLIP[op], right, left
    if not (isinstance(right, syntax.Literal) and type(right.value) is int):
        return None
    if isinstance(left, syntax.Call) and left.function == "held":
        return _held(left, op, right.value)
    if not (isinstance(left, syntax.Call) and left.function == "count"):
        return None
    args = _arguments(left)
    if not args or not isinstance(args[0], syntax.Name) or args[0].binding in ("it", ""):
        return None
    name = args[0].name
    if name not in _SIZES:
        return None
    k = right.value
    if len(args) == 1:  # the count is the size
        return _atom(("size", name, op, k))
    if op in ("eq", "ge"):  # count <= size
        return _atom(("size", name, "ge", k))
    if op == "gt":
        return _atom(("size", name, "gt", k))
    return None


def _held(call: syntax.Call, op: str, k: int) -> Form:
    """``held(5m) >= k``: with k at least 1, the tile is in the hand."""
    args = _arguments(call)
    if len(args) != 1 or not isinstance(args[0], syntax.Literal) or args[0].kind != "tile":
        return None
    least = {"ge": k, "gt": k + 1, "eq": k}.get(op, 0)
    if least < 1:
        return None
    tile = STANDARD.parse(str(args[0].value))[0]
    return _atom(("some_of", Probe._fields.index("every"), 1 << tile))


def _test(atom: Atom) -> Need:
    kind = atom[0]
    if kind == "flag":
        _, index, wanted = atom
        return (lambda p: p[index]) if wanted else (lambda p: not p[index])
    if kind == "none_of":
        _, index, mask = atom
        return lambda p: not p[index] & mask
    if kind == "some_of":
        _, index, mask = atom
        return lambda p: bool(p[index] & mask)
    if kind == "all_of":
        _, index, mask = atom
        return lambda p: p[index] & mask == mask
    _, name, op, k = atom
    size, compare = _SIZES[name], _COMPARE[op]
    return lambda p: compare(size(p), k)


def _merged(term: frozenset[Atom]) -> list[Atom]:
    """Several "holds this tile" atoms on one mask become one "holds all these" atom."""
    atoms: list[Atom] = []
    every: dict[int, int] = {}
    for atom in sorted(term, key=repr):
        if atom[0] == "some_of" and atom[2].bit_count() == 1:
            every[atom[1]] = every.get(atom[1], 0) | atom[2]
        else:
            atoms.append(atom)
    for index, mask in sorted(every.items()):
        atoms.append(("all_of", index, mask) if mask.bit_count() > 1 else ("some_of", index, mask))
    return atoms


def _compile(terms: list[frozenset[Atom]]) -> Need:
    conjunctions = [_all_of([_test(a) for a in _merged(term)]) for term in terms]
    if not conjunctions:
        return lambda p: False
    if len(conjunctions) == 1:
        return conjunctions[0]
    if len(conjunctions) == 2:
        a, b = conjunctions
        return lambda p: a(p) or b(p)
    return lambda p: any(c(p) for c in conjunctions)


def _all_of(tests: list[Need]) -> Need:
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        a, b = tests
        return lambda p: a(p) and b(p)
    return lambda p: all(t(p) for t in tests)


# --- a test on one tile ------------------------------------------------------------------


def _element(node: syntax.Node, t: Tile) -> Any:
    """The value of a test that reads only its element (tile ``t``); _Unknown otherwise."""
    if isinstance(node, syntax.Literal):
        if node.kind == "tile":
            return STANDARD.parse(str(node.value))[0]
        if node.kind in ("int", "true", "false", "text"):
            return node.value
        raise _Unknown
    if isinstance(node, syntax.SetLiteral):
        return frozenset(_element(item, t) for item in node.items)
    if isinstance(node, syntax.Name):
        if node.binding == "it":
            return t
        if node.binding == f"{node.name} of it":
            return _tile_attribute(t, node.name)
        raise _Unknown
    if isinstance(node, syntax.Attribute):
        return _tile_attribute(_element(node.subject, t), node.name)
    if isinstance(node, syntax.Unary):
        value = _element(node.operand, t)
        if node.op == "not_":
            return not value
        if node.op == "neg" and type(value) is int:
            return -value
        raise _Unknown
    if isinstance(node, syntax.If):
        return _element(node.then if _element(node.condition, t) else node.otherwise, t)
    if isinstance(node, syntax.Binary):
        a = _element(node.left, t)
        if node.op == "and_":
            return a and _element(node.right, t)
        if node.op == "or_":
            return a or _element(node.right, t)
        b = _element(node.right, t)
        if node.op in _COMPARE:
            return _COMPARE[node.op](a, b)
        if node.op == "in_":
            return a in b
        if node.op == "not_in":
            return a not in b
        if node.op == "range" and type(a) is int and type(b) is int:
            return range(a, b + 1)
        if type(a) is int and type(b) is int and str(getattr(node, "type", "")) == "int":
            if node.op == "add":
                return a + b
            if node.op == "sub":
                return a - b
            if node.op == "mul":
                return a * b
            if node.op == "mod" and b:
                return a % b
            if node.op == "floordiv" and b:
                return a // b
        raise _Unknown
    raise _Unknown


def _tile_attribute(t: Any, name: str) -> int:
    if type(t) is not int:
        raise _Unknown
    if name == "rank":
        return t % RANKS + 1
    if name == "suit":
        return t // RANKS
    raise _Unknown
