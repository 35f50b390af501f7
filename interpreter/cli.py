"""The ``mjrules`` command line.

Every command has ``--help``; commands that report take ``--json``.  Exit codes: 0 on
success, 1 on invalid input (a message on stderr), never a traceback.  Heavy modules
(the hand tables, the rules compiler) are imported inside the commands, so that
``mjrules --help`` answers at once.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from handcore.tiles import EVERY, STANDARD, WITH_HONOURS, TileError, TileSet
from interpreter.check_cli import COMMANDS as CHECK_COMMANDS
from interpreter.default_agents import ANALYSIS_AGENTS, DEFAULT_AGENTS
from interpreter.ruleset_cli import COMMANDS, ruleset_options
from interpreter.workers import collect_for_play

if TYPE_CHECKING:  # loaded only by the commands that need it, to keep --help quick
    from pathlib import Path

    from dsl.problems import Location
    from dsl.ruleset import Ruleset
    from interpreter.compare import Comparison, Sweep
    from interpreter.tactics import Tactics
    from interpreter.tune import Tuned

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> NoReturn:
    """Report invalid input on stderr and exit with status 1."""
    click.echo(f"mjrules: error: {message}", err=True)
    sys.exit(1)


def fail_rule(error: Exception) -> NoReturn:
    """A rule that failed while a game was played: its file, line, column and expression."""
    click.echo(str(error), err=True)
    sys.exit(1)


def echo_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mjrules")
def cli() -> None:
    """mjrules: Chinese regional mahjong rules as data: analyse, validate, settle, simulate."""


def wild_option(command: F) -> F:
    """``--wild TILE``: the tile that is wild; a ``*`` in the tiles is a wild in any case."""
    return click.option(
        "--wild", default=None, metavar="TILE",
        help="The tile that is wild (癞子), e.g. 5m: its copies in the tiles are wilds.",
    )(command)  # fmt: skip


def parse_wild(wild: str | None, tileset: TileSet = WITH_HONOURS) -> int | None:
    """The tile named by ``--wild`` (of ``tileset``), or None."""
    if wild is None:
        return None
    named = tileset.parse(wild)
    if len(named) != 1:
        fail(f"--wild {wild!r}: expected one tile, e.g. 5m")
    return named[0]


@cli.command()
@click.argument("tiles")
@click.option(
    "--melds", default=0, show_default=True, help="Melds already exposed (chow, pung, kong)."
)
@click.option(
    "--visible", default="", help='Tiles seen elsewhere (discards, melds), e.g. "55p 9s".'
)
@click.option(
    "--seven-pairs",
    "seven_pairs",
    type=click.Choice(["quads", "distinct", "none"]),
    default="quads",
    show_default=True,
    help="Seven-pairs form: a four-of-a-kind may count as two pairs (quads), "
    "pairs must differ (distinct), or no seven pairs.",
)
@wild_option
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def hand(
    tiles: str, melds: int, visible: str, seven_pairs: str, wild: str | None, as_json: bool
) -> None:
    """Analyse a hand: shanten, splits, waits with live copies, and a ranked discard table.

    TILES are the concealed tiles: 13 (or 14, to choose a discard) less three per exposed
    meld, written as 123m 456p 789s, with Chinese suits (123万 456筒 789条) or as Unicode
    tile characters.  Honours (1z-7z or 东南西北中发白) put the 136-tile set in play;
    without them the tiles are the 108 suited ones.  A * is a wild tile (癞子, e.g. a 红中
    in 红中麻将), standing for any tile; so is every copy of the --wild tile.  Four wild
    tiles exist.

    \b
    Examples:
      mjrules hand "123m 456m 789m 234p 5p"
      mjrules hand "123m 456p 789s 东东 中中"
      mjrules hand "1122m 3345p 67789s 9s" --visible "9s 9s"
      mjrules hand "123万 55筒 789条" --melds 2 --json
      mjrules hand "123m 456p 78s 11m 9p **"
      mjrules hand "1123m 456p 78s 5m 11s" --wild 5m
    """
    from handcore.tiles import parse_with_wilds
    from interpreter.analysis import HandError, analyse_hand

    try:
        wild_tile = parse_wild(wild)
        concealed, wilds = parse_with_wilds(WITH_HONOURS, tiles, wild_tile)
        seen, wilds_seen = (
            parse_with_wilds(WITH_HONOURS, visible, wild_tile) if visible.strip() else ([], 0)
        )
        # Honours held, seen or wild are in play; else the tiles are the 108 suited ones.
        named = (*concealed, *seen, *(() if wild_tile is None else (wild_tile,)))
        honours = any(map(WITH_HONOURS.is_honour, named))
        report = analyse_hand(
            concealed, melds, seen, None if seven_pairs == "none" else seven_pairs,
            WITH_HONOURS if honours else STANDARD,
            wilds=wilds, wild_tile=wild_tile, wilds_seen=wilds_seen,
        )  # fmt: skip
    except TileError as error:
        fail(f"{error}\n{error.pointer()}")
    except HandError as error:
        fail(str(error))
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo(report.to_text())


@cli.command()
@click.argument("ruleset", metavar="RULESET")
@click.argument("tiles")
@ruleset_options
@click.option("--melds", default="", help='Exposed melds, e.g. "555p 789s" (4 tiles: a kong).')
@click.option("--visible", default="", help='Tiles seen elsewhere, e.g. "55p 9s".')
@click.option(
    "--river", "rivers", multiple=True, metavar="SEAT:TILES",
    help='A seat\'s discards, e.g. "南:19p 4s" (repeatable): what the danger reads.',
)  # fmt: skip
@click.option("--seat", default="东", show_default=True, help="Your seat: 东南西北 or 0-3.")
@click.option("--dealer", default="东", show_default=True, help="The dealer's seat (庄).")
@click.option("--void", default=None, help="Your void suit (no win while holding it): m, p or s.")
@click.option("--draws", default=8, show_default=True, type=click.IntRange(1, 30),
              help="Own draws the chances count.")  # fmt: skip
@click.option("--samples", default=200, show_default=True, type=click.IntRange(10, 10_000),
              help="Playouts for hands not ready.")  # fmt: skip
@click.option("--unicode", is_flag=True, help="Show tiles as tile characters.")
@wild_option
@click.option("--json", "as_json", is_flag=True, help="Print the advice as JSON.")
def advise(
    ruleset: str, tiles: str, settings: tuple[str, ...], preset: str | None, melds: str,
    visible: str, rivers: tuple[str, ...], seat: str, dealer: str, void: str | None,
    draws: int, samples: int, unicode: bool, wild: str | None, as_json: bool,
) -> None:  # fmt: skip
    """Which tile to discard under a ruleset: distance, live tiles, chances, value, danger.

    TILES are the concealed tiles (14 less three per meld to choose a discard, or 13 to
    judge the hand as it stands).  Readiness, values and hand types are the ruleset's own.
    With wilds (a * in TILES, or the --wild tile), the advice is the shape's: shanten,
    waits and discards with live copies, under the ruleset's seven-pairs form.

    \b
    Examples:
      mjrules advise REGION/VERSION "123m 456p 789s 11m 23p"
      mjrules advise REGION/VERSION "1123m 2356p 455789s" --river "南:19p 4s" --json
      mjrules advise REGION/VERSION "123m 456p 789s 1m 23p **"
    """
    from handcore.tiles import parse_with_wilds
    from interpreter.advise import AdviceError, observation, parse_melds, parse_seat
    from interpreter.advise import advise as advise_hand
    from interpreter.analysis import HandError

    rules = _load_ruleset(ruleset, settings, preset)
    tileset = rules.tileset
    try:
        me, deals = parse_seat(seat), parse_seat(dealer)
        wild_tile = parse_wild(wild, tileset)
        if wild_tile is None and tileset.wilds:  # the ruleset's own wild tile (tiles.wilds)
            wild_tile = tileset.wilds[0]
        discards: dict[int, tuple[list[int], int]] = {}
        for item in rivers:
            who, sep, text = item.partition(":")
            if not sep:
                fail(f"--river {item!r}: expected SEAT:TILES")
            river, wilds = (
                parse_with_wilds(tileset, text, wild_tile, check_copies=False)
                if text.strip() else ([], 0)
            )  # fmt: skip
            before, wilds_before = discards.get(parse_seat(who), ([], 0))  # a seat given again
            discards[parse_seat(who)] = before + river, wilds_before + wilds
        hand, wilds = parse_with_wilds(tileset, tiles, wild_tile)
        seen, wilds_seen = (
            parse_with_wilds(tileset, visible, wild_tile, check_copies=False)
            if visible.strip() else ([], 0)
        )  # fmt: skip
        if wilds or wilds_seen or wild_tile is not None or any(n for _, n in discards.values()):
            _advise_with_wilds(rules, hand, wilds, wild_tile, parse_melds(melds, tileset),
                               seen, wilds_seen, discards, as_json)  # fmt: skip
            return
        discards = {q: river for q, (river, _) in discards.items()}
        suits = [s.letter for s in STANDARD.suits]
        if void is not None and void not in suits:
            fail(f"--void {void!r}: expected one of {', '.join(suits)}")
        obs = observation(
            rules, hand, parse_melds(melds, tileset), seen, me, deals, discards,
            None if void is None else suits.index(void),
        )  # fmt: skip
        result = advise_hand(rules, obs, draws, samples)
    except TileError as error:
        fail(f"{error}\n{error.pointer()}")
    except (AdviceError, HandError) as error:
        fail(str(error))
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(result.to_text(unicode))


def _advise_with_wilds(
    rules: Ruleset, hand: list[int], wilds: int, wild_tile: int | None, melds: tuple,
    seen: list[int], wilds_seen: int, rivers: dict[int, tuple[list[int], int]], as_json: bool,
) -> None:  # fmt: skip
    """The shape's advice for a hand with wilds: the ruleset's win test, values and danger
    do not read wilds, so only its seven-pairs form is taken from it."""
    from interpreter.advise import shape_advice

    for river, n in rivers.values():
        seen, wilds_seen = seen + river, wilds_seen + n
    report = shape_advice(rules, hand, wilds, wild_tile, melds, seen, wilds_seen)
    best = report.discards[0].tile if report.discards and report.shanten >= 0 else None
    recommend = None if best is None else report.name(best)
    note = "shape only: the ruleset's values, chances and danger do not count wilds"
    if report.shanten < 0:
        note = f"complete in shape: a win; {note}"
    if as_json:
        echo_json({"ruleset": rules.id, **report.to_json(), "recommend": recommend,
                   "reason": note})  # fmt: skip
        return
    click.echo(f"{rules.id}: {note}")
    click.echo(report.to_text())
    if recommend is not None:
        click.echo(f"\nrecommend {recommend}: lowest shanten, then most live accepted tiles")


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option(
    "--ruleset", "ruleset_ref", default=None, help="Ruleset id or path (overrides the file's)."
)
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="Print the settlement as JSON.")
def settle(
    scenario: str,
    ruleset_ref: str | None,
    settings: tuple[str, ...],
    preset: str | None,
    as_json: bool,
) -> None:
    """Settle a finished hand: hand types, values, birds, caps and every payment.

    SCENARIO is a YAML file (docs/SCENARIO.md): the ruleset, the dealer, each win with its
    tiles, melds, winning tile and discarder, the birds and the kongs declared.

    \b
    Example:
      mjrules settle docs/scenarios/qq2014-birds.yaml --set birds=4
    """
    from dsl.expressions import EvaluationError
    from dsl.problems import RulesetError
    from interpreter.scenario import read_scenario
    from interpreter.settle import SettlementError
    from interpreter.settle import settle as settle_hand

    try:
        tileset = STANDARD
        try:
            read = read_scenario(scenario, tileset)
        except RulesetError as error:  # perhaps honours or flowers: read them, check them below
            tileset = EVERY
            try:
                read = read_scenario(scenario, tileset)
            except RulesetError:
                raise error from None
        ref = ruleset_ref or read.ruleset
        if ref is None:
            fail(f"{scenario}: no ruleset: give ruleset: in the file or --ruleset")
        named_in = "" if ruleset_ref else f"{scenario}: ruleset"
        beside = None if ruleset_ref else scenario  # a path in the file is relative to it
        at = None if ruleset_ref else read.ruleset_place
        if read.options:  # told at their place in the file
            read.check_options(_load_ruleset(ref, [], None, named_in, beside, at).options)
        rules = _load_ruleset(ref, [*read.settings(), *settings], preset, named_in, beside, at)
        if rules.tileset != tileset:  # the tiles in the ruleset's play, each copy once
            read = read_scenario(scenario, rules.tileset)
        read.check_choices(rules)
        result = settle_hand(rules, read.hand)
    except RulesetError as error:
        fail(error.format())
    except EvaluationError as error:
        fail_rule(error)
    except SettlementError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot read {scenario}: {error.strerror}")
    if as_json:
        echo_json({"ruleset": rules.id, **result.to_json()})
        return
    from interpreter.engine.narrate import chosen_options, settlement_text

    options = chosen_options(rules.option_values, _defaults(rules))
    discarders = {w.seat: w.discarder for w in read.hand.wins}
    click.echo(settlement_text(result, rules.id, options, read.hand.dealers, discarders))


def _defaults(rules: Ruleset) -> dict[str, object]:
    """The ruleset's option defaults, so that narration shows only the options changed."""
    return {name: option.default for name, option in rules.options.items()}


