"""What a bot reads from its observation, and what it learns once from the ruleset.

:class:`View` is one seat's picture of the table: its concealed tiles as per-suit keys,
its declared melds, and how many copies of each tile it can see elsewhere (discards,
exposed melds, kong tiles shown apart).  :class:`RuleFacts` is what a bot learns from
the ruleset by asking the engine's win test and the settlement engine: whether seven
pairs win (and whether a four-of-a-kind counts as two pairs), whether a win must lack a
suit, what share of complete hands it accepts at all, and what a finished hand is worth to
its winner.  No hand type is named here: a hand's worth is whatever the ruleset's
settlement pays for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from random import Random
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import HandMeld
from handcore import shapes
from handcore.discards import DiscardOption
from handcore.shapes import Keys, SevenPairsForm
from handcore.tiles import EVERY, RANKS, STANDARD, Tile, TileSet
from interpreter.context import build_situation
from interpreter.engine.actions import Action
from interpreter.engine.rules import Rules
from interpreter.hand_record import HandRecord, Kong
from interpreter.settle import SettlementError, settle
from interpreter.valuation import WinFacts, valuer

SUIT_LETTERS = tuple(s.letter for s in STANDARD.suits)


@cache
def _with_wilds(tileset: TileSet, wilds: tuple[Tile, ...]) -> TileSet:
    """The tile set with the wild tiles chosen at a hand's deal."""
    return replace(tileset, wilds=wilds)


def tileset_of(obs: Mapping[str, Any]) -> TileSet:
    """The tiles in play, as the observed ruleset declares them (the 108 without one)."""
    ruleset = obs.get("ruleset")
    return STANDARD if ruleset is None else ruleset.tileset


@cache
def parsed(text: str) -> tuple[Tile, ...]:
    """The tiles of a fixed hand in notation (a bot's probe), parsed once."""
    return tuple(EVERY.parse(text))


