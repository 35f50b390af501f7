"""What a ruleset file may contain: every section and field, its type, default, allowed values and
meaning.

This description is the one source of truth: the checker (``check``), the JSON Schema
(``json_schema``), the field tables of ``docs/DSL.md`` (``markdown_tables``) and ``explain`` are
all driven by it.  Top-level sections come in the order players explain the game: tiles, seats
and deal, turn and claims, winning hands, scoring, end of the game.

Literal fields (numbers, yes/no, named choices) may instead name a declared option,
``option.NAME``, whose value is then used.  Expression fields hold text in the rules expression
language, compiled later against the scope named here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dsl.migrate import FORMAT
from dsl.problems import Problems, nearest
from dsl.yaml_source import Node
from handcore.tiles import FLOWERS, HONOURS, Suit

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
_NAME = re.compile(NAME_PATTERN)
_OPTION_REF = re.compile(r"^option\.([A-Za-z_][A-Za-z0-9_]*)$")
_OPTION_READ = re.compile(r"\boption\.([A-Za-z_][A-Za-z0-9_]*)")

Path = tuple[str | int, ...]


# --- What the checker produces ----------------------------------------------------------------


@dataclass(frozen=True)
class ExprSource:
    """An expression field as written: its text, where it is, and what it must compile to."""

    text: str
    node: Node
    scope: str
    result: str
    path: Path


@dataclass
class Context:
    """State of one check: problems found, declared options and their values, where things are."""

    problems: Problems
    options: dict[str, Any] = field(default_factory=dict)  # name -> dsl.options.Option
    locations: dict[Path, Node] = field(default_factory=dict)
    keys: dict[Path, Node] = field(default_factory=dict)  # the name of each named entry
    option_refs: dict[Path, str] = field(default_factory=dict)
    expressions: list[ExprSource] = field(default_factory=list)
    abstract: bool = False


# --- Types ------------------------------------------------------------------------------------


class Type:
    """How a field's value is written, checked and documented."""

    literal = False

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def accepts(self, value: Any) -> bool:
        """Whether a plain value (an option's value) is acceptable here."""
        return False


def _kind_name(node: Node) -> str:
    if node.kind == "map":
        return "a mapping"
    if node.kind == "seq":
        return "a list"
    value = node.value
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"yes/no '{str(value).lower()}'"
    if isinstance(value, int | float):
        return f"the number {value}"
    return f"the text '{value}'"


def _option_ref(node: Node, ctx: Context, path: Path, field_type: Type) -> tuple[bool, Any]:
    """If the scalar names an option, check the option fits and return (True, its value)."""
    if node.kind != "scalar" or not isinstance(node.value, str):
        return False, None
    match = _OPTION_REF.match(node.value.strip())
    if not match:
        return False, None
    name = match.group(1)
    option = ctx.options.get(name)
    if option is None:
        ctx.problems.error(
            f"unknown option '{name}'",
            node.offset_location(len("option."), len(name)),
            expected="an option declared under 'options:'"
            + (f" ({', '.join(sorted(ctx.options))})" if ctx.options else " (none declared)"),
            suggestion=nearest(name, ctx.options),
        )
        return True, None
    bad = [v for v in option.possible_values() if not field_type.accepts(v)]
    if bad:
        ctx.problems.error(
            f"option '{name}' may be {bad[0]!r}, which does not fit here",
            node.location,
            expected=field_type.describe(),
        )
        return True, None
    ctx.option_refs[path] = name
    return True, option.value


class Str(Type):
    def __init__(self, pattern: str | None = None, what: str = "text") -> None:
        self.pattern = re.compile(pattern) if pattern else None
        self.what = what

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str) and (self.pattern is None or bool(self.pattern.match(value)))

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind != "scalar" or node.value is None or isinstance(node.value, bool):
            ctx.problems.error(
                f"expected {self.what}, found {_kind_name(node)}",
                node.location,
                expected=self.describe(),
            )
            return None
        value = str(node.value)
        if self.pattern and not self.pattern.match(value):
            ctx.problems.error(
                f"'{value}' is not a valid {self.what}", node.location, expected=self.describe()
            )
            return None
        return value

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string"}
        if self.pattern:
            out["pattern"] = self.pattern.pattern
        return out

    def describe(self) -> str:
        return self.what if self.pattern is None else f"{self.what} (letters, digits, _)"


class Int(Type):
    literal = True

    def __init__(self, low: int = 0, high: int = 1_000_000) -> None:
        self.low = low
        self.high = high

    def accepts(self, value: Any) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        is_ref, value = _option_ref(node, ctx, path, self)
        if is_ref:
            return value
        if node.kind != "scalar" or not self.accepts(node.value):
            ctx.problems.error(
                f"expected {self.describe()}, found {_kind_name(node)}",
                node.location,
                expected=self.describe(),
            )
            return None
        return node.value

    def schema(self) -> dict[str, Any]:
        return {
            "anyOf": [
                {"type": "integer", "minimum": self.low, "maximum": self.high},
                {"type": "string", "pattern": _OPTION_REF.pattern},
            ]
        }

    def describe(self) -> str:
        return f"a whole number from {self.low} to {self.high}"


class Bool(Type):
    literal = True

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        is_ref, value = _option_ref(node, ctx, path, self)
        if is_ref:
            return value
        if node.kind != "scalar" or not isinstance(node.value, bool):
            ctx.problems.error(
                f"expected true or false, found {_kind_name(node)}",
                node.location,
                expected="true or false",
            )
            return None
        return node.value

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "boolean"}, {"type": "string", "pattern": _OPTION_REF.pattern}]}

    def describe(self) -> str:
        return "true or false"


class Condition(Bool):
    """true or false, or a condition on the options worked out once at load:
    ``option.a and not option.b``, ``option.birds > 0``, ``option.cap != "none"``."""

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        text = node.value if node.kind == "scalar" else None
        if not isinstance(text, str) or _OPTION_REF.match(text.strip()) or text in _NOT_BOOL:
            return super().check(node, ctx, path)
        return _decide(text, "bool", node, ctx, path)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "boolean"}, {"type": "string"}]}

    def describe(self) -> str:
        return "true or false, or a condition on options"


_NOT_BOOL = {"yes", "no", "on", "off", "Yes", "No", "True", "False", "TRUE", "FALSE"}
"""What YAML 1.1 read as true or false: refused as it was, not taken for a name."""


def _decide(text: str, result: Any, node: Node, ctx: Context, path: Path) -> Any:
    """The value of an expression on the options only, worked out now; every option it reads
    is remembered as read at ``(*path, name)``."""
    from dsl.expressions import ExpressionError, decide

    where = ".".join(map(str, path))
    try:
        value = decide(text, ctx.options, expect=result)
    except ExpressionError as error:
        ctx.problems.error(
            f"{where}: {error.message}",
            node.offset_location(max(0, error.offset), max(1, error.length)),
            expected=error.expected or "",
            suggestion=error.suggestion or "",
        )
        return None
    except ValueError as error:  # an option the expressions cannot read
        ctx.problems.error(f"{where}: {error}", node.location)
        return None
    for name in _OPTION_READ.findall(text):
        if name in ctx.options:
            ctx.option_refs[(*path, name)] = name
    return value