def _load_ruleset(
    ref: str,
    settings: Sequence[str],
    preset: str | None,
    named_in: str = "",
    relative_to: str | None = None,
    named_at: Location | None = None,
) -> Ruleset:
    """A ruleset to play or settle by id or path, or exit 1 with every problem found.

    An abstract ruleset (``ruleset.abstract``) leaves rules to those that extend it;
    ``named_in`` says where it was asked for (a scenario's ``ruleset:``, at ``named_at``), and
    a path there is read relative to the file ``relative_to``."""
    from dsl.problems import RulesetError
    from dsl.ruleset import load

    try:
        rules = load(
            ref, settings=settings, preset=preset, relative_to=relative_to, named_at=named_at
        )
    except RulesetError as error:
        fail(error.format())
    if why := rules.unplayable():
        fail(f"{named_in or rules.path}: {why}")
    return rules


@cli.command()
@click.argument("ruleset", metavar="RULESET")
@ruleset_options
@click.option(
    "--seed", default=1, show_default=True, help="The game is a pure function of the seed."
)
@click.option(
    "--agents",
    default=DEFAULT_AGENTS,
    show_default=True,
    help="One agent name for every seat, or one per seat: random,simple,simple,random; "
    "parameters after a colon: value:hazard=0.5, a file written by tune: value:tuned.yaml, "
    "or the one shipped for the ruleset: strategy:tuned.",
)
@click.option(
    "--hands",
    default=1,
    show_default=True,
    type=click.IntRange(1, 10_000),
    help="Hands in the match.",
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False),
    help="Write the event log (JSON Lines) here.",
)
@click.option("--unicode", is_flag=True, help="Show tiles as tile characters.")
@click.option("--json", "as_json", is_flag=True, help="Print the match result as JSON instead.")
@click.option(
    "--human", default=None, metavar="SEAT",
    help="Play this seat yourself (东南西北 or 0-3) against the bots, in the terminal.",
)  # fmt: skip
def play(
    ruleset: str,
    settings: tuple[str, ...],
    preset: str | None,
    seed: int,
    agents: str,
    hands: int,
    log_path: str | None,
    unicode: bool,
    as_json: bool,
    human: str | None,
) -> None:
    """Play a hand (or a match of --hands hands) with the shipped agents and print it.

    With --human SEAT you play that seat: the game is told as it happens, your legal
    actions are numbered (claims are offered when a discard may be taken), ? gives advice.

    \b
    Examples:
      mjrules play REGION/VERSION --seed 7
      mjrules play REGION/VERSION --hands 8 --agents random,simple,simple,simple --log game.jsonl
      mjrules play REGION/VERSION --human 东 --agents defensive --log mine.jsonl
    """
    from dsl.expressions import EvaluationError
    from interpreter.engine import play as play_match
    from interpreter.engine.narrate import narrate, seat_name
    from interpreter.simulate import note_untuned, split_agents

    rules = _load_ruleset(ruleset, settings, preset)
    try:
        names = split_agents(agents, rules)  # parameters and parameter files read here
    except ValueError as error:
        fail(str(error))
    note_untuned([rules], agents)
    if human is not None:
        if as_json:
            fail("--human plays in the terminal: --json does not go with it (use --log)")
        return _play_human(rules, seed, names, hands, log_path, human, unicode)
    try:
        result, events = play_match(rules, seed, names[0] if len(names) == 1 else names, hands)
    except EvaluationError as error:
        fail_rule(error)
    except ValueError as error:
        fail(str(error))
    if log_path:
        from interpreter.engine.events import write_log

        try:
            write_log(events, log_path)
        except OSError as error:
            fail(f"cannot write {log_path}: {error.strerror}")
    if as_json:
        echo_json(result.to_json())
        return
    from interpreter.choices import declaration_names

    declared = declaration_names(rules)
    click.echo(narrate(events, unicode=unicode, defaults=_defaults(rules), names=declared))
    click.echo(
        "scores: " + "  ".join(f"{seat_name(i)} {s:+d}" for i, s in enumerate(result.scores))
    )
    click.echo("bots: " + (names[0] if len(names) == 1 else ", ".join(names)))


