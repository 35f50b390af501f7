"""The bots that play when no ``--agents`` is given (docs/AGENTS.md, Default bots): a
module of its own, so that the command line reads them without loading the simulator."""

DEFAULT_AGENTS = "strategy:tuned"
"""The strategy bot with the parameters shipped for the ruleset played (its defaults when
none are): ``simulate``, ``play`` and :func:`interpreter.simulate.simulate`."""
ANALYSIS_AGENTS = "efficiency"
"""``compare``, ``sweep``, ``tactics`` and ``tune``, which play every setting or trial many
times, and whose policies name this bot's parameters: six times as fast as the strategy bot."""
