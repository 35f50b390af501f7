"""What a seat may do: the questions every phase asks before a decision (which tiles it may
discard, which kongs and replacement draws are open to it, what it may claim).  Queries
only: nothing here changes the table."""

from __future__ import annotations

from collections import Counter
from itertools import compress

from dsl.situation import HandMeld
from handcore import shapes
from handcore.tiles import RANKS, Tile
from interpreter.context import build_situation
from interpreter.engine.actions import DISCARDS, PASS, Action
from interpreter.engine.rules import Replacement
from interpreter.engine.state import EMPTY, Player, Table
from interpreter.engine.wins import must_win, self_discarder, shown_wins, value, value_of, visible
from interpreter.engine.wins import situation as win_situation

_CONTEXTS = {name: frozenset((name,)) for name in ("kong_draw", "kong_discard", "robbing_kong")}


def first_turn(t: Table, seat: int) -> bool:
    """Whether ``seat`` is in its first turn, no claim made yet (a first-turn win)."""
    return not t.claims_made and t.players[seat].turns == 0


def turn_actions(t: Table, seat: int) -> list[Action]:
    """In its turn: a self-drawn win, kongs, then the discards (the drawn tile alone when
    the hand is locked; the void suit first while the seat holds any of it)."""
    p = t.players[seat]
    r = t.rules
    actions: list[Action] = []
    drawn = t.drawn
    if drawn is not None:
        found = value(t, seat, drawn, self_discarder(t), t.draw_ctx, first_turn(t, seat),
                      in_hand=True)  # fmt: skip
        if found is not None:
            actions.append(Action("win", drawn))
            if must_win(t):
                return actions
        if r.kongs_allowed:
            actions.extend(self_kongs(t, seat, drawn))
    elif r.kong_after_claim and r.kongs_allowed:  # right after a chow or pung
        actions.extend(self_kongs(t, seat, None))
    counts = p.counts
    if p.locked and drawn is not None:
        actions.append(DISCARDS[drawn])
        return actions
    if p.void is not None:
        start = p.void * RANKS
        void = [DISCARDS[tile] for tile in range(start, start + RANKS) if counts[tile]]
        if void:
            actions.extend(void)
            return actions
    actions.extend(compress(DISCARDS, counts))
    return actions


def win_or_pass(t: Table, seat: int) -> list[Action]:
    """The taker of a last tile, or the maker of tiles shown apart, wins or passes."""
    win = None
    if t.phase == "last_turn" and t.drawn is not None:
        if value(t, seat, t.drawn, None, t.draw_ctx, False, in_hand=True) is not None:
            win = Action("win", t.drawn)
    elif any(shown_wins(t, seat)):
        win = Action("win")
    if win is None:
        return [PASS]
    return [win] if must_win(t) else [win, PASS]


# --- kongs -------------------------------------------------------------------------------


def kong_context(rep: Replacement | None, name: str) -> frozenset[str]:
    """``{name}`` for a win that ``rep`` makes a kong win (on its replacement, the
    discard after it, its robbed tile), else none."""
    return _CONTEXTS[name] if rep is None or rep.counts_as_kong else EMPTY


def replacement(t: Table, name: str) -> Replacement:
    return next(x for x in t.rules.replacements if x.name == name)


def hand_after_kong(
    p: Player, tile: Tile, concealed: bool
) -> tuple[tuple[int, ...], tuple[HandMeld, ...]]:
    """``p``'s concealed tiles and melds once every copy of ``tile`` it holds goes into a
    kong of ``tile``: a concealed kong, or its pung of ``tile`` made a kong."""
    keys = shapes.add_tile(p.keys, tile, -p.counts[tile])
    if concealed:
        return keys, (*p.melds, HandMeld("kong", tile, True))
    kong = HandMeld("kong", tile, False)
    return keys, tuple(kong if m.kind == "pung" and m.tile == tile else m for m in p.melds)


def replacements_for(
    t: Table, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...]
) -> list[str]:
    """The replacement draws open to ``seat`` after a kong that leaves it ``keys`` and
    ``melds``."""
    left = t.wall.drawable
    return [
        rep.name
        for rep in t.rules.replacements
        if left > rep.min_wall
        and left
        and (not rep.requires_ready or _ready(t, seat, keys, melds, rep))
    ]


def _ready(
    t: Table, seat: int, keys: tuple[int, ...], melds: tuple[HandMeld, ...], rep: Replacement
) -> bool:
    """Ready (听牌) for ``rep``: some tile it may draw makes a winning hand of the
    ruleset, as a win on that draw (a wait of a shape-free hand type counts, and so does
    a pair only a kong win allows)."""
    r = t.rules
    if not r.may_win_with_one_more(keys, melds):
        return False
    held = Counter(tile for m in melds for tile in m.tiles)
    context = kong_context(rep, "kong_draw")
    for tile in r.hand_tiles:
        if shapes.tile_count(keys, tile) + held[tile] >= r.copies:
            continue  # no copy of it left to draw
        full = shapes.add_tile(keys, tile)
        if value_of(t, seat, full, melds, tile, None, context, False) is not None:
            return True
    return False