def _play_human(
    rules: Ruleset, seed: int, names: list[str], hands: int, log_path: str | None, seat: str,
    unicode: bool,
) -> None:  # fmt: skip
    """A match with a person in one seat, told to them as it happens."""
    from dsl.expressions import EvaluationError
    from interpreter.advise import AdviceError, parse_seat
    from interpreter.agents import AGENTS, make_agent
    from interpreter.engine import play as play_match
    from interpreter.engine.narrate import seat_name
    from interpreter.human import HumanAgent, Quit

    try:
        me = parse_seat(seat)
    except AdviceError as error:
        fail(str(error))
    players = [names[0] if len(names) == 1 else names[i % len(names)] for i in range(4)]
    if not 0 <= me < len(players) or any(a.split(":")[0] not in AGENTS for a in players):
        fail(f"--human {seat} --agents {','.join(names)}: a seat and known agents expected")
    person = HumanAgent(me, unicode=True, defaults=_defaults(rules))
    seats: list[Any] = [make_agent(a, seed * 16 + i) for i, a in enumerate(players)]
    seats[me] = person
    try:
        result, events = play_match(rules, seed, seats, hands, watch=person.watch)
    except Quit as why:
        fail(f"game abandoned: {why}")
    except EvaluationError as error:
        fail_rule(error)
    except ValueError as error:
        fail(str(error))
    person.flush()
    if log_path:
        from interpreter.engine.events import write_log

        try:
            write_log(events, log_path)
        except OSError as error:
            fail(f"cannot write {log_path}: {error.strerror}")
    click.echo(
        "scores: " + "  ".join(f"{seat_name(i)} {s:+d}" for i, s in enumerate(result.scores))
    )


