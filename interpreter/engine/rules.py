"""What the engine reads from a ruleset, read once before play (no lookups in the hot loop).

Also: does a hand win?  A hand wins when the settlement engine finds at least one hand
type for it (``interpreter.settle``), the ruleset's ``restrictions`` allow it and its value
reaches ``scoring.min_value``.  A cheap shape test comes first; for rulesets with a hand
type whose condition needs no shape (found from its syntax tree), a hand that fails it is
next judged by each such condition's cheap necessary condition (``prefilter``), and only
then by the condition itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy
from dataclasses import dataclass, replace
from typing import Any

from dsl.errors import EvaluationError
from dsl.ruleset import Ruleset
from dsl.shape_audit import needs_shape
from dsl.situation import HandMeld, Situation
from handcore import shapes
from handcore.tiles import RANKS, STANDARD, Tile
from interpreter import prefilter
from interpreter.choices import declarations, played
from interpreter.context import build_situation
from interpreter.engine.events import option_settings
from interpreter.settle import WinResult, fires, situation_hand_types, worth

CLAIM_KINDS = ("win", "kong", "pung", "chow")


def _trivial(expression: Any, text: str = "true") -> bool:
    return expression is None or getattr(expression, "text", None) == text


@dataclass(frozen=True)
class Replacement:
    name: str
    source: str  # tail, front, dice_stack
    order: str
    dice: Any
    """How many dice count the stack (an expression of section kong_dice)."""
    when_missing: str
    tiles: int
    requires_ready: bool
    locks_hand: bool
    unused_discarded: bool
    unused_claimable: bool
    min_wall: int
    self_draw: bool
    counts_as_kong: bool
    joint_round: bool = False
    """The discarded tiles are answered in one claim round (``unused_round: joint``)."""
    kong_again: bool = False

    @property
    def into_hand(self) -> bool:
        """A single tile that is kept joins the hand like a draw; others are shown apart."""
        return self.tiles == 1 and not self.unused_discarded


class Rules:
    """The ruleset's mechanics as plain attributes."""

    def __init__(self, ruleset: Ruleset) -> None:
        rs = ruleset
        self.ruleset = rs
        self.id = rs.id
        self.options = rs.option_values
        self.option_settings = option_settings(rs)
        """The options as the ``start`` event gives them (copy before changing)."""
        players = rs.get("players") or {}
        self.players = int(players.get("count", 4))
        self.dealer_tiles = int(players.get("dealer_tiles", 14))
        self.other_tiles = int(players.get("other_tiles", 13))
        self.choices = {at: played(rs, at) for at in ("before_deal", "after_deal")}
        """The choices made before the deal and after it, each in the order written."""
        self.declarations = declarations(rs)
        """The hands declared during play, by the moment they are looked for."""
        self.tileset = ts = rs.tileset
        self.suits = tuple(i for i in range(len(ts.suits)) if i not in ts.missing)
        self.ranks = ts.ranks
        self.copies = ts.copies
        self.all_tiles = tuple(ts.wall())
        self.flower_from = ts.flower_block * RANKS if ts.flowers else 1 << 30
        """The lowest flower's id (beyond every tile without flowers): a tile from here on
        drawn is set aside and replaced."""
        self.playable = ts.playable()
        """The tiles a hand can hold, as bits by tile id (for waits and accepted tiles)."""
        self.hand_tiles = tuple(t for t in ts.in_play if self.playable >> t & 1)
        """The tiles a hand can hold, in id order."""
        wilds = (rs.get("tiles") or {}).get("wilds") or {}
        self.wild_indicator = wilds.get("indicator", "none") != "none"
        """Whether a tile turned up after the deal names the wild tile (``with_wilds``)."""
        self.wild_claimable = bool(wilds.get("claimable", False))
        self.wilds = frozenset(ts.wilds)
        """The wild tiles (癞子) of every hand; empty without any or until an indicator."""
        claims = rs.get("claims") or {}
        self.claims: dict[str, tuple[str, Any]] = {}
        for kind in CLAIM_KINDS:
            spec = claims.get(kind) or {}
            if spec.get("allowed", True):
                when = spec.get("when")
                self.claims[kind] = (
                    spec.get("from", "previous" if kind == "chow" else "any"),
                    None if _trivial(when) else when,
                )
        self.meld_claims = {
            kinds: tuple(k for k in kinds if k != "win" and k in self.claims)
            for kinds in (CLAIM_KINDS, ("win",))
        }
        """The kong, pung and chow claims the ruleset has among a claim round's kinds (every
        kind, or a win only), worked out once rather than on every discard."""
        self.claim_rank = {
            kind: rank
            for rank, entry in enumerate(claims.get("priority", CLAIM_KINDS))
            for kind in ((entry,) if isinstance(entry, str) else entry)
            if kind in self.claims
        }
        """Each claim kind's rank (0 first); kinds listed together share one."""
        self.chows = tuple(
            () if tile // RANKS >= len(ts.suits) else _chows_with(tile, self.ranks)
            for tile in range(ts.kinds)
        )
        """For each tile, the chows it completes: (their lowest tile, the two other tiles)."""
        self.multiple_winners = claims.get("multiple_winners", "all")
        kongs = rs.get("kongs") or {}
        self.rob_exposed = bool(kongs.get("rob_exposed", False))
        self.rob_added = bool(kongs.get("rob_added", True))
        self.rob_concealed = bool(kongs.get("rob_concealed", False))
        self.concealed_shown = bool(kongs.get("concealed_shown", True))
        self.kong_after_claim = bool(kongs.get("after_claim", False))
        self.replacements = tuple(
            Replacement(
                name=name,
                source=spec.get("from", "tail"),
                order=spec.get("order", "top_then_bottom"),
                dice=spec.get("dice"),
                when_missing=spec.get("when_missing", "reroll"),
                tiles=int(spec.get("tiles", 1)),
                requires_ready=bool(spec.get("requires_ready", False)),
                locks_hand=bool(spec.get("locks_hand", False)),
                unused_discarded=spec.get("unused_tiles", "kept") == "discarded",
                unused_claimable=bool(spec.get("unused_claimable", True)),
                min_wall=int(spec.get("min_wall", 0)),
                self_draw=bool(spec.get("counts_as_self_draw", True)),
                counts_as_kong=bool(spec.get("counts_as_kong", True)),
                joint_round=spec.get("unused_round", "each") == "joint",
                kong_again=bool(spec.get("kong_again", False)),
            )
            for name, spec in (kongs.get("replacement") or {}).items()
        )
        if not self.replacements:  # a kong still needs a tile: one from the tail
            self.replacements = (
                Replacement("replacement", "tail", "top_then_bottom", None, "reroll", 1,
                            False, False, False, True, 0, True, True),
            )  # fmt: skip
        self.kongs_allowed = "kong" in self.claims  # claims.kong.allowed governs every kong
        restrictions = rs.get("restrictions") or {}
        missed = restrictions.get("missed_win")
        self.missed_win = None if _trivial(missed, "false") else missed
        """Whether a player who passed a win may not win on a discard (None: never)."""
        self.missed_win_until = restrictions.get("missed_win_until", "own_draw")
        self.must_win_last = int(restrictions.get("must_win_last", 0))
        requires = restrictions.get("win_requires")
        self.win_requires = None if _trivial(requires) else requires
        self.void_suit = self._refuses_every_suit()
        """Whether a win must lack a suit (缺一门), as win_requires says: bots plan for it."""
        wall_end = rs.get("wall_end") or {}
        self.reserved = int(wall_end.get("reserved", 0))
        self.last_tiles = int(wall_end.get("last_tiles", 0))
        self.roams = bool(wall_end.get("roams", False)) and self.last_tiles > 0
        self.offered_to = wall_end.get("offered_to", "all")
        self.tiles_per_taker = int(wall_end.get("tiles_per_taker", 1))
        self.last_kong_draws = self.last_tiles > 0 and bool(wall_end.get("kong_draws", False))
        game_end = rs.get("game_end") or {}
        self.winners_leave = game_end.get("winners_leave")
        self.ends = game_end.get("ends")
        self.first_win = self.after_win(
            build_situation(players=self.players, options=self.options)
        )[1]
        """Whether the hand ends at its first win (bots weigh the risk of a discard by it)."""
        birds = rs.get("birds") or {}
        self.bird_count = birds.get("count") if birds else None
        self.birds_from_last = birds.get("from_last_tiles") if birds else None
        """On a win on the last tile(s): whether they are the birds (None: they are)."""
        dealer = rs.get("dealer") or {}
        self.first_dealer = dealer.get("first", "random")
        self.next_dealer = dealer.get("next")
        self.also_dealers = dealer.get("also")
        self.kong_payments = fires(rs, "kong")
        self.end_checks = fires(rs, "wall_end")
        """Whether payment rules fire when the wall runs out with players still in."""
        self.hand_end = fires(rs, "hand_end")
        opening = rs.get("opening_hands") or {}
        self.opening_hands = bool(opening.get("allowed", False))
        declared = opening.get("declared")
        self.opening_declared = None if getattr(declared, "text", "true") == "true" else declared
        """Whether a seat declares its opening hands (None: always, at the deal)."""
        hands: Mapping[str, Any] = rs.get("hands") or {}
        self.shape_free = tuple(
            spec["when"]
            for spec in hands.values()
            if spec.get("enabled", True) and not needs_shape(spec["when"].ast)
        )
        forms = [prefilter.necessary(when.ast) for when in self.shape_free]
        if ts.wilds or self.wild_indicator:  # the cheap tests read tiles, not what wilds stand for
            forms = [None]
        self.unshaped_need: prefilter.Need | None = prefilter.any_of(forms)
        """Passes when a shape-free hand type may hold; None when one has no cheap test."""
        self._unshaped_after_one = prefilter.after_one_tile(forms)

    def with_wilds(self, wilds: tuple[Tile, ...]) -> Rules:
        """These rules for a hand whose wild tiles were chosen at the deal."""
        chosen = copy(self)
        chosen.tileset = replace(self.tileset, wilds=wilds)
        chosen.wilds = frozenset(wilds)
        return chosen

    def after_win(self, situation: Situation) -> tuple[bool, bool]:
        """After a win (``situation``: its seats, players_in_game before it): whether the
        winners leave the hand, and whether the hand ends."""
        if self.winners_leave is None or self.ends is None:  # an abstract ruleset
            return False, True
        leave = bool(self.winners_leave(situation))
        if leave:
            left = situation.players_in_game - situation.winners
            situation = replace(situation, players_in_game=left)
        return leave, bool(self.ends(situation))

    def _refuses_every_suit(self) -> bool:
        """Whether win_requires refuses a complete hand of every suit in play but allows one
        lacking a suit (缺一门)."""
        if self.win_requires is None or len(self.suits) < 2:
            return False
        letters = [STANDARD.suits[i].letter for i in self.suits]
        k = len(letters)
        melds = " ".join(f"{'123' if i < k else '456'}{letters[i % k]}" for i in range(4))
        every = f"{melds} 55{letters[-1]}"
        lacking = " ".join(f"{run}{letters[0]}" for run in ("123", "456", "789", "234", "55"))
        try:
            return not self.win_requires(
                Situation.from_notation(every, players=self.players, options=self.options)
            ) and bool(
                self.win_requires(
                    Situation.from_notation(lacking, players=self.players, options=self.options)
                )
            )
        except EvaluationError:
            return False

    # --- does it win ------------------------------------------------------------------------

    def shape_ok(self, keys: tuple[int, ...], melds: int) -> bool:
        if self.wilds:
            bare, wilds = shapes.without_wilds(keys, self.tileset)
            return prefilter.has_shape(bare, melds, wilds)
        return prefilter.has_shape(keys, melds)

    def may_win_with_one_more(self, keys: tuple[int, ...], melds: tuple[HandMeld, ...]) -> bool:
        """False when no tile added to the concealed ``keys`` (``melds`` declared) can make a
        winning hand, however it is won (``chances``; True: maybe)."""
        waits, unshaped = self.chances(keys, melds)
        return unshaped or waits != 0

    def chances(self, keys: tuple[int, ...], melds: tuple[HandMeld, ...]) -> tuple[int, bool]:
        """What one more tile may make of the concealed ``keys`` (``melds`` declared): the
        tiles that make it complete or seven pairs (``shape_ok``), as bits by tile id, and
        whether a shape-free hand type may then hold (False: for no tile, however won).
        Only those tiles can win unless the second answer is True."""
        test = self._unshaped_after_one
        unshaped = bool(self.shape_free) and (test is None or test(prefilter.probe_of(keys, melds)))
        m = len(melds)
        if self.wilds:
            bare, wilds = shapes.without_wilds(keys, self.tileset)
            if shapes.shanten(bare, m, "quads", wilds) > 0:
                return 0, unshaped
            waits = 0
            for tile in self.hand_tiles:
                if shapes.tile_count(keys, tile) < 4 and self.shape_ok(
                    shapes.add_tile(keys, tile), m
                ):
                    waits |= 1 << tile
            return waits, unshaped
        if shapes.no_wait(keys, "quads"):
            return 0, unshaped
        return shapes.completing(keys, not melds) & self.playable, unshaped

    def may_win_unshaped(self, probe: prefilter.Probe | None) -> bool:
        """False when no shape-free hand type can hold (a cheap test; True: maybe)."""
        need = self.unshaped_need
        if need is None or probe is None:
            return bool(self.shape_free)
        return need(probe)

    def win_value(self, situation: Situation, void: int | None, shaped: bool) -> int | None:
        """The hand's combined value if it wins in ``situation``, else None.

        ``shaped``: the hand is complete or seven pairs (``shape_ok``), worked out by the caller.
        """
        result = self.worth(situation, void, shaped)
        return None if result is None else result.total

    def worth(self, situation: Situation, void: int | None, shaped: bool) -> WinResult | None:
        """As ``win_value``, the hand types and value (``settle.worth``)."""
        if not shaped and (
            not self.shape_free
            or not self.may_win_unshaped(prefilter.probe_of_situation(situation))
            or not any(when(situation) for when in self.shape_free)
        ):
            return None
        return worth(self.ruleset, situation, void)

    def hand_types(self, situation: Situation) -> WinResult | None:
        return situation_hand_types(self.ruleset, situation)


def _chows_with(tile: int, ranks: int) -> tuple[tuple[int, int, int], ...]:
    suit, rank = divmod(tile, RANKS)
    base = suit * RANKS
    found = []
    for low in range(max(0, rank - 2), min(rank, ranks - 3) + 1):
        a, b = (t for t in range(base + low, base + low + 3) if t != tile)
        found.append((base + low, a, b))
    return tuple(found)


class _Nowhere:
    def __str__(self) -> str:
        return "<engine>"


_NOWHERE: Any = _Nowhere()
