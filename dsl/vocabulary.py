"""Every name, attribute and function an expression may use, with its type and a one-line doc.

The vocabulary is generic mahjong mechanics: tiles, melds, seats, how a hand was won.
Rules (which hands exist, what they are worth) live in rulesets, which name their hand
types and options; a :class:`Scope` adds those to the names a ruleset section may use.

Sections expose different groups of names (see ``SECTIONS``): hand types are defined in
``hands``, paid in ``payment``, birds are placed in ``birds``, and ``game`` sees only
seats and options.  Tables here are the only way an expression reaches a value: the
compiler looks every name and attribute up here, never on Python objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dsl.errors import EvaluationError
from dsl.situation import NOBODY, POT, WAIT_SHAPES, Situation, block_readings, hand_core
from dsl.types import (
    BOOL,
    HAND,
    INT,
    KIND,
    MELD,
    SEAT,
    SUIT,
    TILE,
    Type,
    collection,
    enum,
    parse_type,
)
from handcore.tiles import RANKS, STANDARD, TileSet

LIMIT = 2**62
"""Integers stay within this bound (see ``compiler``)."""

ELEMENT = Type("X")
"""Stands for the element type of a function's collection argument."""
WAIT = Type("wait")
"""The shape a winning tile completes (``WAIT_SHAPES``)."""


@dataclass(frozen=True)
class NameEntry:
    """A name: its type, a one-line doc, and how its value is read from the situation."""

    name: str
    type: Type
    doc: str
    read: Callable[[Situation], Any] = field(repr=False, compare=False)
    example: str = ""
    constant: bool = False
    """Whether the value is the same in every situation (``chow``...): compiled as a constant."""


@dataclass(frozen=True)
class AttributeEntry:
    """``value.name`` for values of type ``owner``; inside a condition on such a value the
    attribute is also a bare name (``rank`` for ``it.rank``)."""

    owner: Type
    name: str
    type: Type
    doc: str
    read: Callable[[Any, Situation], Any] = field(repr=False, compare=False)
    situational: bool = False
    """Whether the value depends on the situation, not on the owner alone."""


REQUIRED = object()


@dataclass(frozen=True)
class Param:
    """A parameter.  With ``each``, the argument is evaluated once per element of
    ``subject`` (or of the first argument when ``subject`` is None), with that element as
    the implicit subject ``it``; the function then receives a one-argument callable."""

    name: str
    type: Type
    doc: str = ""
    default: Any = REQUIRED
    each: bool = False
    subject: Type | None = None
    no_tile: Any = REQUIRED
    """For a tile parameter: the function's value when the argument is no tile (``9m + 1``);
    without it, no tile there is an evaluation error."""


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[Param, ...]
    returns: Type
    doc: str
    run: Callable[..., Any] = field(repr=False, compare=False)
    example: str = ""

    @property
    def signature(self) -> str:
        """``count(collection of X, each: bool = true) -> int``, for people."""
        parts = []
        for p in self.params:
            text = f"{p.name}: {'each ' if p.each else ''}{p.type}"
            if p.default is not REQUIRED:
                text += f" = {_show_default(p.default)}"
            parts.append(text)
        return f"{self.name}({', '.join(parts)}) -> {self.returns}"


def _show_default(value: Any) -> str:
    if value is True or value is False:
        return str(value).lower()
    return "it" if value is IDENTITY else str(value)


IDENTITY = object()
"""Default of a per-element parameter meaning the element itself (``sum(1..3)``)."""


# Values: seats and tiles are ints, suits ints (0 for the first suit), kinds and hand
# types strings, collections tuples (when elements may repeat) or frozensets.


def _seat(role: str, what: str) -> Callable[[Situation], int]:
    def read(s: Situation) -> int:
        value = getattr(s, role)
        if value is None:
            raise EvaluationError(f"{role} has no value here: {what}", 0, 0)
        return value

    return read


def _tile(s: Situation) -> int:
    if s.tile is None:
        raise EvaluationError("tile has no value here: no tile is being considered", 0, 0)
    return s.tile


def _win_tile(s: Situation) -> int:
    if s.win_tile is None:
        raise EvaluationError("win_tile has no value here: the winning tile is not known", 0, 0)
    return s.win_tile


def _flag(name: str) -> Callable[[Situation], bool]:
    return lambda s: getattr(s, name)


# Groups of names, by what they describe.

CONSTANTS = (
    NameEntry(
        "chow", KIND, "the kind of a run of three (吃, 顺子)", lambda s: "chow", constant=True
    ),
    NameEntry(
        "pung", KIND, "the kind of three of a kind (碰, 刻子)", lambda s: "pung", constant=True
    ),
    NameEntry("kong", KIND, "the kind of four of a kind (杠)", lambda s: "kong", constant=True),
    NameEntry(
        "nobody",
        SEAT,
        "no seat: the value of a role nobody holds (a bird on no one, no last-tile taker)",
        lambda s: NOBODY,
        constant=True,
    ),
)

GAME = (
    NameEntry("players", INT, "number of players in the game", lambda s: s.players),
    NameEntry("dealer", SEAT, "the dealer's seat (庄家)", lambda s: s.dealer),
    NameEntry(
        "dealers",
        collection(SEAT),
        "every seat that deals this hand: the dealer, and more where several do (通庄)",
        lambda s: s.dealers,
    ),
)

