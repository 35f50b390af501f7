"""Expression text to a syntax tree: the grammar ``expr.lark``, parsed once, and the tree's nodes.

Nodes are frozen dataclasses holding their source span (``start``, ``end``: 0-based
offsets into the text).  ``op`` fields hold the grammar's alternative names (``add``,
``in_``, ...), which are also the names of the compiler's methods.  The compiler returns
the same nodes with ``type`` filled in: that checked tree is what tools walk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from dsl.errors import ExpressionError
from dsl.types import Type

MAX_LENGTH = 2000
MAX_DEPTH = 50


@dataclass(frozen=True)
class Node:
    start: int
    end: int


@dataclass(frozen=True)
class Literal(Node):
    """``12``, ``true``, ``5m`` (kept as its text), ``"6he"``; ``kind`` is the grammar name."""

    kind: str
    value: int | bool | str
    type: Type | None = None


@dataclass(frozen=True)
class Name(Node):
    """A bare name; once checked, ``binding`` says what it stands for (see the compiler)."""

    name: str
    type: Type | None = None
    binding: str = ""


@dataclass(frozen=True)
class Attribute(Node):
    """``subject.name``; ``name_start`` is where the attribute's name begins."""

    subject: Node
    name: str
    name_start: int
    type: Type | None = None


@dataclass(frozen=True)
class Argument(Node):
    """One argument of a call; ``name`` is empty for a positional one.  ``element`` is the
    name ``c as NAME`` gives each element of a collection argument, from ``element_start``."""

    name: str
    value: Node
    element: str = ""
    element_start: int = 0


@dataclass(frozen=True)
class Call(Node):
    function: str
    arguments: tuple[Argument, ...]
    type: Type | None = None


@dataclass(frozen=True)
class Unary(Node):
    op: str
    operand: Node
    type: Type | None = None


@dataclass(frozen=True)
class Binary(Node):
    op: str
    left: Node
    right: Node
    type: Type | None = None


@dataclass(frozen=True)
class If(Node):
    condition: Node
    then: Node
    otherwise: Node
    type: Type | None = None


@dataclass(frozen=True)
class SetLiteral(Node):
    items: tuple[Node, ...]
    type: Type | None = None


def mentions(expr: object, name: str) -> bool:
    """Whether the expression ``expr`` (a node, or a compiled expression holding its
    ``ast``) reads the name or calls the function ``name`` anywhere: what costs work to
    know is worked out only for the rulesets that read it."""
    node = getattr(expr, "ast", expr)
    if isinstance(node, Call) and node.function == name:
        return True
    if isinstance(node, Name):
        return node.name == name
    if isinstance(node, Node):
        return any(_mentioned(value, name) for value in vars(node).values())
    return False


def _mentioned(value: object, name: str) -> bool:
    if isinstance(value, tuple):
        return any(_mentioned(item, name) for item in value)
    return isinstance(value, Node) and mentions(value, name)


UNARY = ("neg", "not_")
BINARY = (
    "or_",
    "and_",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "in_",
    "not_in",
    "range",
    "add",
    "sub",
    "mul",
    "floordiv",
    "mod",
    "pow",
)
SYMBOL = {
    "neg": "-",
    "not_": "not",
    "or_": "or",
    "and_": "and",
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "in_": "in",
    "not_in": "not in",
    "range": "..",
    "add": "+",
    "sub": "-",
    "mul": "*",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
}
"""How each operator is written, for messages."""


@cache
def parser() -> Lark:
    """The LALR parser of ``expr.lark``, built on first use and then reused."""
    grammar = (Path(__file__).with_name("expr.lark")).read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def parse(text: str) -> Node:
    """The syntax tree of ``text``; raise :class:`ExpressionError` if it is not an expression."""
    if not isinstance(text, str):
        raise ExpressionError("an expression must be text", 0, 0, text=str(text))
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"expression is {len(text)} characters long",
            MAX_LENGTH,
            len(text) - MAX_LENGTH,
            expected=f"at most {MAX_LENGTH} characters",
            text=text,
        )
    if not text.strip():
        raise ExpressionError("empty expression", 0, len(text), expected="an expression", text=text)
    _check_brackets(text)
    try:
        tree = parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    _check_depth(tree, text)
    return _ToNodes().transform(tree)


def _check_brackets(text: str) -> None:
    """Refuse brackets nested deeper than MAX_DEPTH, even around a lone value."""
    depth = 0
    quoted = False
    for offset, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in "({":
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(text, offset, 1)
        elif ch in ")}":
            depth -= 1


def _too_deep(text: str, offset: int, length: int) -> ExpressionError:
    return ExpressionError(
        f"expression is nested more than {MAX_DEPTH} levels deep",
        offset,
        length,
        expected="a simpler expression (split it, or use a set such as {1, 2, 3})",
        text=text,
    )


