"""Claim rounds opened: who may answer a tile (a discard, a robbable kong, an exposed last
tile, a kong tile) and with what.  The opener says what the tile is (``then``) and what
play does if nobody may or will claim it (``after``); the claim phase (``claims``) takes
the answers."""

from __future__ import annotations

from typing import Any

from handcore.tiles import RANKS, Tile
from interpreter.engine.actions import PASS, Action
from interpreter.engine.legal import claim_allowed, kong_again_options, meld_options, missed_lock
from interpreter.engine.state import After, Round, Table, tile_name
from interpreter.engine.wins import must_win, value


def open_round(
    t: Table, tile: Tile, discarder: int, context: frozenset[str], kinds: tuple[str, ...],
    then: str, after: After, data: tuple[Any, ...] = (),
) -> None:  # fmt: skip
    options: dict[int, list[Action]] = {}
    values: dict[int, int] = {}
    suit = tile // RANKS
    rules = t.rules
    can_win = "win" in kinds and "win" in rules.claims
    melds = rules.meld_claims[kinds]
    if rules.wilds and tile in rules.wilds and not rules.wild_claimable:
        can_win, melds = False, ()
    chowers = t.claimers["chow"][discarder] if "chow" in melds else ()
    first_round = not t.claims_made and then == "discard"
    if first_round:
        first_round = t.players[discarder].turns <= 1
    for seat in t.orders[discarder]:
        p = t.players[seat]
        acts: list[Action] = []
        if (
            can_win
            and p.may_win_on(tile, rules)  # cheap: most hands cannot win on the tile
            and claim_allowed(t, "win", seat, discarder, tile)
        ):
            first = first_round and p.turns == 0
            worth = value(t, seat, tile, discarder, context, first, in_hand=False)
            if worth is not None:
                values[seat] = worth
                if not missed_lock(t, seat, discarder, tile, worth, context, first):
                    acts.append(Action("win", tile))
                    if must_win(t):
                        options[seat] = acts
                        continue
        if (
            melds
            and not p.locked
            and p.void != suit
            and (p.counts[tile] >= 2 or seat in chowers)  # else no pung, kong or chow
        ):
            acts.extend(meld_options(t, seat, tile, discarder, melds))
        if acts:
            options[seat] = [*acts, PASS]
    if not options:
        t.round = None
        after(t, discarder, data)
        return
    t.round = Round(tile, discarder, context, then, after, options, list(options), values, data,
                    kinds=kinds)  # fmt: skip
    t.phase = "claim"


def reopen(t: Table, first: int) -> None:
    """The single-tile round under way asked again of the hands held now, ``first`` answering
    first and the answers already given dropped: a table whose hidden tiles were dealt anew
    (a search bot's sampled world) must not keep options and answers worked out from the
    hands it replaced."""
    rnd = t.round
    assert rnd is not None and not rnd.tiles
    open_round(t, rnd.tile, rnd.discarder, rnd.context, rnd.kinds, rnd.then, rnd.after, rnd.data)
    queue = t.round.queue if t.round is not None else []
    if first in queue:
        queue.remove(first)
        queue.insert(0, first)


def open_joint_round(
    t: Table, tiles: tuple[Tile, ...], discarder: int, context: frozenset[str],
    kinds: tuple[str, ...], then: str, after: After, data: tuple[Any, ...], owner_kongs: bool,
) -> None:  # fmt: skip
    """Others answer several tiles at once: a seat may win on every tile that wins for it
    (one ``win``, no tile named), or make one claim on one tile (a chow names its tile in
    ``option``); with ``owner_kongs`` the discarder may kong again, asked first."""
    options: dict[int, list[Action]] = {}
    values: dict[int, int] = {}
    wins: dict[int, tuple[Tile, ...]] = {}
    rules = t.rules
    can_win = "win" in kinds and "win" in rules.claims
    melds = rules.meld_claims[kinds]
    chowers = t.claimers["chow"][discarder] if "chow" in melds else ()
    distinct = tuple(dict.fromkeys(tiles))
    if rules.wilds and not rules.wild_claimable:
        distinct = tuple(tile for tile in distinct if tile not in rules.wilds)
    if owner_kongs and (own := kong_again_options(t, discarder, distinct)):
        options[discarder] = [*own, PASS]
    for seat in t.orders[discarder]:
        p = t.players[seat]
        acts: list[Action] = []
        if can_win and any(p.may_win_on(tile, rules) for tile in distinct):
            won: dict[Tile, int] = {}
            for tile in distinct:
                if claim_allowed(t, "win", seat, discarder, tile):
                    worth = value(t, seat, tile, discarder, context, False, in_hand=False)
                    if worth is not None:
                        won[tile] = worth
            free = {
                tile
                for tile, v in won.items()
                if not missed_lock(t, seat, discarder, tile, v, context, False)
            }
            if free:
                values[seat] = max(won.values())
                wins[seat] = tuple(tile for tile in tiles if tile in free)
                acts.append(Action("win"))
                if must_win(t):
                    options[seat] = acts
                    continue
        if melds and not p.locked:
            for tile in distinct:
                if p.void != tile // RANKS and (p.counts[tile] >= 2 or seat in chowers):
                    acts.extend(
                        a._replace(option=tile_name(tile)) if a.kind == "chow" else a
                        for a in meld_options(t, seat, tile, discarder, melds)
                    )
        if acts:
            options[seat] = [*acts, PASS]
    t.round = None
    if not options:
        after(t, discarder, data)
        return
    t.round = Round(tiles[0], discarder, context, then, after, options, list(options), values,
                    data, tiles=tiles, win_tiles=wins)  # fmt: skip
    t.phase = "claim"