WINNER = (NameEntry("winner", SEAT, "the seat of the player who won", lambda s: s.winner),)
DISCARDER = (
    NameEntry(
        "discarder",
        SEAT,
        "the seat whose discard (or robbed kong) was won on (点炮)",
        _seat("discarder", "the win was self-drawn"),
    ),
)
WINNERS = (
    NameEntry(
        "winners",
        collection(SEAT),
        "every seat that won on this tile (一炮多响)",
        lambda s: s.winners,
    ),
)
IN_PLAY = (
    NameEntry(
        "players_in_game",
        collection(SEAT),
        "seats still playing (all, unless winners leave the hand)",
        lambda s: s.players_in_game,
    ),
    NameEntry(
        "others",
        collection(SEAT),
        "seats still playing other than the winner",
        lambda s: s.players_in_game - {s.winner},
    ),
)
WIN_SEATS = WINNER + DISCARDER + WINNERS + IN_PLAY

IN_GAME = (
    NameEntry(
        "players_in_game", collection(SEAT), "seats still playing", lambda s: s.players_in_game
    ),
)

HOW_WON = (
    NameEntry("self_draw", BOOL, "won on the player's own draw (自摸)", _flag("self_draw")),
    NameEntry(
        "kong_draw",
        BOOL,
        "won on the replacement draw after a kong (杠上), by a replacement counting as a kong",
        _flag("kong_draw"),
    ),
    NameEntry(
        "kong_discard",
        BOOL,
        "won on a discard made right after such a kong draw",
        _flag("kong_discard"),
    ),
    NameEntry(
        "robbing_kong",
        BOOL,
        "won on the tile of a kong being made (抢杠), by a replacement counting as a kong",
        _flag("robbing_kong"),
    ),
    NameEntry("last_tile", BOOL, "won on the last tile of the wall (海底)", _flag("last_tile")),
    NameEntry(
        "first_turn", BOOL, "won in the first go-around, before any claim", _flag("first_turn")
    ),
    NameEntry("opening", BOOL, "the hand is judged as dealt, before play (起手)", _flag("opening")),
    NameEntry("win_tile", TILE, "the tile that completed the hand", _win_tile),
    NameEntry(
        "winning_tiles",
        INT,
        "how many tiles won at once: 2 when both tiles of a kong draw, of a joint claim round "
        "or of a 海底 taken whole complete the hand",
        lambda s: s.winning_tiles,
    ),
)

WILD_COUNT = (
    NameEntry(
        "wilds",
        INT,
        "how many wild tiles (癞子, tiles.wilds) the hand holds, melds included; the other "
        "names of the hand's tiles leave them out",
        lambda s: s.wilds,
    ),
)

HAND_SHAPE = (
    NameEntry(
        "tiles",
        collection(TILE),
        "every tile of the hand, melds included (a kong gives 4)",
        lambda s: s.all_tiles,
    ),
    NameEntry(
        "concealed",
        collection(TILE),
        "the concealed tiles, with the winning tile",
        lambda s: s.concealed_tiles,
    ),
    NameEntry(
        "distinct_tiles",
        collection(TILE),
        "each different tile of the hand once",
        lambda s: s.distinct_tiles,
    ),
    NameEntry(
        "melds",
        collection(MELD),
        "the declared melds: claimed ones and declared kongs",
        lambda s: s.melds,
    ),
    NameEntry("kongs", collection(MELD), "the declared kongs, concealed or not", lambda s: s.kongs),
    NameEntry("suits", collection(SUIT), "the suits present in the hand", lambda s: s.suits),
    *WILD_COUNT,
    NameEntry(
        "roots",
        collection(TILE),
        "tiles held four times, declared as kong or not (根)",
        lambda s: s.roots,
    ),
    NameEntry(
        "undeclared_roots",
        collection(TILE),
        "tiles held four times and not declared",
        lambda s: s.undeclared_roots,
    ),
)


def _waits(s: Situation) -> tuple[int, ...]:
    core = hand_core()
    keys, wilds = core.without_wilds(s.without_win_tile(), s.tileset)
    return tuple(core.waits(keys, "quads", s.tileset.copies, wilds=wilds))


_WAIT_DOCS = {
    "single": "the wait on the pair's tile (单钓)",
    "closed": "the wait on the middle of a run (卡张)",
    "edge": "the wait on the 3 of 12 or the 7 of 89 (边张)",
    "two_pairs": "the wait on either of two pairs, the winning tile making a pung (对倒)",
    "open": "the wait on either end of a two-sided run (两面)",
}
WAITS = (
    NameEntry(
        "waits",
        collection(TILE),
        "the tiles the hand waited on before the winning tile (听)",
        _waits,
    ),
    NameEntry(
        "wait_shapes",
        collection(WAIT),
        "the shapes the winning tile completes, in every reading as melds and a pair",
        lambda s: s.wait_shapes,
    ),
    *(NameEntry(shape, WAIT, _WAIT_DOCS[shape], lambda s, w=shape: w) for shape in WAIT_SHAPES),
)

PAYER = (
    NameEntry(
        "payer",
        SEAT,
        "the seat paying in the payment being worked out",
        _seat("payer", "no payment is being worked out"),
    ),
)

