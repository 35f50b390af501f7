"""Could a hand that is neither complete nor seven pairs still win?  A cheap answer first.

A ruleset may have hand types whose condition needs no shape (``dsl.shape_audit.needs_shape`` is
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
suit, literals, how many of it the hand holds), ``count(C[, test])`` compared with a
number (exactly, from bit masks of the tiles held once, twice, three and four times, for
the hand's tiles and distinct tiles), and ``held(5m)`` compared with a number.

The same forms also give a test asked once per hand *before* a tile joins it
(:func:`after_one_tile`): it fails when no tile added, however the hand is then won, can
make the condition hold, so a player's hand need not be judged again on every discard.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from dsl import syntax
from dsl.situation import HandMeld
from handcore import shapes
from handcore.suit_tables import HONOUR
from handcore.tiles import EVERY, RANKS, Tile

Need = Callable[["Probe"], bool]
FLAGS = (
    "self_draw", "kong_draw", "kong_discard", "robbing_kong", "last_tile", "first_turn", "opening",
)  # fmt: skip
NO_FLAGS = (False,) * len(FLAGS)
_TILE_COLLECTIONS = {"tiles": "every", "distinct_tiles": "every", "concealed": "concealed"}
_SUIT_MASK = (1 << RANKS) - 1
_SUITS = range(EVERY.hand_blocks)
"""The blocks a hand holds: 万 筒 条 and the honours (a "suit" of its own, as ``tile.suit``)."""
_ALL_TILES = (1 << (EVERY.hand_blocks * RANKS)) - 1


class Probe(NamedTuple):
    """What the necessary conditions read: cheap facts about one hand being judged."""

    every: int
    """Bit t set when the hand holds tile t (concealed or in a declared meld)."""
    twice: int
    """Bit t set when the hand holds tile t at least twice (melds included)."""
    thrice: int
    four: int
    """Bit t set when the hand holds all four copies of tile t (melds included)."""
    concealed: int
    """Bit t set when tile t is among the concealed tiles."""
    melds: int
    concealed_tiles: int
    tiles: int
    self_draw: bool
    kong_draw: bool
    kong_discard: bool
    robbing_kong: bool
    last_tile: bool
    first_turn: bool
    opening: bool


_new_probe = tuple.__new__
"""A probe from its fields in order: cheaper than ``Probe._make``, a Python-level call."""
_LEVELS = ("every", "twice", "thrice", "four")
"""The probe's fields of the tiles held at least 1, 2, 3, 4 times."""
_MELD_FACTS: dict[tuple[HandMeld, ...], tuple[tuple[int, int, int, int], int]] = {}

# A hand's facts packed in one int: the tiles held at least once, twice, three and four
# times as four bit masks (``field`` bits apart), then the number of tiles.  They are the sum
# of each suit's facts, and a suit's are the sum of those of its low ranks and of its high
# ranks: read from small tables, one pair per suit.  Fields of 32 bits hold the suits' 27
# tiles; a hand with honours (a fourth key) needs 64.
_SPLIT = 5
_LOW = 5**_SPLIT


def _copies(tile: int, n: int, field: int) -> int:
    """The packed facts of ``n`` copies of ``tile``."""
    return n << 4 * field | sum(1 << (level * field + tile) for level in range(n))


