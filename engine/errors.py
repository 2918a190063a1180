"""The project's error types: one base class, one `kind` per situation a user can cause.

The kinds are the README's: the CLI maps each kind to its exit code in one place.
"""

from __future__ import annotations

KINDS = ("syntax", "name", "usage", "shape", "autograd", "value", "limit", "io")


class AutodiffError(Exception):
    """Base of every error autodiff raises on purpose.

    `kind` says what went wrong (one of KINDS), `message` says what, where and how to fix it,
    `line`/`column` (1-based) locate it in the program when known, and `hint` is an optional
    extra sentence that a front end may replace with one in its own vocabulary (`reason` names
    the situation so it can).
    """

    kind = "value"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        reason: str | None = None,
        **details: object,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint
        self.reason = reason
        self.details = details

    def __str__(self) -> str:
        return f"{self.message} (hint: {self.hint})" if self.hint else self.message

    def at(self, line: int | None, column: int | None = None) -> AutodiffError:
        """Attach a program location unless one is already known; returns self for `raise e.at(...)`."""
        if self.line is None:
            self.line, self.column = line, column
        return self


class ParseError(AutodiffError):
    kind = "syntax"


class UnknownNameError(AutodiffError):
    kind = "name"


class UsageError(AutodiffError):
    kind = "usage"


class ShapeError(AutodiffError):
    kind = "shape"


class AutogradError(AutodiffError):
    kind = "autograd"


class BadValueError(AutodiffError):
    kind = "value"


class LimitError(AutodiffError):
    kind = "limit"


class InputError(AutodiffError):
    kind = "io"
