"""The project's error types: one base class, one `kind` per situation a user can cause.

The kinds are the README's: the CLI maps each kind to its exit code in one place. Each error is also the
Python exception PyTorch raises in its situation (`python_exception`: RuntimeError for most, TypeError for an
argument of the wrong type, IndexError for an index out of range), so a script's `except RuntimeError:` catches
it as it would catch PyTorch's, and `autodiff run` prints it under that name.
"""

from __future__ import annotations

from collections.abc import Mapping

KINDS = ("syntax", "name", "usage", "shape", "autograd", "value", "limit", "io")


class AutodiffError(Exception):
    """Base of every error autodiff raises on purpose.

    `kind` says what went wrong (one of KINDS), `message` says what, where and how to fix it,
    `line`/`column` (1-based) locate it in the program when known, and `hint` is an optional
    extra sentence that a front end may replace with one in its own vocabulary (`reason` names
    the situation so it can).
    """

    kind = "value"
    python_exception: type[Exception] = Exception  # the built-in exception PyTorch raises here

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        reason: str | None = None,
        fields: tuple[str, ...] = (),
        **details: object,
    ) -> None:
        # With `fields`, the message and hint name a caller's settings as {field} (e.g. "{order} must be at
        # least 1"): shown as the field's own name, or as a front end words them (named(), with its own words).
        self.fields = fields
        self._templates = (message, hint) if fields else None
        if fields:
            message, hint = _worded(message, {}), None if hint is None else _worded(hint, {})
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint
        self.reason = reason
        self.details = details

    def named(self, words: Mapping[str, str]) -> AutodiffError:
        """The error with its fields worded as `words` names them (a command line's options); returns self."""
        if self._templates is not None and self.message == _worded(self._templates[0], {}):
            message, hint = self._templates
            self.message = _worded(message, words)
            self.hint = None if hint is None else _worded(hint, words)
        return self

    def __str__(self) -> str:
        return f"{self.message} (hint: {self.hint})" if self.hint else self.message

    def at(self, line: int | None, column: int | None = None) -> AutodiffError:
        """Attach a program location unless one is already known; returns self for `raise e.at(...)`."""
        if self.line is None:
            self.line, self.column = line, column
        return self


class _Words(dict):
    def __missing__(self, field: str) -> str:
        return field


def _worded(template: str, words: Mapping[str, str]) -> str:
    return template.format_map(_Words(words))


class ParseError(AutodiffError):
    kind = "syntax"


class UnknownNameError(AutodiffError, AttributeError):
    kind = "name"
    python_exception = AttributeError


class UsageError(AutodiffError):
    kind = "usage"


class ShapeError(AutodiffError, RuntimeError):
    kind = "shape"
    python_exception = RuntimeError


class AutogradError(AutodiffError, RuntimeError):
    kind = "autograd"
    python_exception = RuntimeError


class NotImplementedAutogradError(AutogradError, NotImplementedError):
    """A derivative PyTorch has not implemented (forward-mode AD of mkldnn_rnn_layer): NotImplementedError, a
    RuntimeError, as PyTorch raises it."""

    python_exception = NotImplementedError


class BadValueError(AutodiffError, RuntimeError):
    kind = "value"
    python_exception = RuntimeError


class WrongTypeError(BadValueError, TypeError):
    """A value of the wrong type where PyTorch raises TypeError (len() of a 0-d tensor, iterating over one)."""

    python_exception = TypeError


class NotScalarError(BadValueError, ValueError):
    """A tensor of several elements where one number is needed (float(t), int(t)): ValueError, as PyTorch."""

    python_exception = ValueError


class InvalidArgumentError(AutodiffError, ValueError):
    """An argument PyTorch's Python code refuses with ValueError (DataLoader(batch_size=0), random_split lengths,
    nn.LSTM's input of 4 dims): a ValueError only, so that `except RuntimeError:` does not catch it (as in PyTorch)."""

    kind = "value"
    python_exception = ValueError


class NumberOverflowError(AutodiffError, OverflowError):
    """A Python int no tensor's number can be (2**70, -2**64): OverflowError, as PyTorch raises it, not a
    RuntimeError."""

    kind = "value"
    python_exception = OverflowError


class OutOfRangeError(BadValueError, IndexError):
    """An index out of range, where PyTorch raises IndexError (so a script's `for` over __getitem__ stops)."""

    python_exception = IndexError


class IndexShapeError(ShapeError, IndexError):
    """Index tensors whose shapes do not go together (they do not broadcast, a mask's shape is not the indexed
    dims'): IndexError, as PyTorch raises it."""

    python_exception = IndexError


class LimitError(AutodiffError, RuntimeError):
    kind = "limit"
    python_exception = RuntimeError


class InputError(AutodiffError):
    kind = "io"