@cli.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option(
    "--ruleset",
    "ruleset_ref",
    default=None,
    help="Ruleset id or path to replay with [default: the one the log names].",
)
@click.option("--unicode", is_flag=True, help="Show tiles as tile characters.")
@click.option("--quiet", is_flag=True, help="Only check the log; print a one-line summary.")
def replay(log: str, ruleset_ref: str | None, unicode: bool, quiet: bool) -> None:
    """Re-run an event log: check every decision was legal and every event comes out the same.

    The ruleset is the log's: its id on the ruleset search path, or the file it was played
    from if that file still holds the same rules (by content hash); --ruleset gives it.
    Exit code 0 if the log replays exactly, 1 if it does not (with the first difference).
    """
    from interpreter.engine import ReplayError
    from interpreter.engine import replay as replay_log
    from interpreter.engine.events import read_log
    from interpreter.engine.narrate import narrate
    from interpreter.engine.replay import load_logged

    try:
        events = read_log(log)
        rules = None
        if ruleset_ref is not None and events and events[0]["type"] == "start":
            _load_ruleset(ruleset_ref, [], None)  # one that does not load, or abstract: exit
            rules = load_logged(ruleset_ref, events[0]["options"])
        report = replay_log(events, rules)
    except OSError as error:
        fail(f"cannot read {log}: {error.strerror}")
    except (ReplayError, ValueError) as error:
        fail(f"{log}: does not replay: {error}")
    if not quiet:
        from interpreter.choices import declaration_names
        from interpreter.engine.replay import find_ruleset

        names = declaration_names(rules or find_ruleset(events[0]))  # it replayed: it loads
        defaults = _logged_defaults(events)
        click.echo(narrate(events, unicode=unicode, defaults=defaults, names=names))
    click.echo(
        f"replayed {report.hands} hand(s), {report.decisions} decisions, {report.events} events: "
        "every decision legal, every event the same"
    )


@cli.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False),
              help="The HTML page to write.")  # fmt: skip
@click.option("--seat", default=None, help="See the game from this seat (东南西北 or 0-3).")
def view(log: str, out: str, seat: str | None) -> None:
    """Write a game's event log as one self-contained web page to step through.

    The four hands (open, or from --seat's view), rivers, melds, the wall count, every
    step with back/forward and a slider, claims and payments as they happen.

    \b
    Example:
      mjrules play REGION/VERSION --seed 7 --log game.jsonl
      mjrules view game.jsonl -o game.html --seat 东
    """
    from interpreter.advise import AdviceError, parse_seat
    from interpreter.engine import ReplayError
    from interpreter.view import GameView

    try:
        who = None if seat is None else parse_seat(seat)
        page = GameView.from_log(log, who)
    except AdviceError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot read {log}: {error.strerror}")
    except (ReplayError, ValueError) as error:
        fail(f"{log}: does not replay: {error}")
    try:
        page.save(out)
    except OSError as error:
        fail(f"cannot write {out}: {error.strerror}")
    steps = len(page.data["steps"])
    click.echo(f"wrote {out}: {steps} steps of {page.data['ruleset']}")


