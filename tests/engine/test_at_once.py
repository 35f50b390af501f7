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
    while game.choosing is not None:
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
    assert "void suits: " in narrate(game.events)
    older = [e for e in game.events if e["type"] != "void"]
    assert replay(older, app).events == len(game.events) - 1


def _written(tmp_path, choices: str):
    """sichuan/app, 换三张 and 定缺 on, with ``choices`` (YAML) over its own."""
    path = tmp_path / "order.yaml"
    path.write_text(
        f"format: 2\nextends: sichuan/app\nruleset: {{title: order}}\nchoices:\n{choices}",
        encoding="utf-8",
    )
    return load(path, settings=["exchange=true", "dingque=true"])


def _phases_played(ruleset):
    game, _ = choose(ruleset, lambda p, s: 0)
    entered = [e["phase"] for e in game.events if e["type"] == "phase"]
    revealed = [e["type"] for e in game.events if e["type"] in ("void", "exchange")]
    return game, entered, revealed


# 换三张 again, after 定缺: written after the inherited void.
LATE_EXCHANGE = """\
  exchange: {enabled: false}
  swap: {tiles: 3, constraint: count(suits) == 1, effect: exchange}
"""


def test_the_choices_are_made_in_the_order_written(app, tmp_path):
    _, entered, revealed = _phases_played(app)
    assert entered == ["exchange", "void", "turn"] and revealed == ["exchange", "void"]
    game, entered, revealed = _phases_played(_written(tmp_path, LATE_EXCHANGE))
    assert entered == ["void", "swap", "turn"] and revealed == ["void", "exchange"]
    assert game.phase == "turn" and game.to_move() == 1
    while not game.is_over():  # the hand plays on, and its log replays
        seat = game.to_move()
        game.apply(game.legal_actions(seat)[-1], seat)
    assert replay(game.events, game.ruleset).hands == 1


def test_a_choice_not_enabled_is_not_made(tmp_path):
    _, entered, revealed = _phases_played(_written(tmp_path, "  exchange: {enabled: false}\n"))
    assert entered == ["void", "turn"] and revealed == ["void"]


def test_the_old_order_of_the_phases_is_refused_with_its_place(tmp_path):
    """Format 2 orders choices as they are written; ``players.before_play`` is gone (``mjrules
    migrate`` rewrites it)."""
    path = tmp_path / "order.yaml"
    path.write_text(
        "format: 2\nextends: sichuan/app\nruleset: {title: order}\n"
        "players:\n  before_play: [void, exchange]\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError, match=r"order\.yaml:5:3: error: unknown key 'before_play'"):
        load(path)
