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
from handcore.tiles import STANDARD, Tile, TileSet


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
    """For a hand that must discard: every distinct discard, best first."""

    @property
    def must_discard(self) -> bool:
        return len(self.tiles) % 3 == 2

    def to_json(self) -> dict:
        name = self.tileset.name

        def accepted(items: Sequence[Acceptance]) -> list[dict]:
            return [{"tile": name(a.tile), "live": a.live} for a in items]

        return {
            "tiles": self.tileset.format(self.tiles),
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
                }
                for d in self.decompositions
            ],
            "seven_pairs": None
            if self.seven_pairs is None
            else {
                "pairs": [name(t) for t in self.seven_pairs.pairs],
                "quads_as_pairs": self.seven_pairs.quads_as_pairs,
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

    def to_text(self) -> str:
        """The analysis as people read it: a few labelled lines and a discard table."""
        ts = self.tileset

        def listing(items: Sequence[Acceptance]) -> str:
            return " ".join(f"{ts.name(a.tile)}({a.live})" for a in items) or "-"

        seven = "n/a" if self.shanten_seven_pairs is None else str(self.shanten_seven_pairs)
        lines = [
            f"hand     {ts.format(self.tiles)}   {ts.format_unicode(self.tiles)}",
            f"tiles    {len(self.tiles)} concealed, {self.melds} meld(s) exposed",
            f"shanten  {_shanten_word(self.shanten)} "
            f"(standard {self.shanten_standard}, seven pairs {seven})",
        ]
        for d in self.decompositions:
            parts = [
                ts.format(range(m.tile, m.tile + 3) if m.kind == "chow" else [m.tile] * 3)
                for m in d.melds
            ]
            lines.append(f"split    {' '.join([*parts, ts.format([d.pair] * 2)])}")
        if self.seven_pairs is not None:
            quads = self.seven_pairs.quads_as_pairs
            note = f", {quads} four-of-a-kind counted as two pairs" if quads else ""
            lines.append(f"split    seven pairs {ts.format(self.seven_pairs.pairs * 2)}{note}")
        if not self.must_discard:
            if self.waits:
                total = sum(a.live for a in self.waits)
                lines.append(f"waits    {listing(self.waits)}   {total} live")
            if self.shanten > 0:
                total = sum(a.live for a in self.accepted)
                lines.append(f"accepts  {listing(self.accepted)}   {total} live")
        elif self.discards:
            lines.append("")
            lines.append(f"{'discard':<8} {'shanten':>7} {'live':>5}  accepted tiles (live copies)")
            for d in self.discards:
                lines.append(
                    f"{ts.name(d.tile):<8} {d.shanten:>7} {d.live:>5}  {listing(d.accepted)}"
                )
        return "\n".join(lines)


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
) -> HandAnalysis:
    """Analyse concealed ``tiles``, with ``melds`` melds exposed and ``visible`` tiles seen."""
    if not 0 <= melds <= MAX_MELDS:
        raise HandError(f"--melds must be 0 to {MAX_MELDS}, not {melds}")
    drawing = 3 * (MAX_MELDS - melds) + 1
    if len(tiles) not in (drawing, drawing + 1):
        raise HandError(
            f"{len(tiles)} concealed tiles with {melds} exposed meld(s); "
            f"expected {drawing} (waiting to draw) or {drawing + 1} (to discard)"
        )
    counts = tileset.counts(tiles)
    seen = tileset.counts(visible)
    for tile, (held, shown) in enumerate(zip(counts, seen, strict=True)):
        if held + shown > tileset.copies:
            raise HandError(
                f"{tileset.name(tile)} is held {held} time(s) and visible {shown} time(s): "
                f"only {tileset.copies} copies exist"
            )
    keys = shapes.keys_of(counts, tileset)
    playable = tileset.playable()
    seven = shapes.shanten_seven_pairs(keys, form, melds) if form is not None else None
    standard = shapes.shanten_standard(keys, melds)
    best = standard if seven is None else min(standard, seven)

    def live(tile: Tile) -> int:
        return tileset.copies - counts[tile] - seen[tile]

    waits: tuple[Acceptance, ...] = ()
    accepted: tuple[Acceptance, ...] = ()
    table: tuple[Discard, ...] = ()
    if len(tiles) == drawing:
        waits = tuple(
            Acceptance(t, live(t)) for t in shapes.waits(keys, form, tileset.copies, playable)
        )
        _, masks = discards.accepted_tiles(keys, melds, form, tileset.copies, playable)
        accepted = tuple(
            Acceptance(suit * 9 + rank, live(suit * 9 + rank))
            for suit, mask in enumerate(masks)
            for rank in range(9)
            if mask >> rank & 1
        )
    else:
        table = tuple(
            Discard(
                option.discard,
                option.shanten,
                tuple(Acceptance(t, n) for t, n in zip(option.accepted, option.live, strict=True)),
                option.live_total,
            )
            for option in discards.discard_table(keys, melds, seen, form, tileset.copies, playable)
        )
    return HandAnalysis(
        tileset=tileset,
        tiles=tuple(sorted(tiles)),
        melds=melds,
        form=form,
        shanten_standard=standard,
        shanten_seven_pairs=seven,
        shanten=best,
        decompositions=tuple(shapes.decompositions(keys)),
        seven_pairs=None if form is None else shapes.seven_pairs(keys, form),
        waits=waits,
        accepted=accepted,
        discards=table,
    )
