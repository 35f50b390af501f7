"""The search bot: determinised Monte-Carlo rollouts over the strategy bot.

At a decision with more than one sensible option it deals the tiles it cannot see anew
(:func:`sample_world`: the other hands and the wall, consistent with what its observation
shows), plays the hand out from each candidate action with the strategy bot at every seat,
and takes the candidate with the best mean result: the points the seat holds when the
hand ends, through the ruleset's own settlement.  Every candidate is played on the same
sampled worlds (common random numbers), so their difference is not the worlds' luck.

- **Candidates** (at most ``width``): in its turn, once a discard leaves the hand at most
  ``near`` tiles from ready (``handcore.discards`` shanten; earlier discards differ too
  little for a few rollouts to tell apart), the strategy bot's choice, then its kongs, then
  the discards nearest a complete hand (``handcore.discards`` order; the void suit while it
  holds one).  With ``guard=risk``, while the strategy bot sees a threat (its ``alert``),
  only discards that risk no more than its own choice, by its own estimate of the loss:
  the worlds deal the others' tiles without reading their rivers, so in the rollouts any
  tile is as likely a wait as another, and the strategy bot's reading (现物, 筋, void
  suits) is lost.  On another's discard, the strategy bot's answer, passing, then the
  other claims.  A win is always taken, and every other decision (choices, robbing a
  kong, the last tile, tiles shown apart) is the strategy bot's.  With one candidate there
  is nothing to search.
- **Budget**: ``budget`` worlds per searched decision, each played out once per candidate
  (``budget`` × candidates rollouts).  The strategy bot's choice is kept unless another's
  mean gain over it, paired by world, is ``confidence`` standard errors above zero (the
  best of a few noisy means is biased upwards); a zero budget keeps it always.
- **Hidden information**: a world keeps everything the seat sees (its hand, rivers, melds,
  concealed kongs if shown, tiles set apart, the counts of tiles in each hand and in the
  wall, void suits) and deals the rest at random from the tiles it has not seen, a seat
  with a declared void that has since thrown another suit holding none of it (the engine
  makes the void suit go first).  With ``progress`` above 0 a hand that has played a
  while is built, not random: each other hand is the nearest to ready of
  1 + ``progress`` × its turns played deals (:func:`sample_world`); dealt once, a hand is
  about 2 tiles from ready whatever the turn, where the hands really held are nearer
  (``bench/search_worlds.py``).  Other seats' passed wins (missed-win locks), answers held
  in a claim round, exchanged tiles and the table's random state are not carried over.
  Where the tiles it gave in an exchange went is not used.  (:func:`known_world` keeps
  the others' hands as held: ``bench/search_strength.py --known-hands`` measures with it
  what a perfect reading would gain; no bot deals so.)

Parameters: ``budget`` (6 worlds), ``width`` (3 candidates), ``near`` (1), ``confidence``
(1.0), ``progress`` (0: deal each hand once), ``guard`` (``none``), and the strategy
bot's (``interpreter.agents.PARAMS``), used for its own choices and in every rollout.
docs/AGENTS.md gives the strength measured with ``progress`` and ``guard`` and without.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from math import sqrt
from random import Random
from statistics import fmean, stdev
from typing import Any

from dsl.ruleset import Ruleset
from handcore import shapes
from handcore.discards import discard_table
from handcore.suit_tables import RANKS
from handcore.tiles import Tile
from interpreter.agents.strategy import StrategyAgent
from interpreter.engine.actions import PASS, Action
from interpreter.engine.game import face_up, phases
from interpreter.engine.observation import Observation
from interpreter.engine.rounds import reopen
from interpreter.engine.state import TILES, Table, to_move

_CLAIMS = ("kong", "pung", "chow")
GUARDS = ("none", "risk")
"""What limits the discards searched while an opponent looks ready (``guard``)."""
_MOST_DEALS = 64


class SearchAgent:
    def __init__(
        self, seed: int = 0, budget: int = 6, width: int = 3, near: int = 1,
        confidence: float = 1.0, progress: float = 0.0, guard: str = "none",
        ruleset: Ruleset | None = None, **strategy: Any,
    ) -> None:  # fmt: skip
        if guard not in GUARDS:
            raise ValueError(f"guard {guard!r}: expected one of {GUARDS}")
        self.rng = Random(seed)
        self.budget = int(budget)
        self.width = int(width)
        self.near = int(near)
        self.confidence = float(confidence)
        self.progress = float(progress)
        self.guard = guard
        self.strategy = StrategyAgent(seed, ruleset=ruleset, **strategy)
        self.player = StrategyAgent(seed, ruleset=ruleset, **strategy)
        """The rollouts' bot at every seat (deterministic; one instance keeps its caches)."""

    def act(self, obs: Observation, legal: Sequence[Action]) -> Action:
        choice = self.strategy.act(obs, legal)
        if choice.kind == "win" or self.budget <= 0 or not isinstance(obs, Observation):
            return choice  # a plain mapping (a saved observation) has no table to copy
        table = _table(obs)
        candidates = self.candidates(obs, legal, choice)
        if len(candidates) < 2:
            return choice
        seat = obs["seat"]
        results: list[list[float]] = []
        memo = dict(table.win_values)
        for _ in range(self.budget):
            world = sample_world(table, seat, self.rng, self.progress)
            world.win_values = memo
            results.append([self.rollout(world, seat, a) for a in candidates])
        return candidates[self.pick(results)]

    def pick(self, results: Sequence[Sequence[float]]) -> int:
        """The candidate (by index) of best mean among those whose gain over the strategy
        bot's choice (index 0), paired by world, is ``confidence`` standard errors above 0;
        else 0.  The best of a few noisy means is biased upwards: without this margin the
        bot would leave the strategy bot's choice for luck."""
        n = len(results)
        best, top = 0, 0.0
        for i in range(1, len(results[0])):
            gains = [r[i] - r[0] for r in results]
            mean = fmean(gains)
            error = stdev(gains) / sqrt(n) if n > 1 else 0.0
            if mean > top and mean > self.confidence * error:
                best, top = i, mean
        return best

    def candidates(self, obs: Observation, legal: Sequence[Action], choice: Action) -> list[Action]:
        """The few actions worth searching at this decision (none: leave it to the strategy
        bot): see the module's docstring."""
        table = _table(obs)
        found = [choice]
        if obs["phase"] == "turn" and any(a.kind == "discard" for a in legal):
            found += [a for a in legal if a.kind == "kong"]
            ctx = self.strategy._context(obs)
            view = ctx.view
            allowed = {a.tile for a in legal if a.kind == "discard"}
            m = len(view.melds)
            rows = [
                r for r in discard_table(view.keys, m, ctx.visible, ctx.form(m), wilds=view.wilds)
                if r.discard in allowed
            ]  # fmt: skip
            if not rows or rows[0].shanten > self.near:
                return []
            found += [Action("discard", r.discard) for r in rows]
            risk = self.strategy._risk(ctx) if self.guard == "risk" else None
            if risk is not None:  # the worlds do not read the rivers: keep its defence
                if choice.kind != "discard":
                    return []
                limit = risk.of(choice.tile)[1]
                found = [a for a in found if a.kind == "discard" and risk.of(a.tile)[1] <= limit]
        elif obs["claim"] is not None and table.round is not None and not table.round.tiles:
            if table.round.then != "discard" or not any(a.kind in _CLAIMS for a in legal):
                return []
            found += [PASS, *(a for a in legal if a.kind in _CLAIMS)]
        else:
            return []
        return list(dict.fromkeys(a for a in found if a in legal))[: self.width]

    def rollout(self, world: Table, seat: int, action: Action) -> float:
        """``seat``'s points at the end of the hand played from a copy of ``world`` with
        ``action`` first, the strategy bot at every seat."""
        t = _copy(world)
        t.rng = Random()
        t.rng.setstate(world.rng.getstate())  # the same future luck for every candidate
        moves = phases(t.rules)
        player = self.player
        moves[t.phase].act(t, seat, action)
        while (s := to_move(t)) is not None:
            phase = moves[t.phase]
            phase.act(t, s, player.act(Observation(t, s), phase.legal(t, s)))
        return float(t.deltas[seat])