class Choice(Type):
    literal = True

    def __init__(self, *values: str) -> None:
        self.values = values

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.values

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        is_ref, value = _option_ref(node, ctx, path, self)
        if is_ref:
            return value
        text = node.value if node.kind == "scalar" else None
        if isinstance(text, bool):  # YAML 1.1 reads 'no', 'off' as false
            text = None
        if not isinstance(text, str | int) or str(text) not in self.values:
            shown = f"'{text}'" if text is not None else _kind_name(node)
            ctx.problems.error(
                f"{shown} is not one of the allowed values",
                node.location,
                expected=self.describe(),
                suggestion=nearest(str(text), self.values) if text else "",
            )
            return None
        return str(text)

    def schema(self) -> dict[str, Any]:
        return {
            "anyOf": [
                {"enum": list(self.values)},
                {"type": "string", "pattern": _OPTION_REF.pattern},
            ]
        }

    def describe(self) -> str:
        return "one of " + ", ".join(self.values)


class Text(Type):
    """A name or title: plain text, or ``{zh: ..., en: ...}``."""

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind == "scalar" and isinstance(node.value, str):
            return {"zh": node.value, "en": node.value}
        if node.kind == "map":
            out = {}
            for key, child in node.value.items():
                if key not in ("zh", "en"):
                    slip = child.kind == "scalar" and child.value is None
                    ctx.problems.error(
                        f"unknown key '{key}' in a name"
                        + (" (a comma inside {...} ends the text before it)" if slip else ""),
                        node.keys[key].location,
                        expected='zh or en; text with a comma in quotes: en: "a, b"'
                        if slip
                        else "zh or en",
                        suggestion=nearest(key, ("zh", "en")),
                    )
                    continue
                out[key] = Str().check(child, ctx, (*path, key))
            if not out:
                ctx.problems.error("empty name", node.location, expected="zh and/or en")
            out.setdefault("zh", out.get("en"))
            out.setdefault("en", out.get("zh"))
            return out
        ctx.problems.error(
            f"expected a name, found {_kind_name(node)}", node.location, expected=self.describe()
        )
        return None

    def schema(self) -> dict[str, Any]:
        return {
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "zh": {"type": "string", "description": "Chinese"},
                        "en": {"type": "string", "description": "English"},
                    },
                },
            ]
        }

    def describe(self) -> str:
        return "text, or {zh: ..., en: ...}"


class SourceRef(Type):
    """Where a rule comes from: ``"<seed file> <section>"`` or ``house rule``; one or several."""

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        items = node.value if node.kind == "seq" else [node]
        out = []
        for i, item in enumerate(items):
            value = Str(what="source").check(item, ctx, (*path, i))
            if value is not None and not value.strip():
                ctx.problems.error("empty source", item.location, expected=self.describe())
            out.append(value)
        return tuple(out)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}

    def describe(self) -> str:
        return "'<seed file> <section>' or 'house rule', or a list of them"


class Expr(Type):
    """Text in the expression language, compiled in ``scope`` to a value of type ``result``;
    an empty ``result`` is checked after compiling, and ``gives`` says what it must be."""

    def __init__(self, scope: str, result: str, gives: str = "") -> None:
        self.scope = scope
        self.result = result
        self.gives = gives or result

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind != "scalar" or node.value is None:
            ctx.problems.error(
                f"expected an expression, found {_kind_name(node)}",
                node.location,
                expected=self.describe(),
            )
            return None
        value = node.value
        text = str(value).lower() if isinstance(value, bool) else str(value)
        source = ExprSource(text, node, self.scope, self.result, path)
        ctx.expressions.append(source)
        return source

    def schema(self) -> dict[str, Any]:
        return {"type": ["string", "integer", "boolean"]}

    def describe(self) -> str:
        return f"an expression giving {self.gives} (names of '{self.scope}')"


class ListOf(Type):
    """A list; a list of named values may instead be an expression on the options giving a
    collection of them, worked out once at load: ``'if option.wan then {"m", "p", "s"} else
    {"p", "s"}'``."""

    def __init__(self, item: Type) -> None:
        self.item = item
        self.decided = isinstance(item, Choice)

    def _decide(self, node: Node, ctx: Context, path: Path) -> Any:
        from dsl.types import Type as ValueType
        from dsl.types import collection

        assert isinstance(self.item, Choice)
        values = self.item.values
        kind = collection(ValueType(str(path[-1]), values=values))
        found = _decide(str(node.value), kind, node, ctx, path)
        return None if found is None else tuple(v for v in values if v in found)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, list | tuple) and all(self.item.accepts(v) for v in value)

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if self.decided and node.kind == "scalar" and isinstance(node.value, str):
            return self._decide(node, ctx, path)
        if node.kind != "seq":
            if node.kind == "map" and set(node.value) <= {"add", "remove"}:
                ctx.problems.error(
                    "'add:'/'remove:' change a list inherited with 'extends:', but there is none "
                    "here",
                    node.location,
                    expected="a list",
                )
            else:
                ctx.problems.error(
                    f"expected a list, found {_kind_name(node)}",
                    node.location,
                    expected=f"a list of {self.item.describe()}",
                )
            return None
        for i, child in enumerate(node.value):
            ctx.locations[(*path, i)] = child
        return tuple(self.item.check(child, ctx, (*path, i)) for i, child in enumerate(node.value))

    def schema(self) -> dict[str, Any]:
        item = self.item.schema()
        forms: list[dict[str, Any]] = [
            {"type": "array", "items": item},
            {
                "type": "object",
                "additionalProperties": False,
                "description": "change an inherited list",
                "properties": {
                    "add": {"type": "array", "items": item},
                    "remove": {"type": "array", "items": item},
                },
            },
        ]
        if self.decided:
            forms.append({"type": "string", "description": "an expression on options"})
        return {"anyOf": forms}

    def describe(self) -> str:
        if self.decided:
            return f"a list of {self.item.describe()}, or an expression on options giving them"
        return f"a list of {self.item.describe()}"


class TileGroup(ListOf):
    """Tiles of one block in play, by name: ``true`` (all), ``false`` (none), or a list of
    tile names (``中`` or ``5z``) and group names (``dragons``)."""

    def __init__(self, block: Suit, groups: dict[str, str]) -> None:
        self.tiles = tuple(chars[0] for chars in block.chars)
        self.groups = groups
        notation = tuple(f"{n}{block.letter}" for n in range(1, block.size + 1))
        super().__init__(Choice(*groups, *self.tiles, *notation))

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool) or super().accepts(value)

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        """The tile names in play, groups spelled out."""
        is_ref, names = _option_ref(node, ctx, path, self)
        if node.kind == "scalar" and isinstance(node.value, bool):
            names = node.value
        elif not is_ref:
            names = super().check(node, ctx, path)
        if isinstance(names, bool):
            return self.tiles if names else False
        if names is None:
            return None
        return tuple(dict.fromkeys(t for n in names if n for t in self.groups.get(n, (n,))))

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "boolean"}, *super().schema()["anyOf"]]}

    def describe(self) -> str:
        return "true (all), false (none), or a list of " + ", ".join(self.item.values)