def _table(first_tile: int, ranks: int, field: int) -> list[int]:
    """The packed facts of the tiles from ``first_tile`` on, by their key (``ranks`` digits)."""
    if not ranks:
        return [0]
    one = [_copies(first_tile, n, field) for n in range(5)]
    rest = _table(first_tile + 1, ranks - 1, field)
    return [one[code % 5] + rest[code // 5] for code in range(5**ranks)]


def _facts(field: int, blocks: range) -> list[tuple[list[int], list[int]]]:
    return [
        (
            _table(suit * RANKS, _SPLIT, field),
            # an honour key's marker (HONOUR) reads as HONOUR // _LOW past its high ranks' codes
            [0] * (HONOUR // _LOW) * (suit == EVERY.honour_block)
            + _table(suit * RANKS + _SPLIT, RANKS - _SPLIT, field),
        )
        for suit in blocks
    ]


_NARROW = (_facts(32, range(EVERY.honour_block)), struct.Struct("<5I").unpack, 20)
_WIDE = (_facts(64, _SUITS), struct.Struct("<5Q").unpack, 40)
"""The tables, how to unpack the five fields from their bytes (cheaper than five shifts and
masks) and how many bytes they take: for the suits alone, and with the honours."""


def held_masks(keys: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """(the tiles held at least once, twice, three and four times as bit masks, then the
    number of tiles) of per-suit keys."""
    tables, unpack, size = _NARROW if len(keys) <= len(_NARROW[0]) else _WIDE
    facts = 0
    for (low, high), key in zip(tables, keys, strict=False):  # strict: slower here
        if key:
            facts += low[key % _LOW] + high[key // _LOW]
    return unpack(facts.to_bytes(size, "little"))


def _meld_facts(melds: tuple[HandMeld, ...]) -> tuple[tuple[int, int, int, int], int]:
    """(the tiles the melds hold at least once, twice, three and four times as bit masks,
    how many tiles they hold)."""
    found = _MELD_FACTS.get(melds)
    if found is None:
        levels = [0, 0, 0, 0]
        held: dict[Tile, int] = {}
        for m in melds:
            for t in m.tiles:
                n = held[t] = held.get(t, 0) + 1
                levels[min(n, 4) - 1] |= 1 << t
        once, twice, thrice, four = levels
        found = _MELD_FACTS[melds] = ((once, twice, thrice, four), sum(held.values()))
    return found


def _together(a: Sequence[int], b: Sequence[int]) -> tuple[int, int, int, int]:
    """The tiles held at least once, twice, three and four times by two groups of tiles
    together, from each group's."""
    a1, a2, a3, a4 = a
    b1, b2, b3, b4 = b
    return (
        a1 | b1,
        a2 | b2 | a1 & b1,
        a3 | b3 | a1 & b2 | a2 & b1,
        a4 | b4 | a1 & b3 | a2 & b2 | a3 & b1,
    )


def probe_of(
    keys: tuple[int, ...], melds: tuple[HandMeld, ...] = (), flags: tuple[bool, ...] = NO_FLAGS
) -> Probe:
    """The probe of a hand: its concealed ``keys``, its declared ``melds`` and how it is
    won (``flags``, in the order of ``FLAGS``)."""
    once, twice, thrice, four, size = held_masks(keys)
    concealed, tiles = once, size
    if melds:
        meld_levels, meld_tiles = _meld_facts(melds)
        once, twice, thrice, four = _together((once, twice, thrice, four), meld_levels)
        tiles += meld_tiles
    fields = (once, twice, thrice, four, concealed, len(melds), size, tiles, *flags)
    return _new_probe(Probe, fields)


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


def has_shape(keys: tuple[int, ...], melds: int, wilds: int = 0) -> bool:
    """Whether ``standard()`` or ``seven_pairs()`` may hold: the hand (``keys`` and ``wilds``
    wild tiles) is complete, or seven pairs with no melds.  The unshaped forms
    (``necessary``) are for hands without."""
    if wilds:
        return shapes.is_complete_with_wilds(keys, wilds) or (
            melds == 0 and shapes.seven_pairs(keys, "quads", wilds) is not None
        )
    return shapes.is_complete(keys) or (melds == 0 and shapes.seven_pairs(keys) is not None)


def probe_of_situation(situation: Any) -> Probe | None:
    """The probe of a situation's hand; None when it holds a tile more than four times,
    melds included (no dealt hand does, a bot's guess may): the tests are not for it."""
    s = situation
    if s.tileset.wilds:  # its tests read tiles, not what wilds stand for
        return None
    melds = tuple(s.melds)
    if melds:
        *c, _ = held_masks(s.keys)
        (m1, m2, m3, m4), _ = _meld_facts(melds)
        if c[0] & m4 | c[1] & m3 | c[2] & m2 | c[3] & m1:
            return None
    return probe_of(s.keys, melds, tuple(getattr(s, name) for name in FLAGS))


# --- reading a condition -----------------------------------------------------------------
#
# A condition is read into a disjunction of conjunctions of *atoms* (a list of frozensets):
# ``[]`` cannot hold, None may always hold.  An atom is a hashable description of one cheap
# test: ("flag", index, wanted), ("none_of", index, mask), ("some_of", index, mask),
# ("size", collection, op, k), ("count", weighted, allowed, op, k) (the hand's tiles that
# pass a test, ``allowed[c - 1]`` being the tiles that pass it when held c times; weighted:
# each counted as often as it is held).  Conjunctions that include another are dropped, so that
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


def any_of(forms: list[Form]) -> Need | None:
    """One test that passes when any of ``forms`` may hold; None when one always may."""
    terms = _terms(forms)
    return None if terms is None else _compile(terms)


def after_one_tile(forms: list[Form]) -> Need | None:
    """A test of a hand before one more tile joins it: fails when, whatever the tile and
    however the hand is then won, none of ``forms`` can hold (None: one always may).

    It reads the probe of the hand without the tile; flags are not known yet."""
    terms = _terms(forms)
    return None if terms is None else _compile(terms, _test_after_one_tile)


def _terms(forms: list[Form]) -> list[frozenset[Atom]] | None:
    terms: list[frozenset[Atom]] = []
    for form in forms:
        if form is None:
            return None
        terms.extend(form)
    return _absorb(terms)


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
    allowed = _allowed(args[1])
    if allowed is None:
        return None
    every = node.function == "all"
    if len(set(allowed)) == 1:  # the test does not read how many of its tile the hand holds
        index = Probe._fields.index(field)
        if every:
            return _atom(("none_of", index, _ALL_TILES & ~allowed[0]))
        return _atom(("some_of", index, allowed[0]))
    if field != "every":
        return None
    if every:  # no distinct tile fails the test
        return _atom(("count", False, tuple(_ALL_TILES & ~a for a in allowed), "eq", 0))
    return _atom(("count", False, allowed, "ge", 1))


def _allowed(test: syntax.Node) -> tuple[int, ...] | None:
    """For c = 1..4, the tiles that pass ``test`` when the hand holds c of them (None when
    the test reads more than its element and how many of it the hand holds)."""
    allowed = []
    try:
        for held in range(1, 5):
            mask = 0
            for t in range(EVERY.hand_blocks * RANKS):
                if _element(test, t, held) is True:
                    mask |= 1 << t
            allowed.append(mask)
    except _Unknown:
        return None
    return tuple(allowed)


_SIZES: Mapping[str, Callable[[Probe], int]] = {
    "melds": lambda p: p.melds,
    "concealed": lambda p: p.concealed_tiles,
    "tiles": lambda p: p.tiles,
    "distinct_tiles": lambda p: p.every.bit_count(),
    "roots": lambda p: p.four.bit_count(),
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
    if name in ("tiles", "distinct_tiles"):
        allowed = _allowed(args[1])
        if allowed is not None:
            return _atom(("count", name == "tiles", allowed, op, k))
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
    if least > len(_LEVELS):
        return []
    tile = EVERY.parse(str(args[0].value))[0]
    return _atom(("some_of", Probe._fields.index(_LEVELS[least - 1]), 1 << tile))


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
    if kind == "count":
        _, weighted, allowed, op, k = atom
        compare = _COMPARE[op]
        mask = allowed[0]
        if allowed != (mask,) * 4:
            return lambda p: compare(_count(p, allowed, weighted), k)
        if weighted:  # a tile held n times is in the first n levels
            return lambda p: compare(
                (p.every & mask).bit_count() + (p.twice & mask).bit_count()
                + (p.thrice & mask).bit_count() + (p.four & mask).bit_count(),
                k,
            )  # fmt: skip
        return lambda p: compare((p.every & mask).bit_count(), k)
    _, name, op, k = atom
    size, compare = _SIZES[name], _COMPARE[op]
    return lambda p: compare(size(p), k)


def _count(p: Probe, allowed: tuple[int, ...], weighted: bool) -> int:
    """The hand's tiles that pass a test (see the "count" atom)."""
    levels = (p.every, p.twice, p.thrice, p.four, 0)
    total = 0
    for c in range(4):
        passed = (levels[c] & ~levels[c + 1] & allowed[c]).bit_count()
        total += passed * (c + 1) if weighted else passed
    return total


_GROWTH = {"melds": 0, "concealed": 1, "tiles": 1}
"""How a collection's size may change when one tile joins the hand (others: by 0 or 1)."""


def _test_after_one_tile(atom: Atom) -> Need | None:
    """The atom's test on the hand before one more tile joins it: may it hold after?
    (None: it may, whatever the hand.)"""
    kind = atom[0]
    if kind == "none_of":  # a tile once held stays held
        _, index, mask = atom
        return lambda p: not p[index] & mask
    if kind == "all_of":  # all but one of the tiles held already
        _, index, mask = atom
        return lambda p: (mask & ~p[index]).bit_count() <= 1
    if kind == "size":
        _, name, op, k = atom
        size, compare, growth = _SIZES[name], _COMPARE[op], _GROWTH.get(name)
        if growth is None:  # it grows by 0 or 1
            return lambda p: compare(size(p), k) or compare(size(p) + 1, k)
        return lambda p: compare(size(p) + growth, k)
    return None  # a flag, some tile or a count: it may


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


def _compile(terms: list[frozenset[Atom]], test: Callable[[Atom], Need | None] = _test) -> Need:
    merged = [_merged(term) for term in terms]
    sets = _tile_sets(merged)
    if test is _test and sets is not None:  # any of these sets of tiles held: one loop
        index, masks = sets
        return lambda p: any(p[index] & mask == mask for mask in masks)
    conjunctions = [_all_of([t for a in atoms if (t := test(a)) is not None]) for atoms in merged]
    if not conjunctions:
        return lambda p: False
    if len(conjunctions) == 1:
        return conjunctions[0]
    if len(conjunctions) == 2:
        a, b = conjunctions
        return lambda p: a(p) or b(p)
    return lambda p: any(c(p) for c in conjunctions)


def _tile_sets(terms: list[list[Atom]]) -> tuple[int, tuple[int, ...]] | None:
    """(field, masks) when the terms are several "holds all these tiles" atoms on one field."""
    if len(terms) < 3 or any(len(atoms) != 1 or atoms[0][0] != "all_of" for atoms in terms):
        return None
    fields = {atoms[0][1] for atoms in terms}
    if len(fields) != 1:
        return None
    return fields.pop(), tuple(atoms[0][2] for atoms in terms)


def _all_of(tests: list[Need]) -> Need:
    if not tests:
        return lambda p: True
    if len(tests) == 1:
        return tests[0]
    first, rest = tests[0], _all_of(tests[1:])
    return lambda p: first(p) and rest(p)


# --- a test on one tile ------------------------------------------------------------------


def _element(node: syntax.Node, t: Tile, held: int) -> Any:
    """The value of a test that reads only its element (tile ``t``) and how many of it the
    hand holds (``held``); _Unknown otherwise."""
    if isinstance(node, syntax.Literal):
        if node.kind == "tile":
            return EVERY.parse(str(node.value))[0]
        if node.kind in ("int", "true", "false", "text"):
            return node.value
        raise _Unknown
    if isinstance(node, syntax.SetLiteral):
        return frozenset(_element(item, t, held) for item in node.items)
    if isinstance(node, syntax.Name):
        if node.binding == "it":
            return t
        if node.binding == f"{node.name} of it":
            return _tile_attribute(t, node.name)
        raise _Unknown
    if isinstance(node, syntax.Call) and node.function == "held":
        args = _arguments(node)
        if len(args) == 1 and isinstance(args[0], syntax.Name) and args[0].binding == "it":
            return held
        raise _Unknown
    if isinstance(node, syntax.Attribute):
        return _tile_attribute(_element(node.subject, t, held), node.name)
    if isinstance(node, syntax.Unary):
        value = _element(node.operand, t, held)
        if node.op == "not_":
            return not value
        if node.op == "neg" and type(value) is int:
            return -value
        raise _Unknown
    if isinstance(node, syntax.If):
        return _element(node.then if _element(node.condition, t, held) else node.otherwise, t, held)
    if isinstance(node, syntax.Binary):
        a = _element(node.left, t, held)
        if node.op == "and_":
            return a and _element(node.right, t, held)
        if node.op == "or_":
            return a or _element(node.right, t, held)
        b = _element(node.right, t, held)
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
