"""What a win would be worth, asked cheaply: the bots' path to the settlement's numbers.

A bot weighs hundreds of candidate wins a hand (each wait of a ready hand, each target it
might complete, self-drawn and on a discard).  Settling each one through :func:`settle`
(a hand record, every payment rule and adjustment, a record for each payment) cost most of
a bot's time.  :class:`Valuer` gives the same numbers in two cached steps:

1. **The hand types** of a candidate (its concealed tiles with the winning tile, its
   melds), found as :func:`~interpreter.settle.worth` finds them, and kept under the
   candidate and only those facts of the win (self-draw, context, seats) that the
   ruleset's hand types, scoring value and restrictions read: the DSL's checked trees say
   which names each expression reads.  A hand type whose ``when`` needs a flag the win
   lacks (``first_turn and winner == dealer ...``) is false whatever else it reads, so
   those other facts are left out of the key of such a win.  The facts derived from the
   hand (its splits, suits, roots ...) are worked out once per candidate and shared by
   every way of winning it, and with settlement (``settle.hand_facts``): settling the
   candidate, or the wall's end with it ready, does not work them out again.
2. **What the winner collects** (the settlement's payments to it), kept under the win's
   combined value, the hand types found with their values (only the values found in each
   class when no payment expression names a hand type, and neither when none names a
   class either) and the facts of the win the payments read, plus the hand itself only
   when a payment expression reads the hand.  A new key is settled by :func:`settle`
   itself.

Both steps return exactly what the full path returns (tests/agents/test_valuation.py
compares them on random hands for every shipped ruleset).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from dsl.compiler import CompiledExpression
from dsl.ruleset import Ruleset
from dsl.situation import HandMeld, Situation
from dsl.syntax import Binary, Name
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
from interpreter.ruleset_memo import ruleset_memo
from interpreter.settle import (
    _NOWHERE,
    FoundHand,
    SettlementError,
    WinResult,
    _set,
    hand_facts,
    keep_facts,
    settle,
)


class WinFacts(NamedTuple):
    """How a candidate win is made, besides the hand: what the valuer's caches are keyed by
    (those of these facts the ruleset reads)."""

    self_draw: bool
    winner: int
    discarder: int | None
    """The seat whose discard is won on; None when self-drawn."""
    dealer: int
    players: int = 4
    in_game: frozenset[int] | None = None
    """The seats still playing; all when None."""
    void: int | None = None
    """The suit the winner declared void (定缺), or None."""
    context: frozenset[str] = frozenset()
    """Words of ``hand_record.CONTEXTS``: ``kong_draw``, ``last_tile`` ..."""


FACTS = tuple(name for name in WinFacts._fields if name != "void")
"""The facts of a win an expression may read (the void suit is read by the restrictions
alone, and always kept)."""


def _in_game(facts: WinFacts) -> WinFacts:
    """``facts`` with the seats still playing spelled out."""
    if facts.in_game is None:
        return facts._replace(in_game=frozenset(range(facts.players)))
    return facts


def _reader(names: frozenset[str]) -> Callable[[WinFacts], tuple[Any, ...]]:
    """What a cache key holds of a win's facts: those among ``names``, in field order."""
    fields = tuple(i for i, name in enumerate(WinFacts._fields) if name in names)
    return lambda facts: tuple([facts[i] for i in fields])


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


