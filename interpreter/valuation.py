"""What a win would be worth, asked cheaply: the bots' path to the settlement's numbers.

A bot weighs hundreds of candidate wins a hand (each wait of a ready hand, each target it
might complete, self-drawn and on a discard).  Settling each one through :func:`settle`
(a hand record, every payment rule and adjustment, a record for each payment) cost most of
a bot's time.  :class:`Valuer` gives the same numbers in two cached steps:

1. **The hand types** of a candidate (its concealed tiles with the winning tile, its
   melds), found as :func:`~interpreter.settle.worth` finds them, and kept under the
   candidate and only those facts of the win (self-draw, context, seats) that the
   ruleset's hand types, scoring value and restrictions read: the DSL's checked trees say
   which names each expression reads.  The facts derived from the hand (its splits, suits,
   roots ...) are worked out once per candidate and shared by every way of winning it.
2. **What the winner collects** (the settlement's payments to it), kept under the hand
   types found with their values and the facts of the win, plus the hand itself only when
   a payment expression reads the hand.  A new key is settled by :func:`settle` itself.

Both steps return exactly what the full path returns (tests/agents/test_valuation.py
compares them on random hands for every shipped ruleset).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import Any

from dsl.compiler import CompiledExpression
from dsl.ruleset import Ruleset
from dsl.situation import HandMeld, Situation
from dsl.vocabulary import (
    CHOICE_PREFIX,
    CONSTANTS,
    EARLIER,
    GENERIC_FUNCTIONS,
    HAND_FUNCTIONS,
    HAND_SHAPE,
    HOW_WON,
    KONG_MADE,
    PAYMENT_FUNCTIONS,
    TABLE,
    WAITS,
)
from handcore import shapes
from handcore.shapes import Keys
from handcore.tiles import RANKS, STANDARD, Tile
from interpreter.context import build_situation
from interpreter.engine.rules import Rules
from interpreter.hand_record import CONTEXTS, HandRecord, Win
from interpreter.settle import _NOWHERE, SettlementError, WinResult, ruleset_memo, settle

FACTS = ("self_draw", "context", "winner", "discarder", "dealer", "players", "in_game")
"""The facts of a win besides the hand, in the order a cache key holds them."""

_READS: dict[str, tuple[str, ...]] = {
    "self_draw": ("self_draw",),
    **{word: ("context",) for word in CONTEXTS},
    "winner": ("winner",),
    "winners": ("winner",),
    "others": ("winner", "in_game"),
    "players_in_game": ("in_game",),
    "discarder": ("discarder",),
    "dealer": ("dealer",),
    "dealers": ("dealer",),
    "players": ("players",),
}
"""The facts each name of the vocabulary reads (names of a single win's situation)."""
_HAND = frozenset(
    e.name for e in (*HAND_SHAPE, *WAITS, *HAND_FUNCTIONS, *HOW_WON) if e.name not in _READS
)
"""Names that read the candidate itself: its tiles, melds, winning tile."""
_FREE = frozenset(
    {e.name for e in (*CONSTANTS, *GENERIC_FUNCTIONS, *PAYMENT_FUNCTIONS, *TABLE, *KONG_MADE)}
    | {e.name for e in EARLIER}
    | {"hands", "value", "payer", "payee", "amount", "hits", "bird_tiles", "tile"}
)
"""Names that read no fact of the win beyond those a cache key always holds: constants,
generic functions, what settlement works out itself (the hand types found, their value,
the seats and amount of one payment, the birds: drawn from the winning tile at most), and
what a record of one win has no value for (the table's roles, kongs and their payments)."""
_DERIVED = tuple(name for name, v in vars(Situation).items() if isinstance(v, cached_property))
"""The facts a situation derives from its hand alone, kept per candidate."""


class Valuer:
    """Win values under one ruleset; build one per ruleset (:func:`valuer`) and ask it
    :meth:`win_value` (what the winner collects) or :meth:`total` (the combined value).

    A candidate is ``keys`` (the concealed tiles with the winning tile, per-suit keys),
    ``melds`` (declared) and ``tile`` (the winning tile).  The facts of the win:
    ``self_draw``; ``winner``; ``discarder`` (None when self-drawn); ``dealer``;
    ``players``; ``in_game`` (the seats still playing, all when None); ``void`` (the suit
    the winner declared void, 定缺, or None); ``context`` (words of ``hand_record.CONTEXTS``:
    ``kong_draw``, ``last_tile`` ...)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.rules = Rules(ruleset)
        self.options = ruleset.option_values
        self.playable = ruleset.tileset.playable()
        suited = (1 << 3 * RANKS) - 1
        self.partial = self.playable & suited != suited or ruleset.tileset.honour_block is not None
        """Whether a hand may hold a tile the table does not play (a suit left out, honours
        it lacks): then each candidate is checked, as settlement refuses such a hand."""
        free = _FREE | _hand_type_names(ruleset)
        known = {  # a choice is read as its default here: what that default reads
            CHOICE_PREFIX + name: _facts_read(_expressions(spec.get("default")), free)
            for name, spec in (ruleset.get("choices") or {}).items()
        }
        self.type_facts = _facts_read(_hand_type_expressions(ruleset), free, known)
        """The facts of a win the hand types, scoring value and restrictions read."""
        self.paid_facts = _facts_read(_payment_expressions(ruleset), free, known) | {
            "self_draw",
            "winner",
        }
        """The facts what a win pays reads: its payment's expressions, and settlement itself
        (the self-draw bonus, the winner who is paid)."""
        self.paid_read_hand = "hand" in self.paid_facts
        """Whether what a win pays reads the hand beyond its hand types (then kept per hand)."""
        self._derived: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._types: dict[tuple[Any, ...], WinResult | None] = {}
        self._paid: dict[tuple[Any, ...], float] = {}

    def total(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        tile: Tile,
        *,
        self_draw: bool,
        winner: int,
        discarder: int | None,
        dealer: int,
        players: int = 4,
        in_game: frozenset[int] | None = None,
        void: int | None = None,
        context: frozenset[str] = frozenset(),
    ) -> int | None:
        """The win's combined value, as ``settle.worth(...).total``; None when it does not win."""
        found = self._hand_types(
            keys, melds, tile, void,
            (self_draw, context, winner, discarder, dealer, players, in_game),
        )  # fmt: skip
        return None if found is None else found.total

    def win_value(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        tile: Tile,
        *,
        self_draw: bool,
        winner: int,
        discarder: int | None,
        dealer: int,
        players: int = 4,
        in_game: frozenset[int] | None = None,
        void: int | None = None,
        context: frozenset[str] = frozenset(),
    ) -> float:
        """What the winner collects: the sum of the payments to it when the hand record of
        this one win is settled; 0 when the ruleset would not accept the win."""
        in_game = frozenset(range(players)) if in_game is None else in_game
        facts = (self_draw, context, winner, discarder, dealer, players, in_game)
        found = self._hand_types(keys, melds, tile, void, facts)
        if found is None or (self.partial and not self._on_table(keys, melds, tile)):
            return 0.0
        birds = tile if "last_tile" in context else None  # a bird may be the winning tile
        hand = (keys, melds, tile) if self.paid_read_hand else None
        read = tuple(f for f, name in zip(facts, FACTS, strict=True) if name in self.paid_facts)
        key = (found.hands, found.total, read, birds, hand)
        value = self._paid.get(key)
        if value is None:
            value = self._settle(keys, melds, tile, facts)
            if len(self._paid) > 100_000:
                self._paid.clear()
            self._paid[key] = value
        return value

    def _hand_types(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        tile: Tile,
        void: int | None,
        facts: tuple[Any, ...],
    ) -> WinResult | None:
        if facts[6] is None:
            facts = (*facts[:6], frozenset(range(facts[5])))
        candidate = (keys, melds, tile)
        read = tuple(f for f, name in zip(facts, FACTS, strict=True) if name in self.type_facts)
        key = (candidate, void, read)
        if key in self._types:
            return self._types[key]
        self_draw, context, winner, discarder, dealer, players, in_game = facts
        situation = build_situation(
            keys=keys, melds=melds, win_tile=tile, self_draw=self_draw, context=context,
            winner=winner, discarder=discarder, dealer=dealer, players=players,
            players_in_game=in_game, options=self.options, tileset=self.rules.tileset,
        )  # fmt: skip
        derived = self._derived.get(candidate)
        if derived is None:
            if len(self._derived) > 50_000:
                self._derived.clear()
            derived = self._derived[candidate] = {}
        situation.__dict__.update(derived)
        found = self.rules.worth(situation, void, self.rules.shape_ok(keys, len(melds)))
        derived.update((name, situation.__dict__[name]) for name in _DERIVED
                       if name in situation.__dict__)  # fmt: skip
        if len(self._types) > 200_000:
            self._types.clear()
        self._types[key] = found
        return found

    def _on_table(self, keys: Keys, melds: tuple[HandMeld, ...], tile: Tile) -> bool:
        """Whether every tile of the candidate is one the table plays with: settlement
        refuses a hand holding another (a suit the ruleset leaves out, say)."""
        held = 1 << tile
        for t, n in enumerate(shapes.counts_of(keys)):
            if n:
                held |= 1 << t
        for meld in melds:
            for t in meld.tiles:
                held |= 1 << t
        return not held & ~self.playable

    def _settle(
        self, keys: Keys, melds: tuple[HandMeld, ...], tile: Tile, facts: tuple[Any, ...]
    ) -> float:
        self_draw, context, winner, discarder, dealer, players, in_game = facts
        concealed = tuple(STANDARD.tiles_of(shapes.counts_of(shapes.add_tile(keys, tile, -1))))
        win = Win(winner, concealed, melds, (tile,), None if self_draw else discarder,
                  frozenset(context), _NOWHERE)  # fmt: skip
        record = HandRecord(players, dealer, in_game, wins=(win,))
        try:
            settlement = settle(self.ruleset, record)
        except (SettlementError, ValueError):
            return 0.0
        return float(sum(p.amount for p in settlement.payments if p.payee == winner))


def valuer(ruleset: Ruleset) -> Valuer:
    """The ruleset's valuer, built once per ruleset object."""
    memo = ruleset_memo(ruleset, "valuer")
    if "valuer" not in memo:
        memo["valuer"] = Valuer(ruleset)
    return memo["valuer"]


# --- which facts the expressions read --------------------------------------------------------


def _hand_type_expressions(ruleset: Ruleset) -> Iterator[CompiledExpression]:
    for section in ("hands", "modifiers"):
        for spec in (ruleset.get(section) or {}).values():
            yield from _expressions(spec)
    yield from _expressions(ruleset.get("scoring.value"))
    yield from _expressions(ruleset.get("restrictions.win_requires"))


def _payment_expressions(ruleset: Ruleset) -> Iterator[CompiledExpression]:
    """What settling one win reads: its scoring, payment and birds, and the adjustments and
    payment rules at a win."""
    for section in ("scoring", "payment", "birds"):
        yield from _expressions(ruleset.get(section))
    for spec in (ruleset.get("adjustments") or {}).values():
        if "win" in spec["at"]:
            yield from _expressions(spec)
    for spec in (ruleset.get("payments") or {}).values():
        if spec["at"] == "win":
            yield from _expressions(spec)


def _expressions(value: Any) -> Iterator[CompiledExpression]:
    if isinstance(value, CompiledExpression):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _expressions(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _expressions(item)


def _hand_type_names(ruleset: Ruleset) -> frozenset[str]:
    """The ruleset's hand types and their classes: names for the hand types found."""
    names = {"bonus"}
    for section in ("hands", "modifiers"):
        for hand_id, spec in (ruleset.get(section) or {}).items():
            names.add(hand_id)
            names.add(spec.get("class") or "bonus")
    return frozenset(names)


def _facts_read(
    expressions: Iterable[CompiledExpression],
    free: frozenset[str],
    known: Mapping[str, frozenset[str]] | None = None,
) -> frozenset[str]:
    """The facts (``FACTS``, and ``hand``) the expressions read (``free`` names read none,
    a ``known`` name the facts given); every fact when one reads a name this module does not
    know."""
    found: set[str] = set()
    for expression in expressions:
        for word in expression.names:
            if known and word in known:
                found.update(known[word])
            elif word in _READS:
                found.update(_READS[word])
            elif word in _HAND:
                found.add("hand")
            elif word not in free:
                return frozenset((*FACTS, "hand"))
    return frozenset(found)