def _table(obs: Observation) -> Table:
    """The table behind an observation.  The bot reads only its public parts: whatever a
    seat may not see is dealt anew by :func:`sample_world` before anything is played."""
    return obs._game


def unseen(t: Table, seat: int) -> Counter[Tile]:
    """The tiles ``seat`` has not seen: the tile set less its own hand and everything
    face up (melds, discards, tiles won, flowers, tiles set apart, birds, the wilds' indicator)."""
    found = Counter(t.rules.all_tiles)
    found.subtract({tile: n for tile, n in enumerate(t.players[seat].counts) if n})
    for tiles in face_up(t, lambda q, meld: _shown(t, q, seat, meld)):
        found.subtract(tiles)
    return found


def _shown(t: Table, q: int, seat: int, meld: Any) -> bool:
    return q == seat or not meld.concealed or meld.kind != "kong" or t.rules.concealed_shown


def sample_world(t: Table, seat: int, rng: Random, progress: float = 0.0) -> Table:
    """A copy of the table in which every tile ``seat`` cannot see is dealt anew from the
    tiles it has not seen, keeping how many each hand holds, the wall's count and what the
    observation shows (a concealed kong hidden keeps its place with four tiles of a kind
    not seen; a seat void in a suit by the rule, and shown to have thrown its last tile of
    it, holds none).  The table itself is unchanged.

    ``progress``: each other hand is the nearest to ready (shanten, seven pairs aside) of
    1 + ``progress`` × its turns played (at most ``1 + _MOST_DEALS``) deals of its size:
    a hand that has drawn and thrown for a while is built, not random; 0 deals each once."""
    w = _copy(t)
    pool = unseen(t, seat)
    tiles = sorted(pool.elements())
    rng.shuffle(tiles)
    # Hidden concealed kongs: four of a kind among the unseen tiles.
    for q, p in enumerate(w.players):
        if q == seat:
            continue
        melds = list(p.melds)
        for i, m in enumerate(melds):
            if not _shown(t, q, seat, m):
                kinds = sorted(k for k, n in Counter(tiles).items() if n >= 4)
                kind = rng.choice(kinds) if kinds else m.tile
                for _ in range(4):
                    tiles.remove(kind)
                melds[i] = m._replace(tile=kind)
        p.melds = tuple(melds)
    others = [q for q in range(w.n) if q != seat]
    void_free = [q for q in others if _threw_void_out(t, q)]
    hands: dict[int, list[Tile]] = {}
    for q in sorted(others, key=lambda q: q not in void_free):
        p = w.players[q]
        size = sum(p.counts)
        v = p.void if q in void_free else None
        fits = [i for i, x in enumerate(tiles) if x // RANKS != v]
        if len(fits) < size:  # (never in a real position) no room to keep the void out
            fits = list(range(len(tiles)))
        deals = 1 + min(int(progress * p.turns), _MOST_DEALS)
        picked = fits[:size]
        if deals > 1:
            m = len(p.melds)
            least = tiles_from_ready(t, [tiles[i] for i in picked], m)
            for _ in range(deals - 1):
                other = sorted(rng.sample(fits, size))
                away = tiles_from_ready(t, [tiles[i] for i in other], m)
                if away < least:
                    picked, least = other, away
        chosen = set(picked)
        hands[q] = [tiles[i] for i in picked]
        tiles = [x for i, x in enumerate(tiles) if i not in chosen]
    for q, hand in hands.items():
        p = w.players[q]
        p.counts = [0] * len(p.counts)
        p.take(hand)
        p.lock_tiles = set()
        p.lock_value = -1
    w.exchanged = {q: v for q, v in w.exchanged.items() if q == seat}
    return _dealt_wall(w, tiles, rng, seat)


def known_world(t: Table, seat: int, rng: Random, progress: float = 0.0) -> Table:
    """A copy of the table in which only the wall's untaken places are dealt anew: the
    other hands (and concealed kongs) are the ones really held.  No bot deals so, as no
    player sees them: ``bench/search_strength.py --known-hands`` gives the search bot these
    worlds to measure what a perfect reading of the others' hands would gain it.
    ``progress`` is ignored (the hands are the truth)."""
    w = _copy(t)
    pool = unseen(t, seat)
    for q, p in enumerate(t.players):
        if q != seat:
            pool.subtract(p.hand())
            hidden = [m.tile for m in p.melds if not _shown(t, q, seat, m)]
            pool.subtract(hidden * 4)
    tiles = sorted(pool.elements())
    rng.shuffle(tiles)
    return _dealt_wall(w, tiles, rng, seat)


def _dealt_wall(w: Table, tiles: list[Tile], rng: Random, seat: int) -> Table:
    """World ``w`` with ``tiles`` (shuffled) in the wall's untaken places, its own random
    state, and a claim round under way asked again of the hands it holds."""
    wall = w.wall
    spots = [i for i, gone in enumerate(wall.taken) if not gone]
    assert len(spots) == len(tiles), "every unseen tile has one place"
    for i, tile in zip(spots, tiles, strict=True):
        wall.tiles[i] = tile
    w.rng = Random(rng.random())
    if w.phase == "claim" and w.round is not None and not w.round.tiles:
        reopen(w, seat)
    return w


def tiles_from_ready(t: Table, hand: list[Tile], melds: int) -> int:
    """How far a hand with ``melds`` declared is from ready (shanten, seven pairs aside)."""
    tileset = t.rules.tileset
    keys, wilds = shapes.without_wilds(shapes.keys_of_tiles(hand, tileset), tileset)
    return shapes.shanten(keys, melds, None, wilds)


def _threw_void_out(t: Table, q: int) -> bool:
    """Whether seat ``q`` holds no tile of its declared void suit: its latest discard was of
    another suit (the void suit goes first) and it is not in the middle of a turn."""
    p = t.players[q]
    if p.void is None or not p.in_game:
        return False
    rnd = t.round
    mid_turn = (t.phase == "turn" and t.current == q) or (
        rnd is not None and rnd.discarder == q and rnd.then != "discard"
    )
    last = _last_discard(t, q)
    return not mid_turn and last is not None and last // RANKS != p.void


def _last_discard(t: Table, q: int) -> Tile | None:
    """Seat ``q``'s latest discard, taken or not (read from the public events)."""
    for event in reversed(t.events):
        if event["type"] == "discard" and event["seat"] == q:
            return TILES[event["tile"]]
    return None


def _copy(t: Table) -> Table:
    """A table that plays on apart from ``t``: every part play changes is copied, the
    ruleset and the rules shared."""
    w = copy.copy(t)
    w.wall = copy.copy(t.wall)
    w.wall.tiles = list(t.wall.tiles)
    w.wall.taken = list(t.wall.taken)
    w.players = [_player_copy(p) for p in t.players]
    w.events = list(t.events)
    w.facts = copy.copy(t.facts)
    if t.facts.at_first_win is not None:
        w.facts.at_first_win = dict(t.facts.at_first_win)
    w.deltas = list(t.deltas)
    w.settlements = list(t.settlements)
    w.win_events = list(t.win_events)
    w.kong_tiles = list(t.kong_tiles)
    w.last_drawn = list(t.last_drawn)
    w.birds_taken = list(t.birds_taken)
    w.kongs = list(t.kongs)
    w.held = dict(t.held)
    w.chosen = dict(t.chosen)
    w.declared = set(t.declared)
    w.exchanged = dict(t.exchanged)
    w.legal = None
    if t.round is not None:
        r = w.round = copy.copy(t.round)
        r.options = dict(r.options)
        r.queue = list(r.queue)
        r.values = dict(r.values)
        r.choices = dict(r.choices)
    return w


def _player_copy(p: Any) -> Any:
    q = copy.copy(p)
    q.counts = list(p.counts)
    q.discards = list(p.discards)
    q.won = list(p.won)
    q.flowers = list(p.flowers)
    q.lock_tiles = set(p.lock_tiles)
    return q


__all__ = ["SearchAgent", "known_world", "sample_world", "tiles_from_ready", "unseen"]