class OneOrList(Type):
    """One value, or a list of values standing together (equal in rank)."""

    def __init__(self, item: Type) -> None:
        self.item = item
        self.group = ListOf(item)

    def accepts(self, value: Any) -> bool:
        return self.item.accepts(value) or self.group.accepts(value)

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind == "seq":
            return self.group.check(node, ctx, path)
        return self.item.check(node, ctx, path)

    def schema(self) -> dict[str, Any]:
        item = self.item.schema()
        return {"anyOf": [item, {"type": "array", "items": item}]}

    def describe(self) -> str:
        return f"{self.item.describe()}, or a list of them"


class AnyValue(Type):
    """Any plain scalar or list of scalars: option defaults and values, checked by dsl.options;
    ``what`` says which one a field takes."""

    def __init__(self, what: str = "a number, true/false or a name") -> None:
        self.what = what

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind == "map":
            ctx.problems.error(
                "expected a value, found a mapping",
                node.location,
                expected=self.what,
            )
            return None
        return node.plain()

    def schema(self) -> dict[str, Any]:
        return {"type": ["string", "integer", "boolean", "array", "null"]}

    def describe(self) -> str:
        return self.what


_REQUIRED = object()


@dataclass(frozen=True)
class Field:
    """One key of a section: its type, default, meaning, Chinese term and a small example."""

    name: str
    type: Type
    doc: str
    default: Any = None
    zh: str = ""
    required: bool = False
    example: str = ""


class Record(Type):
    """A mapping with fixed keys (a section or a part of one)."""

    def __init__(self, doc: str, *fields: Field, zh: str = "", cited: bool = True) -> None:
        self.doc = doc
        self.zh = zh
        extra = (
            (
                Field(
                    "source",
                    SourceRef(),
                    "Where this comes from: seed file and section, or 'house rule'.",
                    zh="出处",
                ),
                Field(
                    "note",
                    Str(),
                    "Free text shown by 'explain': a decision and its reasons.",
                    zh="说明",
                ),
            )
            if cited
            else ()
        )
        self.fields = {f.name: f for f in (*fields, *extra)}

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind != "map":
            ctx.problems.error(
                f"expected a mapping, found {_kind_name(node)}",
                node.location,
                expected="keys: " + ", ".join(self.fields),
            )
            return None
        ctx.locations[path] = node
        out: dict[str, Any] = {}
        for key, child in node.value.items():
            spec = self.fields.get(key)
            if spec is None:
                ctx.problems.error(
                    f"unknown key '{key}'",
                    node.keys[key].location,
                    expected="one of " + ", ".join(self.fields),
                    suggestion=nearest(key, self.fields),
                )
                continue
            ctx.locations[(*path, key)] = child
            if child.kind == "scalar" and child.value is None and not spec.required:
                out[key] = _default(spec, ctx, (*path, key), child)
                continue
            if (
                isinstance(spec.type, ListOf)
                and child.kind == "map"
                and child.value
                and set(child.value) <= {"add", "remove"}
                and spec.default is not None
            ):
                out[key] = _change_default(spec, child, ctx, (*path, key))
                continue
            out[key] = spec.type.check(child, ctx, (*path, key))
        for name, spec in self.fields.items():
            if name in out:
                continue
            if (spec.required or _has_required(spec)) and not ctx.abstract:
                ctx.problems.error(
                    f"missing key '{name}'", node.location, expected=f"'{name}:' ({spec.doc})"
                )
            out[name] = _default(spec, ctx, (*path, name), node)
        return out

    def schema(self) -> dict[str, Any]:
        props = {}
        for f in self.fields.values():
            sub = f.type.schema()
            if not f.required:  # `key: ~`: the default, or in an extending file a removal
                sub = {"anyOf": [sub, {"type": "null"}]}
            sub["description"] = f"{f.zh} {f.doc}".strip() if f.zh else f.doc
            if f.default is not None and not isinstance(f.type, Record | Entries):
                sub["default"] = f.default
            props[f.name] = sub
        return {
            "type": "object",
            "description": self.doc,
            "additionalProperties": False,
            "properties": props,
        }

    def describe(self) -> str:
        return "a mapping"


def _has_required(spec: Field) -> bool:
    """A section left out entirely that has required fields is itself missing."""
    return isinstance(spec.type, Record) and any(
        f.required or _has_required(f) for f in spec.type.fields.values()
    )


def _change_default(spec: Field, change: Node, ctx: Context, path: Path) -> Any:
    """``{add: [...], remove: [...]}`` on a list nobody set: change the field's default."""
    assert isinstance(spec.type, ListOf)
    items = list(spec.default)
    for verb in ("remove", "add"):
        sub = change.value.get(verb)
        if sub is None:
            continue
        values = spec.type.check(sub, ctx, (*path, verb))
        for i, value in enumerate(values or ()):
            if verb == "add":
                items.append(value)
            elif value in items:
                items.remove(value)
            else:
                ctx.problems.warning(
                    f"{value!r} is not in the list",
                    sub.value[i].location,
                    expected=", ".join(map(str, items)),
                )
    return tuple(items)


def _default(spec: Field, ctx: Context, path: Path, parent: Node) -> Any:
    """A missing field takes its default; a missing sub-section is filled with its defaults."""
    if isinstance(spec.type, Record):
        out = {n: _default(f, ctx, (*path, n), parent) for n, f in spec.type.fields.items()}
        return out
    if isinstance(spec.type, Entries):
        return {}
    if isinstance(spec.type, Expr) and spec.default is not None:
        source = ExprSource(str(spec.default), parent, spec.type.scope, spec.type.result, path)
        ctx.expressions.append(source)
        return source
    return spec.default


class Entries(Type):
    """A mapping from names the author chooses (hand types, options ...) to records."""

    def __init__(self, entry: Record, what: str) -> None:
        self.entry = entry
        self.what = what

    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind != "map":
            ctx.problems.error(
                f"expected a mapping of {self.what}s, found {_kind_name(node)}",
                node.location,
                expected=f"name: {{...}} for each {self.what}",
            )
            return None
        ctx.locations[path] = node
        out = {}
        for key, child in node.value.items():
            if not _NAME.match(key):
                ctx.problems.error(
                    f"'{key}' is not a valid {self.what} name",
                    node.keys[key].location,
                    expected="letters, digits and _, not starting with a digit",
                )
                continue
            if child.kind == "scalar" and child.value is None:
                continue  # removed in an extending ruleset, or left empty
            ctx.keys[(*path, key)] = node.keys[key]
            out[key] = self.entry.check(child, ctx, (*path, key))
        return out

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "description": f"{self.what}s by name",
            # `name: ~` removes an inherited entry
            "patternProperties": {NAME_PATTERN: {"anyOf": [self.entry.schema(), {"type": "null"}]}},
            "additionalProperties": False,
        }

    def describe(self) -> str:
        return f"{self.what}s by name"