class Valuer:
    """Win values under one ruleset; build one per ruleset (:func:`valuer`) and ask it
    :meth:`win_value` (what the winner collects) or :meth:`total` (the combined value).

    A candidate is ``keys`` (the concealed tiles with the winning tile, per-suit keys),
    ``melds`` (declared) and ``tile`` (the winning tile); the facts of the win are one
    :class:`WinFacts`."""

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
        self._guarded = _guarded_facts(ruleset, free, known)
        self.type_facts = self._guarded.read(self._guarded.flags)
        """The facts of a win the hand types, scoring value and restrictions read (with
        every flag set)."""
        self._type_readers: dict[tuple[bool, frozenset[str]], Callable[..., tuple[Any, ...]]] = {}
        """The reader of each way of winning (self-drawn or not, the context's words)."""
        self.paid_facts = _facts_read(_payment_expressions(ruleset), free, known) | {
            "self_draw",
            "winner",
        }
        """The facts what a win pays reads: its payment's expressions, and settlement itself
        (the self-draw bonus, the winner who is paid)."""
        self.paid_read_hand = "hand" in self.paid_facts
        """Whether what a win pays reads the hand beyond its hand types (then kept per hand)."""
        ids = _hand_type_names(ruleset) - _class_names(ruleset) | {"hands"}
        paying = [e for e in _payment_expressions(ruleset) if e is not _combined(ruleset)]
        self.paid_read_ids = any(e.names & ids for e in paying)
        """Whether what a win pays reads which hand types were found (their names, or
        ``hands``), not only the values found in each class: then kept per hand type."""
        self.paid_read_classes = self.paid_read_ids or any(
            e.names & _class_names(ruleset) for e in paying
        )
        """Whether it reads the values found in each class, not only the combined value
        (``scoring.value``, worked out with the hand types, is left out: the key holds it)."""
        self._paid_read = _reader(self.paid_facts)
        self._types: dict[tuple[Any, ...], WinResult | None] = {}
        self._blanks: dict[WinFacts, Situation] = {}
        """A situation of each win's facts without a hand (never asked anything): a
        candidate's situation is a copy with the hand put in, as ``build_situation``
        would make it but without checking the seats again."""
        self._paid: dict[tuple[Any, ...], float] = {}

    def total(
        self, keys: Keys, melds: tuple[HandMeld, ...], tile: Tile, facts: WinFacts
    ) -> int | None:
        """The win's combined value, as ``settle.worth(...).total``; None when it does not win."""
        found = self._hand_types(keys, melds, tile, _in_game(facts))
        return None if found is None else found.total

    def win_value(
        self, keys: Keys, melds: tuple[HandMeld, ...], tile: Tile, facts: WinFacts
    ) -> float:
        """What the winner collects: the sum of the payments to it when the hand record of
        this one win is settled; 0 when the ruleset would not accept the win."""
        facts = _in_game(facts)
        found = self._hand_types(keys, melds, tile, facts)
        if found is None or (self.partial and not self._on_table(keys, melds, tile)):
            return 0.0
        birds = tile if "last_tile" in facts.context else None  # a bird may be the winning tile
        hand = (keys, melds, tile) if self.paid_read_hand else None
        hands: Any = None
        if self.paid_read_ids:
            hands = found.hands
        elif self.paid_read_classes:
            hands = tuple(sorted(self._classes(found.hands)))
        key = (hands, found.total, self._paid_read(facts), birds, hand)
        value = self._paid.get(key)
        if value is None:
            value = self._settle(keys, melds, tile, facts)
            if len(self._paid) > 100_000:
                self._paid.clear()
            self._paid[key] = value
        return value

    def _type_read(self, facts: WinFacts) -> tuple[Any, ...]:
        """What the key of a candidate's hand types holds of ``facts``: those read by the
        hand types that may apply (a hand type whose ``when`` needs a flag that ``facts``
        lack, ``first_turn and ...`` say, is false whatever else it reads)."""
        read = self._type_readers.get((facts.self_draw, facts.context))
        if read is None:
            flags = frozenset(
                flag
                for flag in self._guarded.flags
                if (facts.self_draw if flag == "self_draw" else flag in facts.context)
            )
            read = _reader(self._guarded.read(flags))
            self._type_readers[(facts.self_draw, facts.context)] = read
        return read(facts)

    def _hand_types(
        self, keys: Keys, melds: tuple[HandMeld, ...], tile: Tile, facts: WinFacts
    ) -> WinResult | None:
        key = ((keys, melds, tile), facts.void, self._type_read(facts))
        if key in self._types:
            return self._types[key]
        blank = self._blanks.get(facts)
        if blank is None:
            if len(self._blanks) > 10_000:
                self._blanks.clear()
            blank = self._blanks[facts] = build_situation(
                self_draw=facts.self_draw, context=facts.context, winner=facts.winner,
                discarder=facts.discarder, dealer=facts.dealer, players=facts.players,
                players_in_game=facts.in_game, options=self.options, tileset=self.rules.tileset,
            )  # fmt: skip
        situation = _set(blank, keys=keys, melds=melds, win_tile=tile)
        known = hand_facts(self.ruleset, situation)
        found = self.rules.worth(situation, facts.void, self.rules.shape_ok(keys, len(melds)))
        keep_facts(known, situation)
        if len(self._types) > 200_000:
            self._types.clear()
        self._types[key] = found
        return found

    @staticmethod
    def _classes(hands: tuple[FoundHand, ...]) -> Iterator[tuple[str, int]]:
        return ((h.hand_class or "", h.value) for h in hands)

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
        self, keys: Keys, melds: tuple[HandMeld, ...], tile: Tile, facts: WinFacts
    ) -> float:
        concealed = tuple(STANDARD.tiles_of(shapes.counts_of(shapes.add_tile(keys, tile, -1))))
        win = Win(facts.winner, concealed, melds, (tile,),
                  None if facts.self_draw else facts.discarder, frozenset(facts.context),
                  _NOWHERE)  # fmt: skip
        record = HandRecord(facts.players, facts.dealer, facts.in_game, wins=(win,))
        try:
            settlement = settle(self.ruleset, record)
        except (SettlementError, ValueError):
            return 0.0
        return float(sum(p.amount for p in settlement.payments if p.payee == facts.winner))


