"""Syntax tree to checked tree and Python closure, in one pass.

Each method is named after the grammar alternative it gives meaning to (``add`` for
``sum "+" product -> add``); it checks names and types against the scope's vocabulary,
returns the node with its ``type`` (and, for names, ``binding``) filled in, and a closure
``run(frame) -> value``.  Nothing is parsed or looked up by name during evaluation, and
no Python attribute is ever read by a user-written name: names and attributes go through
the vocabulary's tables only.

Evaluation is bounded: integers stay within ``LIMIT``, exponents within ``MAX_EXPONENT``,
and every element visited by a per-element function or a collection operation spends one
of the ``MAX_STEPS`` an evaluation may take.

A sub-expression that reads nothing of the situation (``1 // 0``, ``2 ** 2 ** 64``,
``count(1..1000000000)``) is evaluated once, while compiling: its value is kept, and an
error it raises is a compile error with its place, not a surprise in the middle of a game.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Any

from dsl.errors import EvaluationError, ExpressionError
from dsl.problems import Problem
from dsl.situation import NOBODY, Situation
from dsl.syntax import (
    SYMBOL,
    Argument,
    Attribute,
    Binary,
    Call,
    If,
    Literal,
    Name,
    Node,
    SetLiteral,
    Unary,
    parse,
    parser,
)
from dsl.types import (
    BOOL,
    INT,
    NOTHING,
    SEAT,
    TEXT,
    TILE,
    Type,
    collection,
    fits,
    join,
    parse_type,
)
from dsl.vocabulary import (
    ATTRIBUTES,
    CHOICE_PREFIX,
    ELEMENT,
    GENERIC_FUNCTIONS,
    HONOURS_FROM,
    IDENTITY,
    LIMIT,
    REQUIRED,
    SECTIONS,
    Function,
    Param,
    Scope,
)
from handcore.tiles import RANKS, STANDARD, TileError

MAX_EXPONENT = 64
MAX_STEPS = 100_000

Run = Callable[["Frame"], Any]


class Frame:
    """What a closure sees: the situation, the implicit subjects (outermost first; the element
    being visited is updated in place), the steps left."""

    __slots__ = ("budget", "situation", "subjects")

    def __init__(
        self, situation: Situation, subjects: Sequence = (), budget: list | None = None
    ) -> None:
        self.situation = situation
        self.subjects = subjects
        self.budget = [MAX_STEPS] if budget is None else budget

    def spend(self, steps: int = 1) -> None:
        self.budget[0] -= steps
        if self.budget[0] < 0:
            raise EvaluationError(f"evaluation took more than {MAX_STEPS} steps", 0, 0)


@dataclass(frozen=True)
class CompiledExpression:
    """A checked expression: ``ast`` (typed nodes), ``type``, and a call to evaluate it."""

    text: str
    ast: Node
    type: Type
    run: Run = field(repr=False, compare=False)
    origin: Callable[[EvaluationError], Problem] | None = field(
        default=None, repr=False, compare=False
    )
    """Where the text comes from: places an evaluation error in its file (see ``ruleset``)."""

    def __call__(self, situation: Situation) -> Any:
        """The value in ``situation``; raises only :class:`EvaluationError`."""
        try:
            return self.run(Frame(situation))
        except EvaluationError as error:
            placed = EvaluationError(
                error.message, error.offset, error.length, expected=error.expected, text=self.text
            )
            if self.origin is not None:
                placed.problem = self.origin(placed)
            raise placed from None

    @cached_property
    def names(self) -> frozenset[str]:
        """The vocabulary's names and functions the expression reads (not the elements and
        attributes of what they give, nor options, fixed for a game): what its value may
        depend on, for callers that keep values."""
        return frozenset(_names_read(self.ast))


def _names_read(node: Node) -> Iterator[str]:
    if isinstance(node, Name):
        binding = node.binding
        if (
            binding not in ("it", "options")
            and not binding.startswith("the element")
            and (" of " not in binding)
        ):
            yield node.name
    elif isinstance(node, Call):
        yield node.function
        for argument in node.arguments:
            yield from _names_read(argument.value)
    elif isinstance(node, Attribute):
        yield from _names_read(node.subject)
    elif isinstance(node, Unary):
        yield from _names_read(node.operand)
    elif isinstance(node, Binary):
        yield from _names_read(node.left)
        yield from _names_read(node.right)
    elif isinstance(node, If):
        for part in (node.condition, node.then, node.otherwise):
            yield from _names_read(part)
    elif isinstance(node, SetLiteral):
        for item in node.items:
            yield from _names_read(item)


def compile_expression(
    text: str, scope: Scope, expect: str | Type | None = None
) -> CompiledExpression:
    """Parse, check against ``scope`` and compile ``text``; its value must fit ``expect``."""
    node = parse(text)
    try:
        checked, run = _Compiler().compile(node, scope)
        wanted = parse_type(expect) if isinstance(expect, str) else expect
        if wanted is not None and _named_values(checked, wanted):
            checked = replace(checked, type=wanted)
        if wanted is not None and not fits(checked.type, wanted):
            raise ExpressionError(
                f"the expression gives {checked.type}",
                node.start,
                node.end - node.start,
                expected=str(wanted),
            )
        if checked.type == TEXT:
            raise _text_alone(checked)
    except ExpressionError as error:
        if error.text:
            raise
        raise ExpressionError(
            error.message,
            error.offset,
            error.length,
            expected=error.expected,
            suggestion=error.suggestion,
            text=text,
        ) from None
    return CompiledExpression(text, checked, checked.type, run)


def decide(text: str, options: Mapping[str, Any], expect: str | Type) -> Any:
    """The value of ``text`` worked out once, when a ruleset is loaded: it reads the options
    (declared ones, with their ``value``) and nothing of a game.  Raises ExpressionError."""
    compiled = compile_expression(text, Scope.for_section("options", options=options), expect)
    values = {name: option.value for name, option in options.items()}
    return compiled(Situation((0,) * len(STANDARD.suits), options=values))


def _error(node: Node, message: str, expected: Any = "", suggestion: str | None = None):
    return ExpressionError(
        message,
        node.start,
        max(1, node.end - node.start),
        expected=str(expected),
        suggestion=suggestion,
    )


def _text_alone(node: Node) -> ExpressionError:
    return _error(
        node,
        "quoted text is only compared with an option that has named values or kong_kind",
        'an expression such as option.cap == "6he" or kong_kind == "exposed"',
    )


def _quoted(node: Node, other: Type, scope: Scope) -> ExpressionError:
    """Quoted text compared with ``other``: when it names a constant of that type (``"pung"``
    for a meld's kind), the constant without quotes is meant."""
    name = node.value if isinstance(node, Literal) else None
    entry = scope.names.get(name) if isinstance(name, str) else None
    if entry is None or entry.type != other:
        return _text_alone(node)
    return _error(node, f"quoted text where the constant {name} is meant", f"{name}, no quotes")


def _undeclared_choice(head: Node, function: str, scope: Scope) -> ExpressionError:
    """``choice.NAME`` with no choice NAME in scope: which choices there are instead."""
    name = function.removeprefix(CHOICE_PREFIX)
    declared = sorted(
        f.removeprefix(CHOICE_PREFIX) for f in scope.functions if f.startswith(CHOICE_PREFIX)
    )
    if not declared and scope.section == "choices":  # compiled before the choices are known
        return _error(head, "a choice's values and default read no choice")
    return _error(
        head,
        f"no choice {name!r} is declared",
        "a choice declared under 'choices:' "
        + (f"({', '.join(declared)})" if declared else "(this ruleset declares none)"),
        _nearest(name, declared),
    )


def _nearest(word: str, candidates: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def _bounded(value: int, node: Node) -> int:
    if -LIMIT <= value <= LIMIT:
        return value
    symbol = SYMBOL.get(getattr(node, "op", ""), "expression")
    raise EvaluationError(
        f"number out of bounds (more than 2**62) in {symbol}", node.start, node.end - node.start
    )


def _seat(value: int) -> int:
    """A seat to count from; ``nobody`` is none (placed on the expression by the caller)."""
    if value == NOBODY:
        raise EvaluationError("nobody is no seat: no seat comes before or after it", 0, 0)
    return value


def _located(node: Node, run: Run) -> Run:
    """``run``, with evaluation errors placed on ``node`` unless already placed."""

    def located(f: Frame) -> Any:
        try:
            return run(f)
        except EvaluationError as error:
            raise _placed(error, node) from None

    return located


def _placed(error: EvaluationError, node: Node) -> EvaluationError:
    """``error``, placed on ``node`` unless already placed."""
    if error.length:
        return error
    return EvaluationError(error.message, node.start, node.end - node.start)


def _calling(node: Node, execute: Callable[..., Any], runs: list[Run]) -> Run:
    """A call: ``execute`` of the situation and the arguments' values, placed on ``node``
    as ``_located`` does.  One closure per arity up to three: calls are the commonest node,
    and each layer of closures costs a frame on every evaluation."""
    if not runs:

        def call(f: Frame) -> Any:
            try:
                return execute(f.situation)
            except EvaluationError as error:
                raise _placed(error, node) from None

    elif len(runs) == 1:
        (a,) = runs

        def call(f: Frame) -> Any:
            try:
                return execute(f.situation, a(f))
            except EvaluationError as error:
                raise _placed(error, node) from None

    elif len(runs) == 2:
        a, b = runs

        def call(f: Frame) -> Any:
            try:
                return execute(f.situation, a(f), b(f))
            except EvaluationError as error:
                raise _placed(error, node) from None

    elif len(runs) == 3:  # standard(pair:, melds:) with its substitutes flag, say
        a, b, c = runs

        def call(f: Frame) -> Any:
            try:
                return execute(f.situation, a(f), b(f), c(f))
            except EvaluationError as error:
                raise _placed(error, node) from None

    else:

        def call(f: Frame) -> Any:
            try:
                return execute(f.situation, *[r(f) for r in runs])
            except EvaluationError as error:
                raise _placed(error, node) from None

    return call


_PURE = frozenset(f.name for f in GENERIC_FUNCTIONS)
"""Functions that read nothing but their arguments."""
_WALKERS = tuple(
    f.name
    for f in GENERIC_FUNCTIONS
    if f.params[0].type.element == ELEMENT and any(p.each and not p.subject for p in f.params)
)
"""Functions that go through the elements of a collection: ``c as NAME`` names them there."""


@cache
def _keywords() -> frozenset[str]:
    """``and``, ``if``, ``true`` ...: never a name."""
    return frozenset(
        t.pattern.value
        for t in parser().terminals
        if t.pattern.type == "str" and t.pattern.value.isidentifier()
    )


def _fold(node: Node, run: Run, depth: int) -> Run:
    """The value of a sub-expression that reads nothing of the situation, worked out now;
    what would fail in every game fails here, as a compile error."""
    try:
        value = run(Frame(None, (None,) * depth))  # type: ignore[arg-type]
    except EvaluationError as error:
        placed = error.length > 0
        raise ExpressionError(
            error.message,
            error.offset if placed else node.start,
            error.length if placed else node.end - node.start,
            expected=error.expected or "a part that can give a value (this fails in every game)",
        ) from None
    return lambda f: value


class _Compiler:
    """Checks and compiles one expression.

    While a node is compiled, ``situational`` tells whether it reads the situation and
    ``lowest`` the outermost implicit subject it reads (``it`` of an enclosing ``all``...):
    a node that reads neither is constant and folded.
    """

    def __init__(self) -> None:
        self.situational = False
        self.lowest = 0
        self.elements: dict[str, int] = {}
        """The elements named with ``c as NAME`` around the node: name to subject level."""

    def compile(self, node: Node, scope: Scope) -> tuple[Node, Run]:
        if isinstance(node, Literal):
            rule = node.kind
        elif isinstance(node, Unary | Binary):
            rule = node.op
        else:
            rule = _RULE_OF[type(node)]
        depth = len(scope.subjects)
        outer = (self.situational, self.lowest)
        self.situational, self.lowest = False, depth
        checked, run = getattr(self, rule)(node, scope)
        if not self.situational and self.lowest >= depth and not isinstance(checked, Literal):
            run = _fold(checked, run, depth)
        self.situational |= outer[0]
        self.lowest = min(self.lowest, outer[1])
        return checked, run

    def reads(self, level: int | None = None) -> None:
        """The node being compiled reads the situation, or the subject at ``level``."""
        if level is None:
            self.situational = True
        else:
            self.lowest = min(self.lowest, level)

    def typed(self, node: Node, scope: Scope, wanted: Type, role: str) -> tuple[Node, Run]:
        checked, run = self.compile(node, scope)
        if not fits(checked.type, wanted):
            raise _error(node, f"{role} is {checked.type}", wanted)
        return checked, run

    # Literals

    def int(self, node: Literal, scope: Scope):
        if node.value > LIMIT:
            raise _error(node, "number too large", "a number up to 2**62")
        value = node.value
        return replace(node, type=INT), lambda f: value

    def true(self, node: Literal, scope: Scope):
        return replace(node, type=BOOL), lambda f: True

    def false(self, node: Literal, scope: Scope):
        return replace(node, type=BOOL), lambda f: False

    def tile(self, node: Literal, scope: Scope):
        try:
            (tile,) = scope.tileset.parse(str(node.value))
        except TileError:
            raise _error(
                node,
                f"{node.value} is not a tile of this tile set",
                f"a rank and a suit letter ({scope.tileset.suit_names()})",
            ) from None
        return replace(node, type=TILE), lambda f: tile

    def text(self, node: Literal, scope: Scope):
        value = node.value
        return replace(node, type=TEXT), lambda f: value

    # Names and attributes

    def name(self, node: Name, scope: Scope):
        word = node.name
        depth = len(scope.subjects)
        level = self.elements.get(word)
        if level is not None:
            self.reads(level)
            binding = "it" if level == depth - 1 else f"the element {word}"
            checked = replace(node, type=scope.subjects[level], binding=binding)
            return checked, lambda f, i=level: f.subjects[i]
        if word == "it" and depth:
            self.reads(depth - 1)
            return replace(node, type=scope.subjects[-1], binding="it"), lambda f: f.subjects[-1]
        for level in range(depth - 1, -1, -1):
            attribute = scope.attributes(scope.subjects[level]).get(word)
            if attribute is not None:
                self.reads(level)
                if attribute.situational:
                    self.reads()
                binding = f"{word} of {'it' if level == depth - 1 else 'an outer subject'}"
                return (
                    replace(node, type=attribute.type, binding=binding),
                    lambda f, i=level, read=attribute.read: read(f.subjects[i], f.situation),
                )
        entry = scope.names.get(word)
        if entry is not None:
            if not entry.constant:
                self.reads()
            read = entry.read
            return (
                replace(node, type=entry.type, binding=scope.section),
                _located(node, lambda f: read(f.situation)),
            )
        raise self.unknown_name(node, scope)

    def unknown_name(self, node: Name, scope: Scope) -> ExpressionError:
        word = node.name
        if word == "option":
            return _error(
                node,
                "option needs a name",
                "option.<name>, one of: "
                + (", ".join(sorted(scope.options)) or "(no options declared)"),
            )
        if word in scope.functions:
            return _error(node, f"{word} is a function", f"{word}(...)")
        if word == "it":
            return _error(
                node, "it names the element inside all(...), count(...) and the like", "a name"
            )
        elsewhere = _sections_with(word, functions=False)
        if elsewhere:
            return _error(
                node,
                f"{word} is not available in section {scope.section} "
                f"(only in {', '.join(elsewhere)})",
                "a name of this section",
            )
        owners = [str(a.owner) for a in ATTRIBUTES if a.name == word]
        if owners:
            return _error(
                node,
                f"{word} is an attribute of a {' or '.join(owners)}; as a bare "
                "name it reads the element inside all(...), count(...), "
                "standard(pair: ...) and the like",
                f"{owners[0]}.{word}, e.g. win_tile.{word}"
                if owners[0] == "tile"
                else f"{owners[0]}.{word}",
            )
        candidates = [*scope.names, *self.elements]
        for subject in scope.subjects:
            candidates.extend(scope.attributes(subject))
        if scope.subjects:
            candidates.append("it")
        return _error(
            node,
            f"unknown name {word!r}",
            f"a name of section {scope.section}",
            word.lower() if word in ("True", "False") else _nearest(word, candidates),
        )

    def attribute(self, node: Attribute, scope: Scope):
        here = replace(node, start=node.name_start)
        if (
            isinstance(node.subject, Name)
            and node.subject.name == "option"
            and "option" not in scope.names
        ):
            kind = scope.options.get(node.name)
            if kind is None:
                raise _error(
                    here,
                    f"unknown option {node.name!r}",
                    "an option declared by the ruleset"
                    + (f" ({', '.join(sorted(scope.options))})" if scope.options else ""),
                    _nearest(node.name, scope.options),
                )
            key = node.name

            def read(f: Frame) -> Any:
                try:
                    return f.situation.options[key]
                except KeyError:
                    raise EvaluationError(
                        f"option {key!r} has no value in this game", 0, 0
                    ) from None

            self.reads()
            subject = replace(node.subject, binding="options")
            return replace(node, subject=subject, type=kind), _located(node, read)
        subject, run = self.compile(node.subject, scope)
        attributes = scope.attributes(subject.type)
        entry = attributes.get(node.name)
        if entry is None:
            if not attributes:
                raise _error(here, f"{subject.type} has no attributes")
            raise _error(
                here,
                f"{subject.type} has no attribute {node.name!r}",
                "one of " + ", ".join(sorted(attributes)),
                _nearest(node.name, attributes),
            )
        if entry.situational:
            self.reads()
        get = entry.read
        checked = replace(node, subject=subject, type=entry.type)
        if _may_be_no_tile(subject):
            return checked, lambda f: get(_real(run(f), subject), f.situation)
        return checked, lambda f: get(run(f), f.situation)

    # Calls

    def call(self, node: Call, scope: Scope):
        function = scope.functions.get(node.function)
        if function is None:
            head = replace(node, end=node.start + len(node.function))
            if node.function in scope.names:
                raise _error(head, f"{node.function} is not a function", "a function name")
            elsewhere = _sections_with(node.function, functions=True)
            if elsewhere:
                raise _error(
                    head,
                    f"{node.function} is not available in section "
                    f"{scope.section} (only in {', '.join(elsewhere)})",
                    "a function of this section",
                )
            if node.function.startswith(CHOICE_PREFIX):
                raise _undeclared_choice(head, node.function, scope)
            raise _error(
                head,
                f"unknown function {node.function!r}",
                "one of " + ", ".join(sorted(scope.functions)),
                _nearest(node.function, scope.functions),
            )
        given = self.bind(node, function)
        named = self.element_name(function, given, scope)
        if function.name not in _PURE:
            self.reads()
        checked: list[Argument] = []
        runs: list[Run] = []
        holes: list[tuple[int, Any, Node]] = []  # arguments that may be no tile
        element: Type | None = None
        for param in function.params:
            argument = given.get(param.name)
            if param.each:
                subject = param.subject or element
                assert subject is not None
                if argument is None:
                    if (
                        param.default is IDENTITY
                        and not fits(subject, param.type)
                        and subject != NOTHING
                    ):
                        raise _error(
                            node,
                            f"{function.name} over a {collection(subject)} needs "
                            f"a number for each element",
                            f"{function.name}(..., <int expression>)",
                        )
                    runs.append(_each_default(param.default))
                    continue
                inner = replace(scope, subjects=(*scope.subjects, subject))
                if named and param.subject is None:
                    self.elements[named] = len(scope.subjects)
                outer = (self.situational, self.lowest)
                self.situational, self.lowest = False, len(scope.subjects)
                try:
                    value, run = self.typed(
                        argument.value,
                        inner,
                        param.type,
                        f"argument {param.name} of {function.name}",
                    )
                finally:
                    self.elements.pop(named, None)
                alone = not self.situational and self.lowest >= len(scope.subjects)
                self.situational |= outer[0]
                self.lowest = min(self.lowest, outer[1])
                runs.append(_each(run, alone))
            else:
                if argument is None:
                    default = param.default
                    runs.append(lambda f, d=default: d)
                    continue
                wanted = param.type
                if wanted.is_collection and wanted.element == ELEMENT:
                    value, run = self.compile(argument.value, scope)
                    if not value.type.is_collection:
                        raise _error(
                            argument.value,
                            f"argument {param.name} of {function.name} is {value.type}",
                            "a collection",
                        )
                    element = value.type.element
                else:
                    value, run = self.typed(
                        argument.value, scope, wanted, f"argument {param.name} of {function.name}"
                    )
                    if _may_be_no_tile(value):
                        holes.append((len(runs), param.no_tile, value))
                runs.append(run)
            checked.append(replace(argument, value=value))
        execute = function.run
        typed = replace(node, arguments=tuple(checked), type=function.returns)
        if holes:
            return typed, _located(node, _without_tiles(execute, runs, holes))
        return typed, _calling(node, execute, runs)

    def element_name(self, function: Function, given: dict[str, Argument], scope: Scope) -> str:
        """The name ``c as NAME`` gives the elements the function goes through ('' if none),
        checked: only such a collection names its elements, and a name hides no other."""
        found = ""
        for param in function.params:
            argument = given.get(param.name)
            if argument is None or not argument.element:
                continue
            word = argument.element
            here = Node(argument.element_start, argument.element_start + len(word))
            if not (param.type.is_collection and param.type.element == ELEMENT):
                raise _error(
                    here,
                    f"argument {param.name} of {function.name} has no elements to name",
                    "c as NAME on the collection of " + ", ".join(_WALKERS),
                )
            taken = self.taken(word, scope)
            if taken:
                raise _error(
                    here, f"{word} is {taken}; name the element otherwise", "a name not used yet"
                )
            found = word
        return found

    def taken(self, word: str, scope: Scope) -> str:
        """What ``word`` already stands for, which an element of that name would hide."""
        if word in self.elements:
            return "the name of an outer element"
        if word in _keywords():
            return "a word of the language"
        if word in ("it", "option"):
            return "the element's own name" if word == "it" else "the options' name"
        if word in scope.names:
            return f"a name of section {scope.section}"
        if word in scope.functions:
            return "a function"
        owners = [str(a.owner) for a in ATTRIBUTES if a.name == word]
        if owners:
            return f"an attribute of a {' or '.join(owners)}"
        return ""

    def bind(self, node: Call, function: Function) -> dict[str, Argument]:
        """Arguments by parameter name; positional ones first, as in Python."""
        params = {p.name: p for p in function.params}
        given: dict[str, Argument] = {}
        for index, argument in enumerate(node.arguments):
            if not argument.name:
                if given and any(a.name for a in node.arguments[:index]):
                    raise _error(
                        argument,
                        "a positional argument after a named one",
                        f"{_param_names(function)}: ...",
                    )
                if index >= len(function.params):
                    raise _error(
                        argument,
                        f"{function.name} takes at most {len(function.params)} arguments",
                        function.signature,
                    )
                given[function.params[index].name] = argument
                continue
            if argument.name not in params:
                raise _error(
                    replace(argument, end=argument.start + len(argument.name)),
                    f"{function.name} has no parameter {argument.name!r}",
                    _param_names(function),
                    _nearest(argument.name, params),
                )
            if argument.name in given:
                raise _error(argument, f"argument {argument.name} given twice", function.signature)
            given[argument.name] = argument
        for param in function.params:
            if param.default is REQUIRED and param.name not in given:
                raise _error(
                    node, f"{function.name} needs its argument {param.name}", function.signature
                )
        return given

    # Operators

    def if_(self, node: If, scope: Scope):
        condition, test = self.typed(node.condition, scope, BOOL, "the condition after if")
        then, yes = self.compile(node.then, scope)
        otherwise, no = self.compile(node.otherwise, scope)
        common = join(then.type, otherwise.type)
        if common is None:
            raise _error(node.otherwise, f"the else branch is {otherwise.type}", then.type)
        return (
            replace(node, condition=condition, then=then, otherwise=otherwise, type=common),
            lambda f: yes(f) if test(f) else no(f),
        )

    def or_(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, BOOL)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) or b(f)

    def and_(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, BOOL)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) and b(f)

    def not_(self, node: Unary, scope: Scope):
        operand, a = self.typed(node.operand, scope, BOOL, "the operand of not")
        return replace(node, operand=operand, type=BOOL), lambda f: not a(f)

    def both(self, node: Binary, scope: Scope, wanted: Type):
        symbol = SYMBOL[node.op]
        return (
            self.typed(node.left, scope, wanted, f"the left side of {symbol}"),
            self.typed(node.right, scope, wanted, f"the right side of {symbol}"),
        )

    def eq(self, node: Binary, scope: Scope):
        left, a, right, b = self.comparable(node, scope)
        checked = replace(node, left=left, right=right, type=BOOL)
        if _may_be_no_tile(left) and _may_be_no_tile(right):  # no tile equals nothing
            return checked, lambda f: (x := a(f)) == b(f) and x is not None
        return checked, lambda f: a(f) == b(f)

    def ne(self, node: Binary, scope: Scope):
        left, a, right, b = self.comparable(node, scope)
        checked = replace(node, left=left, right=right, type=BOOL)
        if _may_be_no_tile(left) and _may_be_no_tile(right):
            return checked, lambda f: (x := a(f)) != b(f) or x is None
        return checked, lambda f: a(f) != b(f)

    def comparable(self, node: Binary, scope: Scope):
        left, a = self.compile(node.left, scope)
        right, b = self.compile(node.right, scope)
        if _names_option_value(left.type, right):
            return left, a, right, b
        if _names_option_value(right.type, left):
            return left, a, right, b
        for side, other in ((left, right), (right, left)):
            if side.type == TEXT:
                raise _quoted(side, other.type, scope)
        if join(left.type, right.type) is None:
            raise _error(node.right, f"{left.type} compared with {right.type}", left.type)
        return left, a, right, b

    def lt(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) < b(f)

    def le(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) <= b(f)

    def gt(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) > b(f)

    def ge(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) >= b(f)

    def in_(self, node: Binary, scope: Scope):
        left, a, right, b = self.membership(node, scope)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) in b(f)

    def not_in(self, node: Binary, scope: Scope):
        left, a, right, b = self.membership(node, scope)
        return replace(node, left=left, right=right, type=BOOL), lambda f: a(f) not in b(f)

    def membership(self, node: Binary, scope: Scope):
        left, a = self.compile(node.left, scope)
        right, b = self.compile(node.right, scope)
        symbol = SYMBOL[node.op]
        if not right.type.is_collection:
            raise _error(
                node.right,
                f"the right side of {symbol} is {right.type}",
                "a collection such as {2, 5, 8}",
            )
        element = right.type.element
        assert element is not None
        if (
            left.type.values
            and isinstance(right, SetLiteral)
            and right.items
            and all(_names_option_value(left.type, item) for item in right.items)
        ):
            return left, a, right, b
        if left.type == TEXT:
            raise _quoted(left, element, scope)
        if element != NOTHING and not fits(left.type, element):
            raise _error(node.left, f"the left side of {symbol} is {left.type}", element)
        return left, a, right, b

    def range(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)
        return (
            replace(node, left=left, right=right, type=collection(INT)),
            lambda f: range(a(f), b(f) + 1),
        )

    def add(self, node: Binary, scope: Scope):
        left, a = self.compile(node.left, scope)
        right, b = self.compile(node.right, scope)
        result, kind = _arithmetic(node, left, right, plus=True)
        checked = replace(node, left=left, right=right, type=result)
        if kind == "int":
            return checked, lambda f: _bounded(a(f) + b(f), node)
        if kind == "tile+int":
            return checked, lambda f: _shift(a(f), b(f))
        if kind == "int+tile":
            return checked, lambda f: _shift(b(f), a(f))
        self.reads()  # seats wrap around the table; collections are bounded by the budget
        if kind == "seat+int":
            return checked, lambda f: (_seat(a(f)) + b(f)) % f.situation.players
        if kind == "int+seat":
            return checked, lambda f: (a(f) + _seat(b(f))) % f.situation.players
        return checked, lambda f: _union(f, a(f), b(f))

    def sub(self, node: Binary, scope: Scope):
        left, a = self.compile(node.left, scope)
        right, b = self.compile(node.right, scope)
        result, kind = _arithmetic(node, left, right, plus=False)
        checked = replace(node, left=left, right=right, type=result)
        if kind == "int":
            return checked, lambda f: _bounded(a(f) - b(f), node)
        if kind == "tile-int":
            return checked, lambda f: _shift(a(f), -b(f))
        self.reads()
        if kind == "seat-int":
            return checked, lambda f: (_seat(a(f)) - b(f)) % f.situation.players
        if kind == "seat-seat":
            return checked, lambda f: (_seat(a(f)) - _seat(b(f))) % f.situation.players
        if kind == "collection-element":
            return checked, lambda f: _difference(f, a(f), (b(f),))
        return checked, lambda f: _difference(f, a(f), b(f))

    def mul(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)
        return (
            replace(node, left=left, right=right, type=INT),
            lambda f: _bounded(a(f) * b(f), node),
        )

    def floordiv(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)

        def divide(f: Frame) -> int:
            divisor = b(f)
            if divisor == 0:
                raise EvaluationError("division by zero", node.start, node.end - node.start)
            return a(f) // divisor

        return replace(node, left=left, right=right, type=INT), divide

    def mod(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)

        def remainder(f: Frame) -> int:
            divisor = b(f)
            if divisor == 0:
                raise EvaluationError(
                    "remainder of a division by zero", node.start, node.end - node.start
                )
            return a(f) % divisor

        return replace(node, left=left, right=right, type=INT), remainder

    def pow(self, node: Binary, scope: Scope):
        (left, a), (right, b) = self.both(node, scope, INT)

        def power(f: Frame) -> int:
            base, exponent = a(f), b(f)
            if not 0 <= exponent <= MAX_EXPONENT:
                raise EvaluationError(
                    f"exponent {exponent} is not 0..{MAX_EXPONENT}",
                    node.right.start,
                    node.right.end - node.right.start,
                )
            if abs(base) > 1 and (abs(base).bit_length() - 1) * exponent > 62:
                raise EvaluationError(
                    "number out of bounds (more than 2**62) in **",
                    node.start,
                    node.end - node.start,
                )
            return _bounded(base**exponent, node)

        return replace(node, left=left, right=right, type=INT), power

    def neg(self, node: Unary, scope: Scope):
        operand, a = self.typed(node.operand, scope, INT, "the operand of -")
        return replace(node, operand=operand, type=INT), lambda f: -a(f)

    def set(self, node: SetLiteral, scope: Scope):
        items: list[Node] = []
        runs: list[tuple[bool, Run]] = []
        element = NOTHING
        holes = False
        for item in node.items:
            checked, run = self.compile(item, scope)
            spread = isinstance(item, Binary) and item.op == "range"
            found = INT if spread else checked.type
            common = join(found, element) if element != NOTHING else found
            if common is None:
                raise _error(item, f"an element of the set is {found}", element)
            element = common
            items.append(checked)
            runs.append((spread, run))
            holes |= _may_be_no_tile(checked)

        def build(f: Frame) -> frozenset:
            values: set = set()
            for spread, run in runs:
                if spread:
                    part = run(f)
                    f.spend(len(part))
                    values.update(part)
                else:
                    values.add(run(f))
            if holes:  # a collection holds tiles only: no tile is left out
                values.discard(None)
            return frozenset(values)

        return replace(node, items=tuple(items), type=collection(element)), build


