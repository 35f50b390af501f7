"""Scenario files: a finished hand to settle without playing it (docs/SCENARIO.md).

A scenario names the ruleset, the dealer, each win (seat, concealed tiles, melds, the
winning tile, who discarded it, how it was won), the bird tiles and the kongs declared.
Reading one checks everything that can be checked without the rules — notation, seats,
tile counts, copies across the table — reports each problem at its place in the file, and
gives the hand as a :class:`~interpreter.hand_record.HandRecord`, what settlement reads.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dsl.options import Option, parse_setting
from dsl.problems import Location, Problems, RulesetError, nearest
from dsl.ruleset import Ruleset
from dsl.situation import HandMeld, read_meld
from dsl.yaml_source import Node, load_file, load_text
from handcore.tiles import EVERY, STANDARD, Tile, TileError, TileSet
from interpreter import choices
from interpreter.hand_record import (
    CONTEXTS,
    KONG_KINDS,
    Dealt,
    HandRecord,
    Kong,
    Unfinished,
    Win,
)

FORMAT_VERSION = 1
KEYS = (
    "version", "ruleset", "options", "players", "dealer", "dealers", "wins", "birds",
    "bird_dice", "kongs", "in_game", "unfinished", "source", "quote", "note", "expect",
    "document_arithmetic_wrong", "unsupported", "choices", "kong_provider", "last_tile_taker",
    "last_tile_offered", "visible", "false_wins", "escape", "wilds", "opening_hands",
    "opening_birds", "opening_bird_dice",
)  # fmt: skip
SUIT_LETTERS = tuple(s.letter for s in STANDARD.suits)
TABLE_SEATS = ("kong_provider", "last_tile_taker", "last_tile_offered")
"""Seats of the table facts a scenario may give (absent: nobody)."""
WIN_KEYS = ("seat", "hand", "melds", "win_tile", "win_tiles", "from", "context", "note")


class ScenarioError(RulesetError):
    """A scenario that cannot be settled; every problem carries its place in the file."""


@dataclass(frozen=True)
class Scenario:
    """A scenario file: the hand it records, and what the file says about settling it."""

    path: str
    ruleset: str | None
    options: dict[str, Any]
    hand: HandRecord
    raw: dict[str, Any]
    """The plain data of the file, test-only keys included."""
    option_places: tuple[tuple[Location, Location], ...] = ()
    """Where each option's name and value are in the file, in the order of ``options``."""
    choice_places: tuple[tuple[str, Location, tuple[Location, ...]], ...] = ()
    """Each choice of ``choices:``, where its name is in the file and where each seat's
    value is."""
    ruleset_place: Location | None = None
    """Where ``ruleset:`` names it, for a ruleset that is not found."""

    def settings(self) -> list[str]:
        """The scenario's options as ``name=value`` settings for loading the ruleset."""
        return [
            f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in self.options.items()
        ]

    def check_options(self, declared: Mapping[str, Option]) -> None:
        """Raise ScenarioError, at its place in the file, for an option the ruleset does not
        declare or a value it does not allow (the ruleset's loader would point at a
        ``--set`` never typed)."""
        problems = Problems()
        for setting, at in zip(self.settings(), self.option_places, strict=True):
            parse_setting(setting, declared, problems, at=at)
        if problems.has_errors:
            raise ScenarioError(problems.items)

    def check_choices(self, ruleset: Ruleset) -> None:
        """Raise ScenarioError, at its place in the file, for a choice the ruleset does not
        declare (no rule would read its values: a misspelt one would leave the default), or
        a seat's value that is neither among the values the choice offers that seat nor its
        default (the rules would read a stake or a suit no player could choose)."""
        found = {c.name: c for c, _ in choices.declared(ruleset)}
        problems = Problems()
        for name, where, value_places in self.choice_places:
            choice = found.get(name)
            if choice is None:
                problems.error(
                    f"choices: the ruleset has no choice {name!r}", where,
                    expected=f"one of its choices: {', '.join(found)}" if found
                    else "none: the ruleset declares no choices",
                    suggestion=nearest(name, found),
                )  # fmt: skip
            elif not choice.tiles:  # tiles set aside are any the hand held
                for seat, at in enumerate(value_places):
                    self._check_value(ruleset, choice, seat, at, problems)
        if problems.has_errors:
            raise ScenarioError(problems.items)

    def _check_value(
        self, ruleset: Ruleset, choice: choices.Choice, seat: int, at: Location, problems: Problems
    ) -> None:
        """One seat's value of a choice of values; ``true`` is not taken for 1."""
        base = choices.situation(ruleset, seat, self.hand.dealer, self.hand.players,
                                 chosen=self.hand.choices)  # fmt: skip
        offered = sorted(choice.values(base))
        value = self.hand.choices[choice.name][seat]
        allowed = {(type(v), v) for v in (*offered, choices.default(choice, base))}
        if (type(value), value) in allowed:
            return
        written = self.raw["choices"][choice.name][seat]
        written = str(written).lower() if isinstance(written, bool) else written
        shown = ", ".join(choices.text(choice, v) for v in offered)
        problems.error(
            f"choice {choice.name!r}: seat {seat} cannot choose {written}", at,
            expected=f"one of {shown}" if shown else "none: no value is offered",
        )  # fmt: skip


