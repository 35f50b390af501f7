"""What a seat observes of others' rivers and of its own missed-win lock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dsl.ruleset import load
from interpreter.agents import make_agent, search
from interpreter.agents.reading import View
from interpreter.engine import Action, Game, events
from interpreter.engine.actions import PASS
from interpreter.engine.observation import Observation, Rivers
from tests.engine.helpers import rigged, tile

# Changsha 2014: chow from the previous player only; a pass on a win locks every discard win
# until the player's own draw.  Seat 2 waits on 5m (2s pair); seat 0 (the dealer) holds 5m.
HANDS = {
    0: "5m 1m 9m 1p 9p 1s 3s 9s 2m 3p 7p 4s 6s 8m",
    1: "1m 2m 8m 9m 5p 8p 9p 9p 1s 2s 5s 6s 8s",
    2: "46m 123p 456p 789s 22s",
    3: "3m 7m 7m 2p 2p 6p 7p 3s 4s 5s 6s 7s 8p",
}


def test_a_claimed_tile_stays_in_the_river_marked_with_its_taker() -> None:
    hands = dict(HANDS)
    hands[1], hands[2] = HANDS[2], HANDS[1]  # the 5m wait sits next: it may chow
    game = rigged(load("changsha/qq2014"), hands, draws="9m 9s")
    game.apply(Action("discard", tile("5m")), 0)
    assert Action("chow", tile("4m")) in game.legal_actions(1)
    game.apply(Action("chow", tile("4m")), 1)
    game.apply(Action("discard", tile("2s")), 1)
    obs = game.observation(3)
    assert obs["discards"][0] == ()  # the claimed tile has left the discards …
    assert obs["rivers"][0] == ((tile("5m"), 1),)  # … but not the river: seat 1 took it
    assert obs["rivers"][1] == ((tile("2s"), None),)


def decisions(rid: str, games: int, odd: str, even: str) -> Iterator[tuple[Game, int, int]]:
    """(game, seat to move, seed) at each decision of ``games`` games, ``odd`` bots in the odd
    seats and ``even`` in the others playing on after each."""
    ruleset = load(rid)
    for seed in range(games):
        game = Game(ruleset, seed, seed % 4)
        bots = [make_agent(odd if s % 2 else even, seed + s) for s in range(4)]
        while (seat := game.to_move()) is not None:
            yield game, seat, seed
            game.apply(bots[seat].act(game.observation(seat), game.legal_actions(seat)), seat)


@pytest.mark.parametrize("rid", ["changsha/qq2014", "sichuan/blog5"])
def test_the_rivers_untaken_tiles_are_the_discards(rid: str) -> None:
    taken = 0
    for game, seat, _ in decisions(rid, 12, "random", "simple"):
        obs = game.observation(seat)
        for river, discards in zip(obs["rivers"], obs["discards"], strict=True):
            assert tuple(t for t, taker in river if taker is None) == discards
            taken += sum(taker is not None for _, taker in river)
    assert taken > 0


def test_a_passed_win_shows_in_the_passers_own_observation_only() -> None:
    game = rigged(load("changsha/qq2014"), HANDS, draws="9m 9s")
    game.apply(Action("discard", tile("5m")), 0)
    assert Action("win", tile("5m")) in game.legal_actions(2)
    assert game.observation(2)["missed_win"] is None
    game.apply(PASS, 2)
    assert game.to_move() == 1  # seat 1 has drawn; seat 2 has not drawn since its pass
    lock = game.observation(2)["missed_win"]
    # the 5m it passed, worth 1 (平胡); qq2014's missed_win (true) locks every discard
    assert lock == {"tiles": (tile("5m"),), "value": 1, "until": "own_draw"}
    assert game.observation(1)["missed_win"] is None


SHIPPED = ["changsha/qq2014", "sichuan/blog5", "hunan/hongzhong", "house/changsha_sixi",
           "house/sichuan_xueliu"]  # fmt: skip
"""Wild tiles (红中 in hongzhong), honours and the Sichuan and Changsha flows."""


@pytest.mark.parametrize("rid", SHIPPED)
def test_the_hand_as_the_engine_keeps_it_reads_as_its_tiles(rid: str) -> None:
    """A bot reads ``hand_counts`` and ``hand_keys`` instead of counting ``hand`` again: its
    view of every observation is the one the tiles alone give (an observation typed by hand
    has no such fields)."""
    seen = 0
    for game, seat, _ in decisions(rid, 6, "efficiency", "random"):
        obs = game.observation(seat)
        typed = {k: v for k, v in obs.items() if k not in ("hand_counts", "hand_keys")}
        assert View.of(obs) == View.of(typed)
        seen += 1
    assert seen > 100


@pytest.mark.parametrize("rid", SHIPPED)
def test_rivers_read_on_from_the_last_reading_are_those_read_at_once(rid: str) -> None:
    """The rivers are read on from the events an observation last read (``Rivers``): at
    every decision they are what reading the whole event list at once gives."""
    taken = 0
    for game, seat, seed in decisions(rid, 6, "efficiency", "random"):
        if seed % 2 or seat == 0:  # now and then, several decisions go unobserved
            obs = game.observation(seat)
            assert obs["rivers"] == Rivers(game.state.events, game.state.n).now()
            taken += sum(taker is not None for river in obs["rivers"] for _, taker in river)
    assert taken > 0


def test_a_copied_table_reads_its_own_rivers() -> None:
    """The search bot plays on copies of the table: a copy's events part from the
    original's, and so do their rivers."""
    game = Game(load("sichuan/blog5"), 3, 0)
    bot = make_agent("efficiency", 3)
    for _ in range(12):
        seat = game.to_move()
        game.apply(bot.act(game.observation(seat), game.legal_actions(seat)), seat)
    before = game.observation(0)["rivers"]
    copy = search._copy(game.state)
    copy.events.append(events.discard(2, tile("9s")))
    assert Observation(copy, 0)["rivers"][2][-1] == (tile("9s"), None)
    assert Observation(game.state, 0)["rivers"] == before