def _logged_defaults(events: Sequence[dict[str, object]]) -> dict[str, object] | None:
    """The option defaults of the log's ruleset (None if it cannot be loaded: then every
    logged option is shown)."""
    from dsl.problems import RulesetError
    from dsl.ruleset import load

    try:
        return _defaults(load(str(events[0]["ruleset"])))
    except (RulesetError, OSError):
        return None


def run_options(command: F | None = None, *, agents: str = ANALYSIS_AGENTS) -> Any:
    """The options of every command that plays many hands: how many, from which seed, by which
    bots (``agents`` by default), on which workers.  ``@run_options`` or
    ``@run_options(agents=...)``."""
    if command is None:
        return lambda command: run_options(command, agents=agents)
    for option in reversed([
        click.option("--games", default=1000, show_default=True, type=click.IntRange(0),
                     help="Hands to play."),
        click.option("--seed", default=1, show_default=True,
                     help="Master seed: hand i is played from a hash of (seed, i), whatever "
                     "the workers."),
        click.option("--agents", default=agents, show_default=True,
                     help="One agent for every seat, or one per seat (random,simple,simple,"
                     "value); parameters after a colon: value:hazard=0.5, a file written "
                     "by tune: value:tuned.yaml, or the one shipped for the ruleset: "
                     "strategy:tuned."),
        click.option("--workers", type=click.IntRange(1), default=None,
                     help="Worker processes [default: all cores; at most 4 per core]."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Run on a Dask distributed cluster (e.g. tcp://host:8786) instead of "
                     "local processes."),
        click.option("--chunk", type=click.IntRange(1), default=None, help="Hands per task."),
    ]):  # fmt: skip
        command = option(command)
    return command


@cli.command()
@click.argument("ruleset", metavar="RULESET")
@ruleset_options
@run_options(agents=DEFAULT_AGENTS)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Stream one row per hand to this file: .parquet, .csv or .jsonl.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue a stopped run: keep the hands in --out (or its .partial folder), "
    "play the others.",
)
@click.option(
    "--top", default=10, show_default=True, type=click.IntRange(min=0),
    help="Hand types listed in the summary.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate(
    ruleset: str,
    settings: tuple[str, ...],
    preset: str | None,
    games: int,
    seed: int,
    agents: str,
    workers: int | None,
    out: str | None,
    scheduler: str | None,
    chunk: int | None,
    resume: bool,
    top: int,
    as_json: bool,
) -> None:
    """Play many hands with bots and summarise them; optionally keep one row per hand.

    The summary gives 流局, each seat's 和了率 and 放铳率, 自摸, the dealer's edge and more
    (README, Simulate), and names the ruleset, options, bots and seed that produced it;
    the rows and files record the same.  Strategy bots with the parameters shipped for the
    ruleset (strategy:tuned) play every seat unless --agents says.

    Hand i is dealt and played from a seed derived from --seed and i alone, so results are
    the same for any --workers or --scheduler, and two rulesets of the same tiles run with
    the same --seed play the same walls (paired comparison).  Dealers rotate: hand i is
    dealt by seat i mod players.  A progress bar (rate, ETA) goes to stderr.

    Ctrl-C (or SIGTERM, SIGHUP) stops, keeps the hands finished so far in a valid file and
    exits with 128 + the signal (130 for Ctrl-C).  Until a run ends, its finished chunks are
    files in the folder OUT.partial; a run killed outright leaves them there.  --resume
    continues from what is on disk and ends with the rows an uninterrupted run gives.  A
    worker process that dies has its hands played again on a new one; hands lost twice are
    named, the others kept, and the exit code is 1.

    \b
    Examples:
      mjrules simulate REGION/VERSION --games 2000 --seed 1 --out results.parquet
      mjrules simulate REGION/VERSION --set birds=4 --agents random,simple,simple,simple --json
      mjrules simulate REGION/VERSION --games 100000 --scheduler tcp://10.0.0.5:8786 --out r.csv
    """
    from dsl.expressions import EvaluationError
    from interpreter import simulate as sim
    from interpreter.engine.rules import Rules
    from interpreter.summary import Summary

    rules = _load_ruleset(ruleset, settings, preset)
    try:
        if out is not None:
            sim.output_format(out)
        spec, loaded = sim.make_spec(rules, seed, agents)
        spec = sim.Spec(sim.portable_ref(ruleset), tuple(settings), preset, seed, spec.agents)
        players = Rules(loaded).players
    except (sim.SimulationError, ValueError) as error:
        fail(str(error))
    sim.note_untuned([loaded], agents)
    summary = Summary.of(loaded, spec.agents, seed, preset)
    if resume and out is None:
        fail("--resume needs the --out file of the run to continue")
    try:
        sim.run_to(
            spec, games, players, summary.add, workers, scheduler, out, True, chunk, resume=resume
        )
    except KeyboardInterrupt as stop:
        kept = f"; {summary.hands:,} hands kept in {out}" if out else ""
        click.echo(
            f"mjrules: interrupted after {summary.hands:,} of {games:,} hands{kept}", err=True
        )
        sys.exit(128 + getattr(stop, "signum", signal.SIGINT))
    except sim.LostHands as error:
        kept = f"; the other {summary.hands:,} hands are kept in {out}" if out else ""
        fail(f"{error}{kept}")
    except EvaluationError as error:  # raised in a worker: it crossed the process whole
        fail_rule(error)
    except sim.SimulationError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write {out}: {error.strerror or error}")
    if as_json:
        echo_json({**summary.to_json(top), "out": out})
        return
    click.echo(summary.to_text(top))
    if out:
        click.echo(f"{summary.hands:,} rows written to {out}")


