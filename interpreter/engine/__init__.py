"""The generic engine: plays hands of any ruleset by its mechanics (see docs/EVENTS.md)."""

from interpreter.engine.actions import Action
from interpreter.engine.game import Game, GameResult, IllegalAction, run
from interpreter.engine.match import MatchResult, play
from interpreter.engine.replay import ReplayError, replay
from interpreter.engine.rules import Rules

__all__ = [
    "Action", "Game", "GameResult", "IllegalAction", "MatchResult", "ReplayError", "Rules",
    "play", "replay", "run",
]  # fmt: skip
