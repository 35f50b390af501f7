"""Analyse one hand for a player: shanten, how it splits, what it waits on, what to discard.

This gathers the hand core's answers into one record that the command line prints as
text or JSON; the checks on the input (tile counts against exposed melds, copies seen)
live here so that every caller gets the same errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from handcore import discards, shapes
from handcore.shapes import SevenPairsForm
from handcore.suit_tables import MAX_MELDS
from handcore.tiles import STANDARD, WILD_MARK, Tile, TileSet

WILD: Tile = -1
"""Stands for a drawn wild tile among the waits and accepted tiles."""


class HandError(ValueError):
    """Tiles that parse but make no hand to analyse (wrong count, too many copies)."""


@dataclass(frozen=True)
class Acceptance:
    tile: Tile
    live: int


@dataclass(frozen=True)
class Discard:
    tile: Tile
    shanten: int
    accepted: tuple[Acceptance, ...]
    live: int


@dataclass(frozen=True)
class HandAnalysis:
    tileset: TileSet
    tiles: tuple[Tile, ...]
    """The concealed tiles other than wilds."""
    melds: int
    form: SevenPairsForm | None
    shanten_standard: int
    shanten_seven_pairs: int | None
    shanten: int
    decompositions: tuple[shapes.Decomposition, ...]
    seven_pairs: shapes.SevenPairs | None
    waits: tuple[Acceptance, ...]
    """For a hand about to draw: the tiles that complete it (empty unless ready)."""
    accepted: tuple[Acceptance, ...]
    """For a hand about to draw: the tiles that lower its shanten."""
    discards: tuple[Discard, ...]
    """For a hand that must discard: every distinct discard, best first (wilds are kept)."""
    wilds: int = 0
    wild_tile: Tile | None = None
    """The tile of the set that is wild, or None when wilds are written ``*`` or not in play."""
    wilds_in_play: bool = False
    """Whether a drawn tile may be a wild (listed as ``WILD`` among waits and accepted tiles)."""

    @property
    def must_discard(self) -> bool:
        return (len(self.tiles) + self.wilds) % 3 == 2

    def name(self, tile: Tile) -> str:
        """A tile in notation; a wild as ``*``."""
        return WILD_MARK if tile == WILD else self.tileset.name(tile)

    def hand_text(self) -> str:
        """The concealed tiles in notation, a ``*`` for each wild after them."""
        return " ".join(
            part for part in (self.tileset.format(self.tiles), WILD_MARK * self.wilds) if part
        )

    def to_json(self) -> dict:
        name = self.name

        def accepted(items: Sequence[Acceptance]) -> list[dict]:
            return [{"tile": name(a.tile), "live": a.live} for a in items]

        data = {
            "tiles": self.hand_text(),
            "melds": self.melds,
            "seven_pairs_form": self.form,
            "shanten": {
                "standard": self.shanten_standard,
                "seven_pairs": self.shanten_seven_pairs,
                "min": self.shanten,
            },
            "complete": bool(self.decompositions or self.seven_pairs),
            "decompositions": [
                {
                    "pair": name(d.pair),
                    "melds": [{"kind": m.kind, "tile": name(m.tile)} for m in d.melds],
                    **self._wilds_as(d.wilds),
                }
                for d in self.decompositions
            ],
            "seven_pairs": None
            if self.seven_pairs is None
            else {
                "pairs": [name(t) for t in self.seven_pairs.pairs],
                "quads_as_pairs": self.seven_pairs.quads_as_pairs,
                **self._wilds_as(self.seven_pairs.wilds),
            },
            "waits": accepted(self.waits),
            "accepted": accepted(self.accepted),
            "discards": [
                {
                    "discard": name(d.tile),
                    "shanten": d.shanten,
                    "accepted": accepted(d.accepted),
                    "live": d.live,
                }
                for d in self.discards
            ],
        }
        if self.wilds_in_play:  # wild-free output keeps its keys
            wild = None if self.wild_tile is None else name(self.wild_tile)
            data |= {"wilds": self.wilds, "wild_tile": wild}
        return data

    def _wilds_as(self, wilds: Sequence[Tile]) -> dict:
        """The tiles the wilds stand for in a split, when wilds are in play."""
        return {"wilds_as": [self.name(t) for t in wilds]} if self.wilds_in_play else {}

    def to_text(self) -> str:
        """The analysis as people read it: a few labelled lines and a discard table."""
        ts = self.tileset

        def listing(items: Sequence[Acceptance]) -> str:
            return " ".join(f"{self.name(a.tile)}({a.live})" for a in items) or "-"

        def standing(wilds: Sequence[Tile]) -> str:
            return f"   ({self.name(WILD)} as {' '.join(map(ts.name, wilds))})" if wilds else ""

        seven = "n/a" if self.shanten_seven_pairs is None else str(self.shanten_seven_pairs)
        wilds = f", {self.wilds} wild(s)" if self.wilds_in_play else ""
        if self.wild_tile is not None:
            wilds += f" ({WILD_MARK} = {ts.name(self.wild_tile)})"
        lines = [
            f"hand     {self.hand_text()}   "
            f"{ts.format_unicode(self.tiles)}{WILD_MARK * self.wilds}",
            f"tiles    {len(self.tiles) + self.wilds} concealed{wilds}, "
            f"{self.melds} meld(s) exposed",
            f"shanten  {_shanten_word(self.shanten)} "
            f"(standard {self.shanten_standard}, seven pairs {seven})",
        ]
        for d in self.decompositions[:_SPLITS_SHOWN]:
            parts = [
                ts.format(range(m.tile, m.tile + 3) if m.kind == "chow" else [m.tile] * 3)
                for m in d.melds
            ]
            lines.append(
                f"split    {' '.join([*parts, ts.format([d.pair] * 2)])}{standing(d.wilds)}"
            )
        if len(self.decompositions) > _SPLITS_SHOWN:
            lines.append(f"split    ... {len(self.decompositions)} splits in all (see --json)")
        if self.seven_pairs is not None:
            quads = self.seven_pairs.quads_as_pairs
            note = f", {quads} four-of-a-kind counted as two pairs" if quads else ""
            lines.append(
                f"split    seven pairs {ts.format(self.seven_pairs.pairs * 2)}{note}"
                f"{standing(self.seven_pairs.wilds)}"
            )
        if not self.must_discard:
            if self.waits:
                total = sum(a.live for a in self.waits)
                lines.append(f"waits    {listing(self.waits)}   {total} live")
            if self.shanten > 0:
                total = sum(a.live for a in self.accepted)
                lines.append(f"accepts  {listing(self.accepted)}   {total} live")
        elif self.wilds_in_play and not self.discards:
            lines.append(f"discard  {self.name(WILD)} (only wilds are held)")
        elif self.discards:
            lines.append("")
            lines.append(f"{'discard':<8} {'shanten':>7} {'live':>5}  accepted tiles (live copies)")
            for d in self.discards:
                lines.append(
                    f"{ts.name(d.tile):<8} {d.shanten:>7} {d.live:>5}  {listing(d.accepted)}"
                )
        return "\n".join(lines)


_SPLITS_SHOWN = 8


def _shanten_word(shanten: int) -> str:
    if shanten < 0:
        return "-1 (complete)"
    if shanten == 0:
        return "0 (ready)"
    return str(shanten)


def analyse_hand(
    tiles: Sequence[Tile],
    melds: int = 0,
    visible: Sequence[Tile] = (),
    form: SevenPairsForm | None = "quads",
    tileset: TileSet = STANDARD,
    wilds: int = 0,
    wild_tile: Tile | None = None,
    wilds_seen: int = 0,
) -> HandAnalysis:
    """Analyse concealed ``tiles``, with ``melds`` melds exposed and ``visible`` tiles seen.

    ``wilds`` are held besides ``tiles`` (and ``wilds_seen`` seen elsewhere); the wild is
    ``wild_tile`` of the set (none of its copies is then a plain tile), or a tile outside
    it, with as many copies as the set's tiles.  Wilds are in play when any is held or
    seen or when ``wild_tile`` is named.
    """
    if not 0 <= melds <= MAX_MELDS:
        raise HandError(f"--melds must be 0 to {MAX_MELDS}, not {melds}")
    drawing = 3 * (MAX_MELDS - melds) + 1
    if len(tiles) + wilds not in (drawing, drawing + 1):
        raise HandError(
            f"{len(tiles) + wilds} concealed tiles with {melds} exposed meld(s); "
            f"expected {drawing} (waiting to draw) or {drawing + 1} (to discard)"
        )
    if wilds + wilds_seen > tileset.copies:
        raise HandError(
            f"{wilds} wild(s) held and {wilds_seen} visible: "
            f"only {tileset.copies} copies of the wild tile exist"
        )
    counts = tileset.counts(tiles)
    seen = tileset.counts(visible)
    for tile, (held, shown) in enumerate(zip(counts, seen, strict=True)):
        if held + shown > tileset.copies:
            raise HandError(
                f"{tileset.name(tile)} is held {held} time(s) and visible {shown} time(s): "
                f"only {tileset.copies} copies exist"
            )
    in_play = bool(wilds or wilds_seen) or wild_tile is not None
    if wild_tile is not None:
        seen[wild_tile] = tileset.copies  # every copy is a wild, none a plain tile
    keys = shapes.keys_of(counts, tileset)
    playable = tileset.playable()
    seven = shapes.shanten_seven_pairs(keys, form, melds, wilds) if form is not None else None
    standard = shapes.shanten_standard(keys, melds, wilds)
    best = standard if seven is None else min(standard, seven)
    wild_live = tileset.copies - wilds - wilds_seen

    def live(tile: Tile) -> int:
        return wild_live if tile == WILD else tileset.copies - counts[tile] - seen[tile]

    def plain(tile_ids: Sequence[Tile]) -> list[Tile]:
        return [t for t in tile_ids if t != wild_tile]

    def wild_helps(hand: shapes.Keys, below: int) -> list[Tile]:
        """[WILD] when drawing a wild brings the hand's shanten below ``below``."""
        if not in_play:
            return []
        return [WILD] if shapes.shanten(hand, melds, form, wilds + 1) < below else []

    waits: tuple[Acceptance, ...] = ()
    accepted: tuple[Acceptance, ...] = ()
    table: tuple[Discard, ...] = ()
    if len(tiles) + wilds == drawing:
        waits = tuple(
            Acceptance(t, live(t))
            for t in plain(shapes.waits(keys, form, tileset.copies, playable, wilds))
            + wild_helps(keys, 0)
        )
        _, masks = discards.accepted_tiles(keys, melds, form, tileset.copies, playable, wilds)
        accepted = tuple(
            Acceptance(t, live(t))
            for t in plain(
                [suit * 9 + rank for suit, mask in enumerate(masks) for rank in range(9)
                 if mask >> rank & 1]
            ) + wild_helps(keys, best)
        )  # fmt: skip
    else:
        rows = []
        for option in discards.discard_table(
            keys, melds, seen, form, tileset.copies, playable, wilds
        ):
            after = shapes.add_tile(keys, option.discard, -1)
            helped = plain(option.accepted) + wild_helps(after, option.shanten)
            rows.append(
                Discard(
                    option.discard,
                    option.shanten,
                    tuple(Acceptance(t, live(t)) for t in helped),
                    sum(live(t) for t in helped),
                )
            )
        table = tuple(sorted(rows, key=lambda d: (d.shanten, -d.live, -len(d.accepted), d.tile)))
    return HandAnalysis(
        tileset=tileset,
        tiles=tuple(sorted(tiles)),
        melds=melds,
        form=form,
        shanten_standard=standard,
        shanten_seven_pairs=seven,
        shanten=best,
        decompositions=tuple(shapes.decompositions(keys, wilds)),
        seven_pairs=None if form is None else shapes.seven_pairs(keys, form, wilds),
        waits=waits,
        accepted=accepted,
        discards=table,
        wilds=wilds,
        wild_tile=wild_tile,
        wilds_in_play=in_play,
    )