_RULE_OF = {Name: "name", Attribute: "attribute", Call: "call", If: "if_", SetLiteral: "set"}


def _named_values(node: Node, wanted: Type) -> bool:
    """Whether ``node`` gives a collection of quoted texts where ``wanted`` is a collection of
    named values (a list field's values); each text it may give must be one of them."""
    element = wanted.element
    if element is None or not element.values or node.type != collection(TEXT):
        return False
    for part in _results(node):
        _names_option_value(element, part)
    return True


def _results(node: Node) -> Iterable[Node]:
    """The quoted texts a collection of them may be made of."""
    if isinstance(node, If):
        yield from _results(node.then)
        yield from _results(node.otherwise)
    elif isinstance(node, SetLiteral):
        for item in node.items:
            yield from _results(item)
    elif isinstance(node, Binary) and node.op in ("add", "sub"):
        yield from _results(node.left)
        yield from _results(node.right)
    elif isinstance(node, Literal) and node.kind == "text":
        yield node


def _names_option_value(kind: Type, node: Node) -> bool:
    """Whether ``node`` is quoted text naming a value of option type ``kind`` (else an error)."""
    if not kind.values or not isinstance(node, Literal) or node.kind != "text":
        return False
    if node.value not in kind.values:
        raise _error(
            node,
            f"{node.value!r} is not a value of {kind.name}",
            "one of " + ", ".join(repr(v) for v in kind.values),
            _nearest(str(node.value), kind.values),
        )
    return True


