"""The expressions of rulesets: compile text once against a section's scope, evaluate often.

    from dsl.expressions import compile_expression, ExpressionError, Scope, CompiledExpression

    scope = Scope.for_section("hands", options={"birds": "int"})
    when = compile_expression("standard(pair: rank in {2, 5, 8})", scope, expect="bool")
    when.ast, when.type, when(situation)
    decide("option.birds > 0", options, expect="bool")   # once, at load: options only

The grammar is ``expr.lark``; ``syntax`` turns text into nodes, ``compiler`` checks them
against the ``vocabulary`` and makes closures; ``situation`` is what they are evaluated in.
"""

from dsl.compiler import CompiledExpression, compile_expression, decide
from dsl.errors import EvaluationError, ExpressionError
from dsl.situation import HandMeld, Situation
from dsl.syntax import MAX_DEPTH, MAX_LENGTH, parse
from dsl.vocabulary import SECTIONS, Scope

__all__ = [
    "MAX_DEPTH",
    "MAX_LENGTH",
    "SECTIONS",
    "CompiledExpression",
    "EvaluationError",
    "ExpressionError",
    "HandMeld",
    "Scope",
    "Situation",
    "compile_expression",
    "decide",
    "parse",
]