def read_scenario(path: str | os.PathLike[str], tileset: TileSet = EVERY) -> Scenario:
    """Read and check a scenario file; raise ScenarioError listing every problem.  By
    default it may name any tile (honours, for a ruleset that plays them): settlement refuses
    a tile its ruleset does not play."""
    return _Reader(load_file(path), str(path), tileset).scenario()


def read_scenario_text(text: str, name: str = "<scenario>", tileset: TileSet = EVERY) -> Scenario:
    return _Reader(load_text(text, name), name, tileset).scenario()


class _Reader:
    def __init__(self, root: Node, path: str, tileset: TileSet) -> None:
        self.root = root
        self.path = path
        self.tileset = tileset
        self.problems = Problems()

    def error(self, message: str, node: Node, **hints: str) -> None:
        self.problems.error(message, node.location, **hints)

    def scenario(self) -> Scenario:
        root = self.root
        if root.kind != "map":
            self.error("a scenario is a mapping of keys", root, expected="ruleset:, dealer:, wins:")
            raise ScenarioError(self.problems.items)
        self.unknown_keys(root, KEYS)
        version = self.integer(root, "version", FORMAT_VERSION, 1, FORMAT_VERSION)
        del version
        players = self.integer(root, "players", 4, 2, 4)
        dealer = self.integer(root, "dealer", 0, 0, players - 1)
        dealers = frozenset({dealer})
        dealers_node = root.value.get("dealers")
        if dealers_node is not None:
            dealers = frozenset(self.seat(n, players) for n in self.sequence(dealers_node))
            if dealer not in dealers:
                self.error(f"dealers must include the dealer, seat {dealer}", dealers_node)
        ruleset = root.value.get("ruleset")
        if ruleset is not None and not isinstance(ruleset.value, str):
            self.error(
                "ruleset is an id or a path",
                ruleset,
                expected="a ruleset id (region/version) or a path",
            )
        options = root.value.get("options")
        if options is not None and options.kind != "map":
            self.error("options is a mapping of option names to values", options)
        unfinished = self.unfinished(root.value.get("unfinished"), players)
        penalties = self.penalties(root, players)
        opening = self.opening(root.value.get("opening_hands"), players)
        wins = self.wins(
            root.value.get("wins"),
            players,
            root,
            required=not unfinished and not penalties and not opening,
        )
        birds = self.tiles_list(root.value.get("birds"))
        dice = self.dice(root.value.get("bird_dice"))
        in_game_node = root.value.get("in_game")
        in_game = frozenset(range(players))
        if in_game_node is not None:
            in_game = frozenset(self.seat(n, players) for n in self.sequence(in_game_node))
        kongs = self.kongs(root.value.get("kongs"), players, in_game)
        table = {
            name: self.seat(root.value[name], players) for name in TABLE_SEATS if name in root.value
        }
        visible = self.tiles_list(root.value.get("visible"))
        wilds = root.value.get("wilds")
        chosen = None if wilds is None else tuple(t for t, _ in self.tiles_list(wilds))
        choices_node = root.value.get("choices")
        chosen_values = self.choices(choices_node, players)
        self.consistent(wins, unfinished, in_game, in_game_node)
        self.penalties_consistent(root, penalties, unfinished, in_game)
        self.copies(wins, birds, unfinished, visible)
        opening_birds = self.tiles_list(root.value.get("opening_birds"))
        opening_dice = self.dice(root.value.get("opening_bird_dice"))
        for key in ("opening_birds", "opening_bird_dice"):
            if key in root.value and "opening_hands" not in root.value:
                self.error(f"{key} are the birds of opening hands: give opening_hands",
                           root.keys[key])  # fmt: skip
        self.copies_dealt(opening, opening_birds)
        if self.problems.has_errors:
            raise ScenarioError(self.problems.items)
        hand = HandRecord(
            players=players,
            dealer=dealer,
            dealers=dealers,
            wins=tuple(wins),
            birds=tuple(t for t, _ in birds),
            bird_dice=tuple(dice),
            kongs=tuple(kongs),
            in_game=in_game,
            unfinished=tuple(unfinished),
            visible=tuple(t for t, _ in visible),
            **table,
            choices=chosen_values,
            wilds=chosen,
            **penalties,
            opening=tuple(opening),
            opening_birds=tuple(t for t, _ in opening_birds),
            opening_bird_dice=tuple(opening_dice),
        )
        return Scenario(
            path=self.path,
            ruleset=None if ruleset is None else str(ruleset.value),
            ruleset_place=None if ruleset is None else ruleset.location,
            options={} if options is None or options.kind != "map" else options.plain(),
            hand=hand,
            raw=root.plain(),
            option_places=()
            if options is None or options.kind != "map"
            else tuple((options.keys[k].location, v.location) for k, v in options.value.items()),
            choice_places=tuple(
                (
                    k,
                    choices_node.keys[k].location,
                    tuple(v.location for v in choices_node.value[k].value),
                )
                for k in chosen_values
            ),
        )

    # --- pieces ------------------------------------------------------------------------------

    def unknown_keys(self, node: Node, allowed: tuple[str, ...]) -> None:
        for key, key_node in node.keys.items():
            if key not in allowed:
                self.error(
                    f"unknown key '{key}'",
                    key_node,
                    expected="one of " + ", ".join(allowed),
                    suggestion=nearest(key, allowed),
                )

    def integer(self, node: Node, key: str, default: int, low: int, high: int) -> int:
        found = node.value.get(key)
        if found is None:
            return default
        value = found.value
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.error(f"{key} must be a whole number from {low} to {high}", found)
            return default
        return value

    def seat(self, node: Node, players: int) -> int:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
            self.error(f"seat {value!r} is not a seat 0..{players - 1}", node)
            return 0
        return value

    def choices(self, node: Node | None, players: int) -> dict[str, tuple[Any, ...]]:
        """``choices: {NAME: [a value per seat]}``: numbers, true/false, a suit letter, or
        tiles in notation (the ruleset's ``choices``; one left out has its default)."""
        if node is None:
            return {}
        if node.kind != "map":
            self.error("choices is a mapping of choice names to a value per seat", node)
            return {}
        found: dict[str, tuple[Any, ...]] = {}
        for name, values in node.value.items():
            items = self.sequence(values)
            if len(items) != players:
                self.error(
                    f"choice {name!r} gives {len(items)} values", values,
                    expected=f"a list of {players} values, one per seat",
                )  # fmt: skip
                continue
            found[name] = tuple(self.chosen(item) for item in items)
        return found

    def chosen(self, node: Node) -> Any:
        value = node.value
        if isinstance(value, bool | int):
            return value
        if isinstance(value, str) and value in SUIT_LETTERS:
            return SUIT_LETTERS.index(value)
        return tuple(sorted(self.tiles(node)))

    def sequence(self, node: Node | None) -> list[Node]:
        if node is None:
            return []
        if node.kind != "seq":
            self.error("expected a list", node, expected="[...]")
            return []
        return list(node.value)

    def tiles(self, node: Node) -> list[Tile]:
        if node.kind != "scalar" or not isinstance(node.value, str | int):
            self.error("expected tiles in notation", node, expected='e.g. "123m 55p"')
            return []
        text = str(node.value)
        try:
            return self.tileset.parse(text, check_copies=False)
        except TileError as error:
            self.problems.error(
                error.problem, node.offset_location(error.position), expected=error.expected
            )
            return []

    def tiles_list(self, node: Node | None) -> list[tuple[Tile, Node]]:
        found = []
        for item in self.sequence(node):
            tiles = self.tiles(item)
            if len(tiles) > 1:
                self.error("one tile per item", item, expected="e.g. [5m, 9p]")
            found.extend((t, item) for t in tiles[:1])
        return found

    def dice(self, node: Node | None) -> list[int]:
        values = []
        for item in self.sequence(node):
            if (
                isinstance(item.value, bool)
                or not isinstance(item.value, int)
                or not 1 <= item.value <= 6
            ):
                self.error("a die shows 1 to 6", item)
            else:
                values.append(item.value)
        return values

    def wins(self, node: Node | None, players: int, root: Node, required: bool) -> list[Win]:
        if node is None:
            if required:
                self.error(
                    "a scenario needs wins, unfinished hands at the end of the wall, "
                    "false_wins, escape or opening_hands",
                    root,
                    expected="wins: [{seat: 1, hand: ..., ...}], unfinished: [...], "
                    "false_wins: [seats], escape: {seat: N, wall: tiles left} or "
                    "opening_hands: [{seat: N, hand: dealt tiles}]",
                )
            return []
        wins = []
        seen: set[int] = set()
        for item in self.sequence(node):
            if item.kind != "map":
                self.error(
                    "a win is a mapping", item, expected="{seat: 1, hand: ..., win_tile: ...}"
                )
                continue
            win = self.win(item, players)
            if win is None:
                continue
            if win.seat in seen:
                self.error(f"seat {win.seat} wins twice", item)
            seen.add(win.seat)
            wins.append(win)
        if len({w.discarder for w in wins}) > 1:
            self.error("several wins must all be on the same discard, or one self-draw", node)
        return wins

    def win(self, node: Node, players: int) -> Win | None:
        self.unknown_keys(node, WIN_KEYS)
        fields = node.value
        if "seat" not in fields or "hand" not in fields:
            self.error("a win needs seat and hand", node, expected="seat: N, hand: tiles")
            return None
        seat = self.seat(fields["seat"], players)
        concealed = self.tiles(fields["hand"])
        melds = self.melds(fields.get("melds"))
        if "win_tile" in fields and "win_tiles" in fields:
            self.error("give win_tile or win_tiles, not both", fields["win_tiles"])
        win_tiles: list[Tile] = []
        if "win_tile" in fields:
            win_tiles = self.tiles(fields["win_tile"])[:1]
        elif "win_tiles" in fields:
            win_tiles = [t for t, _ in self.tiles_list(fields["win_tiles"])]
        else:
            self.error("a win needs win_tile (or win_tiles)", node, expected="win_tile: 9s")
        discarder = None
        if "from" in fields:
            discarder = self.seat(fields["from"], players)
            if discarder == seat:
                self.error("a player cannot win on their own discard", fields["from"])
        context = set()
        for item in self.sequence(fields.get("context")):
            if item.value not in CONTEXTS:
                self.error(
                    f"unknown context {item.value!r}",
                    item,
                    expected="one of " + ", ".join(CONTEXTS),
                    suggestion=nearest(str(item.value), CONTEXTS),
                )
            else:
                context.add(item.value)
        needed = 14 - 3 * len(melds)
        if concealed and win_tiles and len(melds) <= 4:
            several = "win_tiles" in fields  # then the hand may leave the winning tiles out
            if len(concealed) == needed and win_tiles[0] in concealed:
                concealed.remove(win_tiles[0])
            elif len(concealed) == needed:
                self.error(
                    f"the winning tile {self.tileset.name(win_tiles[0])} is not in the hand",
                    fields["hand"],
                )
                return None
            elif not (several and len(concealed) == needed - 1):
                self.error(
                    f"{len(concealed)} concealed tiles with {len(melds)} meld(s)",
                    fields["hand"],
                    expected=f"{needed} tiles, the winning tile included",
                )
                return None
        return Win(
            seat=seat,
            concealed=tuple(sorted(concealed)),
            melds=tuple(melds),
            win_tiles=tuple(win_tiles),
            discarder=discarder,
            context=frozenset(context),
            location=node.location,
        )

    def melds(self, node: Node | None) -> list[HandMeld]:
        melds = []
        for meld_node in self.sequence(node):
            try:
                melds.append(read_meld(str(meld_node.value), self.tileset))
            except TileError as error:
                self.error(error.problem, meld_node, expected=error.expected or "e.g. pung 999s")
        if len(melds) > 4:
            self.error(f"{len(melds)} melds: at most four", node)
        return melds

    def penalties(self, root: Node, players: int) -> dict[str, Any]:
        """``false_wins: [seats]`` and ``escape: {seat: N, wall: tiles left}``."""
        found: dict[str, Any] = {}
        false_wins = root.value.get("false_wins")
        if false_wins is not None:
            found["false_wins"] = tuple(self.seat(n, players) for n in self.sequence(false_wins))
        escape = root.value.get("escape")
        if escape is None:
            return found
        if escape.kind != "map" or "seat" not in escape.value:
            self.error("escape is {seat: N, wall: tiles left to draw}", escape)
            return found
        self.unknown_keys(escape, ("seat", "wall"))
        found["leaver"] = self.seat(escape.value["seat"], players)
        found["wall_left"] = self.integer(escape, "wall", 0, 0, 144)
        return found

    def penalties_consistent(
        self, root: Node, found: dict[str, Any], unfinished: list[Unfinished],
        in_game: frozenset[int],
    ) -> None:  # fmt: skip
        """A seat that claims or leaves is still playing; the leaver's hand is not given."""
        leaver = (found["leaver"],) if "leaver" in found else ()
        for key, seats in (("false_wins", found.get("false_wins", ())), ("escape", leaver)):
            for seat in seats:
                if seat not in in_game:
                    self.error(f"{key}: seat {seat} is not in in_game", root.value[key])
        if "leaver" in found and any(h.seat == found["leaver"] for h in unfinished):
            self.error(
                f"unfinished: seat {found['leaver']} left (escape): only the hands of the "
                "seats still in are given",
                root.value["unfinished"],
            )

    def unfinished(self, node: Node | None, players: int) -> list[Unfinished]:
        found = []
        for item in self.sequence(node):
            if item.kind != "map" or "seat" not in item.value or "hand" not in item.value:
                self.error("an unfinished hand is {seat: N, hand: tiles, melds: [...]}", item)
                continue
            self.unknown_keys(item, ("seat", "hand", "melds"))
            seat = self.seat(item.value["seat"], players)
            concealed = self.tiles(item.value["hand"])
            melds = self.melds(item.value.get("melds"))
            if concealed and len(concealed) != 13 - 3 * len(melds):
                self.error(
                    f"{len(concealed)} concealed tiles with {len(melds)} meld(s)",
                    item.value["hand"],
                    expected=f"{13 - 3 * len(melds)} tiles",
                )
            found.append(Unfinished(seat, tuple(sorted(concealed)), tuple(melds), item.location))
        return found

    def opening(self, node: Node | None, players: int) -> list[Dealt]:
        """``opening_hands: [{seat: N, hand: dealt tiles}]``: each seat at most once.  How
        many tiles a seat is dealt is the ruleset's (``players.dealer_tiles``,
        ``other_tiles``): settlement checks it."""
        found: list[Dealt] = []
        for item in self.sequence(node):
            if item.kind != "map" or "seat" not in item.value or "hand" not in item.value:
                self.error("an opening hand is {seat: N, hand: the tiles dealt}", item)
                continue
            self.unknown_keys(item, ("seat", "hand"))
            seat = self.seat(item.value["seat"], players)
            if any(d.seat == seat for d in found):
                self.error(f"opening_hands: seat {seat} is given twice", item)
            tiles = self.tiles(item.value["hand"])
            found.append(Dealt(seat, tuple(sorted(tiles)), item.value["hand"].location))
        if node is not None and node.kind == "seq" and not node.value:
            self.error("opening_hands is empty", node, expected="[{seat: N, hand: tiles}]")
        return found

    def kongs(self, node: Node | None, players: int, in_game: frozenset[int]) -> list[Kong]:
        kongs = []
        for item in self.sequence(node):
            if item.kind != "map" or "seat" not in item.value or "kind" not in item.value:
                self.error("a kong is {seat: N, kind: direct|added|concealed, from: N}", item)
                continue
            self.unknown_keys(item, ("seat", "kind", "from", "drawn"))
            kind_node = item.value["kind"]
            if kind_node.value not in KONG_KINDS:
                self.error(
                    f"unknown kong kind {kind_node.value!r}",
                    kind_node,
                    expected="one of " + ", ".join(KONG_KINDS),
                )
                continue
            seat = self.seat(item.value["seat"], players)
            provider = None
            if "from" in item.value:
                provider = self.seat(item.value["from"], players)
            elif kind_node.value == "direct":
                self.error("a direct kong needs from: the seat that discarded the tile", item)
            if provider is not None and provider == seat:
                self.error("a player cannot make a kong on their own discard", item.value["from"])
            for role, who in (("seat", seat), ("from", provider)):
                if who is not None and who not in in_game:
                    self.error(
                        f"kongs: {role} {who} is not in in_game: a player who has left makes "
                        "no kong and discards no tile",
                        item.value[role],
                        expected="seats of in_game: " + ", ".join(map(str, sorted(in_game))),
                    )
            drawn = item.value.get("drawn")
            if drawn is not None and not isinstance(drawn.value, bool):
                self.error("drawn is true or false", drawn)
            from_draw = drawn is not None and drawn.value is True
            kongs.append(Kong(seat, str(kind_node.value), provider, from_draw=from_draw))
        return kongs

    def consistent(
        self,
        wins: list[Win],
        unfinished: list[Unfinished],
        in_game: frozenset[int],
        in_game_node: Node | None,
    ) -> None:
        """Seats that contradict each other: a winner or a discarder left out of ``in_game``,
        a seat both winning and unfinished, a seat unfinished twice or not in ``in_game``."""
        winners = {w.seat for w in wins}
        if in_game_node is not None:
            for win in wins:
                for role, who in (("winner", win.seat), ("discarder", win.discarder)):
                    if who is not None and who not in in_game:
                        self.error(
                            f"in_game leaves out seat {who}, the {role} of a win",
                            in_game_node,
                            expected="every winner and discarder among the seats still playing",
                        )
        seen: set[int] = set()
        for hand in unfinished:
            where = hand.location
            if hand.seat in winners:
                self.problems.error(
                    f"unfinished: seat {hand.seat} also wins (wins): a winner's hand is finished",
                    where,
                )
            if hand.seat in seen:
                self.problems.error(f"unfinished: seat {hand.seat} is given twice", where)
            elif hand.seat not in in_game:
                self.problems.error(
                    f"unfinished: seat {hand.seat} is not in in_game",
                    where,
                    expected="the seats still playing when the wall ran out or a seat left",
                )
            seen.add(hand.seat)

    def copies(
        self,
        wins: list[Win],
        birds: list[tuple[Tile, Node]],
        unfinished: list[Unfinished],
        visible: list[tuple[Tile, Node]],
    ) -> None:
        """No tile may appear more often than it exists, across hands, melds, birds and the
        tiles face up (``visible``).  Those may list the exposed melds given in ``wins`` and
        ``unfinished`` (docs/SCENARIO.md), so a visible tile counts only beyond the copies
        of it in those melds.

        Reported where the count first goes over: a win, a bird, an unfinished hand or a
        visible tile."""
        groups: list[tuple[tuple[Tile, ...], Location]] = []
        in_melds = [0] * self.tileset.kinds
        for index, win in enumerate(wins):
            # Several winners on one discard share its tile: count it once.
            shared = index > 0 and win.discarder is not None
            tiles = (*win.concealed, *(t for m in win.melds for t in m.tiles))
            groups.append(((*tiles, *(() if shared else win.win_tiles)), win.location))
        groups.extend(((tile,), node.location) for tile, node in birds)
        groups.extend(((*h.concealed, *(t for m in h.melds for t in m.tiles)), h.location)
                      for h in unfinished)  # fmt: skip
        for hand in (*wins, *unfinished):
            for tile in (t for m in hand.melds for t in m.tiles):
                in_melds[tile] += 1
        for tile, node in visible:
            if in_melds[tile]:  # a meld's tile seen face up: counted with its meld
                in_melds[tile] -= 1
            else:
                groups.append(((tile,), node.location))
        self.too_many(groups, "hands, melds, birds and visible tiles")

    def copies_dealt(self, dealt: list[Dealt], birds: list[tuple[Tile, Node]]) -> None:
        """No tile more often than it exists at the deal: the opening hands and their birds
        (the wins, later in the hand, hold many of the same tiles: counted apart)."""
        groups = [(d.tiles, d.location) for d in dealt]
        groups.extend(((tile,), node.location) for tile, node in birds)
        self.too_many(groups, "the opening hands and opening birds")

    def too_many(self, groups: list[tuple[tuple[Tile, ...], Location]], counting: str) -> None:
        """Report, where the count first goes over, a tile of ``groups`` beyond its copies."""
        counts = [0] * self.tileset.kinds
        reported: set[Tile] = set()
        for tiles, location in groups:
            for tile in tiles:
                counts[tile] += 1
            for tile in sorted(set(tiles)):
                if counts[tile] > self.tileset.copies_of(tile) and tile not in reported:
                    reported.add(tile)
                    self.problems.error(
                        f"copy {counts[tile]} of {self.tileset.name(tile)}, counting {counting}",
                        location,
                        expected=f"at most {self.tileset.copies_of(tile)} copies of a tile",
                    )