def self_kongs(t: Table, seat: int, drawn: Tile | None) -> list[Action]:
    """The kongs ``seat`` may declare in its turn, after drawing ``drawn`` (or None:
    right after a chow or pung)."""
    p = t.players[seat]
    counts = p.counts
    pungs = {m.tile for m in p.melds if m.kind == "pung" and counts[m.tile]} if p.melds else ()
    if not pungs and 4 not in counts:
        return []
    found = []
    for tile, n in enumerate(counts):
        if not n or (n < 4 and tile not in pungs) or tile in t.rules.wilds:
            continue
        if p.locked and tile != drawn:
            continue
        if p.void is not None and tile // RANKS == p.void:
            continue
        keys, melds = hand_after_kong(p, tile, concealed=n == 4)
        found.extend(Action("kong", tile, name) for name in replacements_for(t, seat, keys, melds))
    return found


def kong_again_options(t: Table, seat: int, tiles: tuple[Tile, ...]) -> list[Action]:
    """The kongs a kong's owner may make with one of its discarded tiles (继续开杠): with
    three of it concealed, or a pung of it."""
    p = t.players[seat]
    found = []
    for tile in tiles:
        if (p.void is not None and tile // RANKS == p.void) or tile in t.rules.wilds:
            continue
        concealed = p.counts[tile] == 3
        if not concealed and not any(m.kind == "pung" and m.tile == tile for m in p.melds):
            continue
        keys, melds = hand_after_kong(p, tile, concealed)
        names = replacements_for(t, seat, keys, melds)
        found.extend(Action("kong", tile, name) for name in names)
    return found


# --- claims ------------------------------------------------------------------------------


def claim_allowed(t: Table, kind: str, seat: int, discarder: int, tile: Tile) -> bool:
    spec = t.rules.claims.get(kind)
    if spec is None or seat not in t.claimers[kind][discarder]:
        return False
    when = spec[1]
    if when is not None:
        situation = build_situation(
            claimer=seat, discarder=discarder, tile=tile,
            dealer=t.dealer, players=t.n, players_in_game=t.in_game_seats,
            options=t.rules.options,
        )  # fmt: skip
        return bool(when(situation))
    return True


def missed_lock(
    t: Table, seat: int, discarder: int, tile: Tile, worth: int, context: frozenset[str],
    first: bool,
) -> bool:  # fmt: skip
    """Whether ``restrictions.missed_win`` refuses ``seat`` a win worth ``worth`` on ``tile``
    (in ``context``), having passed one (过水).  The hand types the win would be are worked
    out again here, for the rule to read: few seats hold a lock."""
    p = t.players[seat]
    rule = t.rules.missed_win
    if rule is None or not p.lock_tiles:
        return False
    keys = shapes.add_tile(p.keys, tile)
    seen = visible(t, (tile,), True) if t.facts.reads_visible else ()
    win = win_situation(t, seat, keys, p.melds, tile, discarder, context, first, seen)
    found = t.rules.hand_types(win)
    situation = build_situation(
        winner=seat, discarder=discarder, win_tile=tile,
        value=worth, missed_tiles=frozenset(p.lock_tiles), missed_value=p.lock_value,
        dealer=t.dealer, dealers=t.dealers, players=t.n, options=t.rules.options,
        hands={h.id: h.value for h in found.hands} if found is not None else {},
    )  # fmt: skip
    return bool(rule(situation))


def meld_options(
    t: Table, seat: int, tile: Tile, discarder: int, kinds: tuple[str, ...]
) -> list[Action]:
    """The kongs, pungs and chows of ``kinds`` that ``seat`` may make with ``tile``."""
    p = t.players[seat]
    counts = p.counts
    n = counts[tile]
    acts: list[Action] = []
    wilds = t.rules.wilds
    if (
        n == 3
        and "kong" in kinds
        and tile not in wilds
        and claim_allowed(t, "kong", seat, discarder, tile)
    ):
        keys = shapes.add_tile(p.keys, tile, -3)
        acts.extend(
            Action("kong", tile, name)
            for name in replacements_for(t, seat, keys, (*p.melds, HandMeld("kong", tile, False)))
        )
    if n >= 2 and "pung" in kinds and claim_allowed(t, "pung", seat, discarder, tile):
        acts.append(Action("pung", tile))
    if "chow" in kinds:  # the chows held first: the seat next in turn mostly has none
        lows = [
            low
            for low, a, b in t.rules.chows[tile]
            if counts[a] and counts[b] and not (wilds and (a in wilds or b in wilds))
        ]
        if lows and claim_allowed(t, "chow", seat, discarder, tile):
            acts.extend(Action("chow", low) for low in lows)
    return acts