def _arithmetic(node: Binary, left: Node, right: Node, *, plus: bool) -> tuple[Type, str]:
    """The result type of ``left + right`` or ``left - right``, and which case it is."""
    symbol = SYMBOL[node.op]
    lt, rt = left.type, right.type
    if lt == INT and rt == INT:
        return INT, "int"
    if lt == SEAT and rt == INT:
        return SEAT, "seat+int" if plus else "seat-int"
    if plus and lt == INT and rt == SEAT:
        return SEAT, "int+seat"
    if not plus and lt == SEAT and rt == SEAT:
        return INT, "seat-seat"
    if lt == TILE and rt == INT:
        return TILE, "tile+int" if plus else "tile-int"
    if plus and lt == INT and rt == TILE:
        return TILE, "int+tile"
    if lt.is_collection:
        common = join(lt, rt) if rt.is_collection else None
        if common is not None:
            return common, "collections"
        assert lt.element is not None
        if not plus and (fits(rt, lt.element) or lt.element == NOTHING):
            return lt, "collection-element"
        wanted = f"a collection of {lt.element}" + ("" if plus else f" or a {lt.element}")
        raise _error(right, f"the right side of {symbol} is {rt}", wanted)
    if lt in (INT, SEAT, TILE):
        wanted = "int or seat" if lt == SEAT and not plus else "int"
        raise _error(right, f"the right side of {symbol} is {rt}", wanted)
    raise _error(left, f"the left side of {symbol} is {lt}", "int, seat, tile or a collection")