def valuer(ruleset: Ruleset) -> Valuer:
    """The ruleset's valuer, built once per ruleset object."""
    memo = ruleset_memo(ruleset, "valuer")
    if "valuer" not in memo:
        memo["valuer"] = Valuer(ruleset)
    return memo["valuer"]


# --- which facts the expressions read --------------------------------------------------------


class _Guarded(NamedTuple):
    """The facts the hand types read, by the flags a win has."""

    always: frozenset[str]
    """Read by every win: the scoring value, the restrictions, unguarded hand types."""
    guarded: tuple[tuple[frozenset[str], frozenset[str]], ...]
    """(the flags a hand type's ``when`` needs, the facts that hand type reads)."""

    @property
    def flags(self) -> frozenset[str]:
        return frozenset(flag for needed, _ in self.guarded for flag in needed)

    def read(self, flags: frozenset[str]) -> frozenset[str]:
        """The facts read by a win with ``flags`` set (and the others not)."""
        found = set(self.always)
        for needed, facts in self.guarded:
            if needed <= flags:
                found |= facts
        return frozenset(found)


_FLAGS = frozenset({*CONTEXTS, "self_draw"})
"""Facts that are true or false: a ``when`` that needs one is false without it."""


def _guarded_facts(
    ruleset: Ruleset, free: frozenset[str], known: Mapping[str, frozenset[str]]
) -> _Guarded:
    """The facts the hand types read (``_facts_read``), split by the flags each one's
    ``when`` needs: the names joined by ``and`` at its top (``first_turn and ...``)."""
    always = set(_facts_read(_expressions(ruleset.get("scoring.value")), free, known))
    always |= _facts_read(_expressions(ruleset.get("restrictions.win_requires")), free, known)
    guarded = []
    for section in ("hands", "modifiers"):
        for spec in (ruleset.get(section) or {}).values():
            facts = _facts_read(_expressions(spec), free, known)
            needed = _needed_flags(spec.get("when"))
            if needed:
                guarded.append((needed, facts))
            else:
                always |= facts
    return _Guarded(frozenset(always), tuple(guarded))


def _needed_flags(expression: Any) -> frozenset[str]:
    """The flags (``_FLAGS``) among the parts joined by ``and`` at the top of ``expression``."""
    found = set()
    nodes = [expression.ast] if isinstance(expression, CompiledExpression) else []
    while nodes:
        node = nodes.pop()
        if isinstance(node, Binary) and node.op == "and_":
            nodes += [node.left, node.right]
        elif isinstance(node, Name) and node.name in _FLAGS:
            found.add(node.name)
    return frozenset(found)


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


def _combined(ruleset: Ruleset) -> Any:
    """``scoring.value``: how the values found combine into the win's value."""
    return ruleset.get("scoring.value")


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


def _class_names(ruleset: Ruleset) -> frozenset[str]:
    """The classes of the ruleset's hand types ("bonus" for a modifier without one)."""
    return frozenset(
        spec.get("class") or "bonus"
        for section in ("hands", "modifiers")
        for spec in (ruleset.get(section) or {}).values()
    ) | {"bonus"}


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
