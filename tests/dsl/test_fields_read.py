"""Every field of the ruleset format is read by code that plays or settles: a key that a
ruleset may set but nothing reads is a rule silently ignored.

Two checks, each shown to fail on a dead field of its own making:

- *Read while playing.*  Every shipped ruleset, under each preset, is turned into the
  engine's rules, plays a hand and settles its scenarios with its data wrapped so that
  each field read by name is recorded (its schema path, ``hands.<name>.when``).  A field
  of the schema never read fails.  Fields exempt: words for people (names, titles, sources,
  notes, the unit's name), and what the loader reads from the file before the ruleset exists
  (``format``, ``extends``, ``ruleset``, ``options``, ``presets``, ``scoring.classes``,
  ``hands.<name>.shape``).  An overlay sets the few fields that only matter at values no
  shipped ruleset uses.
- *Kept and used.*  The engine reads the ruleset once, into attributes of ``Rules`` and
  ``Replacement`` (interpreter/engine/rules.py); an attribute that no code reads back hides a
  dead field from the first check, so every one must be read somewhere in interpreter/.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from dsl.ruleset import Frozen, Ruleset, load
from dsl.structure import STRUCTURE, Entries, Field, Record, SourceRef, Text, Type, walk
from interpreter.engine.match import play
from interpreter.engine.rules import Rules
from interpreter.scenario import read_scenario
from interpreter.settle import settle
from tests.migrate import record

REPO = Path(__file__).resolve().parents[2]
READ_BY_THE_LOADER = (
    "format",
    "extends",
    "ruleset",
    "options",
    "presets",
    "scoring.classes",  # the classes hand types may name, and names in payment expressions
    "hands.<name>.shape",  # whether the shape audit at load refuses a hand without a shape
    "tiles.wilds.stand_for",  # whether the hand tables can read the wilds as declared
)
UNUSED_BY_SHIPPED = """\
format: 2
extends: sichuan/blog5
ruleset: {title: the fields no shipped ruleset uses}
choices:
  stake: {at: before_deal, values: 0..2, when: seat != dealer, default: 0}
  exchange: {tiles: 3, constraint: count(suits) == 1, effect: exchange, direction: across}
declarations:
  drawn: {after: [draw, kong], when: true, once: true, amount: 1}
adjustments: {stake: {at: [win, kong, wall_end], amount: amount + 1}}
"""
"""An overlay that sets what the shipped rulesets leave at defaults no code path reads."""


class Tracked(Frozen):
    """A ruleset mapping that records the schema path of each field read by name."""

    __slots__ = ("_entries", "_path", "_seen")

    def __init__(self, data: Mapping[str, Any], path: tuple[str, ...], kind: Type | None,
                 seen: set[str]) -> None:  # fmt: skip
        entries = isinstance(kind, Entries)
        fields = kind.fields if isinstance(kind, Record) else {}
        wrapped = {}
        for key, value in data.items():
            sub = (*path, "<name>" if entries else key)
            field = fields.get(key)
            inner = kind.entry if isinstance(kind, Entries) else getattr(field, "type", None)
            wrapped[key] = Tracked(value, sub, inner, seen) if isinstance(value, Frozen) else value
        super().__init__(wrapped)
        object.__setattr__(self, "_entries", entries)
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_seen", seen)

    def _read(self, key: str) -> None:
        self._seen.add(".".join((*self._path, "<name>" if self._entries else key)))

    def __getitem__(self, key: str) -> Any:
        self._read(key)
        return super().__getitem__(key)

    def __getattr__(self, key: str) -> Any:
        if not key.startswith("_"):
            self._read(key)
        return super().__getattr__(key)

    def items(self) -> Iterator[tuple[str, Any]]:  # type: ignore[override]
        """Going over named entries reads their names; going over a record's fields reads none."""
        data = object.__getattribute__(self, "_data")
        if self._entries and data:
            self._read("")
        return iter(data.items())

    def values(self) -> Iterator[Any]:  # type: ignore[override]
        return (value for _, value in self.items())


