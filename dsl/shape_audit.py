"""Hand types that hold on a hand with no winning shape: declared, or caught by a witness.

A hand wins when any hand type's ``when`` holds.  So a hand type whose condition admits a
hand that is neither standard (melds and a pair) nor seven pairs makes that hand win.  Some
hand types are meant to (a hand type that is a winning shape of its own, such as all tiles of
some ranks); they say so with ``shape: none``.  Any other hand type must need a shape: either
its condition requires ``standard()`` or ``seven_pairs()`` in every case (read from the
syntax tree, at once), or a search over sampled hands without a shape finds none on which
it holds.  A hand found is reported, so the author sees the accident, not a rule of thumb.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dsl import syntax
from dsl.errors import EvaluationError
from dsl.situation import HandMeld, Situation, hand_core
from handcore.tiles import RANKS, STANDARD, Tile, TileSet

SHAPE_FUNCTIONS = ("standard", "seven_pairs")
SAMPLES = 4000
"""Hands tried per hand type whose syntax does not settle the question."""


def needs_shape(node: syntax.Node) -> bool:
    """True when the condition can hold only if ``standard()`` or ``seven_pairs()`` holds."""
    if isinstance(node, syntax.Call):
        return node.function in SHAPE_FUNCTIONS
    if isinstance(node, syntax.Binary):
        if node.op == "and_":
            return needs_shape(node.left) or needs_shape(node.right)
        if node.op == "or_":
            return needs_shape(node.left) and needs_shape(node.right)
        return False
    if isinstance(node, syntax.If):
        return needs_shape(node.then) and needs_shape(node.otherwise)
    if isinstance(node, syntax.Literal):
        return node.value is False
    return False


def witness(
    when: Callable[[Situation], Any],
    options: Mapping[str, Sequence[Any]],
    players: int = 4,
    tileset: TileSet = STANDARD,
    samples: int = SAMPLES,
) -> Situation | None:
    """A hand with no standard or seven-pairs shape on which ``when`` holds, or None.

    Hands are drawn (with a fixed seed, so a report is the same every time) from random
    palettes of ranks and suits, with 0 to 4 declared melds, plausible ways of winning and
    every value each option may take."""
    rng = random.Random(0)
    for _ in range(samples):
        situation = _unshaped_hand(rng, options, players, tileset)
        if situation is None:
            continue
        try:
            if when(situation):
                return situation
        except EvaluationError:
            continue
    return None


_RANK_PALETTES = ((1, 2, 3, 4, 5, 6, 7, 8, 9), (2, 5, 8), (1, 9), (1, 4, 7), (3, 6, 9))


def _unshaped_hand(
    rng: random.Random, options: Mapping[str, Sequence[Any]], players: int, tileset: TileSet
) -> Situation | None:
    suits = rng.sample(range(len(tileset.suits)), rng.randint(1, len(tileset.suits)))
    if rng.random() < 0.7:
        ranks: Sequence[int] = rng.choice(_RANK_PALETTES)
    else:
        ranks = rng.sample(range(1, RANKS + 1), rng.randint(1, 5))
    palette = [suit * RANKS + rank - 1 for suit in suits for rank in ranks]
    left = dict.fromkeys(range(len(tileset.suits) * RANKS), tileset.copies)
    melds = []
    for _ in range(rng.randint(0, 4)):
        meld = _meld(rng, palette, left)
        if meld is not None:
            melds.append(meld)
    concealed = []
    for _ in range(14 - 3 * len(melds)):
        pool = [t for t in palette if left[t]] or [t for t in left if left[t]]
        tile = rng.choice(pool)
        left[tile] -= 1
        concealed.append(tile)
    if tileset.wilds and rng.random() < 0.3:  # a few of them wild (up to every copy)
        for i in rng.sample(range(len(concealed)), min(len(concealed), rng.randint(1, 4))):
            concealed[i] = tileset.wilds[0]
    core = hand_core()
    keys = core.keys_of(tileset.counts(concealed), tileset)
    bare, wilds = core.without_wilds(keys, tileset)
    complete = core.is_complete_with_wilds(bare, wilds) if wilds else core.is_complete(bare)
    if complete or (not melds and core.seven_pairs(bare, "quads", wilds) is not None):
        return None
    self_draw = rng.random() < 0.5
    after_kong = rng.random() < 0.2
    winner = rng.randrange(players)
    return Situation(
        keys=keys,
        melds=tuple(melds),
        win_tile=rng.choice(concealed),
        winning_tiles=2 if after_kong and rng.random() < 0.3 else 1,
        self_draw=self_draw,
        kong_draw=after_kong and self_draw,
        kong_discard=after_kong and not self_draw,
        robbing_kong=not self_draw and not after_kong and rng.random() < 0.1,
        last_tile=rng.random() < 0.2,
        first_turn=rng.random() < 0.2,
        winner=winner,
        discarder=None if self_draw else (winner + rng.randrange(1, players)) % players,
        dealer=rng.randrange(players),
        players=players,
        options={name: rng.choice(values) for name, values in options.items()},
        tileset=tileset,
    )


def _meld(rng: random.Random, palette: Sequence[Tile], left: dict[Tile, int]) -> HandMeld | None:
    kind = rng.choice(("pung", "pung", "chow", "kong"))
    tile = rng.choice(palette)
    tiles = [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * (4 if kind == "kong" else 3)
    if kind == "chow" and tile % RANKS > RANKS - 3:
        return None
    if any(left[t] < tiles.count(t) for t in set(tiles)):
        return None
    for t in tiles:
        left[t] -= 1
    return HandMeld(kind, tile, kind == "kong" and rng.random() < 0.3)


def describe(situation: Situation) -> str:
    """The hand as people read it: concealed tiles, melds, how it was won."""
    tileset = situation.tileset
    text = tileset.format(list(situation.concealed_tiles))
    if situation.melds:
        shown = (
            f"{'concealed ' if m.concealed else ''}{m.kind} {tileset.format(list(m.tiles))}"
            for m in situation.melds
        )
        text += " with " + ", ".join(shown)
    how = "self-drawn" if situation.self_draw else "on a discard"
    flags = [f for f in ("kong_draw", "kong_discard", "robbing_kong", "last_tile", "first_turn")
             if getattr(situation, f)]  # fmt: skip
    win = tileset.name(situation.win_tile) if situation.win_tile is not None else "?"
    return f"{text}, won {how} on {win}" + (f" ({', '.join(flags)})" if flags else "")