def on_table(text: str, tileset: TileSet, void: int | None = None) -> tuple[Tile, ...]:
    """A probe hand written in 万 and 筒 (m, p), moved onto the first two suits in play
    other than ``void``, so that the table can hold it (三人两房 plays without 万).  Left
    as written when fewer than two suits are left: no probe fits such a table."""
    tiles = parsed(text)
    into = [s for s in range(len(tileset.suits)) if s not in tileset.missing and s != void]
    if len(into) < 2 or into[:2] == [0, 1]:
        return tiles
    return tuple(into[t // RANKS] * RANKS + t % RANKS for t in tiles)


@cache
def _meld_tiles(kind: str, tile: Tile) -> tuple[Tile, ...]:
    """The tiles of a meld shown on the table (``HandMeld.tiles``), worked out once."""
    return HandMeld(kind, tile, False).tiles


@dataclass
class View:
    """One seat's picture of the table, from its observation."""

    seat: int
    counts: list[int]
    keys: Keys
    melds: tuple[HandMeld, ...]
    visible: list[int]
    """Copies of each tile seen outside the seat's concealed hand (its own melds included)."""
    wall: int
    players: int
    dealer: int
    in_game: tuple[bool, ...]
    void: int | None
    wilds: int = 0
    """The wild tiles (癞子) in the concealed hand: ``keys`` leave them out, as the shape
    functions take a hand (``wilds=``), and the discard tables never offer them."""
    wild_tiles: frozenset[Tile] = frozenset()

    @classmethod
    def of(cls, obs: dict[str, Any]) -> View:
        seat = obs["seat"]
        tileset = tileset_of(obs)
        found = obs.get("hand_keys")  # an engine's observation; one typed by hand has none
        if found is None:
            counts = tileset.counts(obs["hand"])
            found = shapes.keys_of_tiles(obs["hand"], tileset)
        else:
            counts = list(obs["hand_counts"])
        wilds = tuple(obs.get("wilds", ()))
        if wilds != tileset.wilds:
            tileset = _with_wilds(tileset, wilds)
        visible = [0] * tileset.kinds
        for tiles in obs["discards"]:
            for t in tiles:
                visible[t] += 1
        shown = obs["melds"]
        for seat_melds in shown:
            for kind, tile, _ in seat_melds:
                if tile >= 0:
                    for t in _meld_tiles(kind, tile):
                        visible[t] += 1
        for t in obs.get("kong_tiles", ()):
            visible[t] += 1
        for tiles in obs.get("won", ()):
            for t in tiles:
                visible[t] += 1
        melds = tuple(HandMeld(k, t, c) for k, t, c in shown[seat])
        keys, held = shapes.without_wilds(found, tileset)
        return cls(
            seat,
            counts,
            keys,
            melds,
            visible,
            obs["wall"],
            obs["players"],
            obs["dealer"],
            obs["in_game"],
            obs["void"][seat],
            held,
            frozenset(tileset.wilds),
        )

    def unseen(self, tile: Tile, copies: int = 4) -> int:
        """Copies of ``tile`` this seat has not seen: still in the wall or in others' hands."""
        return max(copies - self.counts[tile] - self.visible[tile], 0)

    def unseen_total(self) -> int:
        """Copies of every tile this seat has not seen (at least 1)."""
        seen = zip(self.counts, self.visible, strict=False)  # strict: slower here
        return max(sum(max(4 - n - v, 0) for n, v in seen), 1)

    def draws_left(self) -> float:
        """Draws this seat may still expect: its share of the wall."""
        return self.wall / max(sum(self.in_game), 1)


class RuleFacts:
    """What a bot learns from a ruleset, once (see :func:`facts`)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.rules = rules = Rules(ruleset)
        self.copies = rules.copies
        self.suits = rules.suits
        self.void_suit = rules.void_suit
        self.valuer = valuer(ruleset)
        self._win_facts: dict[tuple[Any, ...], WinFacts | None] = {}
        self._kong_paid: dict[tuple[Any, ...], float] = {}
        self.form: SevenPairsForm | None = None
        # Seven pairs in two suits (so that a void-suit rule is met), then with a quad.
        two_suits = "1133557799m2244p"
        if self._wins_shape(two_suits):
            self.form = "quads" if self._wins_shape("1111335577m2244p") else "distinct"
        self.win_share = self._win_share()
        """The share of complete hands (four melds and a pair) the ruleset accepts as a win on
        a discard: 1 when any does; less when, say, the pair must be of certain ranks.  A
        hand ready in shape is ready to win about this often."""

    def _win_share(self, samples: int = 300) -> float:
        """Asks the win test about a fixed sample of complete concealed hands in two suits (so
        that a rule asking for a missing suit is met): melds and pair drawn at random."""
        rng = Random(0)
        suits = self.suits[:2]
        accepted = tried = 0
        while tried < samples:
            counts = [0] * self.rules.tileset.kinds
            for _ in range(4):
                low = rng.choice(suits) * RANKS + rng.randrange(RANKS - 2)
                if rng.random() < 0.6:
                    meld = [low, low + 1, low + 2]
                else:
                    meld = [low + rng.randrange(3)] * 3
                for t in meld:
                    counts[t] += 1
            pair = rng.choice(suits) * RANKS + rng.randrange(RANKS)
            counts[pair] += 2
            if max(counts) > self.copies:
                continue
            tiles = STANDARD.tiles_of(counts)
            win_tile = rng.choice(tiles)
            tiles.remove(win_tile)
            tiles.append(win_tile)  # the winning tile last
            tried += 1
            accepted += self._wins(tiles, (False,))
        return accepted / samples

    def _wins_shape(self, text: str) -> bool:
        return self._wins(list(on_table(text, self.rules.tileset)), (True, False))

    def _wins(self, tiles: list[Tile], self_draws: tuple[bool, ...]) -> bool:
        """Whether the concealed ``tiles`` (the winning tile last) win by one of ``self_draws``."""
        ts = self.rules.tileset
        keys = shapes.keys_of(ts.counts(tiles), ts)
        for self_draw in self_draws:
            situation = build_situation(
                keys=keys,
                win_tile=tiles[-1],
                self_draw=self_draw,
                winner=1,
                dealer=0,
                discarder=None if self_draw else 2,
                players=self.rules.players,
                options=self.rules.options,
            )
            if self.rules.win_value(situation, None, self.rules.shape_ok(keys, 0)) is not None:
                return True
        return False

    def points(
        self,
        view: View,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        tile: Tile,
        self_draw: bool,
        context: frozenset[str] = frozenset(),
        discarder: int | None = None,
    ) -> float:
        """What the seat would collect by winning with ``keys`` (the winning ``tile`` included),
        by self-draw or on a discard from ``discarder`` (the 上家 when None); 0 when the
        ruleset would not accept the win (``valuation.Valuer.win_value``)."""
        facts = self.win_facts(view, self_draw, context, discarder)
        if facts is None:
            return 0.0
        if view.wilds and self.rules.tileset.wilds:  # the hand as held: its wilds put back
            keys = shapes.with_wilds(keys, view.wilds, self.rules.tileset)
        return self.valuer.win_value(keys, melds, tile, facts)

    def win_facts(
        self,
        view: View,
        self_draw: bool,
        context: frozenset[str],
        discarder: int | None = None,
    ) -> WinFacts | None:
        """The facts of the seat's win (on a discard from ``discarder``, by default the 上家,
        the usual discarder), kept per standing; None for a win on a discard with nobody
        left to discard."""
        memo = (view.seat, view.players, view.dealer, view.in_game, view.void, self_draw, context,
                discarder)  # fmt: skip
        if memo in self._win_facts:
            return self._win_facts[memo]
        seat, n = view.seat, view.players
        in_game = frozenset(s for s in range(n) if view.in_game[s])
        found = None
        if self_draw:
            discarder = None
        elif discarder is None:
            others = [s for s in range(1, n) if view.in_game[(seat + s) % n]]
            if others:
                discarder = (seat + others[-1]) % n  # the 上家
        if self_draw or discarder is not None:
            found = WinFacts(
                self_draw, seat, discarder, view.dealer, n, in_game, view.void, context
            )
        self._win_facts[memo] = found
        return found

    def kong_paid(self, view: View, kind: str, provider: int | None) -> float:
        """What declaring a kong pays this seat at once: the payment rules at a kong
        (settled once per kong and standing)."""
        if not self.rules.kong_payments:
            return 0.0
        memo = (view.seat, kind, provider, view.players, view.dealer, view.in_game)
        found = self._kong_paid.get(memo)
        if found is None:
            in_game = frozenset(s for s in range(view.players) if view.in_game[s])
            kong = Kong(view.seat, kind, provider)
            record = HandRecord(view.players, view.dealer, in_game, kongs=(kong,))
            try:
                payments = settle(self.ruleset, record).payments
            except (SettlementError, ValueError):
                payments = ()
            found = float(sum(p.amount if p.payee == view.seat else -p.amount for p in payments))
            self._kong_paid[memo] = found
        return found


_FACTS: dict[int, RuleFacts] = {}


def facts(ruleset: Ruleset) -> RuleFacts:
    """The ruleset's facts, learned once per ruleset object."""
    found = _FACTS.get(id(ruleset))
    if found is None or found.ruleset is not ruleset:
        if len(_FACTS) > 64:
            _FACTS.clear()
        found = _FACTS[id(ruleset)] = RuleFacts(ruleset)
    return found


def ruleset_of(obs: dict[str, Any], fallback: Ruleset | None) -> Ruleset | None:
    return obs.get("ruleset") or fallback


# --- shape helpers shared by the bots ---------------------------------------------------------


def void_target(view: View, suits: Sequence[int], needed: bool) -> int | None:
    """The suit to give up: the declared void, or (when a win must lack a suit) the suit held
    least, never one with a declared meld."""
    if view.void is not None:
        return view.void
    if not needed:
        return None
    melded = {m.tile // RANKS for m in view.melds}
    free = [s for s in suits if s not in melded] or suits
    counts = view.counts
    return min(free, key=lambda s: (sum(counts[s * RANKS : s * RANKS + RANKS]), -s))


def blind_visible(view: View, void: int | None) -> list[int]:
    """Visible counts with the void suit counted as gone: its tiles help nobody."""
    if void is None:
        return view.visible
    visible = list(view.visible)
    for t in range(void * RANKS, void * RANKS + RANKS):
        visible[t] = 4
    return visible


def form_for(melds: int, form: SevenPairsForm | None) -> SevenPairsForm | None:
    return form if melds == 0 else None


def first_legal(
    rows: Sequence[DiscardOption], legal: set[Tile], void: int | None, counts: Sequence[int]
) -> DiscardOption:
    """The best-ranked row whose tile may be discarded; tiles of the void suit go first."""
    if void is not None and any(counts[void * RANKS : void * RANKS + RANKS]):
        in_void = [r for r in rows if r.discard // RANKS == void and r.discard in legal]
        if in_void:
            return in_void[0]
    for r in rows:
        if r.discard in legal:
            return r
    # Only wilds may go (the tables never offer one): a hand locked with a wild drawn.
    wild = min(legal)
    return DiscardOption(wild, rows[0].shanten if rows else 0, 0, 0, ())


def live_copies(keys: Keys, tile: Tile, visible: Sequence[int], copies: int = 4) -> int:
    """Copies of ``tile`` neither in the concealed ``keys`` nor visible elsewhere."""
    return max(copies - shapes.tile_count(keys, tile) - visible[tile], 0)


def live_accepted(
    view: View, keys: Keys, melds: int, form: SevenPairsForm | None, visible: Sequence[int]
) -> tuple[int, int]:
    """Shanten of a hand about to draw (3n+1 tiles) and the live copies of the tiles that help."""
    from handcore.discards import accepted_tiles

    shanten, masks = accepted_tiles(keys, melds, form, wilds=view.wilds)
    live = 0
    for suit, mask in enumerate(masks):
        for rank in range(RANKS):
            if mask >> rank & 1:
                t = suit * RANKS + rank
                live += live_copies(keys, t, visible)
    return shanten, live


def by_kind(legal: Sequence[Action]) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for a in legal:
        out.setdefault(a.kind, []).append(a)
    return out


def claimed_tile(action: Action, claim: dict[str, Any]) -> Tile:
    """The tile ``action`` takes in the claim round ``claim`` (the observation's): in a joint
    round over several tiles a chow names it in its ``option``, a pung or kong is made of it."""
    if len(claim.get("tiles", ())) <= 1:
        return claim["tile"]
    return STANDARD.parse(action.option)[0] if action.kind == "chow" else action.tile


def claim_keys(keys: Keys, action: Action, tile: Tile) -> tuple[Keys, HandMeld]:
    """The concealed keys and the new meld after claiming ``tile`` with ``action``."""
    if action.kind == "chow":
        for t in (action.tile, action.tile + 1, action.tile + 2):
            if t != tile:
                keys = shapes.add_tile(keys, t, -1)
        return keys, HandMeld("chow", action.tile, False)
    if action.kind == "pung":
        return shapes.add_tile(keys, tile, -2), HandMeld("pung", tile, False)
    return shapes.add_tile(keys, tile, -3), HandMeld("kong", tile, False)


def self_kong_keys(view: View, tile: Tile) -> tuple[Keys, tuple[HandMeld, ...], str]:
    """Keys, melds and kong kind after a kong declared in turn (concealed or added)."""
    if view.counts[tile] == 4:
        melds = (*view.melds, HandMeld("kong", tile, True))
        return shapes.add_tile(view.keys, tile, -4), melds, "concealed"
    melds = tuple(
        HandMeld("kong", m.tile, False) if m.kind == "pung" and m.tile == tile else m
        for m in view.melds
    )
    return shapes.add_tile(view.keys, tile, -1), melds, "added"


def kong_again_keys(view: View, tile: Tile) -> tuple[Keys, tuple[HandMeld, ...], str]:
    """As ``self_kong_keys``, for the owner of a kong making another with one of the kong
    tiles it discarded (继续开杠): the tile comes back to the hand first."""
    counts = list(view.counts)
    counts[tile] += 1
    return self_kong_keys(replace(view, counts=counts, keys=shapes.add_tile(view.keys, tile)), tile)


def choose(
    obs: Mapping[str, Any], legal: Sequence[Action], weight: Sequence[float] | None = None
) -> Action:
    """A choice the ruleset asks for (``obs["choice"]``), by what it does rather than its
    name: a void suit by ``void_choice`` (``weight``: each suit's worth), tiles to give by
    ``exchange_choice``, any other value its default when that is legal, else the first
    (lowest) value."""
    pending = obs["choice"]
    if pending["effect"] == "void":
        return void_choice(View.of(obs), legal, weight)
    if pending["tiles"]:
        return exchange_choice(obs["hand"], legal)
    return next((a for a in legal if a.option == pending["default"]), legal[0])


def void_choice(
    view: View, legal: Sequence[Action], weight: Sequence[float] | None = None
) -> Action:
    """定缺: the suit holding fewest tiles (then the least ``weight``, then the lower letter)."""
    choices = list(legal)

    def cost(a: Action) -> tuple[int, float, str]:
        s = SUIT_LETTERS.index(a.option)
        held = sum(view.counts[s * RANKS : s * RANKS + RANKS])
        return held, weight[s] if weight else 0.0, a.option

    return min(choices, key=cost)


def exchange_choice(hand: Sequence[Tile], legal: Sequence[Action]) -> Action:
    """The exchange after the deal: tiles of the suit held least (a set spanning suits counts
    its largest one), then the set whose loss leaves the hand nearest ready (shanten), then
    the first in notation order."""
    counts = EVERY.counts(hand)
    held = [sum(counts[s * RANKS : s * RANKS + RANKS]) for s in range(EVERY.hand_blocks)]
    choices = [(a, EVERY.parse(a.option, check_copies=False)) for a in legal]
    widest = {a: max(held[t // RANKS] for t in given) for a, given in choices}
    fewest = min(widest.values())
    keys = shapes.keys_of(counts)

    def cost(item: tuple[Action, list[Tile]]) -> tuple[int, str]:
        a, given = item
        rest = keys
        for t in given:
            rest = shapes.add_tile(rest, t, -1)
        return shapes.shanten(rest, 0, "quads"), a.option

    return min((c for c in choices if widest[c[0]] == fewest), key=cost)[0]