# --- The ruleset format -----------------------------------------------------------------------

NAME = Field(
    "name",
    Text(),
    "Display name, Chinese and English.",
    zh="名称",
    example="{zh: 平胡, en: plain win}",
)

OPTION = Record(
    "A setting chosen before a game; expressions and literal fields read it as option.NAME.",
    NAME,
    Field(
        "type",
        Choice("int", "bool", "choice"),
        "Kind of value: whole number, true/false, or one of named values.",
        required=True,
        example="int",
    ),
    Field(
        "default",
        AnyValue(),
        "Value used unless a preset or --set changes it.",
        required=True,
        example="2",
    ),
    Field(
        "allowed",
        AnyValue("a list of numbers, true/false or names"),
        "The values allowed (a list); for 'choice' the names.",
        example="[0, 1, 2, 4, 6]",
    ),
    Field("doc", Str(), "What the option changes, for people."),
)

PRESET = Record(
    "A named set of option values, e.g. what one app calls a room type.",
    NAME,
    Field(
        "set",
        AnyValue(),
        "Option values: {option: value, ...}.",
        required=True,
        example="{birds: 4, cap: none}",
    ),
    Field("doc", Str(), "What this preset is, for people."),
)

# Presets' 'set' is a mapping; AnyValue refuses mappings, so it gets its own type.


class _OptionValues(Type):
    def check(self, node: Node, ctx: Context, path: Path) -> Any:
        if node.kind != "map":
            ctx.problems.error(
                f"expected a mapping of option values, found {_kind_name(node)}",
                node.location,
                expected="{option: value, ...}",
            )
            return None
        return {k: v for k, v in node.value.items()}  # Nodes, checked by dsl.options

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": {"type": ["string", "integer", "boolean"]},
        }

    def describe(self) -> str:
        return "{option: value, ...}"


PRESET.fields["set"] = Field(
    "set",
    _OptionValues(),
    PRESET.fields["set"].doc,
    required=True,
    example=PRESET.fields["set"].example,
)

CLAIM_SEATS = Choice("previous", "any")


def _claim(name: str, zh: str, doc: str, allowed: bool, source: str = "any") -> Field:
    return Field(
        name,
        Record(
            doc,
            Field("allowed", Bool(), "Whether this claim exists.", default=allowed),
            Field(
                "from",
                CLAIM_SEATS,
                "Whose discard: 'previous' (上家, the player before) or 'any'.",
                default=source,
            ),
            Field("when", Expr("claims", "bool"), "Extra condition on the claim.", default="true"),
            zh=zh,
        ),
        doc,
        zh=zh,
    )


HAND = Record(
    "A hand type: a pattern plus conditions, a class and a value.",
    NAME,
    Field(
        "class",
        Str(NAME_PATTERN, "class name"),
        "Its class, one of scoring.classes (e.g. small/big); payments often depend on it.",
        required=True,
        zh="类",
        example="big",
    ),
    Field(
        "when",
        Expr("hands", "bool"),
        "When the hand counts: a pattern and conditions.",
        required=True,
        zh="条件",
        example="standard() and count(suits) == 1",
    ),
    Field(
        "value",
        Expr("hands", "int"),
        "Its value in scoring.unit (合, 番, 分 ...).",
        default=1,
        zh="值",
        example="3",
    ),
    Field(
        "shape",
        Choice("required", "none"),
        "'none': it needs no winning shape and may hold on a hand that is neither standard() "
        "nor seven_pairs(), making it a win; 'required': the check refuses a condition that does.",
        default="required",
        zh="牌型",
        example="none",
    ),
    Field(
        "replaces",
        ListOf(Str(NAME_PATTERN, "hand name")),
        "Hand types this one overrides when both count (e.g. a hand that includes another).",
        default=(),
        zh="取代",
        example="[qidui]",
    ),
    Field(
        "enabled",
        Condition(),
        "Whether the hand exists (often option.NAME).",
        default=True,
        example="option.tiandi",
    ),
)

OPENING_HAND = Record(
    "A hand type checked on the dealt tiles (起手胡), before the first discard.",
    NAME,
    Field(
        "when",
        Expr("opening_hands", "bool"),
        "Condition on the dealt tiles.",
        required=True,
        zh="条件",
        example="count(roots) >= 1",
    ),
    Field("value", Expr("opening_hands", "int"), "How many times it is paid.", default=1),
    Field("enabled", Condition(), "Whether the hand exists (often option.NAME).", default=True),
)

MODIFIER = Record(
    "An add-on to a win's value: per kong, per root 根, self-draw, win on a kong draw ...",
    NAME,
    Field(
        "class",
        Str(NAME_PATTERN, "class name"),
        "Its class, one of scoring.classes.",
        default="bonus",
        zh="类",
    ),
    Field("when", Expr("hands", "bool"), "When it applies.", default="true", zh="条件"),
    Field(
        "value",
        Expr("hands", "int"),
        "How much it adds, in scoring.unit.",
        required=True,
        zh="值",
        example="count(roots)",
    ),
    Field(
        "replaces",
        ListOf(Str(NAME_PATTERN, "modifier name")),
        "Modifiers this one overrides when both apply (e.g. a kong-draw bonus that already "
        "counts the self-draw one).",
        default=(),
        zh="取代",
        example="[zimo]",
    ),
    Field("enabled", Condition(), "Whether the modifier exists (often option.NAME).", default=True),
)