FOUND = (
    NameEntry(
        "hands", collection(HAND), "the hand types found in this win", lambda s: frozenset(s.hands)
    ),
    NameEntry(
        "value",
        INT,
        "the combined value of the hand types found (after modifiers)",
        lambda s: s.value,
    ),
)

BIRD = (NameEntry("tile", TILE, "the bird tile being counted (扎鸟)", _tile),)
BIRD_TILES = (
    NameEntry(
        "bird_tiles",
        collection(TILE),
        "the bird tiles counted for this win (扎鸟), in the order drawn",
        lambda s: s.bird_tiles,
    ),
)

TABLE = (
    NameEntry(
        "kong_provider",
        SEAT,
        "the seat whose discard made the kong whose replacement draw (or the discard after "
        "it) is won on (点杠); nobody otherwise",
        lambda s: s.kong_provider,
    ),
    NameEntry(
        "last_tile_taker",
        SEAT,
        "the seat that took the last tile of the wall (海底), by a draw or a kong's "
        "replacement; nobody if none did",
        lambda s: s.last_tile_taker,
    ),
    NameEntry(
        "last_tile_offered",
        SEAT,
        "the first seat whose turn it was to take the last tile (海底); nobody if none",
        lambda s: s.last_tile_offered,
    ),
)
NEXT_DEALER = (
    NameEntry(
        "self_draw",
        BOOL,
        "the hand's first win was self-drawn (自摸); false when nobody won",
        _flag("self_draw"),
    ),
    NameEntry(
        "first_dealer",
        SEAT,
        "the seat that dealt the first hand of the match (the room's creator, ...)",
        lambda s: s.first_dealer,
    ),
    NameEntry(
        "dice",
        INT,
        "the total of two dice thrown as the next dealer is chosen, 2 to 12",
        lambda s: s.dice,
    ),
    NameEntry(
        "opening_winners",
        collection(SEAT),
        "the seats that held an opening hand (起手胡) this hand",
        lambda s: s.opening_winners,
    ),
    NameEntry(
        "opening_bird_seats",
        collection(SEAT),
        "the seats the birds of this hand's opening hands pointed at",
        lambda s: s.opening_bird_seats,
    ),
)
READY = (
    NameEntry(
        "ready_seats",
        collection(SEAT),
        "seats still playing whose hand is ready (听) when the wall runs out or a seat leaves",
        lambda s: s.ready,
    ),
)

CLAIM = (
    NameEntry("claimer", SEAT, "the seat making the claim", _seat("claimer", "no claim")),
    NameEntry(
        "discarder", SEAT, "the seat whose discard is claimed", _seat("discarder", "no discard")
    ),
    NameEntry("tile", TILE, "the discarded tile being claimed", _tile),
)

KONG = (
    NameEntry("kong_seat", SEAT, "the seat that made the kong", _seat("kong_seat", "no kong")),
    NameEntry(
        "provider",
        SEAT,
        "the seat whose discard the kong took (引杠者)",
        _seat("provider", "the kong took no discard"),
    ),
)
OWN_KONG = (
    NameEntry(
        "kong_from_draw",
        BOOL,
        "the kong was made with the tile just drawn (摸杠), not with tiles held since "
        "earlier (回头杠)",
        _flag("kong_from_draw"),
    ),
)

SETTLEMENT = (NameEntry("payee", SEAT, "the seat being paid", _seat("payee", "no payment")),)
POT_SEAT = (
    NameEntry(
        "pot",
        SEAT,
        "the pot, as a payee: what is paid into it leaves the players (a penalty nobody "
        "receives); no seat",
        lambda s: POT,
    ),
)
FALSE_CLAIM = (
    NameEntry(
        "claimer",
        SEAT,
        "the seat that claimed a win its hand does not make (诈胡)",
        _seat("claimer", "no win was claimed"),
    ),
)
LEAVER = (
    NameEntry(
        "leaver",
        SEAT,
        "the seat that left the hand before its end (逃跑)",
        lambda s: _settling(s, "leaver"),
    ),
    NameEntry(
        "wall_left",
        INT,
        "the tiles left to draw in the wall when the seat left",
        lambda s: _settling(s, "wall_left"),
    ),
)

KONG_KINDS = ("exposed", "added", "concealed")
KONG_MADE = (
    *KONG,
    *OWN_KONG,
    NameEntry(
        "kong_kind",
        Type("kong kind", values=KONG_KINDS),
        "which kong: on a discard (exposed), a pung plus the fourth (added), four concealed",
        lambda s: _settling(s, "kong_kind"),
    ),
)


def _settling(s: Situation, name: str) -> Any:
    found = (s.settling or {}).get(name)
    if found is None:
        raise EvaluationError(f"{name} has no value here", 0, 0)
    return found


def _earlier(index: int) -> Callable[[Situation], Any]:
    def read(s: Situation) -> Any:
        if (s.settling or {}).get("earlier") is None:
            raise EvaluationError("no earlier payment here: the rule has no 'over'", 0, 0)
        return s.settling["earlier"][index]

    return read


EARLIER = (
    NameEntry("paid_by", SEAT, "who made the earlier payment taken up ('over')", _earlier(0)),
    NameEntry("paid_to", SEAT, "who received the earlier payment taken up", _earlier(1)),
    NameEntry("paid_amount", INT, "the amount of the earlier payment taken up", _earlier(2)),
    NameEntry(
        "paid_at_last_kong",
        BOOL,
        "the earlier payment taken up was made at the hand's last kong (on 杠上炮: the kong "
        "just made, 刚才所杠)",
        _earlier(3),
    ),
)

