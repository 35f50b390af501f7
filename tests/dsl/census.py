"""The ruleset format's literal keys and expression fields, counted from the schema
(dsl/structure.py): ``python -m tests.dsl.census`` prints both counts and the literal keys.

A literal key takes a number, true/false or a named value (or a list of them) that code
interprets; an expression field holds text in the expression language.  Names, sources,
notes, ids and option declarations are neither: they are words for people or the options'
own declaration.
"""

from __future__ import annotations

from dsl.structure import Expr, ListOf, OneOrList, Type, walk


def is_literal(field_type: Type) -> bool:
    if isinstance(field_type, ListOf | OneOrList):
        return is_literal(field_type.item)
    return field_type.literal


def literal_keys() -> list[str]:
    return [".".join(path) for path, field in walk() if is_literal(field.type)]


def expression_fields() -> list[str]:
    return [".".join(path) for path, field in walk() if isinstance(field.type, Expr)]


if __name__ == "__main__":
    literal = literal_keys()
    print(f"{len(literal)} literal keys, {len(expression_fields())} expression fields")
    print("\n".join(literal))