REPLACEMENT = Record(
    "A way to draw after a kong: 补张 from the tail, 开杠 from a dice-chosen stack ...",
    NAME,
    Field(
        "from",
        Choice("tail", "front", "dice_stack"),
        "Where the tiles come from: the "
        "wall's tail, its front (顺拿), or a stack counted from the tail by the dice.",
        default="tail",
        zh="从哪里摸",
    ),
    Field(
        "order",
        Choice("top_then_bottom", "bottom_then_top", "top_only"),
        "Which tile of a stack first; top_only: the top tile only, a stack without it is "
        "missing (when_missing).",
        default="top_then_bottom",
    ),
    Field(
        "dice",
        Expr("kong_dice", "int"),
        "For from: dice_stack, how many dice are thrown; their total counts the stack from the "
        "tail.",
        default=2,
        zh="骰子",
        example="if stacks < 12 then 1 else 2",
    ),
    Field(
        "when_missing",
        Choice("reroll", "last_stack", "none"),
        "If the chosen stack is gone, too far, or lacks its top tile (order: top_only): throw "
        "again, take the last stack that holds a tile, or draw nothing.",
        default="reroll",
    ),
    Field("tiles", Int(1, 4), "How many tiles are drawn.", default=1, zh="张数"),
    Field(
        "requires_ready",
        Bool(),
        "Only a ready (听牌) hand may draw this way.",
        default=False,
        zh="须听牌",
    ),
    Field(
        "locks_hand",
        Bool(),
        "Afterwards the hand may not change: draws are discarded unless they win or make a kong.",
        default=False,
        zh="锁牌",
    ),
    Field(
        "unused_tiles", Choice("discarded", "kept"), "Drawn tiles that do not win.", default="kept"
    ),
    Field(
        "unused_claimable",
        Bool(),
        "Whether others may claim the discarded kong tiles.",
        default=True,
    ),
    Field(
        "unused_round",
        Choice("each", "joint"),
        "How others answer the discarded kong tiles: a claim round for each in turn (a claim "
        "or win on one ends it), or one joint round over all of them: a player may win on every "
        "tile that wins for him (both: winning_tiles 2), several may win on different tiles, "
        "and of the claims the ruleset's priority then the seat nearest the kong's owner wins, "
        "whichever tile it takes.",
        default="each",
    ),
    Field(
        "kong_again",
        Bool(),
        "In that joint round the kong's owner may kong again with one of its discarded tiles "
        "(继续开杠), as the seat nearest itself: before any other seat's claim of equal rank.",
        default=False,
        zh="继续开杠",
    ),
    Field(
        "min_wall", Int(0, 200), "Not allowed when this many tiles or fewer are left.", default=0
    ),
    Field("counts_as_self_draw", Bool(), "A win on these tiles is a self-draw.", default=True),
    Field(
        "counts_as_kong",
        Bool(),
        "Wins it leads to are kong wins: kong_draw on its tiles, kong_discard on the discard "
        "after them, robbing_kong on the kong; false: a plain draw, discard and discard win "
        "(补张胡牌算自摸).",
        default=True,
    ),
)

MOMENTS = (
    "win", "kong", "opening_hand", "declaration", "false_win", "escape", "wall_end", "hand_end",
)  # fmt: skip
"""The moments payment rules fire at (``payments.*.at``), in the order of a hand."""

PAYMENT_RULE = Record(
    "A payment rule: at a moment of the hand, who pays whom and how much.",
    NAME,
    Field(
        "at",
        Choice(*MOMENTS),
        "When it fires: at each win (after the win's own payment), at each kong, for each "
        "seat's opening hands, at each hand declared during play, when a seat claims a win "
        "its hand does not make (false_win, 诈胡), when a seat leaves the hand before its end "
        "(escape, 逃跑: the hand ends), when the wall runs out with players still in, or when "
        "the hand ends.  Its expressions see the names of that moment: section payments_<at> "
        "(shown below for kong), payments_<at>_each for amount.",
        required=True,
        zh="时机",
        example="kong",
    ),
    Field(
        "over",
        Choice("none", "kong"),
        "'kong': it fires once for each payment made at a kong of this hand that is still "
        "held, reading it as paid_by, paid_to, paid_amount, paid_at_last_kong; a rule that "
        "moves such money on takes it: it is not taken up again (e.g. refunded after it went "
        "to a winner), but the winners on one discard each see it.",
        default="none",
        zh="取自",
    ),
    Field(
        "when",
        Expr("payments_kong", "bool"),
        "Whether it fires (each time the moment comes).",
        default="true",
        zh="条件",
        example='kong_kind == "exposed"',
    ),
    Field(
        "payers",
        Expr("payments_kong", "collection of seat"),
        "Who pays; a seat never pays itself.",
        required=True,
        example="players_in_game - {kong_seat}",
    ),
    Field(
        "payees",
        Expr("payments_kong", "collection of seat"),
        "Who is paid, each by each payer; pot: paid into the pot, out of the players' "
        "hands (not adjusted).",
        required=True,
        example="{kong_seat}",
    ),
    Field(
        "amount",
        Expr("payments_kong_each", "int"),
        "How much one payer pays one payee (0: no payment).",
        required=True,
        example="2",
    ),
    Field(
        "together",
        Bool(),
        "With 'over': the payments it takes up add into one payment per payer and payee.",
        default=False,
    ),
    Field(
        "reason",
        Str(),
        "The text each payment carries (default: the name).",
        example="退税: kong money returned",
    ),
    Field("enabled", Condition(), "Whether it applies (often option.NAME).", default=True),
)

ADJUSTMENT = Record(
    "An adjustment to every payment of some moments: a stake added (飘分), a cap (封顶).",
    NAME,
    Field(
        "at",
        ListOf(Choice(*MOMENTS)),
        "The moments whose payments it adjusts (the win's own payment is a payment at win).",
        default=MOMENTS,
        zh="时机",
    ),
    Field(
        "amount",
        Expr("adjustment", "int"),
        "The payment's new amount, from its amount so far (amount), payer and payee.",
        required=True,
        example="amount + (if dealer in {payer, payee} then 1 else 0)",
    ),
    Field("enabled", Condition(), "Whether it applies (often option.NAME).", default=True),
)

CHOICE = Record(
    "A choice every player makes at once, each unseen by the others until all have chosen "
    "(飘, 定缺, 换三张, 买马 ...).  Its action's kind is its name; the value each seat chose is "
    "choice.NAME(seat) in every expression.",
    NAME,
    Field("enabled", Condition(), "Whether it is played (often option.NAME).", default=True),
    Field(
        "at",
        Choice("before_deal", "after_deal"),
        "When: before the tiles are dealt, or after the deal and its opening hands.  Choices "
        "at the same moment come in the order written.",
        default="after_deal",
        zh="时机",
    ),
    Field(
        "values",
        Expr("choices", "", "a collection of int, bool, seat, suit or tile"),
        "The values a seat may choose, a collection of numbers, seats, suits or yes/no "
        "(for a choice of values; leave out with tiles).",
        zh="选项",
        example="0..3",
    ),
    Field(
        "tiles",
        Int(0, 13),
        "Choose this many tiles of one's concealed hand instead of a value (0: a value).",
        default=0,
        zh="张数",
    ),
    Field(
        "constraint",
        Expr("choice_tiles", "bool"),
        "For a choice of tiles, a condition on the tiles chosen (the hand's names describe "
        "them); when no set of tiles meets it, any set may be chosen.",
        default="true",
        example="count(suits) == 1",
    ),
    Field(
        "when",
        Expr("choices", "bool"),
        "Whether a seat is asked; a seat not asked takes the default.",
        default="true",
    ),
    Field(
        "default",
        Expr("choices", "", "a value of its values' type (tiles for a choice of tiles)"),
        "The value of a seat not asked, or of every seat when the choice is not enabled.",
        zh="默认",
        example="0",
    ),
    Field(
        "effect",
        Choice("none", "exchange", "void"),
        "What the engine does with the choices once revealed: nothing (expressions read "
        "them), exchange (each seat's chosen tiles pass to another seat, see direction), "
        "void (the chosen suit is the seat's void suit: its tiles are discarded first, never "
        "claimed, and a win holding one is refused).",
        default="none",
        zh="效果",
    ),
    Field(
        "direction",
        Choice("clockwise", "counterclockwise", "across", "random", "dice"),
        "For effect exchange, where tiles go: counterclockwise to the next seat in turn "
        "order (下家), clockwise to the previous (上家), across to the seat opposite; random: "
        "one of these; dice: one die, 1-2 clockwise, 3-4 across, 5-6 counterclockwise.",
        default="clockwise",
        zh="方向",
    ),
)

