"""Choices every seat makes at once (换三张, 定缺): no seat sees another's before its own."""

from __future__ import annotations

import pytest

from dsl.ruleset import load
from interpreter.engine import Game, replay
from interpreter.engine.narrate import narrate

AT_ONCE = ("exchange", "void")


@pytest.fixture(scope="module")
def app():
    # sichuan/app with 换三张 and 定缺 both on.
    return load("sichuan/app", settings=["exchange=true", "dingque=true"])


def choose(ruleset, picks):
    """Play the at-once phases from one deal, seat ``s`` in ``phase`` taking the legal action
    at index ``picks(phase, s)`` (modulo their number); return the game and what each seat
    saw (its whole observation and its legal actions) when it chose."""
    game = Game(ruleset, seed=12, dealer=1)
    seen = {}
    while game.phase in AT_ONCE:
        seat, phase = game.to_move(), game.phase
        legal = game.legal_actions(seat)
        seen[phase, seat] = (
            {k: v for k, v in game.observation(seat).items() if k != "ruleset"},
            legal,
        )
        game.apply(legal[picks(phase, seat) % len(legal)], seat)
    return game, seen


ORDER = (1, 2, 3, 0)  # asked in turn from the dealer, seat 1


@pytest.mark.parametrize("phase", AT_ONCE)
@pytest.mark.parametrize("later", range(1, 4))
def test_what_a_seat_sees_when_it_chooses_does_not_depend_on_earlier_choices(app, phase, later):
    earlier = set(ORDER[:later])
    _, base = choose(app, lambda p, s: 0)
    _, varied = choose(app, lambda p, s: -1 if p == phase and s in earlier else 0)
    seat = ORDER[later]
    assert varied[phase, seat] == base[phase, seat]
    # The variation is real: the earlier seats did choose differently.
    assert any(base[phase, s][1][0] != base[phase, s][1][-1] for s in earlier)


def test_no_other_seats_choice_is_seen_until_all_have_chosen(app):
    game, seen = choose(app, lambda p, s: s)
    for (phase, seat), (observation, _) in seen.items():
        if phase == "void":
            assert observation["void"] == (None,) * 4, seat
        else:
            assert observation["exchange"] is None, seat
    events = [e for e in game.events if e["type"] in ("act", "void", "exchange")]
    voids = [e for e in events if e["type"] == "void"]
    assert len(voids) == 1 and events[-1] is voids[0]  # revealed once, after the last choice
    chosen = {e["seat"]: e["action"]["option"] for e in events if e["type"] == "act"}
    assert voids[0]["suits"] == [chosen[s] for s in range(4)]
    assert game.observation(2)["void"] == tuple("mps".index(chosen[s]) for s in range(4))
    assert game.phase == "turn" and game.to_move() == 1


def test_a_log_from_before_the_void_event_still_replays(app):
    game, _ = choose(app, lambda p, s: 0)
    while not game.is_over():
        seat = game.to_move()
        game.apply(game.legal_actions(seat)[-1], seat)
    assert replay(game.events, app).hands == 1
    assert "定缺" in narrate(game.events)
    older = [e for e in game.events if e["type"] != "void"]
    assert replay(older, app).events == len(game.events) - 1