def _set_option(side: str) -> Callable[[F], F]:
    return click.option(
        f"--set-{side}", f"settings_{side}", multiple=True, metavar="NAME=VALUE",
        help=f"Set an option for {side.upper()} only (after --set; repeatable).",
    )  # fmt: skip


def _analysis(
    run: Callable[[], Comparison | Sweep | Tactics | Tuned], plot: str | None
) -> Comparison | Sweep | Tactics | Tuned:
    """Run a comparison, a sweep, a tactics table or a tuning, or exit: 1 on invalid input, 128
    + the signal on Ctrl-C (130), SIGTERM or SIGHUP, wherever it comes (between two runs of
    hands too: a tuning's trials)."""
    from dsl.problems import RulesetError
    from interpreter.compare import PlotUnavailable, check_plot
    from interpreter.simulate import Signals

    try:
        if plot:
            check_plot(plot)  # before the hands are played
        with Signals():
            return run()
    except RulesetError as error:
        fail(error.format())
    except (PlotUnavailable, ValueError) as error:
        fail(str(error))
    except KeyboardInterrupt as stop:
        click.echo("mjrules: interrupted", err=True)
        sys.exit(128 + getattr(stop, "signum", signal.SIGINT))


def _report(
    result: Comparison | Sweep | Tactics, as_json: bool, plot: str | None, title: str
) -> None:
    from interpreter.compare import Comparison, Sweep, plot_effects, plot_sweep
    from interpreter.tactics import plot_tactics

    if as_json:
        echo_json({**result.to_json(), "plot": plot})
    else:
        click.echo(result.to_text())
    if plot:
        try:
            if isinstance(result, Comparison):
                plot_effects(result.effects, plot, title)
            elif isinstance(result, Sweep):
                plot_sweep(result, plot, title)
            else:
                plot_tactics(result, plot, title)
        except (OSError, ValueError) as error:
            fail(f"cannot write {plot}: {error}")


_PLOT = click.option(
    "--plot", type=click.Path(dir_okay=False), default=None,
    help="Draw the effects with their 95% CIs to this image (.png, .svg, .pdf); needs matplotlib.",
)  # fmt: skip


def cache_options(command: F) -> F:
    """Where the results of each run are kept and reused (interpreter/results.py)."""
    command = click.option(
        "--no-cache", is_flag=True, help="Play every hand; neither read nor keep results."
    )(command)
    return click.option(
        "--cache", type=click.Path(file_okay=False), default=None, metavar="DIR",
        envvar="MJRULES_RESULTS", show_envvar=True,
        help="Keep each run's rows here and reuse those of a run with the same inputs "
        "[default: the user cache folder, results/].",
    )(command)  # fmt: skip


def _cache_folder(cache: str | None, no_cache: bool) -> Path | None:
    from pathlib import Path

    from interpreter.results import default_folder

    if no_cache:
        return None
    return Path(cache) if cache else default_folder()


@cli.command()
@click.argument("ruleset_a", metavar="A")
@click.argument("ruleset_b", metavar="[B]", required=False)
@ruleset_options
@_set_option("a")
@_set_option("b")
@click.option("--preset-a", default=None, help="A preset for A only (instead of --preset).")
@click.option("--preset-b", default=None, help="A preset for B only (instead of --preset).")
@run_options
@click.option(
    "--match-hands", type=int, default=None, metavar="K",
    help="Hands in a match for decisiveness [default: four rounds of deals, 16 hands for four "
    "players].",
)  # fmt: skip
@click.option(
    "--skill", default=None, is_flag=False, flag_value="value,random", metavar="STRONG,WEAK",
    help="Also measure the skill reward: STRONG at one seat against WEAK bots, in every seat, "
    "on each side's walls (plays players + 1 times the hands more); bots as in --agents, "
    "strategy:tuned each side's own [--skill alone: value,random].",
)  # fmt: skip
@cache_options
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@_PLOT
def compare(
    ruleset_a: str,
    ruleset_b: str | None,
    settings: tuple[str, ...],
    preset: str | None,
    settings_a: tuple[str, ...],
    settings_b: tuple[str, ...],
    preset_a: str | None,
    preset_b: str | None,
    games: int,
    seed: int,
    agents: str,
    workers: int | None,
    scheduler: str | None,
    chunk: int | None,
    match_hands: int | None,
    skill: str | None,
    cache: str | None,
    no_cache: bool,
    as_json: bool,
    plot: str | None,
) -> None:
    """Compare two rulesets, or one under two option sets, on the same walls by the same bots.

    B is a second ruleset, or A again when left out.  --set and --preset apply to both;
    --set-a/--set-b and --preset-a/--preset-b to one side.  For every figure (流局, 和了率 and
    放铳率 per seat, 自摸, dealer edge, points moved, hand types, turn of win, claims, kongs
    and what became of them (wins on a kong's replacement draw, wins on the discard right
    after a kong, robbed kongs: shares of kongs and per hand), birds, opening hands) it
    prints A, B and B − A with a 95% confidence interval from the paired hands, and marks
    (*) effects significant at 5% after Holm's correction for the number of effects.

    Game-design measures (after Ludii's): drawishness is 流局; balance is the seat and dealer
    advantage (seat balance: the range of 和了率 over the seats counted from the dealer; dealer
    edge in points and in 和了率); decisiveness: hands 0 to K−1, K to 2K−1, … (--match-hands)
    are matches, paired by index, and a match is decided by one hand when its leaders (most
    points) change once its largest-swing hand (most points moved) is taken out; skill reward
    (--skill STRONG,WEAK): on each wall STRONG plays one seat against WEAK bots, every seat in
    turn, and gains over WEAK in its place; each side's gain and B − A are shown.  Each
    side's hands are kept in the results cache and reused by a later run of the same inputs
    (--cache, --no-cache).

    \b
    Examples:
      mjrules compare REGION/VERSION --set-a birds=0 --games 2000
      mjrules compare REGION/VERSION REGION/OTHER --agents simple --json
      mjrules compare REGION/VERSION --set-b cap=6he --plot effects.png
      mjrules compare REGION/VERSION REGION/OTHER --skill efficiency,random --match-hands 8
    """
    from interpreter.compare import Run, Setting
    from interpreter.compare import compare as run

    _check_side("a", ruleset_a, settings, preset, settings_a, preset_a)
    _check_side("b", ruleset_b or ruleset_a, settings, preset, settings_b, preset_b)
    a = Setting(ruleset_a, (*settings, *settings_a), preset_a or preset)
    b = Setting(ruleset_b or ruleset_a, (*settings, *settings_b), preset_b or preset)
    where = Run(workers, scheduler, chunk, cache=_cache_folder(cache, no_cache))
    result = _analysis(
        lambda: run(a, b, games, seed, agents, where, match_hands=match_hands, skill=skill), plot
    )
    title = " − ".join(
        f"{x}: {' '.join((s.ruleset, *s.settings))}" for x, s in (("B", b), ("A", a))
    )
    _report(result, as_json, plot, f"{title}\n{games:,} hands, seed {seed}, bots {agents}")