DECLARATION = Record(
    "A hand paid during play when a condition appears after a draw or a kong (中途, e.g. "
    "four of a kind in the concealed hand): the player declares it at once and the payers pay.",
    NAME,
    Field(
        "after",
        ListOf(Choice("draw", "kong")),
        "The moments it is looked for: after a draw (replacement draws included), after a "
        "kong is declared.",
        default=("draw",),
        zh="时机",
    ),
    Field(
        "when",
        Expr("declarations", "bool"),
        "The condition on the player's hand; tile is the tile drawn or konged.",
        required=True,
        zh="条件",
        example="count(concealed, it == tile) == 4",
    ),
    Field(
        "once",
        Bool(),
        "Paid at most once per player and hand.",
        default=False,
    ),
    Field(
        "payers",
        Expr("declarations", "collection of seat"),
        "Who pays the declaring seat.",
        default="players_in_game - {seat}",
    ),
    Field(
        "amount",
        Expr("declaration_payment", "int"),
        "What each payer pays.",
        required=True,
        zh="分",
        example="2",
    ),
    Field("enabled", Condition(), "Whether it exists (often option.NAME).", default=True),
)

STRUCTURE = Record(
    "A mahjong ruleset.",
    Field(
        "format",
        Int(1, FORMAT),
        "The version of this file format; without it a file is format 1, read as the current "
        "format by the steps of 'mjrules migrate'.",
        example=str(FORMAT),
    ),
    Field(
        "extends",
        Str(r"^[A-Za-z0-9_./-]+$", "ruleset id"),
        "The ruleset this one builds "
        "on (an id like 'region/base', or a path ending in .yaml). Mappings merge key by key; "
        "lists and values replace, unless written {add: [...], remove: [...]}; a named entry "
        "set to ~ is removed.",
        zh="继承",
        example="region/base",
    ),
    Field(
        "ruleset",
        Record(
            "Who and what this ruleset is.",
            Field(
                "id",
                Str(r"^[A-Za-z0-9_/-]+$", "ruleset id"),
                "Its id, the path under rulesets/ "
                "without .yaml; checked against the file name when given.",
            ),
            Field(
                "title",
                Text(),
                "Its title.",
                required=True,
                zh="标题",
                example="{zh: 我家的规则, en: our house rules}",
            ),
            Field("region", Str(), "The region (or 'house' for a variant of your own).", zh="地区"),
            Field("version", Str(), "Which version of the region's rules."),
            Field("summary", Str(), "A few lines on what sets it apart.", zh="简介"),
            Field(
                "abstract",
                Bool(),
                "A base that only exists to be extended; it is checked "
                "leniently and not played. Not inherited.",
                default=False,
            ),
            zh="规则集",
        ),
        "Metadata.",
        zh="规则集",
        required=True,
    ),
    Field(
        "options",
        Entries(OPTION, "option"),
        "Declared options: typed settings with defaults and allowed values, read as option.NAME.",
        zh="选项",
    ),
    Field("presets", Entries(PRESET, "preset"), "Named sets of option values.", zh="预设"),
    Field(
        "tiles",
        Record(
            "The tile set.",
            Field(
                "suits",
                ListOf(Choice("m", "p", "s")),
                "Suits in play: m 万, p 筒/饼, s 条/索.",
                default=("m", "p", "s"),
                zh="花色",
                example="[m, p, s]",
            ),
            Field("ranks", Int(1, 9), "Ranks 1..N in each suit.", default=9),
            Field("copies", Int(1, 4), "Copies of each tile.", default=4),
            Field(
                "honours",
                TileGroup(HONOURS, {"winds": "东南西北", "dragons": "中发白"}),
                "Honour tiles in play, `copies` of each: winds 东南西北 (1z-4z) and dragons "
                "中发白 (5z-7z). They make pungs and pairs, never chows.",
                default=False,
                zh="字牌",
                example="[winds, dragons]",
            ),
            Field(
                "flowers",
                TileGroup(FLOWERS, {"seasons": "春夏秋冬", "plants": "梅兰竹菊"}),
                "Flowers in play, one of each: seasons 春夏秋冬 (1f-4f) and plants 梅兰竹菊 "
                "(5f-8f). A flower drawn is set aside, shown, and replaced by a draw.",
                default=False,
                zh="花牌",
                example="[seasons, plants]",
            ),
            Field(
                "wilds",
                Record(
                    "Wild tiles (癞子): each copy held stands for a tile of the holder's choice.",
                    Field(
                        "tiles",
                        ListOf(Str(what="a tile name")),
                        "The wild tiles, fixed for every hand, by name (中, 5z, 1m): every copy "
                        "of each is wild.",
                        default=(),
                        zh="癞子牌",
                        example="[中]",
                    ),
                    Field(
                        "indicator",
                        Choice("none", "next"),
                        "Or chosen at the deal: none, or next (a tile is turned up from the "
                        "front of the wall after the deal and set aside face up; the tile after "
                        "it in order is wild: 9 is followed by 1, 北 by 东, 白 by 中).",
                        default="none",
                        zh="翻牌定癞子",
                    ),
                    Field(
                        "stand_for",
                        Choice("any", "suited"),
                        "What a wild may stand for: any tile of the set (its own tile "
                        "included; needs all seven honours in play or none), or suited tiles "
                        "only (needs no honours in play but wild ones).",
                        default="any",
                        zh="代替",
                    ),
                    Field(
                        "claimable",
                        Bool(),
                        "Whether a discarded wild may be claimed, to win or to meld.  A wild is "
                        "never part of a declared kong.",
                        default=False,
                        zh="可吃碰胡",
                    ),
                    zh="癞子",
                ),
                "Wild tiles (癞子); none by default.",
                zh="癞子",
            ),
            zh="牌",
        ),
        "The tile set.",
        zh="牌",
    ),
    Field(
        "players",
        Record(
            "Seats and the deal.",
            Field("count", Int(2, 4), "Number of players.", default=4, zh="人数"),
            Field(
                "dealer_tiles",
                Int(1, 20),
                "Tiles the dealer starts with.",
                default=14,
                zh="庄家起手",
            ),
            Field(
                "other_tiles",
                Int(1, 20),
                "Tiles each other player starts with.",
                default=13,
                zh="闲家起手",
            ),
            zh="人数与发牌",
        ),
        "Seats and the deal.",
        zh="人数与发牌",
    ),
    Field(
        "dealer",
        Record(
            "Who deals (庄) first and next.",
            Field(
                "first",
                Choice("random", "dice", "room_creator", "first_seated"),
                "How the first dealer is chosen.",
                default="random",
                zh="首局",
            ),
            Field(
                "next",
                Expr("dealer", "seat"),
                "Who deals the next hand.",
                required=True,
                zh="下局庄",
                example="if count(winners) > 1 then discarder else winner",
            ),
            Field(
                "also",
                Expr("dealer", "collection of seat"),
                "Seats that deal the next hand besides dealer.next, all of them dealers "
                "(dealers) in its payments (通庄); dealer.next alone starts the hand and "
                "counts the birds.",
                default="{}",
                zh="通庄",
                example="if count(winners) > 1 then winners + {discarder} else {}",
            ),
            zh="庄家",
        ),
        "Dealer choice and rotation.",
        zh="庄家",
    ),
    Field(
        "claims",
        Record(
            "Claims on a discard: which exist, from whom, in what priority.",
            _claim("chow", "吃", "Chow (吃): a run with the discard.", True, "previous"),
            _claim("pung", "碰", "Pung (碰): three of a kind with the discard.", True),
            _claim("kong", "杠", "Kong (杠): four of a kind with the discard.", True),
            _claim("win", "胡", "Win (胡) on the discard.", True),
            Field(
                "priority",
                ListOf(OneOrList(Choice("win", "kong", "pung", "chow"))),
                "Higher first; equal claims go to the seat nearest the discarder.  Kinds listed "
                "together rank equal: `[win, [kong, pung], chow]`.",
                default=("win", "kong", "pung", "chow"),
                zh="优先",
            ),
            Field(
                "multiple_winners",
                Choice("all", "nearest"),
                "Several players may win on one discard (一炮多响), or only the nearest (截胡).",
                default="all",
                zh="一炮多响",
            ),
            zh="吃碰杠胡",
        ),
        "Claims.",
        zh="吃碰杠胡",
    ),
    Field(
        "kongs",
        Record(
            "Kongs: which may be robbed, and how the replacement is drawn.",
            Field(
                "concealed_shown", Bool(), "A concealed kong (暗杠) is shown face up.", default=True
            ),
            Field(
                "rob_exposed",
                Bool(),
                "A kong on a discard may be robbed (抢杠) before its replacement is drawn, "
                "when the replacement counts_as_kong (else the discard itself was open to a win).",
                default=False,
            ),
            Field(
                "rob_added",
                Bool(),
                "A pung plus the fourth (加杠) may be robbed.",
                default=True,
                zh="抢杠",
            ),
            Field("rob_concealed", Bool(), "A concealed kong may be robbed.", default=False),
            Field(
                "after_claim",
                Bool(),
                "Right after a chow or pung the player may declare a concealed or added kong "
                "before discarding (吃碰后补张/开杠); else only after a draw.",
                default=False,
            ),
            Field(
                "replacement",
                Entries(REPLACEMENT, "replacement"),
                "Ways to draw after a kong; with several the player chooses.",
                zh="补张/开杠",
            ),
            zh="杠",
        ),
        "Kongs.",
        zh="杠",
    ),
    Field(
        "restrictions",
        Record(
            "Limits on winning and discarding.",
            Field(
                "missed_win",
                Expr("missed_win", "bool"),
                "After passing a win (过水/漏胡/禁胡), while the lock lasts: whether the player "
                "may not win on this discard.  Asked only of a player who passed a win.",
                default="false",
                zh="过水",
                example="win_tile in missed_tiles",
            ),
            Field(
                "missed_win_until",
                Choice("own_draw", "own_action", "own_discard", "dealer_discard"),
                "The lock lasts until the player draws; until they draw, chow, pung or kong; "
                "until their own discard (过手); or until the dealer discards (过庄).",
                default="own_draw",
            ),
            Field(
                "must_win_last",
                Int(0, 20),
                "In the last N tiles a player who can win must (0: never).",
                default=0,
                zh="最后几张必胡",
            ),
            Field(
                "win_requires",
                Expr("hands", "bool"),
                "A condition every win must meet.",
                default="true",
            ),
            zh="限制",
        ),
        "Restrictions.",
        zh="限制",
    ),
    Field(
        "opening_hands",
        Record(
            "Hands checked on the deal (起手胡).",
            Field("allowed", Bool(), "Whether opening hands are paid.", default=False),
            Field(
                "stack", Bool(), "Several opening hands are each paid.", default=False, zh="叠加"
            ),
            Field(
                "settle",
                Choice("immediately", "at_end"),
                "When they are paid.",
                default="immediately",
            ),
            Field(
                "birds",
                Choice("none", "dice", "wall"),
                "How birds are found for them.",
                default="none",
            ),
            Field(
                "payment",
                Expr("opening_payment", "int"),
                "Amount each payer pays per hand.",
                default=0,
            ),
            Field(
                "declared",
                Expr("opening_hands", "bool"),
                "Whether the seat holding opening hands (winner) declares them: shows them and "
                "is paid.  Reading a choice lets the player decide (choice.NAME(winner), a "
                "choice asked of the seats in opening_winners): the opening hands are then "
                "judged after the choices made after the deal.",
                default="true",
            ),
            Field("hands", Entries(OPENING_HAND, "opening hand"), "The opening hand types."),
            zh="起手胡",
        ),
        "Opening hands.",
        zh="起手胡",
    ),
    Field(
        "choices",
        Entries(CHOICE, "choice"),
        "Choices every player makes at once before or after the deal (飘, 换三张, 定缺 ...).",
        zh="选择",
    ),
    Field(
        "declarations",
        Entries(DECLARATION, "declaration"),
        "Hands declared and paid during play (中途).",
        zh="中途",
    ),
    Field(
        "wall_end",
        Record(
            "The end of the wall.",
            Field("reserved", Int(0, 100), "Tiles never drawn (dead wall).", default=0, zh="留牌"),
            Field(
                "last_tiles",
                Int(0, 4),
                "Size of the special last tile(s) 海底 (0: none).",
                default=0,
                zh="海底",
            ),
            Field(
                "roams",
                Bool(),
                "The last tile is offered to each player in turn (漫游).",
                default=False,
            ),
            Field("offered_to", Choice("all", "ready"), "Who is offered it.", default="all"),
            Field(
                "tiles_per_taker",
                Int(1, 4),
                "How many of the last tiles a taker takes at once.  Several are shown apart, "
                "not joining the hand: the taker wins on every one that wins for him "
                "(winning_tiles), else all are exposed together and others may win on them in "
                "one round.",
                default=1,
            ),
            Field(
                "kong_draws",
                Bool(),
                "A kong's replacement drawn from the last tile(s) is a last tile too: a win "
                "on it, or on the discard after it, is won on the last tile.",
                default=False,
                zh="杠后海底",
            ),
            zh="海底",
        ),
        "The wall's end.",
        zh="海底",
    ),
    Field(
        "game_end",
        Record(
            "When the hand ends.",
            Field(
                "winners_leave",
                Expr("game_end", "bool"),
                "After a win: whether the winners leave the hand or keep playing.",
                default="false",
            ),
            Field(
                "ends",
                Expr("game_end", "bool"),
                "After a win: whether the hand ends (players_in_game: the seats still playing, "
                "without the winners if they left).  A hand that goes on ends when the wall does.",
                default="true",
                zh="结束",
                example="count(players_in_game) <= 1",
            ),
            zh="结束",
        ),
        "Game end.",
        zh="结束",
    ),
    Field("hands", Entries(HAND, "hand type"), "Winning hand types.", zh="胡牌牌型", required=True),
    Field(
        "scoring",
        Record(
            "How hand values combine.",
            Field(
                "unit", Text(), "What values count: 合, 番, 分, 子 ...", default="point", zh="单位"
            ),
            Field(
                "classes",
                ListOf(Str(NAME_PATTERN, "class name")),
                "Classes of hand types and "
                "modifiers, e.g. [small, big, bonus]; each class name is, in payment "
                "expressions, the collection of the found hand types of that class.",
                default=("small", "big"),
                zh="类",
            ),
            Field(
                "value",
                Expr("scoring", "int"),
                "How the values of the found hand types and "
                "modifiers combine: add (sum), take the highest (max) ... Hand types replaced by "
                "another found one (hands.NAME.replaces) are left out first.",
                default="sum(hands, value)",
                zh="叠加",
                example="max(big, value) + sum(bonus, value)",
            ),
            Field("min_value", Int(0, 100), "Smallest value allowed to win.", default=0),
            zh="计分",
        ),
        "Scoring.",
        zh="计分",
    ),
    Field(
        "modifiers",
        Entries(MODIFIER, "modifier"),
        "Add-ons: per kong, per root, self-draw, kong-draw win, robbed kong, last tile ...",
        zh="加番",
    ),
    Field(
        "payment",
        Record(
            "Who pays whom for a win.",
            Field(
                "payers",
                Expr("payers", "collection of seat"),
                "Who pays the winner.",
                required=True,
                example="if self_draw then others else {discarder}",
            ),
            Field(
                "base",
                Expr("payment", "int"),
                "What each payer pays, before birds.",
                required=True,
                zh="底分",
            ),
            Field(
                "dealer_bonus",
                Expr("payment", "int"),
                "Added when the dealer pays or wins.",
                default=0,
                zh="庄闲",
            ),
            Field(
                "self_draw_bonus",
                Expr("payment", "int"),
                "Added per payer on a self-draw.",
                default=0,
                zh="自摸加底",
            ),
            Field(
                "bonus_after_birds",
                Bool(),
                "The self-draw bonus is added after birds.",
                default=False,
            ),
            Field(
                "fixed_bonus",
                Expr("payment", "int"),
                "Added per payer after birds and never multiplied by them (e.g. between two "
                "dealers under 通庄).",
                default=0,
            ),
            Field(
                "cap",
                Expr("payment", "int"),
                "Most a payer pays for one win (0: no cap).",
                default=0,
                zh="封顶",
            ),
            Field("cap_after_birds", Bool(), "The cap counts birds.", default=True),
            zh="付分",
        ),
        "Payments.",
        zh="付分",
    ),
    Field(
        "birds",
        Record(
            "Birds (扎鸟): tiles drawn after a win that multiply payments.",
            Field(
                "count",
                Expr("bird_count", "int"),
                "How many birds.",
                default=0,
                zh="鸟数",
                example="option.birds",
            ),
            Field(
                "from_last_tiles",
                Expr("bird_count", "bool"),
                "On a win on the last tile(s) (海底): whether the birds are those tiles "
                "themselves rather than tiles from the wall.",
                default="true",
            ),
            Field(
                "first_counts_all",
                Expr("bird_count", "bool"),
                "Whether the first bird tile counts as every bird (count of them, all on "
                "its seat).",
                default="false",
                example="last_tile",
            ),
            Field(
                "seat",
                Expr("bird_seat", "seat"),
                "The seat a bird tile points at.",
                default="dealer",
                example="dealer + (tile.rank - 1) % 4",
            ),
            Field(
                "multiplier",
                Expr("bird_multiplier", "int"),
                "Factor on what one payer pays.",
                default=1,
                example="2 ** hits(payer)",
            ),
            zh="扎鸟",
        ),
        "Birds.",
        zh="扎鸟",
    ),
    Field(
        "payments",
        Entries(PAYMENT_RULE, "payment rule"),
        "Payments beyond the win's own: kong money (刮风下雨), checks when the wall runs out "
        "(查叫, 花猪), money moved on or returned (呼叫转移, 退税), each firing at a moment.",
        zh="结算",
    ),
    Field(
        "adjustments",
        Entries(ADJUSTMENT, "adjustment"),
        "Changes applied to every payment, in order, after it is worked out: stakes, caps.",
        zh="调整",
    ),
    cited=False,
)