def _check_depth(tree: Tree | Token, text: str) -> None:
    """Refuse trees nested deeper than MAX_DEPTH (walked without recursion)."""
    stack: list[tuple[Tree | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            continue
        if depth > MAX_DEPTH:
            if node.meta.empty:
                raise _too_deep(text, 0, 1)
            start = node.meta.start_pos
            raise _too_deep(text, start, max(1, node.meta.end_pos - start))
        stack.extend((child, depth + 1) for child in node.children)


def _syntax_error(text: str, error: UnexpectedInput) -> ExpressionError:
    if isinstance(error, UnexpectedCharacters):
        offset = error.pos_in_stream
        word = _WORDS.get(text[offset : offset + 2])
        if word:
            found = f"unexpected {text[offset : offset + 2]!r}"
            return ExpressionError(found, offset, 2, suggestion=word, text=text)
        found = f"unexpected character {text[offset]!r}"
        expected = _describe(error.allowed or set())
        return ExpressionError(found, offset, 1, expected=expected, text=text)
    if isinstance(error, UnexpectedToken | UnexpectedEOF):
        token = getattr(error, "token", None)
        if token is None or token.type == "$END" or token.start_pos is None:
            offset, length, found = len(text.rstrip()), 0, "unexpected end of expression"
        elif token.type == "INT" and (whole := _WHOLE_AND_POINT.search(text, 0, token.start_pos)):
            return ExpressionError(
                "numbers are whole numbers only (no decimals)",
                whole.start(),
                token.end_pos - whole.start(),
                expected="a whole number",
                text=text,
            )
        else:
            offset, length = token.start_pos, len(token)
            found = f"unexpected {_show(token)}"
        accepted = getattr(error, "accepts", None) or error.expected
        return ExpressionError(found, offset, length, expected=_describe(accepted), text=text)
    return ExpressionError("not an expression", 0, len(text), text=text)  # pragma: no cover


_WORDS = {"&&": "and", "||": "or"}
"""Operators of other languages, and the word this language has for them."""

_WHOLE_AND_POINT = re.compile(r"(?<![\w.])[0-9]+\.$")
"""``1.`` just before the ``5`` of ``1.5``."""


_DESCRIBED = {
    "INT": "a number",
    "NAME": "a name",
    "TILE": "a tile such as 5m",
    "STRING": 'a quoted option value such as "6he"',
    "$END": "the end of the expression",
}


def _describe(terminals: set[str] | frozenset[str]) -> str:
    """Terminal names as people write them: ``")"``, ``a number``, ``"then"``."""
    words = set()
    for name in terminals:
        if name in _DESCRIBED:
            words.add(_DESCRIBED[name])
            continue
        try:
            pattern = parser().get_terminal(name).pattern
        except KeyError:
            words.add(name.lower())
            continue
        words.add(f'"{pattern.value}"' if pattern.type == "str" else name.lower())
    return "one of " + ", ".join(sorted(words)) if len(words) > 1 else "".join(words)


def _show(token: Token) -> str:
    kinds = {"NAME": "name", "INT": "number", "TILE": "tile", "STRING": "text"}
    if token.type in kinds:
        return f"{kinds[token.type]} {str(token)!r}"
    return repr(str(token))


def _span(meta) -> tuple[int, int]:
    return meta.start_pos, meta.end_pos


@v_args(meta=True, inline=True)
class _ToNodes(Transformer):
    """Lark tree to nodes; one method per grammar alternative, named as in ``expr.lark``."""

    def int(self, meta, token):
        return Literal(*_span(meta), "int", int(token))

    def true(self, meta):
        return Literal(*_span(meta), "true", True)

    def false(self, meta):
        return Literal(*_span(meta), "false", False)

    def tile(self, meta, token):
        return Literal(*_span(meta), "tile", str(token))

    def text(self, meta, token):
        return Literal(*_span(meta), "text", str(token)[1:-1])

    def name(self, meta, token):
        return Name(*_span(meta), str(token))

    def set(self, meta, *items):
        return SetLiteral(*_span(meta), tuple(item for item in items if item is not None))

    def attribute(self, meta, subject, token):
        return Attribute(*_span(meta), subject, str(token), token.start_pos)

    def call(self, meta, token, *arguments):
        given = tuple(
            a if isinstance(a, Argument) else Argument(a.start, a.end, "", a)
            for a in arguments
            if a is not None
        )
        return Call(*_span(meta), str(token), given)

    def qualified_call(self, meta, subject, token, *arguments):
        """``choice.piao(payer)``: a call of the function named ``choice.piao`` (any other
        subject than a name makes a function name no scope has)."""
        call = self.call(meta, token, *arguments)
        prefix = subject.name if isinstance(subject, Name) else "(...)"
        return Call(call.start, call.end, f"{prefix}.{token}", call.arguments)

    def named_argument(self, meta, token, value, element=None):
        if element is None:
            return Argument(*_span(meta), str(token), value)
        return Argument(*_span(meta), str(token), value, str(element), element.start_pos)

    def element_name(self, meta, value, element):
        return Argument(*_span(meta), "", value, str(element), element.start_pos)

    def if_(self, meta, condition, then, otherwise):
        return If(*_span(meta), condition, then, otherwise)


def _unary(op: str):
    def method(self, meta, operand):
        return Unary(*_span(meta), op, operand)

    method.__name__ = op
    return v_args(meta=True, inline=True)(method)


def _binary(op: str):
    def method(self, meta, left, right):
        return Binary(*_span(meta), op, left, right)

    method.__name__ = op
    return v_args(meta=True, inline=True)(method)


for _op in UNARY:
    setattr(_ToNodes, _op, _unary(_op))
for _op in BINARY:
    setattr(_ToNodes, _op, _binary(_op))
