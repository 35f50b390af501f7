"""Winning hands and deals to try rules on, built from the hand core under a ruleset's tiles
and claims.

Hands are built, not drawn: four melds and a pair (or seven pairs, or fourteen tiles of a
few ranks) from a palette of suits and ranks, so that rare families (one suit, all pungs,
all 2/5/8, quads) come up often.  Melds are declared only as the claims allow (no exposed
chow without ``claims.chow``), and the circumstances of a win (self-draw, kong draw, last
tile, first turn, seats) are drawn too.  A fixed seed makes every report the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from dsl.problems import Location
from dsl.ruleset import Ruleset
from dsl.situation import HandMeld, Situation
from handcore import shapes
from handcore.tiles import RANKS, STANDARD, Tile, TileSet
from interpreter.context import build_situation
from interpreter.hand_record import Win

PALETTES = (
    (1, 2, 3, 4, 5, 6, 7, 8, 9),
    (2, 5, 8),
    (1, 9),
    (1, 2, 3, 7, 8, 9),
    (2, 3, 4, 5, 6, 7, 8),
)
NOWHERE = Location("<check>", 1, 1)


def claims_allowed(ruleset: Ruleset) -> dict[str, bool]:
    claims = ruleset.get("claims") or {}
    return {
        kind: bool((claims.get(kind) or {}).get("allowed", True))
        for kind in ("chow", "pung", "kong")
    }


def suits_in_play(ruleset: Ruleset) -> list[int]:
    """The indices of the ruleset's suits (two suits need not be the first two)."""
    letters = ruleset.get("tiles.suits") or [s.letter for s in STANDARD.suits]
    return [i for i, s in enumerate(STANDARD.suits) if s.letter in letters]


def winning_hands(ruleset: Ruleset, count: int, seed: int = 0) -> Iterator[tuple[Situation, Win]]:
    """``count`` built hands with a winning shape or of few ranks, each as the situation a
    rule sees and the win settlement reads."""
    rng = random.Random(seed)
    suits = suits_in_play(ruleset)
    copies = int(ruleset.get("tiles.copies") or STANDARD.copies)
    players = int(ruleset.get("players.count") or 4)
    allowed = claims_allowed(ruleset)
    wilds = ruleset.tileset.wilds
    tileset = ruleset.tileset if wilds else STANDARD
    made = 0
    while made < count:
        hand = _hand(rng, suits, copies, allowed)
        if hand is None:
            continue
        concealed, melds = hand
        if wilds and rng.random() < 0.3:  # some tiles held as wilds standing for them
            for i in rng.sample(range(len(concealed)), min(len(concealed), rng.randint(1, 4))):
                concealed[i] = wilds[0]
        made += 1
        yield _circumstances(rng, concealed, melds, players, ruleset.option_values, tileset)


def _hand(
    rng: random.Random, suits: list[int], copies: int, allowed: Mapping[str, bool]
) -> tuple[list[Tile], list[HandMeld]] | None:
    picked = rng.sample(range(len(suits)), min(rng.choice((1, 1, 2, 2, 3)), len(suits)))
    ranks = rng.choice(PALETTES)
    palette = [suits[s] * RANKS + r - 1 for s in picked for r in ranks]
    left = dict.fromkeys(range(STANDARD.kinds), copies)

    def take(tiles: list[Tile]) -> bool:
        if any(left[t] < tiles.count(t) for t in set(tiles)):
            return False
        for t in tiles:
            left[t] -= 1
        return True

    form = rng.random()
    if form < 0.12:  # seven pairs, mostly distinct, sometimes with a four of a kind
        distinct = len(palette) >= 7 and rng.random() < 0.7
        tiles = []
        for tile in rng.sample(palette, 7) if distinct else rng.choices(palette, k=7):
            if not take([tile, tile]):
                return None
            tiles += [tile, tile]
        return tiles, []
    if form < 0.2:  # fourteen tiles of the palette, shape or not
        tiles = [rng.choice(palette) for _ in range(14)]
        return (tiles, []) if take(tiles) else None
    melds: list[HandMeld] = []
    concealed: list[Tile] = []
    declared = rng.choice((0, 0, 1, 2, 3, 4))
    for i in range(4):
        kind = rng.choice(
            ("chow", "pung", "pung", "kong") if i < declared else ("chow", "chow", "pung")
        )
        tile = rng.choice(palette)
        if kind == "chow" and (
            tile % RANKS > RANKS - 3 or (tile + 1 not in palette and rng.random() < 0.7)
        ):
            kind = "pung"
        meld_tiles = HandMeld(kind, tile, False).tiles
        if not take(list(meld_tiles)):
            return None
        if i < declared:
            hidden = kind == "kong" and (not allowed["kong"] or rng.random() < 0.3)
            if not hidden and not allowed["kong" if kind == "kong" else kind]:
                return None
            melds.append(HandMeld(kind, tile, hidden))
        else:
            concealed += meld_tiles
    pair = rng.choice(palette)
    if not take([pair, pair]):
        return None
    return [*concealed, pair, pair], melds