AMOUNT = (
    NameEntry(
        "amount",
        INT,
        "the payment's amount before this adjustment",
        lambda s: _settling(s, "amount"),
    ),
)

OPENING_HELD = (
    NameEntry(
        "opening_winners",
        collection(SEAT),
        "after the deal: the seats whose dealt tiles hold an opening hand (起手胡), before "
        "they declare it",
        lambda s: s.opening_winners,
    ),
)
CHOOSER = (
    NameEntry("seat", SEAT, "the seat choosing or declaring", _seat("seat", "no seat is choosing")),
)
DECLARED = (NameEntry("tile", TILE, "the tile just drawn or konged", _tile),)
MISSED = (
    NameEntry(
        "missed_tiles",
        collection(TILE),
        "the tiles the player passed a win on while its missed-win lock lasts (过水)",
        lambda s: s.missed_tiles,
    ),
    NameEntry(
        "missed_value",
        INT,
        "the highest value of the wins it passed while its lock lasts",
        lambda s: s.missed_value,
    ),
)

STACKS = (
    NameEntry("stacks", INT, "stacks left in the wall, counted from its tail", lambda s: s.stacks),
)


def _named(entries: Iterable[NameEntry], *names: str) -> tuple[NameEntry, ...]:
    return tuple(e for e in entries if e.name in names)


HONOURS_FROM = len(STANDARD.suits) * RANKS
"""The first tile that is not in a suit: every ruleset lays its suits out as 万 筒 条."""