SECTIONS = tuple(STRUCTURE.fields)


def check(root: Node, ctx: Context) -> dict[str, Any]:
    """Check a (merged) ruleset tree against the structure; problems go to ``ctx.problems``."""
    value = STRUCTURE.check(root, ctx, ())
    return value if isinstance(value, dict) else {}


def walk(record: Record = STRUCTURE, path: Path = ()) -> Iterator[tuple[Path, Field]]:
    """Every field, depth first, in order (entries of named maps appear once as '<name>')."""
    for name, spec in record.fields.items():
        here = (*path, name)
        yield here, spec
        if isinstance(spec.type, Record):
            yield from walk(spec.type, here)
        elif isinstance(spec.type, Entries):
            yield from walk(spec.type.entry, (*here, "<name>"))


def json_schema() -> dict[str, Any]:
    """JSON Schema (draft-07) of the ruleset format, for editors' YAML language servers."""
    schema = STRUCTURE.schema()
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    schema["$id"] = "https://mjrules.invalid/ruleset.schema.json"
    schema["title"] = "mjrules ruleset"
    return schema


def markdown_tables() -> str:
    """The field reference of docs/DSL.md: one table per section."""
    lines: list[str] = []
    for name, spec in STRUCTURE.fields.items():
        lines.append(f"### `{name}` {spec.zh}".rstrip())
        lines.append("")
        lines.append(spec.doc if not isinstance(spec.type, Record) else spec.type.doc)
        lines.append("")
        rows = [(p[1:], f) for p, f in walk_field(spec)]
        if rows:
            lines.append("| field | 中文 | type | default | meaning |")
            lines.append("|---|---|---|---|---|")
            for sub, f in rows:
                default = "" if f.default in (None, ()) else f"`{_show(f.default)}`"
                if f.required:
                    default = "required"
                doc = f.doc + (f" e.g. `{f.example}`" if f.example else "")
                doc = doc.replace("|", "\\|")
                lines.append(
                    f"| `{'.'.join(map(str, sub))}` | {f.zh} | "
                    f"{f.type.describe().replace('|', '/')} | {default} | {doc} |"
                )
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def walk_field(spec: Field) -> Iterator[tuple[Path, Field]]:
    if isinstance(spec.type, Record):
        for p, f in walk(spec.type, (spec.name,)):
            if f.name not in ("source", "note") or len(p) == 2:
                yield p, f
    elif isinstance(spec.type, Entries):
        for p, f in walk(spec.type.entry, (spec.name, "<name>")):
            yield p, f


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)