def _circumstances(
    rng: random.Random,
    concealed: list[Tile],
    melds: list[HandMeld],
    players: int,
    options: Mapping[str, Any],
    tileset: TileSet = STANDARD,
) -> tuple[Situation, Win]:
    win_tile = rng.choice(concealed)
    self_draw = rng.random() < 0.5
    kong = any(m.kind == "kong" for m in melds)
    kong_draw = self_draw and kong and rng.random() < 0.6
    kong_discard = not self_draw and rng.random() < 0.1
    robbing = not self_draw and not kong_discard and rng.random() < 0.1
    exposed = any(not m.concealed for m in melds)
    dealer = rng.randrange(players)
    winner = dealer if rng.random() < 0.4 else rng.randrange(players)
    discarder = (
        None
        if self_draw
        else (
            dealer
            if winner != dealer and rng.random() < 0.4
            else (winner + rng.randrange(1, players)) % players
        )
    )
    context = {
        name
        for name, on in (
            ("kong_draw", kong_draw),
            ("kong_discard", kong_discard),
            ("robbing_kong", robbing),
            ("last_tile", rng.random() < 0.2),
            ("first_turn", not exposed and not kong and rng.random() < 0.15),
        )
        if on
    }
    wins = 2 if (kong_draw or kong_discard or "last_tile" in context) and rng.random() < 0.2 else 1
    rest = list(concealed)
    rest.remove(win_tile)
    keys = shapes.keys_of(tileset.counts(concealed), tileset)
    situation = build_situation(
        keys=keys,
        melds=tuple(melds),
        win_tile=win_tile,
        winning_tiles=wins,
        self_draw=self_draw,
        kong_draw=kong_draw,
        kong_discard=kong_discard,
        robbing_kong=robbing,
        last_tile="last_tile" in context,
        first_turn="first_turn" in context,
        winner=winner,
        discarder=discarder,
        dealer=dealer,
        players=players,
        options=options,
        tileset=tileset,
    )
    win = Win(
        winner,
        tuple(sorted(rest)),
        tuple(melds),
        (win_tile,),
        discarder,
        frozenset(context),
        NOWHERE,
    )
    return situation, win


def deals(ruleset: Ruleset, count: int, seed: int = 0) -> Iterator[Situation]:
    """Opening hands: ``count`` deals of 13 or 14 tiles, half from the whole wall, half from
    a palette of a few ranks and suits (so that rare opening hands show)."""
    rng = random.Random(seed)
    suits = suits_in_play(ruleset)
    copies = int(ruleset.get("tiles.copies") or STANDARD.copies)
    players = int(ruleset.get("players.count") or 4)
    wall = [t for t in range(STANDARD.kinds) if t // RANKS in suits for _ in range(copies)]
    for i in range(count):
        size = rng.choice((13, 14))
        if i % 2:
            chosen = rng.sample(suits, rng.randint(1, len(suits)))
            ranks = rng.choice(PALETTES)
            pool = [t for t in wall if t // RANKS in chosen and t % RANKS + 1 in ranks]
            if len(pool) < size:
                pool = wall
        else:
            pool = wall
        tiles = rng.sample(pool, size)
        dealer = rng.randrange(players)
        yield build_situation(
            tiles=tiles,
            winner=dealer if size == 14 else (dealer + 1) % players,
            dealer=dealer,
            players=players,
            self_draw=True,
            options=ruleset.option_values,
        )