def _check_side(
    side: str,
    ruleset: str,
    settings: Sequence[str],
    preset: str | None,
    own_settings: Sequence[str],
    own_preset: str | None,
) -> None:
    """Check one side's options against its ruleset: --set and --preset (unless its own
    --preset-a/-b replaces it), then its --set-a/-b and --preset-a/-b, so that an error names
    the side and the flag at fault.  A ruleset that does not load is left to the comparison
    to report."""
    from dsl import options
    from dsl.problems import Problems, RulesetError
    from dsl.ruleset import load

    try:
        rules = load(ruleset, compile=False)
    except RulesetError:
        return
    problems = Problems()
    shared = None if own_preset else preset
    options.apply(rules.options, rules.presets, shared, settings, problems)
    if not problems.has_errors:
        own = (f"--set-{side}", f"--preset-{side}")
        options.apply(rules.options, rules.presets, own_preset, own_settings, problems, own)
    if problems.has_errors:
        fail(f"{side.upper()} ({ruleset}): {RulesetError(problems.items).format()}")


@cli.command()
@click.argument("ruleset", metavar="RULESET")
@ruleset_options
@click.option(
    "--vary", multiple=True, required=True, metavar="NAME=V1,V2,…",
    help="An option and its values (repeatable); 'all' for every option over its values.",
)  # fmt: skip
@click.option(
    "--metric", "chosen", multiple=True, metavar="ID",
    help="A metric to report (repeatable; ids as in compare --json) "
    "[default: no_winner, self_draw_share, dealer_edge, points_moved_mean, points_moved_p95].",
)  # fmt: skip
@run_options
@cache_options
@click.option("--json", "as_json", is_flag=True, help="Print the sweep as JSON.")
@_PLOT
def sweep(
    ruleset: str,
    settings: tuple[str, ...],
    preset: str | None,
    vary: tuple[str, ...],
    chosen: tuple[str, ...],
    games: int,
    seed: int,
    agents: str,
    workers: int | None,
    scheduler: str | None,
    chunk: int | None,
    cache: str | None,
    no_cache: bool,
    as_json: bool,
    plot: str | None,
) -> None:
    """Vary options one at a time and compare each value with the reference setting.

    The reference is RULESET with --set and --preset applied (its defaults otherwise); each
    option of --vary takes each of its values in turn, the others staying at the reference,
    and every setting plays the same walls with the same bots.  Effects are value − reference
    with 95% CIs; * marks those significant at 5% after Holm's correction over all of them.
    Each setting's hands are kept in the results cache and reused (--cache, --no-cache).

    \b
    Examples:
      mjrules sweep REGION/VERSION --vary birds=0,1,2,4,6 --games 2000 --plot birds.png
      mjrules sweep REGION/VERSION --vary all --metric points_moved_mean --json
    """
    from interpreter.compare import SWEEP_METRICS, Run, Setting
    from interpreter.compare import sweep as run

    base = Setting(ruleset, settings, preset)
    where = Run(workers, scheduler, chunk, cache=_cache_folder(cache, no_cache))
    result = _analysis(
        lambda: run(base, vary, games, seed, agents, chosen or SWEEP_METRICS, where), plot
    )
    _report(result, as_json, plot, f"{ruleset}: effect of each option against the reference\n"
            f"{games:,} hands per setting, seed {seed}, bots {agents}")  # fmt: skip