def _shift(tile: int | None, steps: int) -> int | None:
    """The tile ``steps`` ranks up the same suit, or None (no tile) past the suit's ends or
    from an honour or a flower (they make no runs; a shift of 0 is the tile itself)."""
    if tile is None or (tile >= HONOURS_FROM and steps):
        return None
    rank = tile % RANKS + steps
    return tile + steps if 0 <= rank < RANKS else None


def _real(tile: int | None, node: Node) -> int:
    """``tile``, which must be a tile: no tile has no rank, suit or the like."""
    if tile is None:
        raise EvaluationError(
            "no tile here: the shift goes past the end of the suit",
            node.start,
            node.end - node.start,
        )
    return tile


def _without_tiles(execute: Callable, runs: list[Run], holes: list[tuple[int, Any, Node]]) -> Run:
    """A call whose tile arguments may be no tile: the parameter's ``no_tile`` value then."""

    def call(f: Frame) -> Any:
        values = [r(f) for r in runs]
        for index, value, node in holes:
            if values[index] is None:
                if value is REQUIRED:
                    _real(None, node)
                return value
        return execute(f.situation, *values)

    return call


def _may_be_no_tile(node: Node) -> bool:
    """Whether a tile-valued node may give no tile: it shifts a tile, or a branch does.
    Only these need the checks that no tile brings; every other tile is a real one."""
    if isinstance(node, Binary):
        return node.op in ("add", "sub") and node.type == TILE
    if isinstance(node, If):
        return _may_be_no_tile(node.then) or _may_be_no_tile(node.otherwise)
    return False