def tracked(ruleset: Ruleset, seen: set[str]) -> Ruleset:
    return replace(ruleset, data=Tracked(ruleset.data, (), STRUCTURE, seen))


def exempt(path: tuple[str, ...], field: Field) -> bool:
    if isinstance(field.type, Text | SourceRef) or field.name == "note":
        return True
    dotted = ".".join(path)
    return any(dotted == top or dotted.startswith(top + ".") for top in READ_BY_THE_LOADER)


def unread(seen: set[str], fields: Iterable[tuple[tuple[str, ...], Field]]) -> list[str]:
    """The fields (not exempt) that ``seen`` does not hold."""
    return [".".join(p) for p, f in fields if not exempt(p, f) and ".".join(p) not in seen]


def shipped_ids() -> list[str]:
    return [
        str(p.relative_to(REPO / "rulesets").with_suffix(""))
        for p in sorted((REPO / "rulesets").rglob("*.yaml"))
        if "abstract: true" not in p.read_text(encoding="utf-8")
    ]


def test_every_field_is_read_while_playing_and_settling(tmp_path: Path) -> None:
    seen: set[str] = set()
    for the_id in shipped_ids():
        ruleset = load(the_id)
        for preset in (None, *ruleset.presets):
            Rules(tracked(load(the_id, preset=preset), seen))
        play(tracked(ruleset, seen), 1, "efficiency", hands=2)
        for path in record.scenarios_of(the_id):
            scenario = read_scenario(path)
            settle(tracked(load(the_id, settings=scenario.settings()), seen), scenario.hand)
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(UNUSED_BY_SHIPPED, encoding="utf-8")
    Rules(tracked(load(str(overlay)), seen))
    play(tracked(load(str(overlay)), seen), 1, "efficiency", hands=1)
    drawn_end = read_scenario(REPO / "docs" / "scenarios" / "blog5-drawn-end.yaml")
    settle(tracked(load(str(overlay)), seen), drawn_end.hand)
    assert unread(seen, walk()) == []


def test_a_field_nobody_reads_is_found() -> None:
    """The check above fails for a field of the schema no code reads."""
    seen: set[str] = set()
    Rules(tracked(load("changsha/qq2014"), seen))
    dead = Field("surely_unused", Type(), "a field no code reads")
    fields = [*walk(), (("wall_end", "surely_unused"), dead)]
    assert "wall_end.surely_unused" in unread(seen, fields)
    assert "wall_end.last_tiles" not in unread(seen, fields)


def attributes_kept(source: str) -> dict[str, int]:
    """The attributes ``Rules.__init__`` sets and the fields of ``Replacement``, with their line."""
    kept: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == "Replacement":
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    kept[item.target.id] = item.lineno
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            for item in ast.walk(node):
                targets = item.targets if isinstance(item, ast.Assign) else []
                targets += [item.target] if isinstance(item, ast.AnnAssign) else []
                for target in targets:
                    owner = target.value if isinstance(target, ast.Attribute) else None
                    if isinstance(owner, ast.Name) and owner.id == "self":
                        kept[target.attr] = item.lineno
    return kept


def attributes_read(sources: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                found.add(node.attr)
    return found


def code() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((REPO / "interpreter").rglob("*.py"))]


RULES = REPO / "interpreter" / "engine" / "rules.py"


def test_what_the_engine_keeps_of_the_ruleset_is_used() -> None:
    kept = attributes_kept(RULES.read_text(encoding="utf-8"))
    assert {"missed_win_until", "replacements", "when_missing", "kong_again"} <= kept.keys()
    read = attributes_read(code())
    assert {name: line for name, line in kept.items() if name not in read} == {}


def test_a_kept_attribute_nobody_reads_is_found() -> None:
    source = RULES.read_text(encoding="utf-8").replace(
        "        self.ruleset = rs\n", "        self.ruleset = rs\n        self.surely_unused = 1\n"
    )
    kept = attributes_kept(source)
    assert "surely_unused" in kept
    assert "surely_unused" not in attributes_read([source, *code()])