@cli.command()
@click.argument("rulesets", metavar="RULESET...", nargs=-1, required=True)
@ruleset_options
@click.option(
    "--policy", "policies", multiple=True, required=True, metavar="NAME=V1,V2,…",
    help="A parameter of the bot and its values, the first the reference (repeatable; "
    "parameters: docs/AGENTS.md).",
)  # fmt: skip
@run_options
@cache_options
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@_PLOT
def tactics(
    rulesets: tuple[str, ...],
    settings: tuple[str, ...],
    preset: str | None,
    policies: tuple[str, ...],
    games: int,
    seed: int,
    agents: str,
    workers: int | None,
    scheduler: str | None,
    chunk: int | None,
    cache: str | None,
    no_cache: bool,
    as_json: bool,
    plot: str | None,
) -> None:
    """Which playing policy pays under which rules: bot parameters in duplicate format.

    A policy is a parameter of the bot given by --agents (efficiency: kong_policy,
    kong_option, claims; value: value_threshold, claim_margin, self_draw_share, hazard;
    defensive: defence, push and the efficiency bot's; strategy: the value bot's and
    defence, alert, escape and the rest of docs/AGENTS.md) and its values.  On each of --games
    walls (dealt as simulate deals hand i) every value is played by one seat, in every seat
    in turn, the others by the --agents bot unchanged: the same tiles, seats and opponents
    for every value.  It prints each value's points per
    hand with a 95% CI and its paired difference from the policy's first value, * where
    significant at 5% after Holm's correction over every difference; with several
    rulesets, also a policy × ruleset table.  --set and --preset apply to every ruleset;
    --agents strategy:tuned plays each with its own shipped parameters.  Results are kept
    in the results cache and reused (--cache, --no-cache).

    \b
    Examples:
      mjrules tactics REGION/VERSION --policy kong_policy=no_worse,always,never --games 500
      mjrules tactics REGION/A REGION/B --agents value --policy claim_margin=0.6,0.3,1
      mjrules tactics REGION/VERSION --agents defensive --policy defence=0,0.7,1 --plot d.png
    """
    from interpreter.compare import Run, Setting
    from interpreter.tactics import tactics as run

    sides = [Setting(r, settings, preset) for r in rulesets]
    where = Run(workers, scheduler, chunk, cache=_cache_folder(cache, no_cache))
    result = _analysis(lambda: run(sides, policies, agents, games, seed, where), plot)
    _report(result, as_json, plot, f"{', '.join(rulesets)}: policies against {agents} bots\n"
            f"{games:,} walls, seed {seed}")  # fmt: skip


@cli.command()
@click.argument("targets", metavar="RULESET | --show FILE...", nargs=-1, required=True)
@ruleset_options
@click.option(
    "--budget",
    type=click.IntRange(1),
    default=None,
    help="Trials: parameter settings tried (required unless --show).",
)
@run_options
@click.option(
    "--check-games",
    type=click.IntRange(2),
    default=None,
    help="New walls the best parameters' gain is measured on [default: --games].",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="The parameter file written [default: tuned-BOT-RULESET.yaml].",
)
@click.option(
    "--show", is_flag=True, help="Print the parameter files given side by side instead of tuning."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def tune(
    targets: tuple[str, ...],
    settings: tuple[str, ...],
    preset: str | None,
    budget: int | None,
    games: int,
    seed: int,
    agents: str,
    workers: int | None,
    scheduler: str | None,
    chunk: int | None,
    check_games: int | None,
    out: str | None,
    show: bool,
    as_json: bool,
) -> None:
    """Tune a bot's parameters for a ruleset: the most points per hand in duplicate format.

    Each of --budget trials (Optuna's TPE sampler, seeded by --seed) sets every parameter of
    the --agents bot (docs/AGENTS.md); the candidate plays the same --games walls in every
    seat in turn against the bot as given (defaults, or parameters loaded), which plays the
    same seats too.  The objective is the candidate's points per hand minus the field's.
    The best parameters' gain is measured again, with a 95% CI, on --check-games new walls,
    and the parameters written to a file that --agents BOT:FILE loads in every command.
    Progress goes to stderr.  Ctrl-C, SIGTERM or SIGHUP stop it with the trials done and the
    best so far, and no file written.  Needs Optuna: pip install 'mjrules[tune]'.

    \b
    Examples:
      mjrules tune REGION/VERSION --agents value --budget 20 --games 200 --out v.yaml
      mjrules simulate REGION/VERSION --agents value:v.yaml
      mjrules tune --show a.yaml b.yaml
    """
    from interpreter import tune as tuning
    from interpreter.compare import Run, Setting

    if show:
        from interpreter.agents import param_file

        if budget is not None:
            fail("--show prints parameter files: --budget does not go with it")
        try:
            files = [(path, param_file(path)) for path in targets]
        except ValueError as error:
            fail(str(error))
        if as_json:
            echo_json([{"file": path, **data} for path, data in files])
        else:
            click.echo(tuning.side_by_side(files))
        return
    if len(targets) != 1:
        fail(f"tune takes one ruleset, not {len(targets)} (--show prints parameter files)")
    if budget is None:
        fail("give --budget N, the number of parameter settings to try")
    if out and not os.path.isdir(os.path.dirname(os.path.abspath(out))):  # before the trials
        fail(f"cannot write {out}: its folder does not exist")
    where = Run(workers, scheduler, chunk, progress=False)
    result = _analysis(lambda: tuning.tune(
        Setting(targets[0], settings, preset), agents, budget, games, seed,
        check_games or games, where, lambda line: click.echo(line, err=True),
    ), None)  # fmt: skip
    assert isinstance(result, tuning.Tuned)
    path = out or f"tuned-{result.bot}-{result.about['ruleset'].replace('/', '-')}.yaml"
    try:
        tuning.write(result, path)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    if as_json:
        echo_json({**result.to_json(), "out": path})
        return
    click.echo(result.to_text())
    click.echo(f"parameters written to {path}")


for ruleset_command in (*COMMANDS, *CHECK_COMMANDS):  # validate, schema, explain; check, diff
    cli.add_command(ruleset_command)


def main() -> None:
    """Console entry point: click's usage errors exit with 1 like any invalid input."""
    collect_for_play()  # the process is mjrules' own
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.exceptions.Abort:
        click.echo("mjrules: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(1)
