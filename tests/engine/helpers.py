"""Scripted games: walls rigged so that the hands and draws are the ones a test needs."""

from __future__ import annotations

from collections import Counter
from random import Random

from dsl.ruleset import Ruleset
from handcore.tiles import EVERY, Tile
from interpreter.engine import Action, Game
from interpreter.engine.game import deal_order
from interpreter.engine.rules import Rules


def tiles(text: str) -> list[Tile]:
    return EVERY.parse(text, check_copies=False) if text.strip() else []


def tile(text: str) -> Tile:
    return tiles(text)[0]


def rigged(
    ruleset: Ruleset,
    hands: dict[int, str],
    draws: str = "",
    dealer: int = 0,
    last: str = "",
    tail: str = "",
) -> Game:
    """A game whose seats are dealt ``hands`` (the rest filled), whose front draws begin with
    ``draws``, whose last front tiles are ``last`` and whose tail stack holds ``tail``."""
    rules = Rules(ruleset)
    pool = Counter(rules.all_tiles)
    wanted = {s: tiles(text) for s, text in hands.items()}
    front, end, back = tiles(draws), tiles(last), tiles(tail)
    for t in [*(t for ts in wanted.values() for t in ts), *front, *end, *back]:
        pool[t] -= 1
        assert pool[t] >= 0, f"too many {EVERY.name(t)}"
    filler = sorted(pool.elements())
    wall: list[Tile] = []
    for seat in deal_order(rules, dealer):
        wall.append(wanted[seat].pop(0) if wanted.get(seat) else filler.pop(0))
    assert not any(wanted.values()), "a hand longer than the deal"
    wall += front
    middle = len(rules.all_tiles) - len(wall) - len(end) - len(back)
    wall += filler[:middle] + end + back
    return Game(ruleset, 0, dealer, rules=rules, wall=wall)


def tsumogiri(game: Game, until=lambda g: False) -> None:
    """Everyone discards what they draw and passes every claim, until ``until(game)``."""
    while not game.is_over() and not until(game):
        seat = game.to_move()
        legal = game.legal_actions(seat)
        if game.phase == "turn":
            drawn = game.drawn
            choice = Action("discard", drawn) if Action("discard", drawn) in legal else None
            choice = choice or next(a for a in legal if a.kind == "discard")
        elif Action("pass") in legal:
            choice = Action("pass")
        else:
            choice = legal[0]
        game.apply(choice, seat)


def next_dice(game: Game, count: int = 2) -> list[int]:
    """The dice the game's next roll will show (its random state is left untouched)."""
    rng = Random()
    rng.setstate(game.rng.getstate())
    return [rng.randint(1, 6) for _ in range(count)]


def place_stack(game: Game, count: int, text: str) -> None:
    """Put ``text`` (top, then bottom) into the ``count``-th stack from the tail, swapping
    with copies still in the wall elsewhere (the tile set is unchanged)."""
    w = game.wall
    stack = w.stacks_from_tail()[count - 1]
    targets = [i for i in (2 * stack, 2 * stack + 1) if not w.taken[i]]
    for index, t in zip(targets, tiles(text), strict=False):
        if w.tiles[index] == t:
            continue
        other = next(
            i
            for i in range(len(w.tiles))
            if not w.taken[i] and w.tiles[i] == t and i not in targets
        )
        w.tiles[index], w.tiles[other] = w.tiles[other], w.tiles[index]
