"""Errors of expressions: where in the text (offset, length), what was wrong, what was expected."""

from __future__ import annotations


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
        full = message
        if expected:
            full += f"; expected {expected}"
        if suggestion:
            full += f"; did you mean {suggestion!r}?"
        super().__init__(full)

    def pointer(self) -> str:
        """The expression with carets under the culprit, for people."""
        marks = "^" * max(1, self.length)
        return f"  {self.text}\n  {' ' * self.offset}{marks}"


class EvaluationError(ExpressionError):
    """An expression that compiled but cannot give a value in this situation.

    Raised for a division by zero, a number out of bounds, too much work, or a name with
    no value here (``discarder`` on a self-drawn win, an option the situation lacks).
    """