def _union(f: Frame, a: Iterable, b: Iterable) -> frozenset:
    f.spend(len(a) + len(b))  # type: ignore[arg-type]
    return frozenset(a) | frozenset(b)


def _difference(f: Frame, a: Iterable, b: Iterable) -> frozenset:
    f.spend(len(a) + len(b))  # type: ignore[arg-type]
    return frozenset(a) - frozenset(b)


def _each(run: Run, alone: bool) -> Run:
    """An ``each`` argument: the callable of one element the function receives.

    Its ``test`` attribute names the test when it reads the element alone (``alone``): a
    function may keep its answers under that name (``standard`` does, per block of tiles);
    None when it reads anything else."""
    test = run if alone else None

    def bind(f: Frame) -> Callable[[Any], Any]:
        inner = Frame(f.situation, [*f.subjects, None], f.budget)
        subjects = inner.subjects

        def each(element: Any) -> Any:
            f.spend()
            subjects[-1] = element  # one frame serves every element: they are visited in turn
            return run(inner)

        each.test = test  # type: ignore[attr-defined]
        return each

    return bind


def _each_default(default: Any) -> Run:
    test = ("default", default)

    def bind(f: Frame) -> Callable[[Any], Any]:
        def each(element: Any) -> Any:
            f.spend()
            return element if default is IDENTITY else default

        each.test = test  # type: ignore[attr-defined]
        return each

    return bind


def _sections_with(word: str, *, functions: bool) -> list[str]:
    """The sections where ``word`` is a name (or a function)."""
    return [
        name
        for name, section in SECTIONS.items()
        if any(e.name == word for e in (section.functions if functions else section.names))
    ]


def _param_names(function: Function) -> str:
    return "one of " + ", ".join(p.name for p in function.params)


__all__ = ["MAX_STEPS", "CompiledExpression", "Frame", "Param", "compile_expression", "decide"]