ATTRIBUTES = (
    AttributeEntry(TILE, "rank", INT, "the rank, 1 to 9", lambda t, s: t % RANKS + 1),
    AttributeEntry(TILE, "suit", SUIT, "the suit", lambda t, s: t // RANKS),
    AttributeEntry(
        TILE,
        "honour",
        BOOL,
        "whether it is an honour (字牌: 1z-7z, 东南西北中发白)",
        lambda t, s: t >= HONOURS_FROM,
    ),
    AttributeEntry(MELD, "kind", KIND, "chow, pung or kong", lambda m, s: m.kind),
    AttributeEntry(MELD, "tile", TILE, "the lowest tile of the meld", lambda m, s: m.tile),
    AttributeEntry(
        MELD, "rank", INT, "the rank of its lowest tile", lambda m, s: m.tile % RANKS + 1
    ),
    AttributeEntry(MELD, "suit", SUIT, "the suit of the meld", lambda m, s: m.tile // RANKS),
    AttributeEntry(
        MELD,
        "concealed",
        BOOL,
        "formed in the hand or a concealed kong (暗)",
        lambda m, s: m.concealed,
    ),
    AttributeEntry(
        HAND,
        "value",
        INT,
        "the value the hand type was given (0 if not found)",
        lambda h, s: s.hands.get(h, 0),
        situational=True,
    ),
)


# Functions.  ``run`` receives the situation, then the arguments in parameter order;
# an ``each`` argument arrives as a callable of one element.


def _all(s: Situation, items: Iterable, test: Callable) -> bool:
    return all(test(x) for x in items)


def _any(s: Situation, items: Iterable, test: Callable) -> bool:
    return any(test(x) for x in items)


def _count(s: Situation, items: Iterable, test: Callable) -> int:
    return sum(1 for x in items if test(x))


def _sum(s: Situation, items: Iterable, value: Callable) -> int:
    return sum(value(x) for x in items)


def _product(s: Situation, items: Iterable, value: Callable) -> int:
    result = 1
    for x in items:
        result *= value(x)
        if not -LIMIT <= result <= LIMIT:
            raise EvaluationError("number out of bounds (more than 2**62) in product", 0, 0)
    return result


def _min(s: Situation, items: Iterable, value: Callable) -> int:
    return min((value(x) for x in items), default=0)


def _max(s: Situation, items: Iterable, value: Callable) -> int:
    return max((value(x) for x in items), default=0)


def _standard(s: Situation, pair: Callable, melds: Callable, substitutes: bool) -> bool:
    keys, wilds = s.bare if substitutes else (s.keys, 0)
    if wilds:
        return any(pair(split.pair) and all(melds(m) for m in split.melds) for split in s.splits)
    # A wild-free reading is one reading of each block (``block_readings``), so some reading
    # passes when every block has one that passes: each block is tried alone, not every
    # combination of them.
    if not hand_core().is_complete(keys) or not all(melds(m) for m in s.melds):
        return False
    tests = (pair.test, melds.test)
    if None in tests:  # a test reading more than its element: asked anew
        return all(_block_passes(pair, melds, b, key) for b, key in enumerate(keys) if key)
    for b, key in enumerate(keys):
        if key:
            memo = (tests, b, key)
            found = _BLOCKS_PASSING.get(memo)
            if found is None:
                if len(_BLOCKS_PASSING) > 100_000:
                    _BLOCKS_PASSING.clear()
                found = _BLOCKS_PASSING[memo] = _block_passes(pair, melds, b, key)
            if not found:
                return False
    return True


_BLOCKS_PASSING: dict[tuple[Any, int, int], bool] = {}
"""Whether a block of tiles has a reading passing ``standard``'s tests, for tests that read
their element alone (``test`` of an ``each`` argument): the same blocks recur in many hands."""


def _block_passes(pair: Callable, melds: Callable, block: int, key: int) -> bool:
    return any(
        (p < 0 or pair(p)) and all(melds(m) for m in ms) for p, ms in block_readings(block, key)
    )


def _seven_pairs(s: Situation, quads: bool, substitutes: bool) -> bool:
    form = "quads" if quads else "distinct"
    keys, wilds = s.bare if substitutes else (s.keys, 0)
    return not s.melds and hand_core().seven_pairs(keys, form, wilds) is not None


def _held(s: Situation, tile: int) -> int:
    return s.held.get(tile, 0)


def _visible(s: Situation, tile: int) -> int:
    return s.visible.get(tile, 0)


def _hits(s: Situation, seat: int) -> int:
    return s.bird_hits.get(seat, 0)


_ITEMS = Param("collection", collection(ELEMENT), "the collection")
_TRUE = dict(default=True, each=True)

GENERIC_FUNCTIONS = (
    Function(
        "all",
        (_ITEMS, Param("test", BOOL, "the condition on each element", each=True)),
        BOOL,
        "whether every element passes the test (true when empty)",
        _all,
        "all(tiles, rank in {2, 5, 8})",
    ),
    Function(
        "any",
        (_ITEMS, Param("test", BOOL, "the condition on each element", each=True)),
        BOOL,
        "whether some element passes the test",
        _any,
        "any(melds, kind == kong)",
    ),
    Function(
        "count",
        (_ITEMS, Param("test", BOOL, "the condition on each element", **_TRUE)),
        INT,
        "how many elements pass the test (all of them without one)",
        _count,
        "count(tiles, rank == 5)",
    ),
    Function(
        "sum",
        (_ITEMS, Param("value", INT, "the number for each element", default=IDENTITY, each=True)),
        INT,
        "the sum over the elements",
        _sum,
        "sum(hands, value)",
    ),
    Function(
        "product",
        (_ITEMS, Param("value", INT, "the number for each element", default=IDENTITY, each=True)),
        INT,
        "the product over the elements (1 when empty)",
        _product,
        "product(melds, if kind == kong then 2 else 1)",
    ),
    Function(
        "min",
        (_ITEMS, Param("value", INT, "the number for each element", default=IDENTITY, each=True)),
        INT,
        "the least value over the elements (0 when empty)",
        _min,
        "min(tiles, rank)",
    ),
    Function(
        "max",
        (_ITEMS, Param("value", INT, "the number for each element", default=IDENTITY, each=True)),
        INT,
        "the greatest value over the elements (0 when empty)",
        _max,
        "max(hands, value)",
    ),
)

_SUBSTITUTES = Param(
    "substitutes",
    BOOL,
    "whether a wild may stand for another tile (false: every wild is read as itself, 硬)",
    default=True,
)

HAND_FUNCTIONS = (
    Function(
        "standard",
        (
            Param("pair", BOOL, "the condition on the pair's tile", subject=TILE, **_TRUE),
            Param(
                "melds",
                BOOL,
                "the condition on every meld, declared ones included",
                subject=MELD,
                **_TRUE,
            ),
            _SUBSTITUTES,
        ),
        BOOL,
        "whether the hand splits into melds and a pair, in some way passing both conditions",
        _standard,
        "standard(pair: rank in {2, 5, 8})",
    ),
    Function(
        "seven_pairs",
        (
            Param("quads", BOOL, "whether four of a kind may count as two pairs", default=True),
            _SUBSTITUTES,
        ),
        BOOL,
        "whether the concealed hand is seven pairs (no melds)",
        _seven_pairs,
        "seven_pairs(quads: false)",
    ),
    Function(
        "held",
        (Param("tile", TILE, "a tile", no_tile=0),),
        INT,
        "how many copies of the tile the hand holds, melds included (0 of no tile: held(9m + 1))",
        _held,
        "held(5m) == 4",
    ),
    Function(
        "visible",
        (Param("tile", TILE, "a tile"),),
        INT,
        "how many copies of the tile lie face up on the table (discards, exposed melds, "
        "shown kongs), the winning tile left out",
        _visible,
        "visible(win_tile) == 3",
    ),
)


HAND_ONLY = frozenset(
    e.name
    for e in (*CONSTANTS, *HAND_SHAPE, *WAITS, *GENERIC_FUNCTIONS, *HAND_FUNCTIONS)
    if e.name != "visible"
) | {"win_tile"}
"""Names whose values are fixed by the hand (its tiles, melds and winning tile) alone."""


def _seats_where(s: Situation, seats: Iterable[int], test: Callable) -> frozenset[int]:
    return frozenset(seat for seat in seats if test(seat))


def _table(s: Situation) -> Any:
    if (s.settling or {}).get("table") is None:
        raise EvaluationError("the hands of the players still in are not known here", 0, 0)
    return s.settling["table"]


PAYMENT_FUNCTIONS = (
    Function(
        "seats_where",
        (
            Param("seats", collection(SEAT), "the seats"),
            Param("test", BOOL, "the condition on each seat", each=True, subject=SEAT),
        ),
        collection(SEAT),
        "the seats that pass the test",
        _seats_where,
        "seats_where(players_in_game, not ready(it))",
    ),
)

TABLE_FUNCTIONS = (
    Function(
        "ready",
        (Param("seat", SEAT, "a seat still in"),),
        BOOL,
        "whether the seat's hand would win with one more tile (听牌)",
        lambda s, seat: _table(s).ready(seat),
        "ready(payee)",
    ),
    Function(
        "suits_of",
        (Param("seat", SEAT, "a seat still in"),),
        collection(SUIT),
        "the suits among the seat's tiles, melds included",
        lambda s, seat: _table(s).suits(seat),
        "count(suits_of(payer)) == 3",
    ),
    Function(
        "most_win",
        (Param("seat", SEAT, "a seat still in"),),
        INT,
        "the most the payer would pay the seat for a win on one of the tiles it waits on, "
        "discarded by the payer (0: not ready)",
        lambda s, seat: _table(s).win_amount(seat, s.payer, max),
        "most_win(payee)",
    ),
    Function(
        "least_win",
        (Param("seat", SEAT, "a seat still in"),),
        INT,
        "the least such amount (0: not ready)",
        lambda s, seat: _table(s).win_amount(seat, s.payer, min),
        "least_win(payee)",
    ),
)

SCORING_FUNCTIONS = (
    Function(
        "hits",
        (Param("seat", SEAT, "a seat"),),
        INT,
        "how many birds hit the seat (中鸟)",
        _hits,
        "2 ** hits(payer)",
    ),
)


@dataclass(frozen=True)
class Section:
    """What one part of a ruleset may use."""

    names: tuple[NameEntry, ...]
    functions: tuple[Function, ...]
    hand_types: bool = False
    doc: str = ""


_WIN = CONSTANTS + GAME + WIN_SEATS + HOW_WON + HAND_SHAPE + WAITS
_ON_HAND = GENERIC_FUNCTIONS + HAND_FUNCTIONS
_DEALT = CONSTANTS + GAME + WINNER + IN_PLAY + HAND_SHAPE
"""An opening hand: the seat holding it is the winner; no discard, no winning tile."""
_BEFORE_BIRDS = CONSTANTS + GAME + WINNER + DISCARDER
"""Before the birds are drawn: the seats of the first win, and nothing of its hand."""
_LAST_TILE = tuple(e for e in HOW_WON if e.name == "last_tile")
_BIRD_WIN_TILE = (
    NameEntry(
        "win_tile",
        TILE,
        "the first winning tile of the win the birds are for (none for an opening hand)",
        _win_tile,
    ),
)

# A section is a moment of the game: the names it offers are the ones that have a value
# whenever its fields are evaluated (``discarder`` on a self-drawn win aside, which the
# rule guards itself).  A field is compiled against exactly one section.
SECTIONS: Mapping[str, Section] = {
    "options": Section(
        CONSTANTS,
        GENERIC_FUNCTIONS,
        doc="decided once, when the ruleset is loaded: the options only",
    ),
    "game": Section(
        CONSTANTS + GAME,
        GENERIC_FUNCTIONS,
        doc="the players and the deal: options and the dealer only",
    ),
    "claims": Section(
        CONSTANTS + GAME + IN_GAME + CLAIM,
        GENERIC_FUNCTIONS,
        doc="whether a claim on a discard is allowed",
    ),
    "dealer": Section(
        CONSTANTS + GAME + WINNER + DISCARDER + WINNERS + NEXT_DEALER + TABLE,
        GENERIC_FUNCTIONS,
        doc="who deals the next hand: the seats of the hand's first win, if any",
    ),
    "opening_hands": Section(
        _DEALT, _ON_HAND, doc="an opening hand type (起手胡): the dealt tiles, before birds"
    ),
    "opening_payment": Section(
        _DEALT + PAYER + BIRD_TILES,
        _ON_HAND + SCORING_FUNCTIONS,
        doc="what each payer pays for an opening hand, once its birds are known",
    ),
    "hands": Section(_WIN, _ON_HAND, doc="what each hand type is (`when`) and worth (`value`)"),
    "scoring": Section(
        _WIN + FOUND,
        _ON_HAND,
        hand_types=True,
        doc="how the values of the hand types found become points",
    ),
    "payers": Section(
        _WIN + FOUND + BIRD_TILES + TABLE,
        _ON_HAND + SCORING_FUNCTIONS,
        hand_types=True,
        doc="who pays a win, once the hand types are found (before any one payer)",
    ),
    "payment": Section(
        _WIN + PAYER + FOUND + BIRD_TILES + TABLE,
        _ON_HAND + SCORING_FUNCTIONS,
        hand_types=True,
        doc="how much one payer pays, once the hand types are found",
    ),
    "bird_count": Section(
        _BEFORE_BIRDS + _BIRD_WIN_TILE + _LAST_TILE + WILD_COUNT,
        GENERIC_FUNCTIONS,
        doc="how many birds and where from, before they are drawn (wilds: the first winner's)",
    ),
    "bird_seat": Section(
        _BEFORE_BIRDS + _BIRD_WIN_TILE + WILD_COUNT + BIRD,
        GENERIC_FUNCTIONS,
        doc="which seat one bird tile points at",
    ),
    "bird_multiplier": Section(
        CONSTANTS + GAME + WIN_SEATS + HOW_WON + PAYER + FOUND + BIRD_TILES + TABLE,
        GENERIC_FUNCTIONS + SCORING_FUNCTIONS,
        hand_types=True,
        doc="what the birds do to one payer's payment (for a win or an opening hand)",
    ),
    **{
        f"payments_{moment}{part}": Section(
            names + POT_SEAT + (PAYER + SETTLEMENT if part else ()),
            functions,
            hand_types=moment == "win",
            doc=f"{doc}: {'one payment, payer and payee known' if part else 'who pays whom'}",
        )
        for moment, names, functions, doc in (
            (
                "win",
                _WIN + FOUND + BIRD_TILES + TABLE + EARLIER,
                _ON_HAND + SCORING_FUNCTIONS + PAYMENT_FUNCTIONS,
                "a payment rule at a win, its hand types found",
            ),
            (
                "kong",
                CONSTANTS + GAME + IN_GAME + KONG_MADE,
                GENERIC_FUNCTIONS + PAYMENT_FUNCTIONS,
                "a payment rule at a kong",
            ),
            (
                "opening_hand",
                _DEALT,
                _ON_HAND + SCORING_FUNCTIONS + PAYMENT_FUNCTIONS,
                "a payment rule at an opening hand",
            ),
            (
                "declaration",
                CONSTANTS + GAME + IN_GAME + CHOOSER + DECLARED + HAND_SHAPE,
                _ON_HAND + PAYMENT_FUNCTIONS,
                "a payment rule at a hand declared during play",
            ),
            (
                "false_win",
                CONSTANTS + GAME + IN_GAME + FALSE_CLAIM + EARLIER,
                GENERIC_FUNCTIONS + PAYMENT_FUNCTIONS,
                "a payment rule when a seat claims a win its hand does not make (诈胡)",
            ),
            (
                "escape",
                CONSTANTS + GAME + IN_GAME + READY + LEAVER + EARLIER,
                GENERIC_FUNCTIONS + PAYMENT_FUNCTIONS + TABLE_FUNCTIONS,
                "a payment rule when a seat leaves the hand before its end (逃跑)",
            ),
            (
                "wall_end",
                CONSTANTS + GAME + IN_GAME + READY + EARLIER,
                GENERIC_FUNCTIONS + PAYMENT_FUNCTIONS + TABLE_FUNCTIONS,
                "a payment rule when the wall runs out with players still in",
            ),
            (
                "hand_end",
                CONSTANTS + GAME + IN_GAME + WINNERS,
                GENERIC_FUNCTIONS + PAYMENT_FUNCTIONS,
                "a payment rule when the hand ends",
            ),
        )
        for part in ("", "_each")
    },
    "adjustment": Section(
        CONSTANTS + GAME + IN_GAME + PAYER + SETTLEMENT + AMOUNT,
        GENERIC_FUNCTIONS,
        doc="an adjustment to one payment (a stake, a cap): payer, payee, amount known",
    ),
    # Choices and declarations: the hand names describe the chooser's concealed tiles (none
    # before the deal), or in ``choice_tiles`` the tiles chosen.
    "choices": Section(
        CONSTANTS + GAME + IN_GAME + CHOOSER + OPENING_HELD + HAND_SHAPE,
        _ON_HAND,
        doc="a choice every player makes at once (飘, 定缺 ...): its values, who is asked, "
        "its default; the hand is the chooser's concealed tiles",
    ),
    "choice_tiles": Section(
        CONSTANTS + GAME + CHOOSER + HAND_SHAPE,
        _ON_HAND,
        doc="the condition on a set of tiles chosen (换三张): the hand is the tiles chosen",
    ),
    "declarations": Section(
        CONSTANTS + GAME + IN_GAME + CHOOSER + DECLARED + HAND_SHAPE,
        _ON_HAND,
        doc="a hand declared during play (中途): the declaring seat's hand after a draw or a kong",
    ),
    "declaration_payment": Section(
        CONSTANTS + GAME + IN_GAME + CHOOSER + DECLARED + HAND_SHAPE + PAYER,
        _ON_HAND,
        doc="what each payer pays for a declared hand",
    ),
    "missed_win": Section(
        _BEFORE_BIRDS + _named(HOW_WON, "win_tile") + FOUND + MISSED,
        GENERIC_FUNCTIONS,
        hand_types=True,
        doc="whether a player who passed a win may not win on this discard (过水)",
    ),
    "game_end": Section(
        CONSTANTS + GAME + WIN_SEATS,
        GENERIC_FUNCTIONS,
        doc="after a win: whether the winners leave the hand, and whether it ends",
    ),
    "kong_dice": Section(
        CONSTANTS + GAME + KONG[:1] + STACKS,
        GENERIC_FUNCTIONS,
        doc="how many dice count the stack a kong's replacement is drawn from",
    ),
}

CHOICE_PREFIX = "choice."
"""A choice is read as a call ``choice.NAME(seat)``, a function of every section."""


def choice_function(name: str, kind: Type, default: Callable[[Situation], Any] | None) -> Function:
    """``choice.NAME(seat)``: the value ``seat`` chose, of type ``kind``; before the choice
    is made (or where nobody made it: a scenario file), the choice's ``default`` for the seat."""

    def read(s: Situation, seat: int) -> Any:
        if not 0 <= seat < s.players:
            raise EvaluationError(f"choice.{name} of no seat ({seat}): nobody or the pot", 0, 0)
        values = s.choices.get(name)
        if values is not None:
            return values[seat]
        if default is None:
            raise EvaluationError(
                f"choice {name!r} has no value here: it is not made, and has no default", 0, 0
            )
        value = default(
            Situation(keys=s.keys, seat=seat, dealer=s.dealer, players=s.players,
                      options=s.options)
        )  # fmt: skip
        return tuple(sorted(value)) if isinstance(value, frozenset | tuple) else value

    return Function(
        CHOICE_PREFIX + name,
        (Param("seat", SEAT, "a seat"),),
        kind,
        f"the value the seat chose for {name}",
        read,
        f"choice.{name}(payer)",
    )


OptionSpec = Any
"""An option's type: ``"int"``, ``"bool"``, a :class:`Type`, its allowed names, or any
object with ``type`` ("int", "bool" or "choice") and ``allowed`` (the names of a choice)."""


def option_type(name: str, spec: OptionSpec) -> Type:
    if isinstance(spec, Type):
        return spec
    declared = getattr(spec, "type", None)
    if isinstance(declared, str):
        spec = tuple(getattr(spec, "allowed", ())) if declared == "choice" else declared
    if isinstance(spec, str):
        found = parse_type(spec)
        if found not in (INT, BOOL):
            raise ValueError(f"option {name!r}: an option is int, bool or a list of names")
        return found
    values = tuple(spec)
    if not values or not all(isinstance(v, str) for v in values):
        raise ValueError(f"option {name!r}: named values must be a non-empty list of text")
    return enum(name, values)


@dataclass(frozen=True)
class Scope:
    """The names, functions, options and hand types one ruleset section may use.

    ``subjects`` is the stack of implicit subjects while the compiler checks a condition
    inside ``all(...)``, ``standard(pair: ...)``...; it is empty for a section's scope.
    """

    section: str
    names: Mapping[str, NameEntry]
    functions: Mapping[str, Function]
    options: Mapping[str, Type]
    tileset: TileSet = STANDARD
    subjects: tuple[Type, ...] = ()

    @classmethod
    def for_section(
        cls,
        section: str,
        *,
        options: Mapping[str, OptionSpec] | None = None,
        hands: Mapping[str, str] | Iterable[str] = (),
        classes: Iterable[str] = (),
        tileset: TileSet = STANDARD,
        choices: Mapping[str, tuple[Type, Any]] | None = None,
    ) -> Scope:
        """The scope of ``section`` (one of ``SECTIONS``).

        ``options`` maps each declared option to its type (see ``option_type``).
        ``hands`` names the hand types the ruleset defines, best as a mapping to their
        class (``{"xiaohu": "small"}``); ``classes`` names more classes.  In sections that
        see hand types, each hand name is a value of type hand and each class name the
        collection of found hand types of that class (the class of a hand type comes from
        ``hands`` when it is a mapping, else from the situation's ``hand_classes``).
        A hand or class name that is already a vocabulary name is a ``ValueError``.
        ``choices`` maps each declared choice to the type of its value and its compiled
        default (or None), for ``choice.NAME(seat)``.
        """
        if section not in SECTIONS:
            raise ValueError(f"unknown section {section!r}; sections are {', '.join(SECTIONS)}")
        chosen = SECTIONS[section]
        names = {entry.name: entry for entry in chosen.names}
        if chosen.hand_types:
            for entry in _hand_type_names(hands, classes):
                if entry.name in names or entry.name in ("it", "option"):
                    raise ValueError(f"hand type or class {entry.name!r} is a vocabulary name")
                names[entry.name] = entry
        declared = {name: option_type(name, spec) for name, spec in (options or {}).items()}
        functions = {f.name: f for f in chosen.functions}
        for name, (kind, default) in (choices or {}).items():
            functions[CHOICE_PREFIX + name] = choice_function(name, kind, default)
        return cls(section, names, functions, declared, tileset)

    def attributes(self, owner: Type) -> Mapping[str, AttributeEntry]:
        return ATTRIBUTES_OF.get(owner, {})


ATTRIBUTES_OF: Mapping[Type, Mapping[str, AttributeEntry]] = {
    owner: {a.name: a for a in ATTRIBUTES if a.owner == owner}
    for owner in {a.owner for a in ATTRIBUTES}
}


def _hand_type_names(
    hands: Mapping[str, str] | Iterable[str], classes: Iterable[str]
) -> list[NameEntry]:
    class_of = dict(hands) if isinstance(hands, Mapping) else dict.fromkeys(hands, "")
    kinds = sorted({*classes, *class_of.values()} - {""})
    both = set(class_of) & set(kinds)
    if both:
        raise ValueError(f"names used both as hand type and class: {', '.join(sorted(both))}")
    entries = [
        NameEntry(name, HAND, f"the hand type {name}", lambda s, n=name: n) for name in class_of
    ]
    for kind in kinds:

        def found(s: Situation, kind: str = kind) -> frozenset[str]:
            return frozenset(
                h for h in s.hands if (class_of.get(h) or s.hand_classes.get(h)) == kind
            )

        entries.append(
            NameEntry(
                kind, collection(HAND), f"the hand types of class {kind} found in this win", found
            )
        )
    return entries
