"""Choices every seat makes at once (换三张, 定缺): no seat sees another's before its own."""

from __future__ import annotations

import pytest

from dsl.ruleset import RulesetError, load
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


def _ordered(tmp_path, phases: str):
    """sichuan/app, 换三张 and 定缺 on, with ``players.before_play: phases``."""
    path = tmp_path / "order.yaml"
    path.write_text(
        f"extends: sichuan/app\nruleset: {{title: order}}\nplayers:\n  before_play: {phases}\n",
        encoding="utf-8",
    )
    return load(path, settings=["exchange=true", "dingque=true"])


def _phases_played(ruleset):
    game, _ = choose(ruleset, lambda p, s: 0)
    entered = [e["phase"] for e in game.events if e["type"] == "phase"]
    revealed = [e["type"] for e in game.events if e["type"] in ("void", "exchange")]
    return game, entered, revealed


def test_the_ruleset_orders_the_phases_before_play(app, tmp_path):
    _, entered, revealed = _phases_played(app)
    assert entered == ["exchange", "void", "turn"] and revealed == ["exchange", "void"]
    game, entered, revealed = _phases_played(_ordered(tmp_path, "[void, exchange]"))
    assert entered == ["void", "exchange", "turn"] and revealed == ["void", "exchange"]
    assert game.phase == "turn" and game.to_move() == 1
    while not game.is_over():  # the hand plays on, and its log replays
        seat = game.to_move()
        game.apply(game.legal_actions(seat)[-1], seat)
    assert replay(game.events, game.ruleset).hands == 1


def test_a_phase_left_out_of_before_play_is_not_played(tmp_path):
    _, entered, revealed = _phases_played(_ordered(tmp_path, "[void]"))
    assert entered == ["void", "turn"] and revealed == ["void"]


def test_an_unknown_phase_before_play_is_refused_with_its_place(tmp_path):
    with pytest.raises(RulesetError, match=r"order\.yaml:4") as error:
        _ordered(tmp_path, "[void, piao]")
    assert "exchange, void" in str(error.value)
