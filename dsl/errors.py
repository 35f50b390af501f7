"""Errors of expressions: where in the text (offset, length), what was wrong, what was expected."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dsl.problems import Problem


class ExpressionError(ValueError):
    """A bad expression: ``offset`` (0-based, into ``text``) and ``length`` mark the culprit.

    ``message`` says what is wrong, ``expected`` what would have been right (may be empty),
    ``suggestion`` the nearest valid name when a name was misspelt.
    """

    def __init__(
        self,
        message: str,
        offset: int,
        length: int = 1,
        *,
        expected: str = "",
        suggestion: str | None = None,
        text: str = "",
    ) -> None:
        self.message = message
        self.offset = offset
        self.length = length
        self.expected = expected
        self.suggestion = suggestion
        self.text = text
        super().__init__(message)

    def __str__(self) -> str:
        full = self.message
        if self.expected:
            full += f"; expected {self.expected}"
        if self.suggestion:
            full += f"; did you mean {self.suggestion!r}?"
        return full

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt with every field when sent to or from another process (a worker)."""
        return type(self), (self.message, self.offset, self.length), dict(self.__dict__)

    def pointer(self) -> str:
        """The expression with carets under the culprit, for people."""
        marks = "^" * max(1, self.length)
        return f"  {self.text}\n  {' ' * self.offset}{marks}"


class EvaluationError(ExpressionError):
    """An expression that compiled but cannot give a value in this situation.

    Raised for a division by zero, a number out of bounds, too much work, or a name with
    no value here (``discarder`` on a self-drawn win, an option the situation lacks).
    An expression of a ruleset places it in its file: ``problem`` then says where
    (``file:line:col``, the line, a caret) and which field failed.
    """

    problem: Problem | None = None

    def __str__(self) -> str:
        if self.problem is None:
            return super().__str__()
        return f"{self.problem.format()}\n  expression: {' '.join(self.text.split())}"
